import { fail, pass, passingRuns, receiptFrom, run } from '../helpers/evidence.js';
import { renderPhaseTable, renderReport } from '../../src/core/report.js';
import type { TamperScreen } from '../../src/core/tamper.js';

describe('report rendering', () => {
  it('prints one line per phase, the verdict and the proof grade', () => {
    const table = renderPhaseTable(receiptFrom(passingRuns()), true);
    expect(table.split('\n').slice(0, 4)).toEqual([
      '[PASS]         reproduction fails before the patch   (1 test)',
      '[PASS]         reproduction passes after the patch   (1 test)',
      '[PASS]         no regression in the full suite       (3 tests)',
      '[PASS]         hidden tests pass                     (2 tests)'
    ]);
    expect(table).toContain('validation: PASSED');
    expect(table).toContain('receipt integrity: VERIFIED');
    expect(table).toContain('proof grade: YES');
  });

  it('says why the trusted-local runner is not proof grade', () => {
    expect(renderPhaseTable(receiptFrom(passingRuns(), { isolated: false }), true)).toContain('proof grade: NO (trusted-local runner');
  });

  it('shows failing phases with their reasons, in both languages', () => {
    const runs = passingRuns();
    runs.hidden = [run('hidden', [fail('hidden > handles 1.5ms')])];
    const receipt = receiptFrom(runs);
    expect(renderPhaseTable(receipt, true)).toMatch(/\[FAIL\] +hidden tests pass +\(1 test\) {2}hidden_failed/);
    const report = renderReport(receipt);
    expect(report).toContain('**结论 / Verdict: 失败 / FAILED**');
    expect(report).toContain('- `hidden_failed`: 隐藏测试失败 / a hidden test fails');
    // Hidden means hidden (receipt v2): a keyed digest and the failure kind, never the name or message.
    expect(report).toMatch(/`hmac-sha256:[0-9a-f]{64}` — failed \(assertion\)/);
    expect(report).not.toContain('handles 1.5ms');
    expect(report).toContain('approved_by (declared, not authenticated');
  });

  it('lists regressions and baseline failures without blaming the patch for the latter', () => {
    const runs = passingRuns();
    runs.regression_after = [run('regression_after', [pass('suite > a'), fail('suite > b'), fail('suite > flaky-at-base')])];
    const report = renderReport(receiptFrom(runs));
    expect(report).toContain('退化 / regressions: `suite > b`');
    expect(report).toContain('failing at baseline (not blamed on the patch): 1');
  });

  it('caps the tests listed per phase', () => {
    const runs = passingRuns();
    runs.hidden = [
      run(
        'hidden',
        Array.from({ length: 80 }, (_, i) => fail(`hidden > t${i}`))
      )
    ];
    const report = renderReport(receiptFrom(runs), { maxTestsPerPhase: 10 });
    expect(report).toContain('- … 70 more');
    expect(report.match(/`hmac-sha256:[0-9a-f]{64}`/g)).toHaveLength(10);
  });
});

describe('report rendering of the test surface', () => {
  it('adds a line for the candidate touching its grader, and lists the findings in the report', () => {
    const receipt = receiptFrom(passingRuns(), {
      findings: [{ path: 'test/duration.test.js', change: 'modify', categories: ['test'], skip_markers: [{ line: 4, text: "test.skip('x', () => {" }] }]
    });
    const table = renderPhaseTable(receipt, true);
    expect(table).toContain('[FAIL]         grader untouched (reset to the base)  (1 path: test/duration.test.js (modify))  grader_tampered, tests_skipped');
    const report = renderReport(receipt);
    expect(report).toContain("- `test/duration.test.js` — modify, test, 已恢复 / reset: restored (skip markers: line 4: `test.skip('x', () => {`)");
  });

  it('says "reset" only for paths that were reset: a dependency manifest is listed as not reset', () => {
    const receipt = receiptFrom(passingRuns(), {
      findings: [
        { path: 'package-lock.json', change: 'modify', categories: ['dependency'], skip_markers: [] },
        { path: 'test/duration.test.js', change: 'modify', categories: ['test'], skip_markers: [] }
      ]
    });
    const table = renderPhaseTable(receipt, true);
    expect(table).not.toContain('(reset to the base)');
    expect(table).toContain('grader untouched (1 reset, 1 not)');
    expect(table).toContain('package-lock.json (modify, not reset)');
    const report = renderReport(receipt);
    expect(report).toContain('- `package-lock.json` — modify, dependency, 未重置 / not reset');
    expect(report).toContain('- `test/duration.test.js` — modify, test, 已恢复 / reset: restored');
  });
});

describe('the tamper screen in the report', () => {
  const screen: TamperScreen = {
    files_screened: 2,
    findings: [
      { rule: 'env_argv_read', path: 'src/config.js', line: 3, text: 'process.env.PORT', allowed: true },
      { rule: 'monkeypatch', path: 'src/compat.js', line: 2, text: 'Math.trunc = Math.floor | x', allowed: false }
    ],
    not_screened: ['README.md']
  };

  it('says on the console why proof grade was withheld, and lists the findings', () => {
    const table = renderPhaseTable(receiptFrom(passingRuns(), { tamper: screen }), true);
    expect(table).toContain('validation: PASSED');
    expect(table).toContain('proof grade: NO (proof grade withheld: tamper screen (1 finding): monkeypatch src/compat.js:2)');
    expect(table).toMatch(/\[WARN\] +tamper screen \(2 files\) +\(2 findings \(1 allowed by the pack\): env_argv_read src\/config\.js:3, monkeypatch src\/compat\.js:2\)/);
    expect(renderPhaseTable(receiptFrom(passingRuns()), true)).toMatch(/\[PASS\] +tamper screen \(1 file\) +\(no finding\)/);
  });

  it('has a bilingual section: every finding with its rule, place, code and allowance, and what was not screened', () => {
    const report = renderReport(receiptFrom(passingRuns(), { tamper: screen }));
    expect(report).toContain('**结论 / Verdict: 通过 / PASSED** · 证明级 / proof grade: 否 / NO (篡改筛查扣留 / proof grade withheld: tamper screen (1 finding))');
    expect(report).toContain('## 篡改筛查 / Tamper screen');
    expect(report).toContain('筛查文件 / files screened: 2 · 发现 / findings: 2 (1 经见证包豁免 / allowed by the witness pack)');
    expect(report).toContain(
      '| `monkeypatch`: 修改导入模块、内置对象或原型的属性 / assigns to an attribute of an imported module, a builtin or a prototype | `src/compat.js:2` | `Math.trunc = Math.floor \\| x` | 否 / no |'
    );
    expect(report).toContain('| `src/config.js:3` | `process.env.PORT` | 是 / yes |');
    expect(report).toContain('not screened (not Python, JS/TS, Go or Rust): `README.md`');
    expect(renderReport(receiptFrom(passingRuns()))).not.toContain('扣留');
  });
});
