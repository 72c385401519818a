import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fail, pass, passingRuns, receiptFrom, run } from '../helpers/evidence.js';
import { sealReceipt, serializeReceipt, verifyReceiptText } from '../../src/core/receipt.js';
import { deriveHiddenIdKey, hiddenId, hiddenKeyCheck, HIDDEN_MARKER } from '../../src/core/hidden-ids.js';
import { RECEIPT_V1_SCHEMA, verifyReceiptV1Text } from '../../src/core/receipt-v1.js';
import {
  RECEIPT_SCHEMA,
  RECEIPT_V2_SCHEMA,
  RECEIPT_V3_SCHEMA,
  RECEIPT_V4_SCHEMA,
  RECEIPT_V5_SCHEMA,
  RECEIPT_V6_SCHEMA,
  RECEIPT_V7_SCHEMA,
  RECEIPT_V8_SCHEMA,
  RECEIPT_V9_SCHEMA,
  RECEIPT_V10_SCHEMA,
  type Receipt
} from '../../src/core/receipt-schema.js';
import { canonicalJson, digestJson } from '../../src/core/hashing.js';
import type { TamperScreen } from '../../src/core/tamper.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** The h11 case's receipt as committed in v1, kept after the case's receipts were regenerated (v3). */
const V1_RECEIPT = join(import.meta.dirname, 'data', 'receipt-v1', 'receipt.json');

/** Every receipt.json committed in the repository (not node_modules, not dist). */
function committedReceipts(dir = ROOT): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', '.git', 'dist'].includes(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...committedReceipts(path));
    else if (entry.name === 'receipt.json') out.push(path);
  }
  return out;
}

function reseal(receipt: Receipt, edit: (r: Receipt) => void): string {
  const copy = structuredClone(receipt);
  edit(copy);
  const { receipt_digest: _, ...body } = copy;
  return serializeReceipt(sealReceipt(body));
}

describe('receipt versions', () => {
  const receipts = committedReceipts();

  it('finds the committed receipts (the h11 integration and the kept v1 receipt among them)', () => {
    expect(receipts.map((p) => relative(ROOT, p))).toEqual(expect.arrayContaining([join('integrations', 'h11-chunked-encoding', 'receipt.json'), relative(ROOT, V1_RECEIPT)]));
  });

  it.each(receipts.map((p) => [relative(ROOT, p), p]))('every committed receipt still verifies: %s', (_name, path) => {
    const text = readFileSync(path, 'utf8');
    const check = verifyReceiptText(text);
    expect(check.errors).toEqual([]);
    expect(check.integrity_valid).toBe(true);
  });

  it('checks v1 receipts by the frozen v1 rules: an edit is caught, a v1 receipt relabelled v2 is refused', () => {
    const text = readFileSync(V1_RECEIPT, 'utf8');
    expect((JSON.parse(text) as Receipt).schema).toBe(RECEIPT_V1_SCHEMA);
    expect(verifyReceiptV1Text(text).integrity_valid).toBe(true);
    expect(verifyReceiptText(text.replace('"verdict":"passed"', '"verdict":"failed"')).integrity_valid).toBe(false);
    const relabelled = verifyReceiptText(text.replace(`"schema":"${RECEIPT_V1_SCHEMA}"`, '"schema":"patchproof.receipt/v2"'));
    expect(relabelled.integrity_valid).toBe(false);
  });

  it('refuses an unknown schema with one line naming the known ones', () => {
    const check = verifyReceiptText('{"schema":"patchproof.receipt/v11"}');
    expect(check.integrity_valid).toBe(false);
    expect(check.errors[0]).toMatch(/patchproof\.receipt\/v11.*unknown.*v1.*v2.*v3.*v4.*v5.*v6.*v7.*v8.*v9.*v10/);
  });

  it('writes v10 receipts whose v10 digest domain a v1 verifier does not accept', () => {
    const text = serializeReceipt(receiptFrom(passingRuns()));
    expect((JSON.parse(text) as Receipt).schema).toBe(RECEIPT_SCHEMA);
    expect(RECEIPT_SCHEMA).toBe('patchproof.receipt/v10');
    expect(verifyReceiptText(text).integrity_valid).toBe(true);
    expect(verifyReceiptV1Text(text).integrity_valid).toBe(false);
  });

  it('keeps v2 receipts verifiable under the v2 rules: the v2 digest domain, real pinned hidden ids allowed; a v2 receipt relabelled v3 is refused', () => {
    const v3 = receiptFrom(passingRuns());
    const { receipt_digest: _digest, tamper_screen: _tamper, ...body } = v3;
    // What a v2 writer produced: schema v2, the pack's real pinned hidden ids, the v2 digest domain.
    const v2Body = { ...body, schema: RECEIPT_V2_SCHEMA, witness: { ...body.witness, pinned_ids: { hidden: ['tests/test_hidden.py::test_real_name'] } } } as typeof body;
    const v2Text = `${canonicalJson({ ...v2Body, receipt_digest: digestJson('patchproof/receipt/v2', v2Body) })}\n`;
    expect(verifyReceiptText(v2Text).errors).toEqual([]);
    expect(verifyReceiptText(v2Text).integrity_valid).toBe(true);
    // The same bytes under the v3 label: the digest domain no longer matches.
    expect(verifyReceiptText(v2Text.replace(`"schema":"${RECEIPT_V2_SCHEMA}"`, `"schema":"${RECEIPT_SCHEMA}"`)).integrity_valid).toBe(false);
    // Re-sealed as v3 with the real id left plain: refused, v3 keys pinned hidden ids.
    const v3Plain = serializeReceipt(sealReceipt({ ...v2Body, schema: RECEIPT_SCHEMA }));
    const check = verifyReceiptText(v3Plain);
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('\n')).toMatch(/phase hidden: a test id is not a keyed digest/);
  });
});

describe('receipt v3 beside v4 (v4 adds the not_run phase of the early exit)', () => {
  /** A receipt as a v3 writer produced it: schema v3, the v3 digest domain. */
  function asV3(receipt: Receipt): string {
    const { receipt_digest: _digest, tamper_screen: _tamper, ...body } = receipt;
    const v3Body = { ...body, schema: RECEIPT_V3_SCHEMA } as typeof body;
    return `${canonicalJson({ ...v3Body, receipt_digest: digestJson('patchproof/receipt/v3', v3Body) })}\n`;
  }

  it('keeps v3 receipts verifiable under the v3 rules; the same bytes relabelled v4 are refused', () => {
    const v3Text = asV3(receiptFrom(passingRuns()));
    expect(verifyReceiptText(v3Text).errors).toEqual([]);
    expect(verifyReceiptText(v3Text.replace(`"schema":"${RECEIPT_V3_SCHEMA}"`, `"schema":"${RECEIPT_SCHEMA}"`)).integrity_valid).toBe(false);
  });

  it('a not_run phase verifies in v4 only: a v3 receipt never held one', () => {
    // The early exit: the reproduction passes before the patch, so the patched side never runs.
    const runs = passingRuns();
    const early = receiptFrom({
      ...runs,
      reproduction_before: runs.reproduction_before.map((r) => ({ ...r, parsed: { ...r.parsed!, tests: r.parsed!.tests.map((t) => pass(t.id)) } }))
    });
    expect(early.phases.map((p) => p.status)).toContain('not_run');
    expect(verifyReceiptText(serializeReceipt(early)).errors).toEqual([]);
    const check = verifyReceiptText(asV3(early));
    expect(check.integrity_valid).toBe(false);
    expect(check.errors).toContain(`a not_run phase exists only from ${RECEIPT_V4_SCHEMA}; a ${RECEIPT_V3_SCHEMA} receipt never held one`);
  });
});

describe('receipt v4 beside v5 (v5 adds the baseline, gates, claim and formal records)', () => {
  /** A receipt as a v4 writer produced it: schema v4, the v4 digest domain. */
  function asV4(receipt: Receipt, edit: (body: Record<string, unknown>) => void = () => undefined): string {
    const { receipt_digest: _digest, tamper_screen: _tamper, ...body } = receipt;
    // A v4 writer never named the checks that fired (v9).
    const phases = body.phases.map(({ checks: _checks, ...phase }) => phase);
    const v4Body = { ...body, phases, schema: RECEIPT_V4_SCHEMA } as typeof body;
    edit(v4Body);
    return `${canonicalJson({ ...v4Body, receipt_digest: digestJson('patchproof/receipt/v4', v4Body) })}\n`;
  }

  it('keeps v4 receipts verifiable under the v4 rules, not_run phases included; the same bytes relabelled v5 are refused', () => {
    const runs = passingRuns();
    const early = receiptFrom({
      ...runs,
      reproduction_before: runs.reproduction_before.map((r) => ({ ...r, parsed: { ...r.parsed!, tests: r.parsed!.tests.map((t) => pass(t.id)) } }))
    });
    for (const receipt of [receiptFrom(passingRuns()), early]) {
      const v4Text = asV4(receipt);
      expect(verifyReceiptText(v4Text).errors).toEqual([]);
      expect(verifyReceiptText(v4Text.replace(`"schema":"${RECEIPT_V4_SCHEMA}"`, `"schema":"${RECEIPT_SCHEMA}"`)).integrity_valid).toBe(false);
    }
  });

  it.each(['baseline', 'gates', 'formal'] as const)('a v4 receipt never held a %s record: one re-sealed as v4 with it is refused', (field) => {
    const receipt = receiptFrom(passingRuns());
    const record = {
      baseline: { shared: false, digest: `sha256:${'a'.repeat(64)}` },
      gates: { early_exit: true, l0: [], changed_lines: 1, changed_public_interfaces: [] },
      formal: {
        status: 'proved',
        targets: [
          { name: 't', file: 'src/t.js', function: 't', required: false, status: 'proved', scope: { unroll: 0, array_length: 0, integers: 'safe', solver: 'z3' }, duration_ms: 1 }
        ]
      }
    }[field];
    const check = verifyReceiptText(asV4(receipt, (body) => void (body[field] = record)));
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('\n')).toContain(`a ${field} record exists only from ${RECEIPT_V5_SCHEMA}; a ${RECEIPT_V4_SCHEMA} receipt never held one`);
  });
});

describe('receipt v5 beside v6 (v6 adds build, baseline.cache, the cargo-test claim, formal checked and replay, gates.related)', () => {
  /** A receipt as a v5 writer produced it: schema v5, the v5 digest domain. */
  function asV5(receipt: Receipt, edit: (body: Record<string, unknown>) => void = () => undefined): string {
    const { receipt_digest: _digest, tamper_screen: _tamper, ...body } = receipt;
    const v5Body = { ...body, schema: RECEIPT_V5_SCHEMA } as typeof body;
    edit(v5Body);
    return `${canonicalJson({ ...v5Body, receipt_digest: digestJson('patchproof/receipt/v5', v5Body) })}\n`;
  }
  const scope = { unroll: 0, array_length: 0, integers: 'safe', solver: 'z3' };

  it('keeps v5 receipts verifiable under the v5 rules, a v5 record included; the same bytes relabelled v6 are refused', () => {
    const withBaseline = asV5(
      receiptFrom(passingRuns()),
      (body) => void (body.formal = { status: 'proved', targets: [{ name: 't', file: 'src/t.js', function: 't', required: false, status: 'proved', scope, duration_ms: 1 }] })
    );
    for (const v5Text of [asV5(receiptFrom(passingRuns())), withBaseline]) {
      expect(verifyReceiptText(v5Text).errors).toEqual([]);
      expect(verifyReceiptText(v5Text.replace(`"schema":"${RECEIPT_V5_SCHEMA}"`, `"schema":"${RECEIPT_SCHEMA}"`)).integrity_valid).toBe(false);
    }
  });

  it.each([
    [
      'build record',
      (body: Record<string, unknown>): void =>
        void (body.build = {
          argv: ['true'],
          status: 'not_run',
          base: { exit_code: 0, signal: null, timed_out: false, output_truncated: false, output_bytes: 0, output_sha256: 'a'.repeat(64), duration_ms: 1 }
        })
    ],
    [
      'baseline cache entry',
      (body: Record<string, unknown>): void => void (body.baseline = { shared: true, digest: `sha256:${'a'.repeat(64)}`, cache: { entry: `sha256:${'b'.repeat(64)}` } })
    ],
    [
      'formal checked status',
      (body: Record<string, unknown>): void =>
        void (body.formal = {
          status: 'checked',
          targets: [{ name: 't', file: 'src/t.js', function: 't', required: false, status: 'checked', reason: 'bound', scope, duration_ms: 1 }]
        })
    ]
  ] as const)('a v5 receipt never held a %s: one re-sealed as v5 with it is refused', (what, edit) => {
    const check = verifyReceiptText(asV5(receiptFrom(passingRuns()), edit));
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('\n')).toContain(`a ${what} exists only from ${RECEIPT_V6_SCHEMA}; a ${RECEIPT_V5_SCHEMA} receipt never held one`);
  });
});

describe('receipt v6 beside v7 (v7 adds the shard record)', () => {
  function asV6(receipt: Receipt, edit: (body: Record<string, unknown>) => void = () => undefined): string {
    const { receipt_digest: _digest, tamper_screen: _tamper, ...body } = receipt;
    const v6Body = { ...body, schema: RECEIPT_V6_SCHEMA } as typeof body;
    edit(v6Body);
    return `${canonicalJson({ ...v6Body, receipt_digest: digestJson('patchproof/receipt/v6', v6Body) })}\n`;
  }

  it('keeps v6 receipts verifiable under the v6 rules, a v6 record included; the same bytes relabelled v7 are refused', () => {
    const withBaseline = asV6(
      receiptFrom(passingRuns()),
      (body) => void (body.baseline = { shared: true, digest: `sha256:${'a'.repeat(64)}`, cache: { entry: `sha256:${'b'.repeat(64)}` } })
    );
    for (const v6Text of [asV6(receiptFrom(passingRuns()))]) {
      expect(verifyReceiptText(v6Text).errors).toEqual([]);
      expect(verifyReceiptText(v6Text.replace(`"schema":"${RECEIPT_V6_SCHEMA}"`, `"schema":"${RECEIPT_SCHEMA}"`)).integrity_valid).toBe(false);
    }
    // A v6 record (baseline.cache) is accepted by the v6 rules as far as its schema goes (its digest is checked like any baseline).
    expect(verifyReceiptText(withBaseline).errors.join('\n')).not.toContain('exists only from');
  });

  it('a v6 receipt never held a shard record: one re-sealed as v6 with it is refused', () => {
    const check = verifyReceiptText(asV6(receiptFrom(passingRuns()), (body) => void (body.shard = { index: 1, count: 2, suite_files: { base: [], patched: [] } })));
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('\n')).toContain(`a shard record exists only from ${RECEIPT_V7_SCHEMA}; a ${RECEIPT_V6_SCHEMA} receipt never held one`);
  });
});

describe('receipt v7 beside v8 (v8 adds python-int scopes and exact big integers in formal counterexamples)', () => {
  function asV7(receipt: Receipt, edit: (body: Record<string, unknown>) => void = () => undefined): string {
    const { receipt_digest: _digest, tamper_screen: _tamper, ...body } = receipt;
    const v7Body = { ...body, schema: RECEIPT_V7_SCHEMA } as typeof body;
    edit(v7Body);
    return `${canonicalJson({ ...v7Body, receipt_digest: digestJson('patchproof/receipt/v7', v7Body) })}\n`;
  }

  /** A Python target's counterexample, as the v8 gate records it: the input above 2**63 exactly, as decimal text. */
  const BIG = '9223372036854775807';
  const pythonCounterexample = (integers: string, last: unknown, result: unknown = 9223372036854775808) => ({
    name: 'next_id',
    file: 'ids.py',
    function: 'next_id',
    required: true,
    status: 'counterexample',
    counterexample: { inputs: { last }, ...(result === undefined ? {} : { result }), violated: ['ensures'] },
    scope: { unroll: 8, array_length: 4, integers, solver: 'Z3 4.15.4.0' },
    duration_ms: 5
  });
  function withFormal(receipt: Receipt, target: Record<string, unknown>): Receipt {
    return {
      ...receipt,
      verdict: 'failed',
      reasons: [...new Set([...receipt.reasons, 'formal_counterexample'])].sort(),
      proof_grade: false,
      formal: { status: 'counterexample', targets: [target] }
    } as unknown as Receipt;
  }

  it('keeps v7 receipts verifiable under the v7 rules, a v7 formal record included; the same bytes relabelled v8 fail their digest', () => {
    const safe = pythonCounterexample('safe', 3, 3);
    for (const receipt of [receiptFrom(passingRuns()), withFormal(receiptFrom(passingRuns()), safe)]) {
      const v7Text = asV7(receipt);
      expect(verifyReceiptText(v7Text).errors).toEqual([]);
      const relabelled = verifyReceiptText(v7Text.replace(`"schema":"${RECEIPT_V7_SCHEMA}"`, `"schema":"${RECEIPT_SCHEMA}"`));
      expect(relabelled.integrity_valid).toBe(false);
      expect(relabelled.errors.join('\n')).toMatch(/digest/);
    }
  });

  it('a v8 receipt holds a python-int counterexample with an exact big integer, and its report shows the exact value', () => {
    const text = reseal(withFormal(receiptFrom(passingRuns()), pythonCounterexample('python-int', BIG, BIG)), () => undefined);
    expect(verifyReceiptText(text).errors).toEqual([]);
    expect((JSON.parse(text) as Receipt).formal!.targets[0]!.counterexample!.inputs.last).toBe(BIG);
  });

  it.each([
    ['a python-int scope', pythonCounterexample('python-int', 3, 3), 'a formal python-int integer model exists only from'],
    ['a big integer', pythonCounterexample('python-int', BIG, BIG), 'a formal counterexample integer outside the safe range exists only from']
  ])('a v7 receipt never held %s: one re-sealed as v7 with it is refused', (_what, target, message) => {
    const check = verifyReceiptText(asV7(withFormal(receiptFrom(passingRuns()), target)));
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('\n')).toContain(`${message} ${RECEIPT_V8_SCHEMA}; a ${RECEIPT_V7_SCHEMA} receipt never held one`);
  });

  it.each([
    // A JSON number above 2**53 is not exact in every reader: the exact form is text.
    ['a lossy JSON number', pythonCounterexample('python-int', 9223372036854775808), /formal/],
    ['a safe integer written as text', pythonCounterexample('python-int', '42'), /formal/],
    ['a leading zero', pythonCounterexample('python-int', `0${BIG}`), /formal/],
    ['an exponent', pythonCounterexample('python-int', '9.2e18'), /formal/],
    ['a plus sign', pythonCounterexample('python-int', `+${BIG}`), /formal/],
    ['a big integer in a JS target', { ...pythonCounterexample('safe', BIG, BIG), file: 'src/ids.js' }, /only python-int targets have them/],
    ['python-int on a JS file', { ...pythonCounterexample('python-int', 3, 3), file: 'src/ids.js' }, /python-int integer model goes with a Python target/]
  ])('refuses a forged counterexample value: %s', (_what, target, message) => {
    const check = verifyReceiptText(reseal(withFormal(receiptFrom(passingRuns()), target), () => undefined));
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('\n')).toMatch(message);
  });
});

describe('receipt v8 beside v9 (v9 adds the tamper screen, which proof grade depends on)', () => {
  function asV8(receipt: Receipt, edit: (body: Record<string, unknown>) => void = () => undefined): string {
    const { receipt_digest: _digest, tamper_screen: _tamper, ...body } = receipt;
    const v8Body = { ...body, schema: RECEIPT_V8_SCHEMA } as typeof body;
    edit(v8Body);
    return `${canonicalJson({ ...v8Body, receipt_digest: digestJson('patchproof/receipt/v8', v8Body) })}\n`;
  }
  const finding = (over: Partial<TamperScreen['findings'][number]> = {}): TamperScreen['findings'][number] => ({
    rule: 'monkeypatch',
    path: 'src/compat.js',
    line: 2,
    text: 'Math.trunc = Math.floor',
    allowed: false,
    ...over
  });
  const screen = (findings: TamperScreen['findings']): TamperScreen => ({ files_screened: 1, findings, not_screened: [] });
  /** A proved formal record of one target, with the issue 29 fields given. */
  const provedFormal = (target: Record<string, unknown>, scope: Record<string, unknown> = {}): unknown => ({
    status: 'proved',
    targets: [
      {
        name: 't',
        file: 'src/t.js',
        function: 't',
        required: false,
        status: 'proved',
        scope: { unroll: 8, array_length: 4, integers: 'safe', solver: 'Z3 4.15.4.0', ...scope },
        duration_ms: 1,
        ...target
      }
    ]
  });

  it('a v9 receipt round-trips: a clean screen keeps proof grade, a finding withholds it and the verdict stays passed', () => {
    // Written as the current schema (v10), which keeps v9's rules for the screen.
    const clean = receiptFrom(passingRuns());
    expect(clean.schema).toBe(RECEIPT_SCHEMA);
    expect(clean.tamper_screen).toEqual({ files_screened: 1, findings: [], not_screened: [] });
    expect(clean.proof_grade).toBe(true);
    const cleanCheck = verifyReceiptText(serializeReceipt(clean));
    expect(cleanCheck.errors).toEqual([]);
    expect(cleanCheck.proof_grade).toBe(true);

    const flagged = receiptFrom(passingRuns(), { tamper: screen([finding()]) });
    expect(flagged.verdict).toBe('passed');
    expect(flagged.proof_grade).toBe(false);
    const text = serializeReceipt(flagged);
    const check = verifyReceiptText(text);
    expect(check.errors).toEqual([]);
    expect(check).toMatchObject({ integrity_valid: true, verdict: 'passed', proof_grade: false });
    expect((JSON.parse(text) as Receipt).tamper_screen!.findings[0]).toEqual(finding());
  });

  it('refuses a v9 receipt that claims proof grade over a finding that is not allowed (re-sealed)', () => {
    const text = reseal(receiptFrom(passingRuns(), { tamper: screen([finding()]) }), (r) => void (r.proof_grade = true));
    const check = verifyReceiptText(text);
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('\n')).toMatch(/proof_grade true does not follow .*tamper screen \(expected false\)/);
  });

  it("re-derives allowed from the pack's recorded tamper_allow: flipping a finding to allowed is refused, a recorded allowance keeps proof grade", () => {
    const forged = reseal(receiptFrom(passingRuns(), { tamper: screen([finding({ allowed: true })]) }), () => undefined);
    const check = verifyReceiptText(forged);
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('\n')).toMatch(/allowed does not follow from the pack's tamper_allow/);

    const allowed = reseal(receiptFrom(passingRuns(), { tamper: screen([finding({ allowed: true })]) }), (r) => {
      r.witness.tamper_allow = [{ rule: 'monkeypatch', paths: ['src/compat.js'] }];
      r.proof_grade = true;
    });
    const ok = verifyReceiptText(allowed);
    expect(ok.errors).toEqual([]);
    expect(ok.proof_grade).toBe(true);
  });

  it('an unparsed file withholds proof grade even when allowed, and an allowed unparsed finding is refused', () => {
    const unparsed = finding({ rule: 'unparsed', text: 'Python syntax error: def f(:' });
    expect(receiptFrom(passingRuns(), { tamper: screen([unparsed]) }).proof_grade).toBe(false);
    const text = reseal(receiptFrom(passingRuns(), { tamper: screen([{ ...unparsed, allowed: true }]) }), (r) => {
      r.witness.tamper_allow = [{ rule: 'monkeypatch', paths: ['**'] }];
    });
    const check = verifyReceiptText(text);
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('\n')).toMatch(/an unparsed file is never allowed/);
  });

  it.each([
    ['findings out of order', screen([finding({ line: 9 }), finding({ line: 2 })]), /sorted by path, line, rule and text/],
    ['a text with a raw control character', screen([finding({ text: 'Math.trunc\u202e = f' })]), /not escaped and clipped/],
    ['a text over 200 characters', screen([finding({ text: 'x'.repeat(201) })]), /tamper_screen/],
    ['not_screened out of order', { files_screened: 1, findings: [], not_screened: ['b.txt', 'a.txt'] }, /not_screened must be sorted/]
  ])('refuses a tamper screen with %s', (_what, tamper, message) => {
    const check = verifyReceiptText(reseal(receiptFrom(passingRuns()), (r) => void (r.tamper_screen = tamper)));
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('\n')).toMatch(message);
  });

  it('a v9 receipt without the tamper screen is refused, and cannot be proof grade', () => {
    const check = verifyReceiptText(
      reseal(receiptFrom(passingRuns()), (r) => {
        delete r.tamper_screen;
      })
    );
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('\n')).toContain(`a ${RECEIPT_SCHEMA} receipt holds the tamper screen (tamper_screen), and this one does not`);
    expect(check.errors.join('\n')).toMatch(/proof_grade true does not follow/);
  });

  it('keeps v8 receipts verifiable under the v8 rules (proof grade without a screen); the same bytes relabelled v9 fail', () => {
    const v8Text = asV8(receiptFrom(passingRuns()));
    const check = verifyReceiptText(v8Text);
    expect(check.errors).toEqual([]);
    expect(check.proof_grade).toBe(true);
    expect(verifyReceiptText(v8Text.replace(`"schema":"${RECEIPT_V8_SCHEMA}"`, `"schema":"${RECEIPT_V9_SCHEMA}"`)).integrity_valid).toBe(false);
  });

  it.each([
    [
      'a tamper screen',
      (body: Record<string, unknown>) => void (body['tamper_screen'] = { files_screened: 0, findings: [], not_screened: [] }),
      'a tamper screen exists only from'
    ],
    [
      "the pack's tamper_allow",
      (body: Record<string, unknown>) => void ((body['witness'] as Record<string, unknown>)['tamper_allow'] = [{ rule: 'monkeypatch', paths: ['**'] }]),
      "a pack's tamper_allow exists only from"
    ],
    [
      "a formal target's binding check",
      (body: Record<string, unknown>) =>
        void (body['formal'] = provedFormal({ binding: { outcome: 'bound', probe_sha256: 'a'.repeat(64), output_sha256: 'b'.repeat(64), exit_code: 0, duration_ms: 3 } })),
      'a formal binding check exists only from'
    ],
    [
      "a formal target's loop scope",
      (body: Record<string, unknown>) => void (body['formal'] = provedFormal({}, { loops: 'none' })),
      'a formal scope of lengths or loops exists only from'
    ]
  ])('a v8 receipt never held %s: one re-sealed as v8 with it is refused', (_what, edit, message) => {
    const check = verifyReceiptText(asV8(receiptFrom(passingRuns()), edit));
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('\n')).toContain(`${message} ${RECEIPT_V9_SCHEMA}; a ${RECEIPT_V8_SCHEMA} receipt never held one`);
  });
});

describe('receipt v9 beside v10 (v10 adds the tripwire record, the fired checks and the per-test base reproduction)', () => {
  /** A receipt as a v9 writer produced it: schema v9, the v9 digest domain, the tamper screen kept. */
  function asV9(receipt: Receipt, edit: (body: Record<string, unknown>) => void = () => undefined): string {
    const { receipt_digest: _digest, ...body } = receipt;
    const v9Body = { ...body, schema: RECEIPT_V9_SCHEMA } as typeof body;
    edit(v9Body);
    return `${canonicalJson({ ...v9Body, receipt_digest: digestJson('patchproof/receipt/v9', v9Body) })}\n`;
  }
  const phasesOf = (body: Record<string, unknown>): Record<string, unknown>[] => body['phases'] as Record<string, unknown>[];

  it('keeps v9 receipts verifiable under the v9 rules (the tamper screen still required); the same bytes relabelled v10 fail', () => {
    const v9Text = asV9(receiptFrom(passingRuns()));
    const check = verifyReceiptText(v9Text);
    expect(check.errors).toEqual([]);
    expect(check).toMatchObject({ integrity_valid: true, proof_grade: true });
    expect(verifyReceiptText(v9Text.replace(`"schema":"${RECEIPT_V9_SCHEMA}"`, `"schema":"${RECEIPT_V10_SCHEMA}"`)).integrity_valid).toBe(false);
    const unscreened = verifyReceiptText(asV9(receiptFrom(passingRuns()), (body) => delete body['tamper_screen']));
    expect(unscreened.integrity_valid).toBe(false);
    expect(unscreened.errors.join('\n')).toContain(`a ${RECEIPT_V9_SCHEMA} receipt holds the tamper screen (tamper_screen), and this one does not`);
  });

  it('a v10 receipt holds the fired checks and verifies', () => {
    const runs = passingRuns();
    runs.regression_after = [run('regression_after', [pass('suite > a'), pass('suite > b'), fail('suite > flaky-at-base')], { exitCode: 0 })];
    const receipt = receiptFrom(runs);
    expect(receipt.schema).toBe(RECEIPT_V10_SCHEMA);
    expect(receipt.phases.some((p) => p.checks !== undefined)).toBe(true);
    expect(verifyReceiptText(serializeReceipt(receipt)).errors).toEqual([]);
  });

  it.each([
    [
      "the tripwire's changes",
      (body: Record<string, unknown>) => {
        const first = (phasesOf(body)[2]?.['runs'] as { canary: Record<string, unknown> }[] | undefined)?.[0];
        if (first !== undefined) first.canary['changed'] = ['node:assert/strict.throws replaced'];
      },
      'a tripwire record (canary.changed) exists only from'
    ],
    [
      "a phase's fired checks",
      (body: Record<string, unknown>) => void (phasesOf(body)[2]!['checks'] = [{ check: 'exit_status', run: 'regression_after#1', detail: 'the test process exited 0' }]),
      'a checks fired exists only from'
    ],
    [
      'the base reproduction judged per test',
      (body: Record<string, unknown>) => {
        const before = phasesOf(body)[0]!;
        const ids = (before['results'] as { id: string }[]).map((r) => r.id);
        before['sealed_tests'] = [{ id: 'repro > parses 1h30m', results: ids }];
      },
      'a sealed tests record exists only from'
    ]
  ])('a v9 receipt never held %s: one re-sealed as v9 with it is refused', (_what, edit, message) => {
    const text = asV9(receiptFrom(passingRuns()), edit);
    expect(text).toContain('"schema":"patchproof.receipt/v9"');
    const check = verifyReceiptText(text);
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('\n')).toContain(`${message} ${RECEIPT_V10_SCHEMA}; a ${RECEIPT_V9_SCHEMA} receipt never held one`);
  });
});

describe('receipt v1 with expected_failing (issue 12, defect 3: fixed in the frozen rules too)', () => {
  const H11 = V1_RECEIPT;
  interface V1Test {
    id: string;
    status: string;
  }
  interface V1 {
    witness: { expected_failing?: string[] };
    receipt_digest?: string;
    phases: { name: string; results: V1Test[]; tests: Record<string, number> }[];
  }
  const CONTROL = '.patchproof/reproduction/test_repro_chunk_footer.py::test_control_passes_on_the_base';

  /** The committed v1 receipt with a reproduction test that passes before the patch, re-sealed by the v1 rules. */
  function v1With(expectedFailing: ((ids: string[]) => string[]) | undefined): string {
    const receipt = JSON.parse(readFileSync(H11, 'utf8')) as V1;
    for (const phase of receipt.phases.filter((p) => p.name.startsWith('reproduction_'))) {
      phase.results.push({ id: CONTROL, status: 'passed' });
      phase.tests.passed! += 1;
    }
    const ids = receipt.phases
      .find((p) => p.name === 'reproduction_before')!
      .results.filter((t) => t.status === 'failed')
      .map((t) => t.id);
    if (expectedFailing !== undefined) receipt.witness.expected_failing = expectedFailing(ids);
    delete receipt.receipt_digest;
    return `${canonicalJson({ ...receipt, receipt_digest: digestJson('patchproof/receipt/v1', receipt) })}\n`;
  }

  it('verifies when only the expected tests fail before the patch', () => {
    expect(verifyReceiptText(v1With((ids) => ids))).toMatchObject({ integrity_valid: true, errors: [] });
  });

  it('is INVALID without the expectation, or with it flipped onto the passing test', () => {
    expect(verifyReceiptText(v1With(undefined)).errors).toEqual(['phase reproduction_before: passed but not every test failed for the right reason']);
    expect(verifyReceiptText(v1With((ids) => [ids[0]!, CONTROL])).errors).toEqual([
      'phase reproduction_before: passed but not every test expected to fail failed for the right reason'
    ]);
    expect(verifyReceiptText(v1With((ids) => [...ids, 'gone::test'])).errors).toEqual(['phase reproduction_before: passed but a test expected to fail is absent from its results']);
    expect(verifyReceiptText(v1With(() => [])).integrity_valid).toBe(false);
  });
});

describe('receipt v2: hidden means hidden', () => {
  const runs = passingRuns();
  runs.hidden = [run('hidden', [fail('hidden > secret_case_name', 'assertion'), pass('hidden > other')])];
  const receipt = receiptFrom(runs);

  it('keeps statuses and counts of the hidden phase, with keyed ids only', () => {
    const hidden = receipt.phases.find((p) => p.name === 'hidden');
    expect(hidden?.tests).toEqual({ passed: 1, failed: 1, errored: 0, skipped: 0 });
    expect(hidden?.results.every((t) => /^hmac-sha256:[0-9a-f]{64}$/.test(t.id) && t.message === undefined && t.location === undefined)).toBe(true);
    expect(hidden?.runs.every((r) => r.argv.length === 1 && r.argv[0] === HIDDEN_MARKER)).toBe(true);
    expect(serializeReceipt(receipt)).not.toContain('secret_case_name');
    expect(receipt.verdict).toBe('failed');
    expect(verifyReceiptText(serializeReceipt(receipt)).integrity_valid).toBe(true);
  });

  it('refuses a resealed receipt that puts a hidden name, message, location or argv back', () => {
    const edits: ((r: Receipt) => void)[] = [
      (r) => {
        (r.phases[3] as Receipt['phases'][number]).results[0]!.id = 'hidden > secret_case_name';
      },
      (r) => {
        (r.phases[3] as Receipt['phases'][number]).results[0]!.message = 'def test_secret(): ...';
      },
      (r) => {
        (r.phases[3] as Receipt['phases'][number]).results[0]!.location = 'hidden/test_secret.py:3';
      },
      (r) => {
        (r.phases[3] as Receipt['phases'][number]).runs[0]!.argv = ['pytest', 'hidden/test_secret.py'];
      },
      (r) => {
        r.inventory.test_ids.hidden = ['hidden > secret_case_name'];
      }
    ];
    for (const edit of edits) {
      const check = verifyReceiptText(reseal(receipt, edit));
      expect(check.integrity_valid).toBe(false);
      expect(check.errors.join('\n')).toMatch(/phase hidden/);
    }
  });

  it("keys the pack's pinned hidden ids like the hidden results, and refuses a resealed receipt that puts them back plain", () => {
    const pinned = receiptFrom(runs, { pinned: { reproduction: ['repro > shown'], hidden: ['hidden > secret_case_name', 'hidden > other'] } });
    expect(pinned.witness.pinned_ids?.reproduction).toEqual(['repro > shown']);
    const ids = pinned.witness.pinned_ids?.hidden ?? [];
    expect(ids).toHaveLength(2);
    expect(ids.every((id) => /^hmac-sha256:[0-9a-f]{64}$/.test(id))).toBe(true);
    // The same keyed ids as the hidden results.
    expect([...ids].sort()).toEqual(pinned.phases[3]?.results.map((t) => t.id).sort());
    const text = serializeReceipt(pinned);
    expect(text).not.toContain('secret_case_name');
    expect(verifyReceiptText(text).integrity_valid).toBe(true);
    const check = verifyReceiptText(
      reseal(pinned, (r) => {
        r.witness.pinned_ids = { ...r.witness.pinned_ids, hidden: ['hidden > secret_case_name'] };
      })
    );
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('\n')).toMatch(/phase hidden: a test id is not a keyed digest/);
  });

  it('keys ids per witness key and pack: another key or pack gives other ids; the key check names the key', () => {
    const pack = `sha256:${'1'.repeat(64)}`;
    const a = deriveHiddenIdKey('AGE-SECRET-KEY-1AAAA', pack);
    const b = deriveHiddenIdKey('AGE-SECRET-KEY-1BBBB', pack);
    const c = deriveHiddenIdKey('AGE-SECRET-KEY-1AAAA', `sha256:${'2'.repeat(64)}`);
    const ids = [a, b, c].map((k) => hiddenId(k, 'tests/test_x.py::test_y'));
    expect(new Set(ids).size).toBe(3);
    expect(hiddenId(a, 'tests/test_x.py::test_y')).toBe(ids[0]);
    expect(hiddenKeyCheck(a)).not.toBe(hiddenKeyCheck(b));
    expect(a.source).toBe('witness_key');
    expect(deriveHiddenIdKey(undefined, pack).source).toBe('pack_digest');
  });
});
