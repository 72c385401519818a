import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { runCliInProcess } from '../helpers/cli-in-process.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { stageFormalFixture, validateFormalCandidate, type FormalTargetView, type StagedFormalFixture } from './formal-e2e-support.js';

/**
 * Issue 29's soundness traps, end to end in the Docker runner: candidates whose text the formal
 * gate proves but whose running code is wrong on inputs no test reaches (every candidate passes
 * the reproduction, the suite and the hidden tests), one for each rule the gate now models or
 * checks at run time. Each trap got `proved` from the gate before issue 29: run this file with
 * `PATCHPROOF_TEST_CLI=<an older bundle> PATCHPROOF_TRAPS_BASELINE=1` to see it (measured on
 * main's bundle at e1c2323: every trap proved, see docs/security.md).
 *
 * - fixtures/js-pages (ES module): `hostile-tdz` (a block-scoped name read in its dead zone:
 *   ReferenceError past 10^9 items; now a counterexample, replayed and failing), `hostile-destructure`
 *   (`[pageCount] = [other]` at the top level), `hostile-global-alias` (`const M = root.Math` with
 *   `root = globalThis`, its `trunc` replaced), `hostile-vm-lexical` (a global `let Math` declared
 *   through `vm` reached by a computed `require`: only the binding check sees it);
 * - fixtures/cjs-pages (CommonJS, sloppy mode): `hostile-assign-export`
 *   (`Object.assign(module.exports, { pageCount: other })`), `hostile-annex-b` (a block function
 *   that Annex B makes replace the top-level one); and the controls `fix` and `fix-module-exports`
 *   (the idiomatic `module.exports = { … }`, refused before issue 29, now proved);
 * - fixtures/py-shop (a package, unittest): `hostile-globals` (`clamp.__globals__["max"] = …`),
 *   `hostile-code` (`clamp.__code__ = …`), `hostile-pickle` (`builtins.max` replaced from the
 *   package's `__init__` through pickle: only the binding check sees it), `hostile-package` (a
 *   package folder `shop/pricing/` imported in place of `shop/pricing.py`), `hostile-first-four`
 *   (`total` reads four prices, the model's list bound: now `checked`, never proved).
 * And fixtures/js-slice (issue 29, item 3): a target with an optional argument, proved end to end.
 */

const gate = await dockerGate('formal gate soundness traps end-to-end test');
const BASELINE = process.env.PATCHPROOF_TRAPS_BASELINE === '1';

interface Case {
  fixture: 'js-pages' | 'cjs-pages' | 'py-shop';
  candidate: string;
  /** The target the case is about. */
  target: string;
  /** What the gate says now: the receipt's verdict and the target's status, and a check of its reason. */
  now: { verdict: string; status: string; check?: (t: FormalTargetView) => void };
  /** What the gate said before issue 29 (PATCHPROOF_TRAPS_BASELINE=1 with an older bundle). */
  before: { verdict: string; status: string };
}

const unbound = (pattern: RegExp) => (t: FormalTargetView) => {
  expect(t.binding).toMatchObject({ outcome: 'unbound' });
  expect(t.reason).toMatch(/but the code that runs is not it/);
  expect(t.reason).toMatch(pattern);
};
const bound = (t: FormalTargetView) => expect(t.binding).toMatchObject({ outcome: 'bound', exit_code: 0 });

const CASES: Case[] = [
  {
    fixture: 'js-pages',
    candidate: 'hostile-tdz',
    target: 'pageCount',
    now: {
      verdict: 'failed',
      status: 'counterexample',
      check: (t) => {
        expect(t.counterexample!.violated).toContain('pages is not used before its declaration (else ReferenceError) (line 15)');
        expect(t.counterexample!.inputs.total as number).toBeGreaterThan(1000000000);
        expect(t.replay).toMatchObject({ outcome: 'failed' });
      }
    },
    before: { verdict: 'passed', status: 'proved' }
  },
  {
    fixture: 'js-pages',
    candidate: 'hostile-destructure',
    target: 'pageCount',
    now: { verdict: 'inconclusive', status: 'unknown', check: (t) => expect(t.reason).toMatch(/a destructuring assignment to pageCount \(line 17\)/) },
    before: { verdict: 'passed', status: 'proved' }
  },
  {
    fixture: 'js-pages',
    candidate: 'hostile-global-alias',
    target: 'pageCount',
    now: { verdict: 'inconclusive', status: 'unknown', check: (t) => expect(t.reason).toMatch(/globalThis aliased or passed around \(line 1\)/) },
    before: { verdict: 'passed', status: 'proved' }
  },
  {
    fixture: 'js-pages',
    candidate: 'hostile-vm-lexical',
    target: 'pageCount',
    now: { verdict: 'inconclusive', status: 'unknown', check: unbound(/the name Math no longer resolves to the original Math object/) },
    before: { verdict: 'passed', status: 'proved' }
  },
  { fixture: 'cjs-pages', candidate: 'fix', target: 'pageCount', now: { verdict: 'passed', status: 'proved', check: bound }, before: { verdict: 'passed', status: 'proved' } },
  {
    fixture: 'cjs-pages',
    candidate: 'fix-module-exports',
    target: 'pageCount',
    now: { verdict: 'passed', status: 'proved', check: bound },
    before: { verdict: 'inconclusive', status: 'unknown' }
  },
  {
    fixture: 'cjs-pages',
    candidate: 'hostile-assign-export',
    target: 'pageCount',
    now: {
      verdict: 'inconclusive',
      status: 'unknown',
      check: (t) => expect(t.reason).toMatch(/the export pageCount in Object\.assign\(module\.exports, \{ … \}\) is something other than the function pageCount \(line 30\)/)
    },
    before: { verdict: 'passed', status: 'proved' }
  },
  {
    fixture: 'cjs-pages',
    candidate: 'hostile-annex-b',
    target: 'pageCount',
    now: { verdict: 'inconclusive', status: 'unknown', check: (t) => expect(t.reason).toMatch(/a function pageCount declared in a block \(line 28\): in sloppy code \(Annex B\)/) },
    before: { verdict: 'passed', status: 'proved' }
  },
  {
    fixture: 'py-shop',
    candidate: 'fix',
    target: 'clamp',
    now: { verdict: 'passed', status: 'proved', check: bound },
    before: { verdict: 'passed', status: 'proved' }
  },
  {
    fixture: 'py-shop',
    candidate: 'hostile-globals',
    target: 'clamp',
    now: { verdict: 'inconclusive', status: 'unknown', check: (t) => expect(t.reason).toMatch(/__globals__ \(line 14\)/) },
    before: { verdict: 'passed', status: 'proved' }
  },
  {
    fixture: 'py-shop',
    candidate: 'hostile-code',
    target: 'clamp',
    now: { verdict: 'inconclusive', status: 'unknown', check: (t) => expect(t.reason).toMatch(/__code__ \(line 16\)/) },
    before: { verdict: 'passed', status: 'proved' }
  },
  {
    fixture: 'py-shop',
    candidate: 'hostile-pickle',
    target: 'clamp',
    now: { verdict: 'inconclusive', status: 'unknown', check: unbound(/the builtin max that clamp calls was replaced/) },
    before: { verdict: 'passed', status: 'proved' }
  },
  {
    fixture: 'py-shop',
    candidate: 'hostile-package',
    target: 'clamp',
    now: { verdict: 'inconclusive', status: 'unknown', check: (t) => expect(t.reason).toMatch(/the package folder shop\/pricing\/ is imported in place of shop\/pricing\.py/) },
    before: { verdict: 'passed', status: 'proved' }
  },
  {
    fixture: 'py-shop',
    candidate: 'hostile-first-four',
    target: 'total',
    now: {
      verdict: 'passed',
      status: 'checked',
      check: (t) => {
        expect(t.scope).toMatchObject({ lengths: 'up_to_bound', loops: 'all_within_unroll' });
        expect(t.reason).toMatch(/no counterexample among lists of length ≤ 4, but requires allows a longer prices/);
      }
    },
    before: { verdict: 'passed', status: 'proved' }
  }
];

gate.describeDocker('the formal gate on issue 29 soundness traps', () => {
  let tmp = '';
  beforeAll(async () => {
    gate.requireDocker();
    tmp = await tempDir('formal-traps');
  });
  afterAll(async () => {
    if (tmp !== '') await rm(tmp, { recursive: true, force: true });
  });
  const cli = (args: string[]) => (process.env.PATCHPROOF_TEST_CLI !== undefined ? runCli(args, { tmp, timeoutMs: 900_000 }) : runCliInProcess(args));

  it(
    BASELINE ? 'every trap is proved by the bundle under test (the baseline)' : 'no trap is proved; the controls are',
    async () => {
      const staged = new Map<string, StagedFormalFixture>();
      const seen: string[] = [];
      for (const c of CASES) {
        let where = staged.get(c.fixture);
        if (where === undefined) {
          where = await stageFormalFixture(cli, c.fixture, tmp, gate.imageId);
          staged.set(c.fixture, where);
        }
        const { receipt, out } = await validateFormalCandidate(cli, { fixture: c.fixture, candidate: c.candidate, label: `trap-${c.fixture}-${c.candidate}` }, where);
        const t = receipt.formal!.targets.find((x) => x.name === c.target)!;
        seen.push(`${c.fixture}/${c.candidate}: ${receipt.verdict}, ${c.target} ${t.status}${t.reason !== undefined ? ` (${t.reason})` : ''}`);
        // Every candidate passes every test it meets: only the formal gate tells them apart.
        expect([c.candidate, receipt.phases.map((p) => p.status)]).toEqual([c.candidate, ['passed', 'passed', 'passed', 'passed']]);
        const want = BASELINE ? c.before : c.now;
        expect([c.fixture, c.candidate, receipt.verdict, t.status]).toEqual([c.fixture, c.candidate, want.verdict, want.status]);
        if (!BASELINE) {
          c.now.check?.(t);
          const report = await readFile(join(out, 'report.md'), 'utf8');
          if (t.status === 'proved') expect(report).toContain('for every input requires allows (');
        }
      }
      process.stdout.write(`${seen.join('\n')}\n`);
    },
    3_600_000
  );

  // fixtures/js-slice: sliceEnd(length, end) with `end` optional, its base checking `end === undefined`
  // (outside the subset before issue 29, which refused the whole pack), and no `returns` in the pack (inferred).
  (BASELINE ? it.skip : it)(
    'a target with an optional argument is proved, and its counterexample replays with the argument left out',
    async () => {
      const where = await stageFormalFixture(cli, 'js-slice', tmp, gate.imageId);
      for (const candidate of ['fix', 'fix-default']) {
        const { receipt } = await validateFormalCandidate(cli, { fixture: 'js-slice', candidate, label: `slice-${candidate}` }, where);
        const t = receipt.formal!.targets[0]!;
        expect([candidate, receipt.verdict, t.status, t.binding?.outcome]).toEqual([candidate, 'passed', 'proved', 'bound']);
      }
      // Right for every list the tests use, wrong without an end past 100000 items.
      const { receipt, out } = await validateFormalCandidate(cli, { fixture: 'js-slice', candidate: 'long-default', label: 'slice-long-default' }, where);
      expect(receipt.phases.map((p) => p.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
      const t = receipt.formal!.targets[0]!;
      expect([receipt.verdict, t.status]).toEqual(['failed', 'counterexample']);
      expect(Object.keys(t.counterexample!.inputs)).toEqual(['length']);
      expect(t.counterexample!.inputs.length as number).toBeGreaterThan(100000);
      expect(t.replay).toMatchObject({ outcome: 'failed', exit_code: 1 });
      expect(await readFile(join(out, 'report.md'), 'utf8')).toContain('sliceEnd(');
    },
    1_800_000
  );
});
