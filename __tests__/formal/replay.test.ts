import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { formalRecordErrors, type FormalRecord } from '../../src/core/formal.js';
import { createScratch, type Scratch } from '../../src/phases/workspace.js';
import { readReplay, replayTestSource } from '../../src/formal/replay.js';
import { replayCounterexamples } from '../../src/formal/replay-run.js';
import { parseWitnessManifest } from '../../src/fetch/witness/manifest.js';
import { createLocalRunner } from '../../src/runners/local-runner.js';
import { ROOT } from '../helpers/cli.js';

/**
 * Counterexamples replayed as node:test tests (src/formal/replay.ts): the verdict line is read
 * fail-closed, and with the local runner on real trees (the Docker runner end to end is
 * formal-docker.test.ts) a counterexample that does not fail in the runner is unknown:
 * - minus-one: the solver's pageCount(0, 2) returns 1 at runtime too: the counterexample stands;
 * - hostile-floor-trunc: the same pageCount text, but a changed file makes Math.trunc Math.floor,
 *   so the code that runs is right at total = 0: without the replay the receipt would claim a
 *   counterexample the code does not have; it is unknown.
 */

const manifest = parseWitnessManifest(JSON.parse(readFileSync(join(ROOT, 'witness-packs', 'js-pages', 'witness.json'), 'utf8')), 'witness.json');
const block = manifest.formal!;
const spec = block.targets[0]!;
const NONCE = 'f'.repeat(32);

const solved: FormalRecord = {
  status: 'counterexample',
  targets: [
    {
      name: 'pageCount',
      file: 'src/paginate.js',
      function: 'pageCount',
      required: true,
      status: 'counterexample',
      counterexample: { inputs: { total: 0, perPage: 2 }, result: 1, violated: ['ensures'] },
      scope: { unroll: 8, array_length: 4, integers: 'safe', solver: 'Z3 5.1' },
      duration_ms: 5
    }
  ]
};

describe('the verdict line', () => {
  const line = (v: unknown, nonce = NONCE): string => `noise\n@@patchproof-replay ${nonce} ${JSON.stringify(v)}\n`;
  const ok = { timedOut: false, outputTruncated: false };
  test('exactly one line with the nonce decides; anything else is no result, never failed', () => {
    expect(readReplay(line({ holds: false, result: '1' }), NONCE, ok)).toEqual({ outcome: 'failed', detail: 'it returned 1' });
    expect(readReplay(line({ holds: true, result: '0' }), NONCE, ok).outcome).toBe('passed');
    expect(readReplay(line({ holds: false, threw: 'boom' }), NONCE, ok)).toEqual({ outcome: 'failed', detail: 'it threw boom' });
    expect(readReplay(line({ holds: false }, 'e'.repeat(32)), NONCE, ok)).toEqual({ outcome: 'no_result', detail: 'no verdict line' });
    expect(readReplay(line({ holds: false }) + line({ holds: true }), NONCE, ok)).toEqual({ outcome: 'no_result', detail: '2 verdict lines' });
    expect(readReplay(`@@patchproof-replay ${NONCE} {"holds":`, NONCE, ok).detail).toBe('a malformed verdict line');
    expect(readReplay(line({ holds: 'yes' }), NONCE, ok).outcome).toBe('no_result');
    expect(readReplay(line({ missing: 'pageCount is not exported' }), NONCE, ok)).toEqual({ outcome: 'no_result', detail: 'pageCount is not exported' });
    expect(readReplay(line({ holds: false }), NONCE, { timedOut: true, outputTruncated: false }).outcome).toBe('no_result');
    expect(readReplay(line({ holds: false }), NONCE, { timedOut: false, outputTruncated: true }).outcome).toBe('no_result');
  });

  test('the generated test names the call and checks every ensures on the entry values', () => {
    const text = replayTestSource(spec, { total: 0, perPage: 2 }, NONCE);
    expect(text).toContain('import("../../src/paginate.js")');
    expect(text).toContain('formal counterexample: pageCount(0, 2) meets ensures');
    for (const e of spec.ensures) expect(text).toContain(`\n${e}\n`);
  });
});

describe('replayed with the local runner on real trees', () => {
  let tmp = '';
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'pp-replay-'));
  });
  afterAll(async () => {
    if (tmp !== '') await rm(tmp, { recursive: true, force: true });
  });

  async function treeOf(candidate: string, edit?: (dir: string) => Promise<void>): Promise<string> {
    const dir = join(tmp, candidate);
    await cp(join(ROOT, 'fixtures', 'js-pages', 'repo'), dir, { recursive: true });
    execFileSync('git', ['apply', join(ROOT, 'fixtures', 'js-pages', 'candidates', `${candidate}.diff`)], { cwd: dir });
    await edit?.(dir);
    return dir;
  }

  async function replay(dir: string): Promise<{ record: FormalRecord; log: string[] }> {
    const log: string[] = [];
    let n = 0;
    const scratch: Scratch = await createScratch();
    const record = await replayCounterexamples(block, solved, {
      runner: createLocalRunner(),
      scratch,
      patchedDir: dir,
      mounts: [],
      env: {},
      timeoutMs: 60_000,
      outputLimitBytes: 1 << 20,
      nonce: () => `${String(n++).padStart(2, '0')}${'a'.repeat(30)}`,
      log: (l) => log.push(l)
    }).finally(() => scratch.dispose());
    expect(formalRecordErrors(record)).toEqual([]);
    return { record, log };
  }

  test('a counterexample that fails in the runner stands, with its replay', async () => {
    const { record } = await replay(await treeOf('minus-one'));
    expect(record.status).toBe('counterexample');
    expect(record.targets[0]).toMatchObject({ status: 'counterexample', replay: { outcome: 'failed', exit_code: 1 } });
  }, 120_000);

  test('hostile: the code that runs differs from what the translator read: the counterexample does not replay, unknown', async () => {
    const { record, log } = await replay(await treeOf('hostile-floor-trunc'));
    expect(record.status).toBe('unknown');
    const t = record.targets[0]!;
    expect([t.status, t.counterexample, t.replay?.outcome, t.replay?.exit_code]).toEqual(['unknown', undefined, 'passed', 0]);
    expect(t.reason).toMatch(/counterexample pageCount\(0, 2\) does not replay: in the runner it returned 0 and ensures held/);
    expect(log.join('\n')).toMatch(/replayed in the local runner: passed/);
  }, 120_000);

  test('a target the test cannot call (not exported) is no result: unknown, never a counterexample', async () => {
    const dir = await treeOf('minus-one', async (d) => {
      const file = join(d, 'src', 'paginate.js');
      await writeFile(file, readFileSync(file, 'utf8').replace('export function pageCount', 'function pageCount'));
    });
    const { record } = await replay(dir);
    expect(record.targets[0]).toMatchObject({ status: 'unknown', replay: { outcome: 'no_result' } });
    expect(record.targets[0]!.reason).toMatch(/could not be replayed in the runner: pageCount is not exported by src\/paginate\.js/);
  }, 120_000);
});
