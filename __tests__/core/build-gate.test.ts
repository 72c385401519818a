import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstBuildError, formatDiagnostic } from '../../src/core/build-diagnostics.js';
import { buildStatus, withBuild, type BuildRecord, type BuildRunRecord } from '../../src/core/build-gate.js';
import { baselineDigest, sealReceipt, serializeReceipt, verifyReceiptText } from '../../src/core/receipt.js';
import type { PhaseRecord, Receipt } from '../../src/core/receipt-schema.js';
import { feedbackOf } from '../../src/core/feedback.js';
import { renderPhaseTable, renderReport } from '../../src/core/report.js';
import { rankKeyOf } from '../../src/core/screening.js';
import { passingRuns, receiptFrom } from '../helpers/evidence.js';

/**
 * The L1 build gate: the diagnostics parsers on real tool output (tsc 5.9, python 3.11 compileall
 * and py_compile, cargo 1.x, node 20 --check; go's lines are go's documented `file:line:col: msg`
 * format, no go toolchain on this machine), the gate's status, and what verify-receipt holds the
 * receipt's build record to (re-sealed forgeries).
 */

const data = (name: string): string => readFileSync(join(import.meta.dirname, 'data', 'build-output', name), 'utf8');

describe('firstBuildError: the first root cause with file:line', () => {
  it('tsc, plain and pretty (colours)', () => {
    expect(firstBuildError(data('tsc.txt'), '/work')).toEqual({
      tool: 'tsc',
      file: 'a.ts',
      line: 1,
      column: 7,
      message: "TS2322: Type 'string' is not assignable to type 'number'."
    });
    expect(firstBuildError(data('tsc-pretty.txt'), '/work')).toEqual({
      tool: 'tsc',
      file: 'a.ts',
      line: 1,
      column: 7,
      message: "TS2322: Type 'string' is not assignable to type 'number'."
    });
    expect(firstBuildError("/work/src/b.ts(9,3): error TS2304: Cannot find name 'x'.\n/work/src/c.ts(1,1): error TS1005: ';' expected.\n", '/work')).toMatchObject({
      file: 'src/b.ts',
      line: 9
    });
  });

  it('python compileall and py_compile', () => {
    expect(firstBuildError(data('compileall.txt'), '/work')).toEqual({ tool: 'python', file: 'h14a_bad.py', line: 1, message: 'SyntaxError: invalid syntax' });
    expect(firstBuildError(data('py_compile.txt'), '/work')).toEqual({ tool: 'python', file: 'h14a_bad.py', line: 1, message: 'SyntaxError: invalid syntax' });
    expect(
      firstBuildError("*** Error compiling '/work/pkg/m.py'...\n  File \"/work/pkg/m.py\", line 4\n    return (\n           ^\nSyntaxError: '(' was never closed\n", '/work')
    ).toMatchObject({ file: 'pkg/m.py', line: 4, message: "SyntaxError: '(' was never closed" });
  });

  it('cargo: the error with its --> location, never the "could not compile" summary', () => {
    expect(firstBuildError(data('cargo.txt'), '/work')).toEqual({ tool: 'cargo', file: 'src/lib.rs', line: 1, column: 21, message: 'E0308: mismatched types' });
    expect(firstBuildError('error: could not compile `x` (lib) due to 1 previous error\n', '/work')).toMatchObject({ tool: 'unknown' });
  });

  it('go build and go vet', () => {
    expect(firstBuildError(data('go-build.txt'), '/work')).toEqual({ tool: 'go', file: 'paginate.go', line: 14, column: 9, message: 'undefined: pageSize' });
    expect(firstBuildError(data('go-vet.txt'), '/work')).toMatchObject({ tool: 'go', file: 'paginate.go', line: 9, column: 2 });
  });

  it('node --check', () => {
    const output = data('node-check.txt').replaceAll('/tmp/h14a_real/', '/work/src/');
    expect(firstBuildError(output, '/work')).toEqual({ tool: 'node', file: 'src/bad2.js', line: 1, message: "SyntaxError: Unexpected token ';'" });
  });

  it('an unknown format gives its first line that mentions an error, without a file; an empty output nothing', () => {
    expect(firstBuildError('checking...\nfatal ERROR in module y\n', '/work')).toEqual({ tool: 'unknown', message: 'fatal ERROR in module y' });
    expect(firstBuildError('\n\n', '/work')).toBeUndefined();
    expect(formatDiagnostic({ tool: 'tsc', file: 'a.ts', line: 3, column: 2, message: 'TS1: x' })).toBe('a.ts:3:2: TS1: x');
  });
});

const run = (overrides: Partial<BuildRunRecord> = {}): BuildRunRecord => ({
  exit_code: 0,
  signal: null,
  timed_out: false,
  output_truncated: false,
  output_bytes: 0,
  output_sha256: 'a'.repeat(64),
  duration_ms: 5,
  ...overrides
});
const broken = run({ exit_code: 2, diagnostic: { tool: 'tsc', file: 'src/a.ts', line: 3, column: 1, message: 'TS2322: no' } });

describe('the gate: status and verdict', () => {
  it("passes when both trees build; fails when only the base builds; a base that fails is inconclusive, never the candidate's fault", () => {
    expect(buildStatus(run(), run())).toBe('passed');
    expect(buildStatus(run(), broken)).toBe('failed');
    expect(buildStatus(broken, broken)).toBe('inconclusive');
    expect(buildStatus(broken, run())).toBe('inconclusive');
    expect(buildStatus(run(), undefined)).toBe('not_run');
  });

  it("a timeout, a cut output or an infrastructure fault of the candidate's build is inconclusive, never a pass", () => {
    expect(buildStatus(run(), run({ exit_code: null, timed_out: true }))).toBe('inconclusive');
    expect(buildStatus(run(), run({ exit_code: 0, output_truncated: true }))).toBe('inconclusive');
    expect(buildStatus(run(), run({ exit_code: null, infra_error: 'docker down' }))).toBe('inconclusive');
  });

  it('the verdict: a failed build fails a passing candidate; inconclusive and not run never pass', () => {
    const passed = { verdict: 'passed' as const, reasons: [] };
    expect(withBuild(passed, { status: 'failed', base: run() })).toEqual({ verdict: 'failed', reasons: ['build_failed'] });
    expect(withBuild(passed, { status: 'inconclusive', base: broken })).toEqual({ verdict: 'inconclusive', reasons: ['build_base_failed'] });
    expect(withBuild(passed, { status: 'inconclusive', base: run() })).toEqual({ verdict: 'inconclusive', reasons: ['build_inconclusive'] });
    expect(withBuild(passed, { status: 'not_run', base: run() }).verdict).toBe('inconclusive');
    expect(withBuild(passed, { status: 'passed', base: run() })).toBe(passed);
  });
});

const notRun = (phase: PhaseRecord): PhaseRecord => ({
  name: phase.name,
  status: 'not_run',
  reasons: [],
  tests: { passed: 0, failed: 0, errored: 0, skipped: 0 },
  results: [],
  runs: phase.runs.filter((r) => r.label === 'regression_before')
});

/** A receipt with gates whose candidate broke the build: every candidate phase not run. */
function stoppedAtBuild(edit: (body: Omit<Receipt, 'receipt_digest'>) => void = () => undefined): string {
  const { receipt_digest: _d, ...body } = structuredClone(receiptFrom(passingRuns()));
  body.phases = body.phases.map((p, i) => (i >= 1 ? notRun(p) : p));
  body.gates = { early_exit: true, l0: [], changed_lines: 2, changed_public_interfaces: [] };
  body.build = { argv: ['npx', 'tsc', '--noEmit'], status: 'failed', base: run(), candidate: broken } satisfies BuildRecord;
  body.verdict = 'failed';
  body.reasons = ['build_failed'];
  body.proof_grade = false;
  edit(body);
  body.baseline = { shared: true, digest: baselineDigest(body) };
  return serializeReceipt(sealReceipt(body));
}

describe('verify-receipt: the build record', () => {
  it('a candidate stopped at L1 verifies; its feedback names L1_build and the first error at file:line', () => {
    const text = stoppedAtBuild();
    expect(verifyReceiptText(text)).toMatchObject({ integrity_valid: true, verdict: 'failed' });
    const receipt = JSON.parse(text) as Receipt;
    const feedback = feedbackOf(receipt);
    expect(feedback.failed_gate).toBe('L1_build');
    expect(feedback.build).toEqual({ status: 'failed', tree: 'patched', first_error: 'src/a.ts:3:1: TS2322: no', file: 'src/a.ts', line: 3, column: 1, message: 'TS2322: no' });
    expect(feedback.passing).toEqual(['L0_policy']);
    expect(renderReport(receipt)).toContain('first error (candidate): `src/a.ts:3:1: TS2322: no`');
    expect(renderPhaseTable(receipt, true)).toMatch(/\[FAIL\]\s+build: npx tsc --noEmit\s+candidate: src\/a\.ts:3:1/);
    // The build counts as a hard gate failed, on top of the three phases not run.
    expect(rankKeyOf(receipt).hard_gates_failed).toBe(4);
  });

  it('refuses, re-sealed: a status its runs do not give, a failed build with a passed verdict, runs after a failed build', () => {
    expect(verifyReceiptText(stoppedAtBuild((b) => void (b.build!.status = 'passed'))).errors).toEqual(expect.arrayContaining(['build.status is passed but its runs give failed']));
    const passedVerdict = verifyReceiptText(
      stoppedAtBuild((b) => {
        const full = receiptFrom(passingRuns());
        b.phases = full.phases;
        delete b.gates;
        b.verdict = 'passed';
        b.reasons = [];
      })
    );
    expect(passedVerdict.errors.join(' ')).toMatch(/verdict passed does not follow from the phases \(expected failed\)/);
    const ranAfter = verifyReceiptText(
      stoppedAtBuild((b) => {
        b.phases = [b.phases[0]!, receiptFrom(passingRuns()).phases[1]!, b.phases[2]!, b.phases[3]!];
      })
    );
    expect(ranAfter.errors).toContain('gates: the phases do not stop exactly at the first failed gate');
  });

  it('without gates a failed build fails the verdict while every phase still ran', () => {
    const text = stoppedAtBuild((b) => {
      b.phases = receiptFrom(passingRuns()).phases;
      delete b.gates;
    });
    expect(verifyReceiptText(text)).toMatchObject({ integrity_valid: true, verdict: 'failed' });
  });

  it('a base that does not build: inconclusive with build_base_failed, and the baseline digest covers the base build', () => {
    const text = stoppedAtBuild((b) => {
      b.phases = receiptFrom(passingRuns()).phases;
      b.build = { argv: ['npx', 'tsc', '--noEmit'], status: 'inconclusive', base: broken, candidate: run() };
      b.verdict = 'inconclusive';
      b.reasons = ['build_base_failed'];
    });
    expect(verifyReceiptText(text)).toMatchObject({ integrity_valid: true, verdict: 'inconclusive' });
    const receipt = JSON.parse(text) as Receipt;
    expect(feedbackOf(receipt).build).toMatchObject({ status: 'inconclusive', tree: 'base' });
    const otherBase = { ...receipt, build: { ...receipt.build!, base: run({ exit_code: 1 }) } };
    expect(baselineDigest(otherBase)).not.toBe(baselineDigest(receipt));
  });

  it('a v4 receipt never held a build record', () => {
    const text = stoppedAtBuild((b) => void (b.schema = 'patchproof.receipt/v4' as Receipt['schema']));
    expect(verifyReceiptText(text).errors.join(' ')).toMatch(/a build record exists only from/);
  });
});

describe("the pack's build field", () => {
  it('is optional (old packs load unchanged), takes argv and timeout_seconds, and refuses an empty argv', async () => {
    const { parseWitnessManifest } = await import('../../src/fetch/witness/manifest.js');
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'witness-packs', 'js-duration', 'witness.json'), 'utf8')) as Record<string, unknown>;
    expect(parseWitnessManifest(manifest, 'witness.json').build).toBeUndefined();
    expect(parseWitnessManifest({ ...manifest, build: { argv: ['npx', 'tsc', '--noEmit'], timeout_seconds: 300 } }, 'witness.json').build).toEqual({
      argv: ['npx', 'tsc', '--noEmit'],
      timeout_seconds: 300
    });
    expect(() => parseWitnessManifest({ ...manifest, build: { argv: [] } }, 'witness.json')).toThrow(/build\.argv/);
    expect(() => parseWitnessManifest({ ...manifest, build: { argv: ['make'], network: true } }, 'witness.json')).toThrow(/build/);
  });
});
