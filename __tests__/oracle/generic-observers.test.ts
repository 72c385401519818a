import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { judgeObservations, parseObservations, parseOracleFile, phaseIsSealed, type OracleCase } from '../../src/core/oracle.js';
import { NONCE_FILE } from '../../src/oracle/observer.js';
import { parseWitnessManifest } from '../../src/fetch/witness/manifest.js';
import { ROOT } from '../helpers/cli.js';

/**
 * The generic sealed-oracle form (docs/witness-pack.md, "Sealed oracles"): packs for go, cargo and
 * junit print observation lines themselves, through a helper they ship (src/oracle/generic/) or,
 * for a JS runner behind junit, the observer PatchProof stages. These tests hold the committed
 * packs to that form and run the Rust helper for real; the Go helper runs in the Docker end-to-end
 * tests (cli-e2e-go-docker, hostile/sealed-generic), the host has no Go.
 */

const GENERIC = join(ROOT, 'src', 'oracle', 'generic');
const GO_HELPER = readFileSync(join(GENERIC, 'patchproof_obs_test.go'), 'utf8');
const RUST_HELPER = readFileSync(join(GENERIC, 'patchproof_obs.rs'), 'utf8');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** In-process assertions: a sealed test has none, so every check it makes is an observation. */
const ASSERTIONS: Record<string, RegExp> = {
  go: /\bt\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\b|\breflect\.DeepEqual\b|\bslices\.Equal\b/,
  cargo: /\bassert(?:_eq|_ne)?!|\bpanic!/,
  junit: /\bassert\b|\bexpect\(/
};

describe.each([
  ['witness-packs/go-paginate', 'go', 76],
  ['witness-packs/rust-textclip', 'cargo', 11],
  ['witness-packs/junit-semver', 'junit', 8],
  ['integrations/gorilla-mux-method-mismatch/witness-pack', 'go', 17]
])('the sealed %s pack (%s)', (name, adapter, cases) => {
  const pack = join(ROOT, name);
  const manifest = parseWitnessManifest(JSON.parse(readFileSync(join(pack, 'witness.json'), 'utf8')), 'witness.json');
  const oracle = parseOracleFile(JSON.parse(readFileSync(join(pack, 'oracle', 'expected.json'), 'utf8')));

  test('has an oracle that seals both candidate-side phases', () => {
    expect(manifest.adapter).toBe(adapter);
    expect(manifest.oracle?.expected).toBe('oracle/expected.json');
    expect(oracle.cases).toHaveLength(cases);
    expect(oracle.unsealed).toEqual([]);
    expect([phaseIsSealed(oracle, 'reproduction'), phaseIsSealed(oracle, 'hidden')]).toEqual([true, true]);
  });

  test.each(['reproduction', 'hidden'])('%s: its tests only observe; the unsealed originals are kept', (phase) => {
    const sealed = filesUnder(join(pack, phase));
    const originals = filesUnder(join(pack, 'oracle', 'original', phase));
    expect(originals.length).toBeGreaterThan(0);
    const helpers = { go: ['patchproof_obs_test.go'], cargo: ['patchproof_obs/mod.rs'], junit: [] as string[] }[adapter] ?? [];
    expect(sealed).toEqual([...originals, ...helpers].sort());
    for (const file of originals) {
      const text = readFileSync(join(pack, phase, file), 'utf8');
      expect([file, ASSERTIONS[adapter]!.test(text)]).toEqual([file, false]);
      expect([file, /\bobserve\(/.test(text)]).toEqual([file, true]);
      // The originals do assert: they are what the sealed file was written from.
      expect([file, ASSERTIONS[adapter]!.test(readFileSync(join(pack, 'oracle', 'original', phase, file), 'utf8'))]).toEqual([file, true]);
    }
    // Case ids written as literals in the sealed tests are cases of this phase (Go builds some in loops).
    const ids = new Set(oracle.cases.filter((c) => c.phase === phase).map((c) => c.id));
    for (const file of originals) {
      for (const match of readFileSync(join(pack, phase, file), 'utf8').matchAll(/observe\((?:t, )?["']([^"'%]+)["']/g)) {
        expect([file, ids.has(match[1]!)]).toEqual([file, true]);
      }
    }
  });

  test('ships the helper unchanged (Go: only its package clause differs)', () => {
    for (const phase of ['reproduction', 'hidden']) {
      if (adapter === 'go') {
        const copy = readFileSync(join(pack, phase, 'patchproof_obs_test.go'), 'utf8');
        const own = /^package (\w+)$/m.exec(readFileSync(join(pack, phase, filesUnder(join(pack, 'oracle', 'original', phase))[0]!), 'utf8'))?.[1];
        expect(copy).toBe(GO_HELPER.replace(/^package PACKAGE$/m, `package ${own}`));
      } else if (adapter === 'cargo') {
        expect(readFileSync(join(pack, phase, 'patchproof_obs', 'mod.rs'), 'utf8')).toBe(RUST_HELPER);
      }
    }
  });
});

const rustc = spawnSync('rustc', ['--print', 'sysroot'], { encoding: 'utf8' });
const sysroot = rustc.status === 0 ? rustc.stdout.trim() : undefined;
if (sysroot === undefined) console.warn('SKIPPING the real Rust helper run: rustc is not on PATH');
const describeWithRust = sysroot === undefined ? describe.skip : describe;

describeWithRust('the Rust observation helper, compiled and run', () => {
  const NONCE = '0123456789abcdef0123456789abcdef';

  test('prints one framed line per case, JSON-encoded, to the first process of its folder; a panic is observed and resumed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pp-rust-obs-'));
    try {
      await mkdir(join(dir, 'patchproof_obs'));
      await cp(join(GENERIC, 'patchproof_obs.rs'), join(dir, 'patchproof_obs', 'mod.rs'));
      await writeFile(join(dir, NONCE_FILE), `${NONCE}\n`);
      await writeFile(
        join(dir, 'obs.rs'),
        [
          'mod patchproof_obs;',
          'use patchproof_obs::observe;',
          '#[test] fn values() {',
          '    observe("text", || String::from("Zoë 日本 \\"q\\" \\\\ 😀"));',
          '    observe("list", || vec![1u8, 2, 3]);',
          '    observe("tuple", || (true, -4i64, 0.5f64, \'é\'));',
          '    observe("option", || None::<&str>);',
          '    observe("result", || "x".parse::<u32>());',
          '    observe("nan", || f64::NAN);',
          '}',
          '#[test] fn panics() {',
          '    observe("boom", || -> usize { panic!("inside the code") });',
          '}',
          ''
        ].join('\n')
      );
      const env = { ...process.env, PATH: `${join(sysroot!, 'bin')}:${process.env.PATH ?? ''}` };
      const built = spawnSync('rustc', ['--edition', '2021', '--test', 'obs.rs', '-o', 'obs'], { cwd: dir, env, encoding: 'utf8' });
      expect([built.status, built.stderr]).toEqual([0, '']);
      // A node process is the run's first process working in the folder (as Docker's init is): the
      // lines go to its stdout (a file opened for appending here, as Docker's is a pipe: /proc/<pid>/fd/1 cannot open the
      // socket node's own spawnSync would give it), past libtest's capture and past the pipe node
      // reads the binary's own output from.
      const relay =
        "const r = require('node:child_process').spawnSync('./obs', ['--test-threads=1'], { encoding: 'utf8' }); require('node:fs').writeFileSync('libtest.out', r.stdout + r.stderr); console.log('exit ' + r.status);";
      const top = openSync(join(dir, 'top.out'), 'a');
      try {
        spawnSync(process.execPath, ['-e', relay], { cwd: dir, stdio: ['ignore', top, 'inherit'] });
      } finally {
        closeSync(top);
      }
      const run = { stdout: readFileSync(join(dir, 'top.out'), 'utf8') };
      expect(run.stdout).toContain('exit 101');
      expect(readFileSync(join(dir, 'libtest.out'), 'utf8')).not.toContain('PATCHPROOF-OBS');
      const parsed = parseObservations(run.stdout, NONCE);
      expect(parsed.malformed).toEqual([]);
      expect(Object.fromEntries(parsed.observations.map((o) => [o.case, o.value]))).toEqual({
        text: 'Zoë 日本 "q" \\ 😀',
        list: [1, 2, 3],
        tuple: [true, -4, 0.5, 'é'],
        option: null,
        result: { err: 'ParseIntError { kind: InvalidDigit }' },
        nan: { $number: 'NaN' },
        boom: { $raised: 'panic', message: 'inside the code' }
      });
      // Every line is plain ASCII: non-ASCII text is escaped, so no output decoding can change it.
      expect(
        run.stdout
          .split('\n')
          .filter((l) => l.includes('PATCHPROOF-OBS'))
          .every((l) => /^[\x20-\x7e]*$/.test(l))
      ).toBe(true);
      const cases: OracleCase[] = [
        { id: 'text', phase: 'hidden', expected: 'Zoë 日本 "q" \\ 😀', comparator: { kind: 'exact' } },
        { id: 'boom', phase: 'hidden', expected: null, comparator: { kind: 'raises', type: 'panic', pattern: 'inside' } }
      ];
      const judged = judgeObservations(cases, { observations: parsed.observations.filter((o) => o.case === 'text' || o.case === 'boom'), malformed: [] });
      expect(judged).toEqual({
        cases: [
          { id: 'text', outcome: 'matched' },
          { id: 'boom', outcome: 'matched' }
        ],
        problems: []
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test('does not build without the nonce PatchProof stages: a sealed test never runs unobserved', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pp-rust-obs-'));
    try {
      await mkdir(join(dir, 'patchproof_obs'));
      await cp(join(GENERIC, 'patchproof_obs.rs'), join(dir, 'patchproof_obs', 'mod.rs'));
      await writeFile(join(dir, 'obs.rs'), 'mod patchproof_obs;\n#[test] fn t() { patchproof_obs::observe("x", || 1); }\n');
      const env = { ...process.env, PATH: `${join(sysroot!, 'bin')}:${process.env.PATH ?? ''}` };
      const built = spawnSync('rustc', ['--edition', '2021', '--test', 'obs.rs', '-o', 'obs'], { cwd: dir, env, encoding: 'utf8' });
      expect(built.status).not.toBe(0);
      expect(built.stderr).toContain(NONCE_FILE);
      expect(existsSync(join(dir, 'obs'))).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
