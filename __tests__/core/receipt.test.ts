import fc from 'fast-check';
import { fail, pass, passingRuns, receiptFrom, run, setupRun } from '../helpers/evidence.js';
import { sealReceipt, serializeReceipt, verifyReceiptText } from '../../src/core/receipt.js';
import type { Receipt, SetupRecord } from '../../src/core/receipt-schema.js';

const reseal = (receipt: Receipt, edit: (body: Omit<Receipt, 'receipt_digest'>) => void): string => {
  const { receipt_digest: _drop, ...body } = structuredClone(receipt);
  edit(body);
  return serializeReceipt(sealReceipt(body));
};

describe('verify-receipt', () => {
  const good = receiptFrom(passingRuns());
  const text = serializeReceipt(good);

  it('accepts a receipt as sealed', () => {
    expect(verifyReceiptText(text)).toEqual({ integrity_valid: true, verdict: 'passed', proof_grade: true, receipt_digest: good.receipt_digest, errors: [] });
  });

  it('accepts failed and inconclusive receipts that follow from their phases', () => {
    const runs = passingRuns();
    runs.hidden = [run('hidden', [fail('hidden > x')])];
    expect(verifyReceiptText(serializeReceipt(receiptFrom(runs)))).toMatchObject({ integrity_valid: true, verdict: 'failed', proof_grade: false });
    expect(verifyReceiptText(serializeReceipt(receiptFrom(passingRuns(), { unchanged: false })))).toMatchObject({ integrity_valid: true, verdict: 'inconclusive' });
  });

  it('never gives proof grade to the trusted-local runner', () => {
    expect(verifyReceiptText(serializeReceipt(receiptFrom(passingRuns(), { isolated: false })))).toMatchObject({ integrity_valid: true, proof_grade: false });
    const forged = reseal(receiptFrom(passingRuns(), { isolated: false }), (b) => {
      b.proof_grade = true;
    });
    expect(verifyReceiptText(forged).integrity_valid).toBe(false);
  });

  it('refuses whitespace that does not change the parsed value', () => {
    expect(verifyReceiptText(JSON.stringify(good, null, 2)).integrity_valid).toBe(false);
  });

  it('refuses an edited value', () => {
    const edited = text.replace('"verdict":"passed"', '"verdict":"failed"');
    expect(edited).not.toBe(text);
    const check = verifyReceiptText(edited);
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join(' ')).toContain('receipt_digest does not match');
  });

  it('refuses a resealed receipt claiming passed with a failing phase', () => {
    const runs = passingRuns();
    runs.hidden = [run('hidden', [fail('hidden > x')])];
    const forged = reseal(receiptFrom(runs), (b) => {
      b.verdict = 'passed';
      b.reasons = [];
    });
    const check = verifyReceiptText(forged);
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join(' ')).toMatch(/verdict passed does not follow/);
  });

  it('refuses a phase marked passed whose tests did not pass', () => {
    const runs = passingRuns();
    runs.hidden = [run('hidden', [fail('hidden > x')])];
    const forged = reseal(receiptFrom(runs), (b) => {
      const hidden = b.phases[3]!;
      hidden.status = 'passed';
      hidden.reasons = [];
      b.verdict = 'passed';
      b.reasons = [];
      b.proof_grade = true;
    });
    expect(verifyReceiptText(forged).errors.join(' ')).toMatch(/phase hidden: passed with a test that did not pass/);
  });

  it('refuses counts that disagree with the per-test results', () => {
    const forged = reseal(good, (b) => {
      b.phases[3]!.tests.passed = 7;
    });
    expect(verifyReceiptText(forged).errors.join(' ')).toMatch(/tests.passed is 7/);
  });

  it('refuses a reproduction_before marked passed although a test passed at base', () => {
    const forged = reseal(good, (b) => {
      b.phases[0]!.results = [{ id: 'repro > parses 1h30m', status: 'passed' }];
      b.phases[0]!.tests = { passed: 1, failed: 0, errored: 0, skipped: 0 };
    });
    expect(verifyReceiptText(forged).errors.join(' ')).toMatch(/right reason/);
  });

  it('refuses unknown keys, missing phases and non-JSON', () => {
    expect(verifyReceiptText(reseal(good, (b) => Object.assign(b, { extra: 1 }))).integrity_valid).toBe(false);
    expect(verifyReceiptText(reseal(good, (b) => b.phases.pop())).integrity_valid).toBe(false);
    expect(verifyReceiptText('{not json').errors[0]).toMatch(/not JSON/);
  });

  it('catches any one-byte change (property)', () => {
    const bytes = Buffer.from(text, 'utf8');
    fc.assert(
      fc.property(fc.nat({ max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), (index, delta) => {
        const changed = Buffer.from(bytes);
        changed[index] = (changed[index]! + delta) % 256;
        const check = verifyReceiptText(changed.toString('utf8'));
        return !check.integrity_valid;
      }),
      { numRuns: 3000 }
    );
  });
});

describe('verify-receipt, witness and surface rules', () => {
  const finding = { path: 'test/a.test.js', change: 'modify' as const, categories: ['test' as const], skip_markers: [] };

  it('accepts a receipt failed for tampering, and one where the pack relaxed the rule', () => {
    const tampered = receiptFrom(passingRuns(), { findings: [finding] });
    expect(tampered).toMatchObject({ verdict: 'failed', reasons: ['grader_tampered'] });
    expect(verifyReceiptText(serializeReceipt(tampered)).integrity_valid).toBe(true);
    const relaxed = receiptFrom(passingRuns(), { findings: [finding], allow: ['test_edits'] });
    expect(relaxed).toMatchObject({ verdict: 'passed', surface: { relaxed: ['test_edits'] } });
    expect(verifyReceiptText(serializeReceipt(relaxed)).integrity_valid).toBe(true);
  });

  it('refuses a resealed receipt that drops the tamper reason', () => {
    const forged = reseal(receiptFrom(passingRuns(), { findings: [finding] }), (b) => {
      b.surface.reasons = [];
      b.reasons = [];
      b.verdict = 'passed';
      b.proof_grade = true;
    });
    expect(verifyReceiptText(forged).errors.join(' ')).toMatch(/surface reasons or relaxations do not follow/);
  });

  it('refuses a phase marked passed whose canary misbehaved', () => {
    const forged = reseal(good(), (b) => {
      b.phases[3]!.runs[0]!.canary.fail = 'passed';
    });
    expect(verifyReceiptText(forged).errors.join(' ')).toMatch(/grader canaries did not behave/);
  });

  it('verifies behaved twin canaries, and refuses a phase marked passed whose mutant twin passed next to its passing original', () => {
    const twinned = reseal(good(), (b) => {
      b.phases[3]!.runs[0]!.canary.twins = [
        { kind: 'mutant', status: 'failed', original: 'passed' },
        { kind: 'twin', status: 'passed', original: 'passed' }
      ];
    });
    expect(verifyReceiptText(twinned).errors).toEqual([]);
    const forged = reseal(good(), (b) => {
      b.phases[3]!.runs[0]!.canary.twins = [{ kind: 'mutant', status: 'passed', original: 'passed' }];
    });
    expect(verifyReceiptText(forged).errors.join(' ')).toMatch(/grader canaries did not behave/);
  });

  it('refuses fewer reproduction runs than the pack asks for', () => {
    const forged = reseal(good(), (b) => {
      b.phases[0]!.runs.pop();
    });
    expect(verifyReceiptText(forged).errors.join(' ')).toMatch(/1 runs, the pack asks for 2/);
  });

  it('refuses a regression phase marked passed while a PASS_TO_PASS test failed', () => {
    const runs = passingRuns();
    runs.regression_after = [run('regression_after', [fail('suite > a'), pass('suite > b'), fail('suite > flaky-at-base')])];
    const forged = reseal(receiptFrom(runs), (b) => {
      const regression = b.phases[2]!;
      regression.status = 'passed';
      regression.reasons = [];
      regression.regressions = [];
      b.verdict = 'passed';
      b.reasons = [];
      b.proof_grade = true;
    });
    expect(verifyReceiptText(forged).errors.join(' ')).toMatch(/PASS_TO_PASS test that did not pass/);
  });
});

function good(): Receipt {
  return receiptFrom(passingRuns());
}

describe('verifyReceiptText: the dependency stage', () => {
  const setupOf = (candidate?: 'ok' | 'failed'): SetupRecord => ({
    network: true,
    outputs: ['node_modules'],
    env: {},
    base: setupRun('base'),
    ...(candidate !== undefined ? { candidate: setupRun('patched', candidate) } : {})
  });

  it('accepts a receipt whose base and candidate stages were ok', () => {
    const receipt = receiptFrom(passingRuns(), { setup: setupOf('ok') });
    expect(receipt.verdict).toBe('passed');
    expect(verifyReceiptText(serializeReceipt(receipt))).toMatchObject({ integrity_valid: true, errors: [] });
  });

  it('fails the candidate whose own dependency stage failed, and verifies that', () => {
    const receipt = receiptFrom(passingRuns(), { setup: setupOf('failed') });
    expect(receipt).toMatchObject({ verdict: 'failed', reasons: ['dependency_setup_failed'], proof_grade: false });
    expect(verifyReceiptText(serializeReceipt(receipt)).integrity_valid).toBe(true);
  });

  it('catches a resealed receipt that hides the failed candidate stage behind a pass', () => {
    const honest = receiptFrom(passingRuns(), { setup: setupOf('failed') });
    const { receipt_digest: _digest, ...body } = honest;
    const forged = serializeReceipt(sealReceipt({ ...body, verdict: 'passed', reasons: [], proof_grade: true }));
    expect(verifyReceiptText(forged).errors.join(' ')).toMatch(/verdict passed does not follow/);
  });

  it('catches a stage status that does not follow from its exit code', () => {
    const lying = { ...setupOf('ok'), candidate: { ...setupRun('patched', 'ok'), exit_code: 1 } };
    const receipt = receiptFrom(passingRuns(), { setup: lying });
    expect(verifyReceiptText(serializeReceipt(receipt)).errors.join(' ')).toMatch(/setup\.candidate: status ok does not follow/);
  });

  it('fails a candidate whose manifests the dependency policy refused (dependency_refused), and verifies that', () => {
    const refused = {
      ...setupRun('patched', 'failed'),
      exit_code: null,
      duration_ms: 0,
      cached: false,
      refused: ['package-lock.json: node_modules/expect is a link (to "vendor/expect")']
    };
    const receipt = receiptFrom(passingRuns(), { setup: { ...setupOf(), candidate: refused } });
    expect(receipt).toMatchObject({ verdict: 'failed', reasons: ['dependency_refused'], proof_grade: false });
    expect(verifyReceiptText(serializeReceipt(receipt))).toMatchObject({ integrity_valid: true, errors: [] });
    // A refused stage never ran: one with an exit code does not verify.
    const ran = receiptFrom(passingRuns(), { setup: { ...setupOf(), candidate: { ...refused, exit_code: 1 } } });
    expect(verifyReceiptText(serializeReceipt(ran)).errors.join(' ')).toMatch(/a refused stage never ran/);
  });

  it('requires the candidate stage to run with install scripts disabled', () => {
    const scripts = { ...setupOf('ok'), candidate: { ...setupRun('patched', 'ok'), install_scripts: 'as_argv' as const } };
    const receipt = receiptFrom(passingRuns(), { setup: scripts });
    expect(verifyReceiptText(serializeReceipt(receipt)).errors.join(' ')).toMatch(/install scripts disabled/);
  });
});
