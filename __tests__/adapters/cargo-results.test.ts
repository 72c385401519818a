import { beforeAll, describe, expect, it } from '@jest/globals';
import { cargoAdapter } from '../../src/adapters/cargo/index.js';
import { cargoModuleName, cargoTargetName } from '../../src/adapters/cargo/entry.js';
import { CARGO_RUN_FILE } from '../../src/adapters/cargo/harness.js';
import { cargoCanaryIds, parseCargoResults } from '../../src/adapters/cargo/results.js';
import { canaryNames } from '../../src/adapters/shared/canary.js';
import type { ParsedResults, TestCaseResult } from '../../src/core/test-results.js';
import type { CanaryOutcome } from '../../src/adapters/adapter.js';
import { loadRecorded, recordedToolchains } from './data/cargo/record.js';
import type { Recorded } from './data/cargo/record.js';

/**
 * The cargo parser on real runs of the harness, recorded with the host's cargo and with the test
 * image's (data/cargo/README.md says how), and on those runs altered the ways a hostile test binary
 * or a broken harness would alter them.
 */

type Parsed = ParsedResults & { canary: CanaryOutcome };

function parse(run: Recorded, files: Record<string, string> = run.files, exitCode: number | null = run.meta.exitCode): Parsed {
  return parseCargoResults({ files, exitCode, workdir: run.meta.workdir, testRoots: run.meta.testRoots, canary: { nonce: run.meta.nonce } });
}

function byId(parsed: Parsed): Map<string, TestCaseResult> {
  return new Map(parsed.tests.map((test) => [test.id, test]));
}

/** The name of the result file of the target `kind:name` (its run or its list). */
function targetFile(run: Recorded, kind: string, name: string, step: 'run' | 'list'): string {
  const manifest = JSON.parse(run.files[CARGO_RUN_FILE] ?? '{}') as { targets: { kind: string; name: string; run?: { file: string }; list?: { file: string } }[] };
  const target = manifest.targets.find((t) => t.kind === kind && t.name === name);
  const file = target?.[step]?.file;
  if (file === undefined) throw new Error(`no ${step} file for ${kind}:${name}`);
  return file;
}

const REPRO = '.patchproof/reproduction';
const toolchains = await recordedToolchains();

it('has recorded runs to read', () => {
  expect(toolchains.length).toBeGreaterThan(0);
});

describe.each(toolchains)('cargo results recorded with the %s toolchain', (toolchain) => {
  let suite: Recorded;
  let external: Recorded;
  let compileError: Recorded;
  let brokenLib: Recorded;
  let brokenTest: Recorded;

  beforeAll(async () => {
    suite = await loadRecorded(toolchain, 'suite');
    external = await loadRecorded(toolchain, 'external');
    compileError = await loadRecorded(toolchain, 'external-compile-error');
    brokenLib = await loadRecorded(toolchain, 'suite-broken-lib');
    brokenTest = await loadRecorded(toolchain, 'suite-broken-test');
  });

  describe('the package’s own suite', () => {
    it('reads every test of every target by kind, target and Rust path, with its location', () => {
      const parsed = parse(suite);
      const tests = byId(parsed);
      expect([...tests.keys()].sort()).toEqual(
        [
          'lib:cases::tests::passes',
          'lib:cases::tests::assert_eq_fails',
          'lib:cases::tests::panics_in_code',
          'lib:cases::tests::unwrap_fails_in_test',
          'lib:cases::tests::ignored_with_reason',
          'lib:cases::tests::should_panic_passes',
          'lib:cases::tests::should_panic_without_panic',
          'lib:cases::tests::nested::deep',
          'test:cases::integration_passes',
          'test:cases::assert_fails',
          'test:cases::assert_with_a_message_fails',
          'test:cases::panics_on_purpose',
          'test:cases::ignored',
          'test:cases::returns_err',
          'test:cases::forges_an_ok_for_assert_fails'
        ].sort()
      );
      expect(tests.get('lib:cases::tests::passes')).toEqual({ id: 'lib:cases::tests::passes', location: 'src/lib.rs:26', status: 'passed' });
      expect(tests.get('test:cases::integration_passes')?.location).toBe('tests/cases.rs:4');
    });

    it('classifies each failure: assertions, panics in the code under test, panics in the test', () => {
      const tests = byId(parse(suite));
      const kind = (id: string): [string | undefined, string | undefined] => [tests.get(id)?.status, tests.get(id)?.failure_kind];
      expect(kind('lib:cases::tests::assert_eq_fails')).toEqual(['failed', 'assertion']);
      expect(tests.get('lib:cases::tests::assert_eq_fails')?.message).toMatch(/^assertion `left == right` failed\s+left: 5\s+right: 4$/);
      expect(kind('test:cases::assert_fails')).toEqual(['failed', 'assertion']);
      expect(tests.get('test:cases::assert_fails')?.message).toBe('assertion failed: add(2, 2) == 4');
      // `prefix` slices inside 'é': the panic's innermost repository frame is in src/lib.rs, outside the test module.
      expect(kind('lib:cases::tests::panics_in_code')).toEqual(['errored', 'exception_in_code']);
      expect(tests.get('lib:cases::tests::panics_in_code')?.message).toMatch(/byte index 4 is not a char boundary/);
      // Also in src/lib.rs, but in the failing test's own module: the test's fault.
      expect(kind('lib:cases::tests::unwrap_fails_in_test')).toEqual(['errored', 'exception_in_test']);
      // A panic the test raises itself, with nothing but the panic machinery above it: the test failing on purpose.
      expect(kind('test:cases::assert_with_a_message_fails')).toEqual(['failed', 'assertion']);
      expect(tests.get('test:cases::assert_with_a_message_fails')?.message).toBe('2 + 2 gave 5');
      expect(kind('test:cases::panics_on_purpose')).toEqual(['failed', 'assertion']);
      expect(kind('lib:cases::tests::should_panic_without_panic')).toEqual(['failed', 'assertion']);
      expect(tests.get('lib:cases::tests::should_panic_without_panic')?.message).toMatch(/^test did not panic as expected/);
      expect(kind('test:cases::returns_err')).toEqual(['errored', 'unknown']);
      expect(tests.get('test:cases::returns_err')?.message).toBe('Error: "not a number"');
      expect(kind('lib:cases::tests::should_panic_passes')).toEqual(['passed', undefined]);
    });

    it('reports #[ignore] as skipped, with its reason', () => {
      const tests = byId(parse(suite));
      expect(tests.get('lib:cases::tests::ignored_with_reason')).toMatchObject({ status: 'skipped', skip_reason: 'slow' });
      expect(tests.get('test:cases::ignored')).toMatchObject({ status: 'skipped', skip_reason: 'ignored' });
    });

    it('takes the canaries out of the tests, and libtest’s own tallies without them', () => {
      const parsed = parse(suite);
      expect(parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
      expect(parsed.tests.some((test) => test.id.startsWith('test:patchproof'))).toBe(false);
      expect(parsed.claimed).toEqual({ passed: 5, failed: 8, errored: 0, skipped: 2 });
      const counts = { passed: 0, failed: 0, errored: 0, skipped: 0 };
      for (const test of parsed.tests) counts[test.status] += 1;
      expect(counts.passed).toBe(5);
      expect(counts.failed + counts.errored).toBe(8);
    });

    it('sees the forged "ok" a test wrote past libtest’s capture: a problem, and the failing test stays failed', () => {
      const runFile = targetFile(suite, 'test', 'cases', 'run');
      const forged = (suite.files[runFile] ?? '').split('\n').filter((line) => line.includes('"event": "ok"') && line.includes('"assert_fails"'));
      expect(forged).toHaveLength(1);
      const parsed = parse(suite);
      expect(parsed.problems).toEqual(["test:cases: test 'assert_fails' has more than one outcome"]);
      expect(byId(parsed).get('test:cases::assert_fails')?.status).toBe('failed');
    });

    it('with the forging test left out, the run has no problem: plain output past the capture is skipped', () => {
      const runFile = targetFile(suite, 'test', 'cases', 'run');
      const honest = (suite.files[runFile] ?? '').split('\n').filter((line) => !(line.includes('"event": "ok"') && line.includes('"assert_fails"') && !line.includes('exec_time')));
      expect(honest.some((line) => line.startsWith('plain output past the capture'))).toBe(true);
      expect(parse(suite, { ...suite.files, [runFile]: honest.join('\n') }).problems).toEqual([]);
    });
  });

  describe('external tests in the generated target', () => {
    it('names each test after its file and module path; helper modules are test code', () => {
      const parsed = parse(external);
      expect(parsed.problems).toEqual([]);
      expect(parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
      const tests = byId(parsed);
      expect([...tests.keys()].sort()).toEqual([
        `${REPRO}/cases.rs::asserts`,
        `${REPRO}/cases.rs::panics_in_code`,
        `${REPRO}/cases.rs::panics_in_helper`,
        `${REPRO}/cases.rs::passes`,
        `${REPRO}/more.rs::adds`,
        `${REPRO}/more.rs::group::skipped`
      ]);
      expect(tests.get(`${REPRO}/cases.rs::asserts`)).toMatchObject({ status: 'failed', failure_kind: 'assertion', location: `${REPRO}/cases.rs:8` });
      expect(tests.get(`${REPRO}/cases.rs::panics_in_code`)).toMatchObject({ status: 'errored', failure_kind: 'exception_in_code' });
      // The panic is in support/mod.rs, a module of the external test: never the code under test.
      expect(tests.get(`${REPRO}/cases.rs::panics_in_helper`)).toMatchObject({ status: 'errored', failure_kind: 'exception_in_test' });
      expect(tests.get(`${REPRO}/cases.rs::panics_in_helper`)?.message).toMatch(/index out of bounds/);
      expect(tests.get(`${REPRO}/more.rs::group::skipped`)?.status).toBe('skipped');
      expect(parsed.claimed).toEqual({ passed: 2, failed: 3, errored: 0, skipped: 1 });
    });

    it('reports a generated target that does not compile as a collection error of each file, canaries from the fallback', () => {
      const parsed = parse(compileError);
      expect(parsed.problems).toEqual([]);
      expect(parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
      expect(parsed.tests).toEqual([
        { id: `${REPRO}/new_api.rs`, status: 'errored', failure_kind: 'collection_error', message: expect.stringMatching(/^does not compile: cannot find function `subtract`/) },
        { id: `${REPRO}/more.rs`, status: 'errored', failure_kind: 'collection_error', message: expect.stringMatching(/^does not compile: cannot find function `subtract`/) }
      ]);
    });
  });

  describe('build failures of the suite', () => {
    it('a library that does not compile: each selected target errored, canaries from the fallback', () => {
      const parsed = parse(brokenLib);
      expect(parsed.problems).toEqual([]);
      expect(parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
      expect(parsed.tests.map((test) => [test.id, test.status, test.failure_kind])).toEqual([
        ['lib:cases', 'errored', 'collection_error'],
        ['test:cases', 'errored', 'collection_error']
      ]);
      // The integration test has no error of its own: it shows the library's.
      expect(parsed.tests[1]?.message).toMatch(/^does not compile: (?:mismatched types|cannot add)/);
    });

    it('one integration test that does not compile leaves the other targets to run', () => {
      const parsed = parse(brokenTest);
      expect(parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
      const tests = byId(parsed);
      expect(tests.get('test:broken')).toMatchObject({ status: 'errored', failure_kind: 'collection_error' });
      expect(tests.get('test:broken')?.message).toMatch(/cannot find function `subtract`/);
      expect(tests.get('lib:cases::tests::passes')?.status).toBe('passed');
      expect(tests.get('test:cases::integration_passes')?.status).toBe('passed');
    });
  });

  describe('fails closed', () => {
    it('without the run manifest, or with one for another run', () => {
      const { [CARGO_RUN_FILE]: _manifest, ...rest } = external.files;
      expect(parse(external, rest)).toEqual({
        tests: [],
        problems: [`${CARGO_RUN_FILE} is missing: the cargo harness wrote no results`],
        canary: { pass: 'missing', fail: 'missing' }
      });
      expect(parse(external, { ...external.files, [CARGO_RUN_FILE]: '{"format": "x"}' }).problems).toEqual([`${CARGO_RUN_FILE} is not a patchproof/cargo-run/v1 manifest`]);
      const other = parseCargoResults({
        files: external.files,
        exitCode: 1,
        workdir: external.meta.workdir,
        testRoots: external.meta.testRoots,
        canary: { nonce: 'ab'.repeat(8) + 'cd'.repeat(8) }
      });
      expect(other.problems).toContain(`${CARGO_RUN_FILE} is for target ${cargoTargetName(external.meta)}, not this run's patchproof_${'ab'.repeat(8)}${'cd'.repeat(8)}`);
      expect(other.canary).toEqual({ pass: 'missing', fail: 'missing' });
    });

    it('when a test binary’s output is cut short: outcomes and the summary missing', () => {
      const runFile = targetFile(external, 'test', cargoTargetName(external.meta), 'run');
      const lines = (external.files[runFile] ?? '').trimEnd().split('\n');
      const parsed = parse(external, { ...external.files, [runFile]: lines.slice(0, -3).join('\n') });
      expect(parsed.problems.some((p) => /has no outcome/.test(p))).toBe(true);
      expect(parsed.problems.some((p) => /0 summaries/.test(p))).toBe(true);
    });

    it('on forged events: a second summary, an unlisted test, a second "ok" for the must-fail canary', () => {
      const name = cargoTargetName(external.meta);
      const runFile = targetFile(external, 'test', name, 'run');
      const text = external.files[runFile] ?? '';
      const summary = '{ "type": "suite", "event": "ok", "passed": 9, "failed": 0, "ignored": 0, "measured": 0, "filtered_out": 0, "exec_time": 0.1 }';
      expect(parse(external, { ...external.files, [runFile]: `${text}${summary}\n` }).problems).toContain(
        `test:${name}: the run has 2 summaries (it did not finish, or one was forged)`
      );
      const ghost = `{ "type": "test", "name": "${cargoModuleName(`${REPRO}/cases.rs`)}::ghost", "event": "ok" }`;
      expect(parse(external, { ...external.files, [runFile]: `${ghost}\n${text}` }).problems).toContain(
        `test:${name}: test '${cargoModuleName(`${REPRO}/cases.rs`)}::ghost' has an outcome but is not in the list`
      );
      const fail = canaryNames(external.meta).fail;
      const forgedCanary = parse(external, { ...external.files, [runFile]: `{ "type": "test", "name": "${fail}", "event": "ok" }\n${text}` });
      expect(forgedCanary.problems).toContain(`test:${name}: test '${fail}' has more than one outcome`);
      expect(forgedCanary.canary.fail).toBe('failed');
    });

    it('on a line that starts like JSON but is not, a test listed twice, or a list cut short', () => {
      const name = cargoTargetName(external.meta);
      const runFile = targetFile(external, 'test', name, 'run');
      const listFile = targetFile(external, 'test', name, 'list');
      expect(parse(external, { ...external.files, [runFile]: `{ "type": "test", "na\n${external.files[runFile] ?? ''}` }).problems).toContain(
        `test:${name}: line 1 is not valid JSON`
      );
      const list = (external.files[listFile] ?? '').split('\n');
      const discovered = list.find((line) => line.includes('"discovered"')) ?? '';
      expect(parse(external, { ...external.files, [listFile]: [discovered, ...list].join('\n') }).problems.some((p) => /is listed twice/.test(p))).toBe(true);
      expect(parse(external, { ...external.files, [listFile]: list.slice(0, 3).join('\n') }).problems.some((p) => /list is incomplete/.test(p))).toBe(true);
    });

    it('when exit codes disagree with the results, or the canary fallback ran beside a built target', () => {
      expect(parse(external, external.files, 0).problems).toEqual(['the cargo harness exited 0; its results imply exit code 1']);
      const manifest = JSON.parse(external.files[CARGO_RUN_FILE] ?? '{}') as { targets: { kind: string; run: { exitCode: number } }[] };
      const generated = manifest.targets[0];
      if (generated === undefined) throw new Error('no target');
      generated.run.exitCode = 0;
      expect(parse(external, { ...external.files, [CARGO_RUN_FILE]: JSON.stringify(manifest) }).problems).toContain(
        `test:${cargoTargetName(external.meta)}: the test binary exited 0; its results imply exit code 101`
      );
      manifest.targets.push({ ...generated, kind: 'canary' });
      expect(parse(external, { ...external.files, [CARGO_RUN_FILE]: JSON.stringify(manifest) }).problems).toContain('the canary fallback ran although the generated target built');
    });

    it('when the canary fallback did not compile either', () => {
      const manifest = JSON.parse(compileError.files[CARGO_RUN_FILE] ?? '{}') as { targets: { kind: string; built: boolean; list?: unknown; run?: unknown }[] };
      const fallback = manifest.targets.find((target) => target.kind === 'canary');
      if (fallback === undefined) throw new Error('no fallback');
      fallback.built = false;
      delete fallback.list;
      delete fallback.run;
      const parsed = parse(compileError, { ...compileError.files, [CARGO_RUN_FILE]: JSON.stringify(manifest) });
      expect(parsed.problems).toEqual(['the canary fallback did not compile']);
      expect(parsed.canary).toEqual({ pass: 'missing', fail: 'missing' });
      expect(parsed.tests.map((test) => test.id)).toEqual([`${REPRO}/new_api.rs`, `${REPRO}/more.rs`]);
    });

    it('when the generated target is not a target of the package', () => {
      const manifest = JSON.parse(suite.files[CARGO_RUN_FILE] ?? '{}') as { targets: { kind: string; name: string }[] };
      manifest.targets = manifest.targets.filter((target) => !target.name.startsWith('patchproof_'));
      const parsed = parse(suite, { ...suite.files, [CARGO_RUN_FILE]: JSON.stringify(manifest) });
      expect(parsed.problems.some((p) => /was not among the package's targets/.test(p))).toBe(true);
      expect(parsed.canary).toEqual({ pass: 'missing', fail: 'missing' });
    });
  });

  it('records the toolchain that made the run', () => {
    expect(suite.meta.toolchain.join(' ')).toMatch(/^cargo \d+\.\d+\.\d+.* rustc \d+\.\d+\.\d+/);
    expect(cargoCanaryIds(suite.meta).pass).toBe(`test:patchproof::${canaryNames(suite.meta).pass}`);
    expect(cargoAdapter).toHaveProperty('parse', parseCargoResults);
  });
});

describe.each(toolchains)('cargo results: supervision findings (%s toolchain)', (toolchain) => {
  let external: Recorded;
  beforeAll(async () => {
    external = await loadRecorded(toolchain, 'external');
  });
  type RunManifest = Record<string, unknown> & { targets: { run?: { signal: string | null; exitCode: number | null } }[] };
  const manifestOf = (run: Recorded): RunManifest => JSON.parse(run.files[CARGO_RUN_FILE] ?? '{}') as RunManifest;
  const withManifest = (run: Recorded, manifest: unknown): Record<string, string> => ({ ...run.files, [CARGO_RUN_FILE]: JSON.stringify(manifest) });

  it('a test binary the supervisor killed (SIGSYS) is a channel disagreement; none when no binary was', () => {
    expect(parse(external).channel).toBeUndefined();
    const manifest = manifestOf(external);
    const target = manifest.targets[0]!;
    target.run = { ...target.run!, exitCode: null, signal: 'SIGSYS' };
    expect(parse(external, withManifest(external, manifest)).channel?.disagreements).toEqual([expect.stringMatching(/tried to start a second process/)]);
  });

  it('processes the build left behind that would not die are a disagreement; a malformed record is a problem', () => {
    const manifest = { ...manifestOf(external), supervision: { supervised: true, pid1: true, killed: 3, leftovers: 1 } };
    expect(parse(external, withManifest(external, manifest)).channel?.disagreements).toEqual([expect.stringMatching(/^1 process\(es\) left behind by the build/)]);
    const clean = { ...manifest, supervision: { supervised: true, pid1: true, killed: 3, leftovers: 0 } };
    expect(parse(external, withManifest(external, clean)).channel).toBeUndefined();
    const malformed = { ...manifest, supervision: { supervised: 'yes' } };
    expect(parse(external, withManifest(external, malformed)).problems).toContain(`${CARGO_RUN_FILE}: the supervision record is malformed`);
  });
});
