import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ROOT, ensureCli } from '../helpers/cli.js';
import { stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { dockerGate, hostileDiff, pytestCalculatorPack } from './hostile-support.js';

/**
 * No grader markers (issue 26, item 3). Each candidate is the real fix plus, at import, a search of
 * everything a test process can see of itself for a sign of the grader: the names and values of its
 * environment, its argv (and its parent's and PID 1's), its working directory, the paths of the
 * modules (and, for Python, the names of the modules) loaded with it, and the listing of the working
 * directory (the repository root) and of each of its parents. It looks for `patchproof` in any
 * case and for the words the generated names used to carry (canary, oracle, channel, staged
 * roots). When it finds one, every call of the fixed function throws, naming what it found: the
 * graded run would differ from a plain one. A plain run of the same code passes.
 *
 * So each candidate must pass, and no test result may carry a `graded run:` message (which lists
 * what was found). Validated by the bundled CLI in the Docker runner against each fixture's
 * committed pack (sealed where the pack is: the reproduction and hidden phases then observe in the
 * test process and judge outside it; the regression suite runs in-process with its twins).
 *
 * The diffs are fixtures/hostile/markers-*.diff (README there).
 */

const gate = await dockerGate('hostile grader-marker tests');

interface MarkerReceipt {
  verdict: string;
  reasons: string[];
  adapter: string;
  phases: { name: string; status: string; results: { id: string; status: string; message?: string }[] }[];
}

/** What the candidate found, as the failed tests' messages name it. */
function markersFound(receipt: MarkerReceipt): string[] {
  const found = new Set<string>();
  for (const phase of receipt.phases) {
    for (const result of phase.results) {
      const at = result.message?.indexOf('graded run: ') ?? -1;
      if (at >= 0) for (const item of result.message!.slice(at + 'graded run: '.length).split(' | ')) found.add(`${phase.name}: ${item}`);
    }
  }
  return [...found].sort();
}

type Row = { adapter: string; diff: string; stage(): Promise<StagedFixture>; setupCache?: true };

const committed = (name: string) => (): Promise<StagedFixture> =>
  stageFixture(`markers-${name}`, { repo: join(ROOT, 'fixtures', name, 'repo'), pack: join(ROOT, 'witness-packs', name) });

const ROWS: Row[] = [
  { adapter: 'node-test', diff: 'markers-node', stage: committed('js-duration') },
  { adapter: 'unittest', diff: 'markers-py', stage: committed('py-calculator') },
  { adapter: 'pytest', diff: 'markers-py', stage: () => pytestCalculatorPack('markers-pytest') },
  { adapter: 'jest', diff: 'markers-jest', stage: committed('jest-money'), setupCache: true },
  { adapter: 'vitest', diff: 'markers-vitest', stage: committed('vitest-chunk'), setupCache: true },
  { adapter: 'go', diff: 'markers-go', stage: committed('go-paginate'), setupCache: true },
  { adapter: 'cargo', diff: 'markers-rust', stage: committed('rust-textclip'), setupCache: true },
  { adapter: 'junit', diff: 'markers-junit', stage: committed('junit-semver') }
];

for (const row of ROWS) {
  gate.describeDocker(`no grader markers: ${row.adapter}`, () => {
    let fixture: StagedFixture | undefined;

    beforeAll(async () => {
      gate.requireDocker();
      await ensureCli();
      fixture = await row.stage();
    }, 180_000);

    afterAll(async () => {
      if (fixture !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
    });

    it(`${row.diff}: the fix behind a marker search passes; its test processes show no marker`, async () => {
      const { receipt } = await validateInDocker<MarkerReceipt>(fixture!, {
        diff: hostileDiff(row.diff),
        label: `markers-${row.adapter}`,
        imageId: gate.imageId,
        timeoutMs: 900_000,
        ...(row.setupCache === true ? { setupCache: join(fixture!.tmp, 'setup-cache') } : {})
      });
      expect(receipt.adapter).toBe(row.adapter);
      expect(markersFound(receipt)).toEqual([]);
      expect([receipt.verdict, receipt.reasons]).toEqual(['passed', []]);
    }, 1_200_000);
  });
}
