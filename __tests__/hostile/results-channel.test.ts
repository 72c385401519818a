import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, ensureCli, fixture as fixtureOf, runCli, tempDir } from '../helpers/cli.js';
import { packDigest, stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate, hostileDiff } from './hostile-support.js';

/**
 * Results rewritten after the harness wrote them, end to end in Docker through the bundled CLI, one
 * hostile candidate per in-process adapter (src/adapters/shared/results-channel.ts):
 *
 * - unittest (py-calculator, an overfit fix): an `atexit` hook rewrites the harness's JSON;
 * - pytest (py-calculator, the same fix): an `atexit` hook rewrites pytest's JUnit XML;
 * - node:test (js-duration, no fix): the test process's `process.on('exit')` leaves a detached
 *   process that rewrites the reporter's file once node --test wrote its end line;
 * - jest (jest-money, the overfit fix): the real `process`, reached from jest's sandbox through
 *   `process.stdout.constructor.constructor`, rewrites the `--json` file in its exit handler;
 * - vitest (vitest-chunk, the overfit fix): a test worker's detached child rewrites both result
 *   files after the main process wrote them.
 *
 * Each rewrite turns every failed test but the fixed canaries (told by their name shape) into a
 * pass, with tallies and exit code consistent. Why they would get through without the channel: the
 * parsers read the rewritten files as passes with consistent tallies
 * (`__tests__/adapters/results-channel.test.ts` shows that control on real runs of each runner), and
 * the fixed canaries are spared. What also catches these particular rewrites: the mutant twins,
 * which fail honestly and are flipped too (a rewrite that compares function bodies could spare
 * them, see docs/security.md). So the assertions here are on the channel's own finding in the run
 * records: the patched runs' streams disagree with their files, the base runs' agree.
 *
 * Packs: in-process ones (sealed runs grade observations, not results files). py-calculator's and
 * js-duration's are built from the sealed packs' unsealed originals, as canary-twins.test.ts does.
 */

const gate = await dockerGate('hostile results-channel tests');

interface RunView {
  label: string;
  channel?: { frames: number; disagreements: string[]; after_end_bytes: number };
}

interface ReceiptView {
  verdict: string;
  reasons: string[];
  adapter: string;
  phases: { name: string; status: string; reasons: string[]; runs: RunView[] }[];
}

interface Case {
  adapter: 'unittest' | 'pytest' | 'node-test' | 'jest' | 'vitest';
  fixture: 'py-calculator' | 'js-duration' | 'jest-money' | 'vitest-chunk';
  diff: string;
  /** Built from the sealed pack's originals (true), or the fixture's own in-process pack. */
  originals: boolean;
  /** What the patched runs' channel says. */
  finding: RegExp;
  /**
   * The rewrite races the harness's exit (a detached process that must write before the container
   * stops): only some patched runs need to have been rewritten.
   */
  raced?: true;
}

const REWRITTEN = /rewritten after the run|differ from the results file/;
const CASES: readonly Case[] = [
  { adapter: 'unittest', fixture: 'py-calculator', diff: 'py-rewrite-at-exit', originals: true, finding: /rewritten after the run/ },
  { adapter: 'pytest', fixture: 'py-calculator', diff: 'py-pytest-rewrite-at-exit', originals: true, finding: /rewritten after the run/ },
  { adapter: 'node-test', fixture: 'js-duration', diff: 'node-rewrite-at-exit', originals: true, finding: /rewritten after the run/, raced: true },
  // jest writes its JSON after the reporters: nothing is sealed, the per-test frames disagree.
  { adapter: 'jest', fixture: 'jest-money', diff: 'jest-rewrite-at-exit', originals: false, finding: /differ from the results file/ },
  { adapter: 'vitest', fixture: 'vitest-chunk', diff: 'vitest-detached-rewrite', originals: false, finding: REWRITTEN, raced: true }
];

async function stage(c: Case): Promise<StagedFixture> {
  if (!c.originals) {
    // jest-money and vitest-chunk are sealed now; the channel guards in-process grading: their originals.
    return stageFixture(`channel-${c.adapter}`, { repo: join(ROOT, 'fixtures', c.fixture, 'repo'), pack: join(ROOT, 'witness-packs', c.fixture), unsealed: true });
  }
  const originals = join(ROOT, 'witness-packs', c.fixture, 'oracle', 'original');
  const tmp = await tempDir(`channel-${c.adapter}`);
  const pack = join(tmp, `${c.adapter}-pack`);
  const init = await runCli(['witness', 'init', pack, '--adapter', c.adapter, '--reproduction', join(originals, 'reproduction'), '--hidden', join(originals, 'hidden')], { tmp });
  expect([init.status, init.stderr]).toEqual([0, init.stderr]);
  return { tmp, repo: fixtureOf(c.fixture as 'py-calculator' | 'js-duration').repo, pack, digest: await packDigest(pack, tmp) };
}

gate.describeDocker.each(CASES)('the results channel: $adapter, results rewritten after the harness wrote them', (c) => {
  let fixture: StagedFixture | undefined;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    fixture = await stage(c);
  }, 180_000);

  afterAll(async () => {
    if (fixture !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  it('the patched runs stream outcomes their files no longer hold: failed, grader_compromised; the base runs agree', async () => {
    const { receipt } = await validateInDocker<ReceiptView>(fixture!, {
      diff: hostileDiff(c.diff),
      label: `channel-${c.adapter}`,
      imageId: gate.imageId,
      timeoutSeconds: c.originals ? 60 : 180,
      timeoutMs: 900_000,
      setupCache: join(fixture!.tmp, 'setup-cache')
    });
    expect(receipt.adapter).toBe(c.adapter);
    expect(receipt.verdict).toBe('failed');
    expect(receipt.reasons).toContain('grader_compromised');
    const runs = receipt.phases.flatMap((p) => p.runs);
    const base = runs.filter((r) => r.label.endsWith('_before'));
    // Base runs import the base code only: their stream agrees with their files.
    expect(base.length).toBeGreaterThan(0);
    for (const run of base) expect([run.label, run.channel?.disagreements]).toEqual([run.label, []]);
    const patched = runs.filter((r) => !r.label.endsWith('_before'));
    expect(patched.length).toBeGreaterThan(0);
    const found = patched.filter((run) => run.channel!.disagreements.some((d) => c.finding.test(d)));
    if (c.raced === true) {
      expect(found.length).toBeGreaterThan(0);
    } else {
      // Every patched run imported the hostile code, so every one was rewritten, and the channel says so.
      expect(found.map((r) => r.label)).toEqual(patched.map((r) => r.label));
      for (const phase of ['reproduction_after', 'hidden']) {
        expect(receipt.phases.find((p) => p.name === phase)!.reasons).toContain('grader_compromised');
      }
    }
  }, 900_000);
});
