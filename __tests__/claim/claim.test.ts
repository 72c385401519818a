import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail, pass, passingRuns, receiptFrom, run, times } from '../helpers/evidence.js';
import { parseClaim, ClaimFormatError, CLAIM_MAX_BYTES } from '../../src/adapters/claim-results.js';
import { parseJunitXml } from '../../src/adapters/shared/junit-xml.js';
import { CLAIM_ROW_LIMIT, compareClaim, type ParsedClaim } from '../../src/core/claim.js';
import { sealReceipt, serializeReceipt, verifyReceiptText } from '../../src/core/receipt.js';
import { renderReport } from '../../src/core/report.js';
import { renderClaimConsole } from '../../src/core/claim-report.js';
import { renderCheck } from '../../src/publish/check-report.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import type { RunsByLabel } from '../../src/core/verdict.js';
import { readClaimFile } from '../../src/io/claim-file.js';
import { ConfigurationError } from '../../src/errors.js';

/**
 * The claim comparison (src/core/claim.ts) on claims recorded from real runs in the test image
 * (data/README.md says how): pytest's JUnit XML (xunit2, pytest's default, and xunit1) of
 * fixtures/py-calculator, jest-junit's and jest's --json output of fixtures/jest-money, each with
 * the fix applied. Then the findings, verify-receipt's consistency checks against re-sealed forgeries,
 * and the refusal of malformed claims.
 */

const DATA = join(fileURLToPath(new URL('.', import.meta.url)), 'data');
const data = (name: string): Promise<string> => readFile(join(DATA, name), 'utf8');

const reseal = (receipt: Receipt, edit: (body: Omit<Receipt, 'receipt_digest'>) => void): string => {
  const { receipt_digest: _drop, ...body } = structuredClone(receipt);
  edit(body);
  return serializeReceipt(sealReceipt(body));
};

/** A validation whose regression suite after the patch is `suite` (the clean room's ids). */
function runsWithSuite(suite: ReturnType<typeof pass>[]): RunsByLabel {
  const runs = passingRuns();
  runs.regression_before = [
    run(
      'regression_before',
      suite.map((t) => pass(t.id))
    )
  ];
  runs.regression_after = [run('regression_after', suite)];
  return runs;
}

const JEST_IDS = [
  'test/money.test.js > groupThousands > leaves short numbers alone',
  'test/money.test.js > groupThousands > groups long numbers in threes',
  'test/money.test.js > formatCents > formats whole amounts with two decimals',
  'test/money.test.js > formatCents > keeps the sign of negative amounts',
  'test/money.test.js > formatCents > refuses fractional cents',
  'test/money.test.js > formatMoney > puts the symbol after the minus sign'
];

describe('claim ids from real runner output map to the clean-room ids', () => {
  it('pytest JUnit XML, xunit2 (no file attribute) and xunit1, maps to pytest node ids', async () => {
    // The pytest adapter's ids are parseJunitXml's default ids of its own xunit1 run: the clean room's.
    const cleanIds = parseJunitXml(await data('pytest-junit-xunit1.xml')).cases.map((c) => c.id);
    expect(cleanIds).toHaveLength(14);
    expect(cleanIds[0]).toBe('tests/test_calculator.py::EvaluateTest::test_division_by_zero_is_reported');
    for (const file of ['pytest-junit.xml', 'pytest-junit-xunit1.xml']) {
      const claim = parseClaim(await data(file), 'pytest');
      expect(claim.format).toBe('junit');
      const receipt = receiptFrom(runsWithSuite(cleanIds.map(pass)), { claim });
      expect(receipt.claim).toMatchObject({ tests: 14, matched: 14, findings: { possible_hidden_state_dependency: 0, claim_unknown_test: 0 }, omitted: 0 });
      expect(receipt.claim!.rows.map((r) => r.id).sort()).toEqual([...cleanIds].sort());
      expect(verifyReceiptText(serializeReceipt(receipt)).errors).toEqual([]);
    }
  });

  it('jest-junit (full names, no file) and jest --json (absolute paths in the agent workspace) map to jest ids', async () => {
    for (const [file, format] of [
      ['jest-junit.xml', 'junit'],
      ['jest.json', 'jest-json']
    ] as const) {
      const claim = parseClaim(await data(file), 'jest');
      expect(claim.format).toBe(format);
      const receipt = receiptFrom(runsWithSuite(JEST_IDS.map(pass)), { claim });
      expect(receipt.claim).toMatchObject({ tests: 6, matched: 6, findings: { possible_hidden_state_dependency: 0, claim_unknown_test: 0 } });
      expect(receipt.claim!.rows.map((r) => r.id)).toEqual(JEST_IDS);
    }
  });

  it("node's --test-reporter=junit (no file, top-level tests under <testsuites>) maps to node-test ids", async () => {
    const tests = join(DATA, '..', '..', '..', 'fixtures', 'js-duration', 'repo', 'test');
    const cleanIds = ['duration.test.js', 'format.test.js', 'timeouts.test.js'].flatMap((file) =>
      [...readFileSync(join(tests, file), 'utf8').matchAll(/^test\('([^']+)'/gm)].map((m) => `test/${file} > ${m[1]}`)
    );
    expect(cleanIds).toHaveLength(15);
    const claim = parseClaim(await data('node-junit.xml'), 'node-test');
    const receipt = receiptFrom(runsWithSuite(cleanIds.map(pass)), { claim });
    expect(receipt.claim).toMatchObject({ tests: 15, matched: 15, findings: { claim_unknown_test: 0 } });
    expect(receipt.claim!.rows.map((r) => r.id).sort()).toEqual([...cleanIds].sort());
  });

  // fixtures/rust-textclip with its fix and a scratch bin target (src/bin/clip.rs): library unit tests,
  // an integration-test target (tests/columns.rs) and a bin's unit tests, as the cargo adapter names them.
  const CARGO_IDS = [
    'lib:textclip::tests::long_text_ends_with_an_ellipsis',
    'lib:textclip::tests::padding_fills_with_spaces',
    'lib:textclip::tests::short_text_is_kept',
    'lib:textclip::tests::zero_columns_hold_nothing',
    'bin:clip::tests::default_width',
    'test:columns::a_row_lines_up_its_cells',
    'test:columns::fit_gives_the_exact_width'
  ];

  it("cargo test's own output (stdout and stderr together) maps library, bin and integration-test targets to cargo ids", async () => {
    const claim = parseClaim(await data('cargo-test.txt'), 'cargo');
    expect(claim.format).toBe('cargo-test');
    const receipt = receiptFrom(runsWithSuite(CARGO_IDS.map(pass)), { claim });
    expect(receipt.claim).toMatchObject({ tests: 7, matched: 7, findings: { possible_hidden_state_dependency: 0, claim_unknown_test: 0 } });
    expect(receipt.claim!.rows.map((r) => r.id)).toEqual(CARGO_IDS);
    expect(verifyReceiptText(serializeReceipt(receipt)).errors).toEqual([]);
    // Only for the cargo adapter; and a result line needs its Running line (stderr) before it.
    const text = await data('cargo-test.txt');
    expect(() => parseClaim(text, 'pytest')).toThrow(ClaimFormatError);
    expect(() => parseClaim('running 1 test\ntest tests::x ... ok\n', 'cargo')).toThrow(/line 2 is a test result before any "Running" line/);
  });

  it('cargo-nextest JUnit binary ids map to lib:, test: and bin: targets', () => {
    // nextest is not in the test image: these are its documented binary ids (crate, crate::test, crate::bin/name).
    const xml = [
      '<testsuites>',
      '<testsuite name="textclip"><testcase name="tests::short_text_is_kept" classname="textclip"/></testsuite>',
      '<testsuite name="textclip::columns"><testcase name="fit_gives_the_exact_width" classname="textclip::columns"/></testsuite>',
      '<testsuite name="textclip::bin/clip"><testcase name="tests::default_width" classname="textclip::bin/clip"/></testsuite>',
      '</testsuites>'
    ].join('');
    const receipt = receiptFrom(runsWithSuite(CARGO_IDS.map(pass)), { claim: parseClaim(xml, 'cargo') });
    expect(receipt.claim).toMatchObject({ tests: 3, matched: 3, findings: { claim_unknown_test: 0 } });
    expect(receipt.claim!.rows.map((r) => r.id)).toEqual(['lib:textclip::tests::short_text_is_kept', 'test:columns::fit_gives_the_exact_width', 'bin:clip::tests::default_width']);
  });

  it('a jest full name shared by two files matches neither (ambiguous), never a guess', async () => {
    const twice = [...JEST_IDS, 'test/other.test.js > groupThousands > leaves short numbers alone'];
    const receipt = receiptFrom(runsWithSuite(twice.map(pass)), { claim: parseClaim(await data('jest-junit.xml'), 'jest') });
    expect(receipt.claim!.rows.find((r) => r.id.includes('leaves short numbers alone'))).toMatchObject({ clean_room: 'absent', finding: 'claim_unknown_test' });
  });
});

describe('findings', () => {
  it('a pass in the claim that fails in the clean room is possible_hidden_state_dependency; the verdict, reasons and proof grade are unchanged', async () => {
    const ids = JEST_IDS.map(pass);
    ids[4] = fail(JEST_IDS[4]!, 'exception_in_code');
    const runs = runsWithSuite(ids);
    runs.regression_before = [run('regression_before', ids)];
    const claim = parseClaim(await data('jest.json'), 'jest');
    const without = receiptFrom(runs);
    const withClaim = receiptFrom(runs, { claim });
    expect(withClaim.claim!.findings).toEqual({ possible_hidden_state_dependency: 1, claim_unknown_test: 0 });
    expect(withClaim.claim!.rows[0]).toEqual({ id: JEST_IDS[4], claimed: 'passed', clean_room: 'errored', finding: 'possible_hidden_state_dependency' });
    for (const key of ['verdict', 'reasons', 'proof_grade', 'phases'] as const) expect(withClaim[key]).toEqual(without[key]);
    expect(verifyReceiptText(serializeReceipt(withClaim))).toMatchObject({ integrity_valid: true, verdict: without.verdict, proof_grade: without.proof_grade });
  });

  it('a failing validation stays failed with a claim of all passes (a claim never turns a failure into a pass)', () => {
    const runs = passingRuns();
    runs.hidden = [run('hidden', [fail('hidden > x'), pass('hidden > y')])];
    const claim: ParsedClaim = {
      format: 'junit',
      cases: [
        { label: 'hidden > x', status: 'passed', keys: [] },
        { label: 'repro > parses 1h30m', status: 'passed', keys: [] }
      ]
    };
    const receipt = receiptFrom(runs, { claim });
    expect(receipt).toMatchObject({ verdict: 'failed', reasons: ['hidden_failed'], proof_grade: false });
    // The hidden test is named only by its keyed id, and the claim's name for it is not recorded.
    expect(receipt.claim!.rows[0]).toMatchObject({ claimed: 'passed', clean_room: 'failed', finding: 'possible_hidden_state_dependency', hidden: true });
    expect(receipt.claim!.rows[0]!.id).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(JSON.stringify(receipt.claim)).not.toContain('hidden > x');
    expect(verifyReceiptText(serializeReceipt(receipt)).errors).toEqual([]);
  });

  it('a claimed test the clean room never ran is claim_unknown_test; not_run phases make it not_run', () => {
    const claim: ParsedClaim = { format: 'junit', cases: [{ label: 'suite > made up', status: 'passed', keys: [] }] };
    expect(receiptFrom(passingRuns(), { claim }).claim!.rows).toEqual([{ id: 'suite > made up', claimed: 'passed', clean_room: 'absent', finding: 'claim_unknown_test' }]);
    const early = passingRuns();
    early.reproduction_before = times(run('reproduction_before', [pass('repro > parses 1h30m')]), 2);
    const receipt = receiptFrom(early, { claim });
    expect(receipt.phases.map((p) => p.status)).toContain('not_run');
    expect(receipt.claim!.rows).toEqual([{ id: 'suite > made up', claimed: 'passed', clean_room: 'not_run' }]);
    expect(verifyReceiptText(serializeReceipt(receipt)).errors).toEqual([]);
  });

  it('keeps at most CLAIM_ROW_LIMIT rows, findings first, and counts the rest', () => {
    const cases = Array.from({ length: CLAIM_ROW_LIMIT + 100 }, (_, i) => ({ label: i % 2 === 0 ? 'suite > a' : `unknown ${i}`, status: 'passed' as const, keys: [] }));
    const receipt = receiptFrom(passingRuns(), { claim: { format: 'junit', cases } });
    const claim = receipt.claim!;
    expect(claim).toMatchObject({ tests: CLAIM_ROW_LIMIT + 100, omitted: 100, findings: { claim_unknown_test: (CLAIM_ROW_LIMIT + 100) / 2 } });
    expect(claim.rows).toHaveLength(CLAIM_ROW_LIMIT);
    expect(claim.rows.slice(0, (CLAIM_ROW_LIMIT + 100) / 2).every((r) => r.finding === 'claim_unknown_test')).toBe(true);
    expect(verifyReceiptText(serializeReceipt(receipt)).errors).toEqual([]);
    expect(renderClaimConsole(claim).split('\n').length).toBeLessThanOrEqual(22);
  });
});

describe("verify-receipt checks the claim against the receipt's own results", () => {
  const runs = passingRuns();
  runs.regression_after = [run('regression_after', [pass('suite > a'), fail('suite > b'), fail('suite > flaky-at-base')])];
  const claim: ParsedClaim = {
    format: 'junit',
    cases: [
      { label: 'suite > b', status: 'passed', keys: [] },
      { label: 'suite > a', status: 'passed', keys: [] },
      { label: 'nowhere', status: 'failed', keys: [] }
    ]
  };
  const receipt = receiptFrom(runs, { claim });

  it('accepts the comparison as made', () => {
    expect(receipt.claim!.findings).toEqual({ possible_hidden_state_dependency: 1, claim_unknown_test: 1 });
    expect(verifyReceiptText(serializeReceipt(receipt)).errors).toEqual([]);
  });

  const forgeries: [string, (body: Omit<Receipt, 'receipt_digest'>) => void, RegExp][] = [
    [
      'a finding dropped',
      (b) => {
        delete b.claim!.rows[0]!.finding;
        b.claim!.findings.possible_hidden_state_dependency = 0;
      },
      /finding none does not follow/
    ],
    [
      'a clean-room outcome rewritten',
      (b) => {
        b.claim!.rows[0]!.clean_room = 'passed';
        delete b.claim!.rows[0]!.finding;
        b.claim!.findings.possible_hidden_state_dependency = 0;
      },
      /clean_room passed but the receipt's results say failed/
    ],
    [
      'an unknown test made known',
      (b) => {
        b.claim!.rows[1]!.clean_room = 'failed';
        delete b.claim!.rows[1]!.finding;
        b.claim!.findings.claim_unknown_test = 0;
        b.claim!.matched += 1;
      },
      /clean_room failed but the receipt's results say absent/
    ],
    [
      'a count that does not add up',
      (b) => {
        b.claim!.findings.claim_unknown_test = 0;
      },
      /findings.claim_unknown_test is 0/
    ],
    [
      'a row dropped',
      (b) => {
        b.claim!.rows.pop();
        b.claim!.matched -= 1;
      },
      /rows and 0 omitted are not its 3 tests/
    ],
    [
      'a hidden row with a real id',
      (b) => {
        b.claim!.rows[2]!.hidden = true;
      },
      /hidden row must hold a keyed id/
    ]
  ];
  it.each(forgeries)('refuses a re-sealed receipt with %s', (_name, edit, message) => {
    const check = verifyReceiptText(reseal(receipt, edit));
    expect(check.integrity_valid).toBe(false);
    expect(check.errors.join('; ')).toMatch(message);
  });
});

describe('the report shows the claim table', () => {
  it("renders findings first, bounded, with hidden rows keyed and the agent's labels flattened", () => {
    const runs = passingRuns();
    runs.hidden = [run('hidden', [fail('hidden > x'), pass('hidden > y')])];
    const claim: ParsedClaim = {
      format: 'junit',
      cases: [
        { label: 'hidden > x', status: 'passed', keys: [] },
        { label: 'evil | `x`\n# heading', status: 'passed', keys: [] }
      ]
    };
    const report = renderReport(receiptFrom(runs, { claim }));
    expect(report).toContain("## 代理声明对照 / The agent's claim against the clean room");
    expect(report).toMatch(/\| \(hidden\) `hmac-sha256:[0-9a-f]{64}` \| passed \| failed \| possible_hidden_state_dependency \|/);
    expect(report).not.toContain('hidden > x');
    expect(report).not.toMatch(/^# heading/m);
    expect(report).toContain('claim_unknown_test');
  });
});

describe('the check run shows the claim table', () => {
  it('names a claimed hidden test as the hidden phase does in the check run, never by its keyed id', () => {
    const runs = passingRuns();
    runs.hidden = [run('hidden', [pass('hidden > y'), fail('hidden > x')])];
    const receipt = receiptFrom(runs, { claim: { format: 'junit', cases: [{ label: 'hidden > x', status: 'passed', keys: [] }] } });
    const check = renderCheck(receipt);
    expect(check.summary).toContain('| (hidden) `hidden test 2` | passed | failed | possible_hidden_state_dependency |');
    expect(check.summary).not.toContain(receipt.claim!.rows[0]!.id);
  });

  it('a claim in a receipt of an older schema does not verify', () => {
    const receipt = receiptFrom(passingRuns(), { claim: { format: 'junit', cases: [{ label: 'suite > a', status: 'passed', keys: [] }] } });
    const check = verifyReceiptText(
      reseal(receipt, (b) => {
        b.schema = 'patchproof.receipt/v3';
      })
    );
    expect(check.errors.join('; ')).toMatch(/a claim exists only from patchproof\.receipt\/v5/);
  });
});

describe('malformed claims are refused in one line', () => {
  const cases: [string, string][] = [
    ['plain text', 'all tests passed'],
    ['broken XML', '<testsuites><testsuite><testcase name="x"></testsuite>'],
    ['a DOCTYPE', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><testsuites/>'],
    ['no tests', '<testsuites></testsuites>'],
    ['JSON of another shape', '{"tests": 3}'],
    ['a broken go stream', '{"Action":"run","Package":"p","Test":"T"}\n{"Action":'],
    ['a testcase without a name', '<testsuite><testcase classname="a"/></testsuite>']
  ];
  it.each(cases)('refuses %s', (_name, text) => {
    expect(() => parseClaim(text, 'pytest')).toThrow(ClaimFormatError);
  });

  it('refuses through the file reader as a ConfigurationError of one line, and a file over the bound', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'claim-'));
    try {
      await writeFile(join(dir, 'bad.xml'), '<testsuites><testsuite>');
      const error = await readClaimFile(join(dir, 'bad.xml'), '--claimed', 'pytest').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(/^--claimed '.*bad\.xml' is not a claim PatchProof reads: /);
      expect((error as Error).message).not.toContain('\n');
      await writeFile(join(dir, 'big.xml'), `<testsuite>${' '.repeat(CLAIM_MAX_BYTES)}</testsuite>`);
      await expect(readClaimFile(join(dir, 'big.xml'), '--claimed', 'pytest')).rejects.toThrow(/larger than/);
      await expect(readClaimFile(join(dir, 'absent.xml'), '--claimed', 'pytest')).rejects.toThrow(ConfigurationError);
      const good = await readClaimFile(join(DATA, 'pytest-junit.xml'), '--claimed', 'pytest');
      expect(good.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(good.parsed.cases).toHaveLength(14);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads go test -json, leaving out parents of subtests as the go adapter does', () => {
    const stream = [
      { Action: 'run', Package: 'example.com/p', Test: 'TestA' },
      { Action: 'run', Package: 'example.com/p', Test: 'TestA/sub' },
      { Action: 'pass', Package: 'example.com/p', Test: 'TestA/sub' },
      { Action: 'pass', Package: 'example.com/p', Test: 'TestA' },
      { Action: 'fail', Package: 'example.com/p', Test: 'TestB' },
      { Action: 'pass', Package: 'example.com/p' }
    ]
      .map((e) => JSON.stringify(e))
      .join('\n');
    expect(parseClaim(stream, 'go')).toEqual({
      format: 'go-json',
      cases: [
        { label: 'example.com/p/TestA/sub', status: 'passed', keys: [{ kind: 'id', id: 'example.com/p/TestA/sub' }] },
        { label: 'example.com/p/TestB', status: 'failed', keys: [{ kind: 'id', id: 'example.com/p/TestB' }] }
      ]
    });
  });
});

it('compareClaim is pure over its inputs (same claim, same phases, same record)', async () => {
  const claim = parseClaim(await data('jest-junit.xml'), 'jest');
  const receipt = receiptFrom(runsWithSuite(JEST_IDS.map(pass)));
  const keyed = (id: string): string => `hmac-sha256:${id.length.toString(16).padStart(64, '0')}`;
  expect(compareClaim(claim, 'sha256:' + '1'.repeat(64), receipt.phases, keyed)).toEqual(compareClaim(claim, 'sha256:' + '1'.repeat(64), receipt.phases, keyed));
});
