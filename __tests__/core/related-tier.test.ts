import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { jsImportGraph, planRelatedTier } from '../../src/core/related-tests.js';
import { baselineDigest, sealReceipt, serializeReceipt, verifyReceiptText } from '../../src/core/receipt.js';
import { RECEIPT_V5_SCHEMA, type PhaseRecord, type Receipt } from '../../src/core/receipt-schema.js';
import { decideVerdict, judge, judgeRelatedTier, RELATED_LABEL, type RunEvidence } from '../../src/core/verdict.js';
import { fail, pass, passingRuns, receiptFrom, run } from '../helpers/evidence.js';

/**
 * L3's first tier, "related test files first": the plan (which suite files import a changed file),
 * the judging against the base suite's results, and the receipt's `gates.related` as verify-receipt
 * checks it. Fake runs; the Docker case is in __tests__/cli/screen-docker.test.ts.
 */

const REPO = join(import.meta.dirname, '..', '..', 'fixtures', 'js-duration', 'repo');
const files = ['src', 'test'].flatMap((dir) => readdirSync(join(REPO, dir)).map((f) => `${dir}/${f}`));
const read = (path: string): string | undefined => {
  try {
    return readFileSync(join(REPO, ...path.split('/')), 'utf8');
  } catch {
    return undefined;
  }
};
const suite = files.filter((f) => f.startsWith('test/'));
const graph = jsImportGraph(files, read);

describe('planning the tier (js-duration, direct importers)', () => {
  it('takes the suite files that import a changed file directly', () => {
    // timeouts.test.js reaches duration.js only through src/timeouts.js: not in the first tier.
    expect(planRelatedTier(suite, ['src/duration.js'], graph)).toEqual({ files: ['test/duration.test.js', 'test/format.test.js'] });
    expect(planRelatedTier(suite, ['src/format.js'], graph)).toEqual({ files: ['test/format.test.js'] });
    expect(planRelatedTier(suite, ['src/timeouts.js'], graph)).toEqual({ files: ['test/timeouts.test.js'] });
  });

  it('skips the tier when the adapter cannot tell, a suite file does not parse, nothing is related, or everything is', () => {
    expect(planRelatedTier(suite, ['src/duration.js'], undefined)).toEqual({ skipped: 'adapter_cannot_tell' });
    const broken = (file: string): string[] | undefined => (file === 'test/format.test.js' ? undefined : graph(file));
    expect(planRelatedTier(suite, ['src/duration.js'], broken)).toEqual({ skipped: 'imports_unknown' });
    expect(planRelatedTier(suite, ['README.md'], graph)).toEqual({ skipped: 'no_related_files' });
    expect(planRelatedTier(suite, ['src/duration.js', 'src/timeouts.js'], graph)).toEqual({ skipped: 'whole_suite' });
  });
});

const before = run('regression_before', [pass('suite > a'), pass('suite > b'), fail('suite > broken-at-base')]);
const tier = (tests: ReturnType<typeof pass>[], overrides: Partial<RunEvidence> = {}): RunEvidence => run('regression_after', tests, { label: RELATED_LABEL, ...overrides });

describe('judging the tier against the base suite', () => {
  it('a PASS_TO_PASS test failing in the tier and in its retry is a regression', () => {
    const judged = judgeRelatedTier(before, [tier([fail('suite > a')]), tier([fail('suite > a')], { attempt: 2 })]);
    expect(judged.status).toBe('failed');
    expect(judged.regressions).toEqual(['suite > a']);
    expect(judged.phase).toMatchObject({ name: 'regression', status: 'failed', reasons: ['regression'], regressions: ['suite > a'], pass_to_pass: 2 });
  });

  it('a test passing in a retry, a test failing at base, and a test absent from the tier are not regressions there', () => {
    expect(judgeRelatedTier(before, [tier([fail('suite > a')]), tier([pass('suite > a')], { attempt: 2 })])).toMatchObject({ status: 'passed', regressions: [] });
    expect(judgeRelatedTier(before, [tier([pass('suite > a'), fail('suite > broken-at-base')])]).status).toBe('passed');
    expect(judgeRelatedTier(before, [tier([pass('suite > b')])]).status).toBe('passed');
  });

  it('any anomaly (tier or base) is inconclusive: the full suite decides', () => {
    expect(judgeRelatedTier(before, [tier([fail('suite > a')], { canary: { pass: 'passed', fail: 'passed' } })]).status).toBe('inconclusive');
    expect(judgeRelatedTier(before, [tier([fail('suite > a')], { timedOut: true })]).status).toBe('inconclusive');
    expect(judgeRelatedTier({ ...before, infraError: 'docker down' }, [tier([fail('suite > a')])]).status).toBe('inconclusive');
    expect(judgeRelatedTier(before, []).status).toBe('inconclusive');
  });

  it('in judge(): a failed tier decides the regression phase; otherwise the full suite does, and the tier never turns a failure into a pass', () => {
    const runs = passingRuns();
    const stopped = judge(runs, true, { related: [tier([fail('suite > a')])], notRun: ['hidden'] });
    expect(stopped.phases.map((p) => p.status)).toEqual(['passed', 'passed', 'failed', 'not_run']);
    expect(stopped).toMatchObject({ verdict: 'failed', reasons: ['regression'] });
    expect(judge(runs, true, { related: [tier([pass('suite > a')])] }).verdict).toBe('passed');
    const fullFails = { ...runs, regression_after: [run('regression_after', [fail('suite > a'), pass('suite > b')])] };
    expect(judge(fullFails, true, { related: [tier([pass('suite > a')])] }).verdict).toBe('failed');
    expect(judge(fullFails, true, { related: [tier([fail('suite > a')], { timedOut: true })] }).verdict).toBe('failed');
  });
});

type Body = Omit<Receipt, 'receipt_digest'>;

/** A gated receipt whose related tier (test/a.test.js) stopped the candidate with a regression of `suite > a`. */
function tierReceipt(edit: (body: Body) => void = () => undefined): string {
  const runs = passingRuns();
  const { receipt_digest: _d, ...body } = structuredClone(receiptFrom(runs));
  const regression = body.phases[2]!;
  const judged = judgeRelatedTier(runs.regression_before[0], [tier([fail('suite > a'), pass('suite > b')])]).phase;
  const beforeRun = regression.runs.find((r) => r.label === 'regression_before')!;
  const relatedRun = { ...regression.runs.find((r) => r.label === 'regression_after')!, label: RELATED_LABEL };
  const { name: _n, ...judgedRest } = judged;
  body.phases[2] = { name: 'regression', ...judgedRest, runs: [beforeRun, relatedRun] } as PhaseRecord;
  body.phases[3] = { name: 'hidden', status: 'not_run', reasons: [], tests: { passed: 0, failed: 0, errored: 0, skipped: 0 }, results: [], runs: [] };
  body.gates = { early_exit: true, l0: [], changed_lines: 2, changed_public_interfaces: [], related: { status: 'failed', files: ['test/a.test.js'], regressions: ['suite > a'] } };
  edit(body);
  const decided = decideVerdict(body.phases, true, []);
  body.verdict = decided.verdict;
  body.reasons = decided.reasons;
  body.proof_grade = false;
  body.baseline = { shared: false, digest: baselineDigest(body) };
  return serializeReceipt(sealReceipt(body));
}

describe("the receipt's gates.related (verify-receipt)", () => {
  it('accepts a tier that stopped the candidate with the regression the phase holds', () => {
    expect(verifyReceiptText(tierReceipt()).errors).toEqual([]);
  });

  it('refuses a cited regression the phase does not hold, even re-sealed', () => {
    const errors = verifyReceiptText(tierReceipt((b) => void (b.gates!.related!.regressions = ['suite > b']))).errors;
    expect(errors).toEqual(expect.arrayContaining(["gates.related: the regressions it cites are not the regression phase's"]));
  });

  it('refuses a failed tier after which the full suite ran, and a passed tier that stopped the suite', () => {
    const withFull = verifyReceiptText(
      tierReceipt((b) => {
        const phase = b.phases[2]!;
        phase.runs = [...phase.runs, { ...phase.runs[1]!, label: 'regression_after' }];
      })
    ).errors;
    expect(withFull).toContain('gates.related: failed, yet the full suite ran after it');
    const passed = verifyReceiptText(tierReceipt((b) => void (b.gates!.related = { status: 'passed', files: ['test/a.test.js'], regressions: [] }))).errors;
    expect(passed).toContain('gates.related: passed, but the full suite did not run after it');
  });

  it("refuses tier runs without the record, files outside the suite, and a regression phase passed on the tier's runs alone", () => {
    expect(
      verifyReceiptText(
        tierReceipt((b) => {
          delete b.gates!.related;
        })
      ).errors
    ).toContain('related-tier runs without a gates.related record');
    expect(verifyReceiptText(tierReceipt((b) => void (b.gates!.related!.files = ['test/elsewhere.test.js']))).errors).toContain(
      "gates.related: the tier's files must be some of the patched tree's suite files"
    );
    const runs = passingRuns();
    const { receipt_digest: _d, ...body } = structuredClone(receiptFrom(runs));
    body.phases[2]!.runs = body.phases[2]!.runs.map((r) => (r.label === 'regression_after' ? { ...r, label: RELATED_LABEL } : r));
    body.gates = { early_exit: true, l0: [], changed_lines: 2, changed_public_interfaces: [], related: { status: 'passed', files: ['test/a.test.js'], regressions: [] } };
    const errors = verifyReceiptText(serializeReceipt(sealReceipt(body))).errors;
    expect(errors).toContain('phase regression: passed without a run of the full patched suite');
  });

  it('refuses the record in a v5 receipt (it exists from v6)', () => {
    const text = tierReceipt((b) => void (b.schema = RECEIPT_V5_SCHEMA));
    expect(verifyReceiptText(text).errors).toEqual(expect.arrayContaining([expect.stringContaining('a related tests tier exists only from patchproof.receipt/v6')]));
  });
});

describe("the Python graph (the host's python3 -I -S with ast; parsing never runs the files)", () => {
  it('reads import, from-import and relative imports, resolves from the root and src/, and a file that does not parse is unknown', async () => {
    const { pythonImportGraph } = await import('../../src/adapters/shared/python-imports.js');
    const all = [
      'calc.py',
      'pkg/__init__.py',
      'pkg/util.py',
      'src/lib/core.py',
      'tests/__init__.py',
      'tests/helpers.py',
      'tests/test_a.py',
      'tests/test_b.py',
      'tests/test_bad.py'
    ];
    const graph = pythonImportGraph(
      {
        'tests/test_a.py': 'import calc\nfrom pkg import util\nfrom . import helpers\nimport os\n',
        'tests/test_b.py': 'from lib.core import thing\n',
        'tests/test_bad.py': 'def broken(:\n'
      },
      all
    );
    expect(graph('tests/test_a.py')).toEqual(['calc.py', 'pkg/__init__.py', 'pkg/util.py', 'tests/__init__.py', 'tests/helpers.py']);
    expect(graph('tests/test_b.py')).toEqual(['src/lib/core.py']);
    expect(graph('tests/test_bad.py')).toBeUndefined();
    expect(planRelatedTier(['tests/test_a.py', 'tests/test_b.py'], ['pkg/util.py'], graph)).toEqual({ files: ['tests/test_a.py'] });
    expect(planRelatedTier(['tests/test_a.py', 'tests/test_bad.py'], ['pkg/util.py'], graph)).toEqual({ skipped: 'imports_unknown' });
  });
});
