import type { Receipt, PhaseRecord } from './receipt-schema.js';
import type { PhaseName, ReasonCode } from './verdict.js';
import { codeSpan, escapeMarkdown } from './markdown.js';
import { renderClaimMarkdown } from './claim-report.js';
import { formatDiagnostic } from './build-diagnostics.js';
import { tamperBlocking, tamperWithheldLine, tamperWithholds, type TamperRule } from './tamper.js';

/**
 * Human-facing renderings of a receipt: the console phase table and the bilingual (zh/en) report.
 * Pure: receipt in, text out.
 */

const PHASE_TITLES: Record<PhaseName, { en: string; zh: string }> = {
  reproduction_before: { en: 'reproduction fails before the patch', zh: '补丁前复现失败' },
  reproduction_after: { en: 'reproduction passes after the patch', zh: '补丁后复现通过' },
  regression: { en: 'no regression in the full suite', zh: '完整回归无退化' },
  hidden: { en: 'hidden tests pass', zh: '隐藏测试通过' }
};

const REASON_TEXT: Record<ReasonCode, { en: string; zh: string }> = {
  patch_invalid: { en: 'the diff does not apply exactly', zh: '补丁无法精确应用' },
  policy_violation: { en: 'the diff breaks the diff policy', zh: '补丁违反策略' },
  repro_passes_before: { en: 'the reproduction already passes without the patch', zh: '补丁前复现已通过' },
  repro_wrong_failure: {
    en: 'the reproduction fails for the wrong reason (import, collection, setup, timeout, no tests)',
    zh: '复现因错误原因失败（导入、收集、夹具、超时或无测试）'
  },
  not_fixed: { en: 'the reproduction still fails after the patch', zh: '补丁后复现仍失败' },
  regression: { en: 'a test that passed before the patch no longer passes', zh: '补丁前通过的测试不再通过' },
  hidden_failed: { en: 'a hidden test fails', zh: '隐藏测试失败' },
  flaky: { en: 'a test gave different results in repeated runs of the same tree', zh: '同一代码多次运行结果不一致（不稳定测试）' },
  tests_removed: { en: 'the candidate removed tests (a file, or ids present at baseline and gone after)', zh: '候选补丁删除了测试' },
  tests_skipped: { en: 'the candidate skipped, focused or expect-failed tests', zh: '候选补丁跳过或聚焦了测试' },
  grader_tampered: {
    en: 'the candidate touched tests, test configuration, protected paths or the witness placement',
    zh: '候选补丁改动了测试、测试配置、受保护路径或见证测试位置'
  },
  test_ids_mismatch: {
    en: "the run's test ids are not the ids the witness pack pins (missing, extra or renamed)",
    zh: '运行的测试 ID 与见证包固定的 ID 不符（缺失、多余或改名）'
  },
  grader_compromised: {
    en: 'a grader canary did not behave, or results disagree with the exit code or counts: the test framework was tampered with',
    zh: '评分金丝雀异常或结果与退出码/计数不符：测试框架被篡改'
  },
  dependency_changed: { en: 'the candidate changed dependency manifests or lockfiles', zh: '候选补丁修改了依赖清单或锁文件' },
  dependency_setup_failed: { en: "the dependency stage failed on the candidate's manifests", zh: '依赖阶段在候选补丁的依赖清单上失败' },
  dependency_refused: {
    en: "the candidate's dependencies point at local code, a non-registry URL, or change the test runner's own dependencies",
    zh: '候选补丁的依赖指向本地代码或非注册表地址，或改变了测试运行器自身的依赖'
  },
  no_results: { en: 'a run produced no test results', zh: '某次运行没有测试结果' },
  timeout: { en: 'a run hit its time limit', zh: '某次运行超时' },
  output_limit: { en: 'a run exceeded its output limit', zh: '某次运行超出输出上限' },
  results_inconsistent: { en: 'structured result files are malformed or duplicated', zh: '结构化结果文件格式错误或重复' },
  infra_error: { en: "infrastructure error (not the candidate's fault)", zh: '基础设施错误（非候选补丁之过）' },
  repository_changed: { en: 'the real checkout changed during the run', zh: '真实仓库在运行期间被修改' },
  base_unrunnable: { en: "the grader cannot run on the base tree (not the candidate's fault)", zh: '评分器无法在基线代码上运行（非候选补丁之过）' },
  observations_invalid: { en: 'sealed-oracle observations were extra, duplicated or malformed', zh: '密封预言的观测值多余、重复或格式错误' },
  policy_gate_failed: {
    en: 'the L0 policy gate failed (a path outside allowed_paths, a secret or a generated file): nothing of the candidate ran',
    zh: 'L0 策略门未通过（超出 allowed_paths 的路径、秘密信息或生成文件）：候选补丁未运行'
  },
  formal_counterexample: { en: "the formal gate found an input for which the candidate's function breaks its spec", zh: '形式化关卡找到了使候选函数违反规格的输入（反例）' },
  formal_unknown: {
    en: 'the formal gate could not decide a required target (outside the subset, a timeout, or beyond the bounds)',
    zh: '形式化关卡无法判定一个必需目标（超出子集、超时或超出边界）'
  },
  build_failed: { en: "the pack's build command succeeds on the base and fails on the candidate's tree", zh: '构建命令在基线上成功，在候选补丁的代码上失败' },
  build_base_failed: { en: "the pack's build command fails on the base tree: nothing is held against the candidate", zh: '构建命令在基线上就失败：不归咎于候选补丁' },
  build_inconclusive: { en: "the candidate's build timed out, was cut at the output cap or hit an infrastructure fault", zh: '候选补丁的构建超时、输出被截断或遇到基础设施故障' },
  formal_bounded_only: {
    en: 'a required target was only checked up to its loop bound, not proved (some inputs need more iterations)',
    zh: '一个必需目标只在循环展开界内检查通过，未被证明（部分输入需要更多迭代）'
  }
};

const FORMAL_MARK = { proved: 'PROVED', checked: 'CHECKED', counterexample: 'COUNTEREXAMPLE', unknown: 'UNKNOWN' } as const;
const FORMAL_ZH = { proved: '已证明', checked: '有界检查', counterexample: '反例', unknown: '未知' } as const;

/** A model value as code reads it: an exact big integer (a decimal string in the receipt) without quotes. */
function modelText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return `[${value.map((v) => modelText(v)).join(', ')}]`;
  return JSON.stringify(value);
}

/** A counterexample's inputs as a JS call, e.g. pageCount(0, 1). */
function formalCall(target: FormalTarget): string {
  const cex = target.counterexample;
  if (cex === undefined) return '';
  const args = Object.values(cex.inputs)
    .map((v) => modelText(v))
    .join(', ');
  // A path that raises (the obligation names the error) returns nothing at all.
  const raises = cex.violated.some((v) => /\(else \w+Error\)/.test(v));
  return `${target.function}(${args})${cex.result !== undefined ? ` returns ${modelText(cex.result)}` : raises ? ' raises' : ' returns undefined'}`;
}

type FormalTarget = NonNullable<Receipt['formal']>['targets'][number];

/**
 * The bounds a proved or checked target holds under, in words (issue 29): the integers, the
 * array lengths and the loop iterations it covers, and the solver. A receipt older than these
 * fields names the bounds without saying whether they limit it.
 */
export function formalScopeText(t: Pick<FormalTarget, 'scope'>): string {
  const { scope } = t;
  const integers = scope.integers === 'python-int' ? "integers: Python's unbounded int" : 'integers: JS safe integers, ±(2^53−1)';
  const arrays =
    scope.lengths === undefined
      ? `arrays ≤ ${scope.array_length}`
      : scope.lengths === 'all_allowed'
        ? `arrays: every length requires allows (≤ ${scope.array_length})`
        : `arrays: length ≤ ${scope.array_length} only (requires allows longer)`;
  const loops =
    scope.loops === undefined
      ? `unroll ${scope.unroll}`
      : scope.loops === 'none'
        ? 'no loops'
        : scope.loops === 'all_within_unroll'
          ? `loops: every run ends within ${scope.unroll} iterations`
          : `loops: runs of at most ${scope.unroll} iterations only`;
  return [integers, ...(scope.lengths !== undefined || scope.loops === undefined ? [arrays] : []), loops, scope.solver].join('; ');
}

/** The formal gate's lines, for the console and the report. */
function formalLines(receipt: Receipt, markdown: boolean): string[] {
  const formal = receipt.formal;
  if (formal === undefined) return [];
  return formal.targets.map((t) => {
    const scope = formalScopeText(t);
    const what =
      t.status === 'counterexample'
        ? `${formalCall(t)}; violates ${t.counterexample!.violated.join('; ')}${t.replay !== undefined ? '; replayed in the runner: it fails there' : ''}`
        : t.status === 'unknown'
          ? (t.reason ?? '')
          : t.status === 'checked'
            ? `no counterexample within the bounds, not a proof (${scope}): ${t.reason ?? ''}`
            : `for every input requires allows (${scope})`;
    if (!markdown) return `[${FORMAL_MARK[t.status]}] `.padEnd(15) + `formal: ${t.name}${t.required ? ' (required)' : ''}`.padEnd(38) + what;
    return `- ${codeSpan(t.name)}${t.required ? ' (必需 / required)' : ''}: **${FORMAL_ZH[t.status]} / ${FORMAL_MARK[t.status]}** — ${codeSpan(what)}`;
  });
}

/** Reasons of a base reproduction that did not establish the bug: the pack's fault, never the candidate's. */
const PACK_FAULTS: ReadonlySet<ReasonCode> = new Set(['repro_passes_before', 'repro_wrong_failure', 'flaky', 'test_ids_mismatch']);

const STATUS_MARK = { passed: 'PASS', failed: 'FAIL', inconclusive: 'INCONCLUSIVE', not_run: 'NOT RUN' } as const;

/** The build gate's line (the console) or lines (the report): its status and first root cause. */
function buildLines(receipt: Receipt, markdown: boolean): string[] {
  const build = receipt.build;
  if (build === undefined) return [];
  const failedRun =
    build.candidate?.diagnostic !== undefined
      ? { tree: 'candidate', d: build.candidate.diagnostic }
      : build.base.diagnostic !== undefined
        ? { tree: 'base', d: build.base.diagnostic }
        : undefined;
  const first = failedRun === undefined ? '' : `${failedRun.tree}: ${formatDiagnostic(failedRun.d)}`;
  if (!markdown) return [`[${STATUS_MARK[build.status]}]`.padEnd(15) + `build: ${build.argv.join(' ')}`.slice(0, 60).padEnd(38) + (first === '' ? '' : `  ${first.slice(0, 300)}`)];
  return [
    `- ${codeSpan(build.argv.join(' '))}: **${STATUS_MARK[build.status]}**`,
    ...(failedRun === undefined ? [] : [`- 首个错误 / first error (${failedRun.tree}): ${codeSpan(formatDiagnostic(failedRun.d))}`])
  ];
}

function testCount(phase: PhaseRecord): string {
  const n = phase.results.length;
  return `${n} test${n === 1 ? '' : 's'}`;
}

function proofGradeLine(receipt: Receipt): string {
  if (receipt.proof_grade) return 'YES';
  if (!receipt.runner.isolated) return 'NO (trusted-local runner; proof grade needs the Docker runner)';
  if (receipt.verdict !== 'passed') return 'NO (the validation did not pass)';
  const inProcess = receipt.phases.filter((p) => (p.name === 'reproduction_after' || p.name === 'hidden') && p.grading !== 'sealed' && p.grading !== undefined);
  if (inProcess.length > 0) return `NO (graded in-process, not by sealed oracles: ${inProcess.map((p) => p.name).join(', ')})`;
  if (receipt.tamper_screen !== undefined && tamperWithholds(receipt.tamper_screen)) {
    const shown = tamperBlocking(receipt.tamper_screen)
      .slice(0, 3)
      .map((f) => `${f.rule} ${f.path}:${f.line}`);
    const more = tamperBlocking(receipt.tamper_screen).length - shown.length;
    return `NO (${tamperWithheldLine(receipt.tamper_screen)}: ${shown.join(', ')}${more > 0 ? `, ${more} more` : ''})`;
  }
  return 'NO (the validation did not pass)';
}

/** What each tamper rule means, for the report. */
export const TAMPER_RULE_TEXT: Record<TamperRule, { en: string; zh: string }> = {
  monkeypatch: { en: 'assigns to an attribute of an imported module, a builtin or a prototype', zh: '修改导入模块、内置对象或原型的属性' },
  test_framework_reference: { en: 'refers to a test framework, an assertion library or the grader', zh: '引用测试框架、断言库或评分器' },
  introspection: { en: "reads source, frames or stacks (its own or its callers')", zh: '读取源代码、调用帧或调用栈' },
  env_argv_read: { en: 'reads the environment, argv or the working directory', zh: '读取环境变量、命令行参数或工作目录' },
  process_control: { en: 'exit hooks, signal handlers, exits, re-exec or child processes', zh: '退出钩子、信号处理、退出、重新执行或子进程' },
  import_hook: { en: 'import hooks, or changes to the module registry or search path', zh: '导入钩子，或修改模块注册表与搜索路径' },
  dynamic_code: { en: 'runs code built at run time (eval, exec, new Function, dynamic import)', zh: '运行时构造并执行代码（eval、exec、new Function、动态导入）' },
  lying_type: {
    en: 'a value that decides its own equality or conversion (builtin subclass, __eq__, asymmetricMatch, valueOf)',
    zh: '自行决定相等或类型转换的值（内置类型子类、__eq__、asymmetricMatch、valueOf）'
  },
  unparsed: { en: 'a changed file that does not parse (never allowed)', zh: '无法解析的改动文件（不可豁免）' }
};

/** The tamper screen's lines of the console table. */
function tamperTableLine(receipt: Receipt): string[] {
  const screen = receipt.tamper_screen;
  if (screen === undefined) return [];
  const blocking = tamperBlocking(screen);
  const mark = `[${blocking.length > 0 ? 'WARN' : 'PASS'}]`.padEnd(15);
  const title = `tamper screen (${screen.files_screened} file${screen.files_screened === 1 ? '' : 's'})`.padEnd(38);
  const what =
    screen.findings.length === 0
      ? 'no finding'
      : `${screen.findings.length} finding${screen.findings.length === 1 ? '' : 's'}${blocking.length < screen.findings.length ? ` (${screen.findings.length - blocking.length} allowed by the pack)` : ''}: ${screen.findings
          .slice(0, 3)
          .map((f) => `${f.rule} ${f.path}:${f.line}`)
          .join(', ')}${screen.findings.length > 3 ? ', …' : ''}`;
  return [`${mark}${title}(${what})`];
}

/** The report's tamper-screen section: every finding (up to `limit`), what it means, and what was not screened. */
function tamperSection(receipt: Receipt, limit: number): string[] {
  const screen = receipt.tamper_screen;
  if (screen === undefined) return [];
  const out = ['', '## 篡改筛查 / Tamper screen', ''];
  const blocking = tamperBlocking(screen);
  if (blocking.length > 0) {
    out.push(
      `**证明级被扣留 / ${tamperWithheldLine(screen)}**：候选补丁在非测试代码中引入了可让进程内评分说谎的写法；结论不变。/ The candidate's non-test code introduces constructs that can make the in-process grader lie; the verdict stays.`,
      ''
    );
  }
  out.push(
    `筛查文件 / files screened: ${screen.files_screened} · 发现 / findings: ${screen.findings.length}${screen.findings.length > blocking.length ? ` (${screen.findings.length - blocking.length} 经见证包豁免 / allowed by the witness pack)` : ''}`
  );
  if (screen.findings.length > 0) {
    out.push('', '| 规则 / Rule | 位置 / Where | 代码 / Code | 豁免 / Allowed |', '| --- | --- | --- | --- |');
    for (const f of screen.findings.slice(0, limit)) {
      out.push(
        `| \`${f.rule}\`: ${TAMPER_RULE_TEXT[f.rule].zh} / ${TAMPER_RULE_TEXT[f.rule].en} | ${codeSpan(`${f.path}:${f.line}`, { cell: true })} | ${codeSpan(f.text, { cell: true })} | ${f.allowed && f.rule !== 'unparsed' ? '是 / yes' : '否 / no'} |`
      );
    }
    if (screen.findings.length > limit) out.push('', `- … ${screen.findings.length - limit} more`);
  }
  if (screen.not_screened.length > 0) {
    const shown = screen.not_screened.slice(0, Math.min(limit, 20)).map((p) => codeSpan(p, { cell: true }));
    out.push(
      '',
      `未筛查（非 Python、JS/TS、Go、Rust）/ not screened (not Python, JS/TS, Go or Rust): ${shown.join(', ')}${screen.not_screened.length > shown.length ? `, … ${screen.not_screened.length - shown.length} more` : ''}`
    );
  }
  return out;
}

/** The console table printed by `patchproof validate`. */
export function renderPhaseTable(receipt: Receipt, integrityVerified: boolean): string {
  const lines = receipt.phases.map((phase) => {
    const mark = `[${STATUS_MARK[phase.status]}]`.padEnd(15);
    const title = PHASE_TITLES[phase.name].en.padEnd(38);
    const reasons = phase.reasons.length > 0 ? `  ${phase.reasons.join(', ')}` : '';
    return `${mark}${title}(${testCount(phase)})${reasons}${firstCheck(phase)}`;
  });
  const surface = receipt.surface;
  if (surface.findings.length > 0) {
    const mark = `[${surface.reasons.length > 0 ? 'FAIL' : 'PASS'}]`.padEnd(15);
    // "reset" only for paths that were reset: a dependency manifest is left to the dependency stage.
    const wasReset = resetPaths(surface);
    const notReset = surface.findings.filter((f) => !wasReset.has(f.path)).length;
    const touched =
      surface.findings
        .slice(0, 3)
        .map((f) => `${f.path} (${f.change}${wasReset.has(f.path) ? '' : ', not reset'})`)
        .join(', ') + (surface.findings.length > 3 ? ', …' : '');
    const title = notReset === 0 ? 'grader untouched (reset to the base)' : `grader untouched (${surface.findings.length - notReset} reset, ${notReset} not)`;
    lines.push(
      `${mark}${title.padEnd(38)}(${surface.findings.length} path${surface.findings.length === 1 ? '' : 's'}: ${touched})${surface.reasons.length > 0 ? `  ${surface.reasons.join(', ')}` : ''}`
    );
  }
  lines.push(...buildLines(receipt, false));
  lines.push(...formalLines(receipt, false));
  lines.push(...tamperTableLine(receipt));
  lines.push(
    '',
    `validation: ${receipt.verdict.toUpperCase()}${receipt.reasons.length > 0 ? ` (${receipt.reasons.join(', ')})` : ''}`,
    `repository unchanged: ${receipt.repository.unchanged ? 'YES' : 'NO'}`,
    `receipt integrity: ${integrityVerified ? 'VERIFIED' : 'INVALID'}`,
    `proof grade: ${proofGradeLine(receipt)}`,
    `receipt: ${receipt.receipt_digest}`
  );
  return lines.join('\n');
}

/** The checks that fired for a phase (issue 28 item 8): which check, in which run, and what it saw. */
function checkLines(phase: PhaseRecord, limit: number): string[] {
  const checks = phase.checks ?? [];
  if (checks.length === 0) return [];
  const shown = checks
    .slice(0, limit)
    .map((c) => `- ${codeSpan(c.check, { cell: true })}${c.run !== undefined ? ` @ ${codeSpan(c.run, { cell: true })}` : ''} — ${escapeMarkdown(c.detail)}`);
  return ['触发的检查 / checks that fired:', '', ...shown, ...(checks.length > limit ? [`- … ${checks.length - limit} more`] : []), ''];
}

/** The first check that fired for a phase, for the console table. */
function firstCheck(phase: PhaseRecord): string {
  const check = phase.checks?.[0];
  if (check === undefined) return '';
  const more = (phase.checks?.length ?? 0) > 1 ? ` (+${String((phase.checks?.length ?? 0) - 1)} more)` : '';
  return `\n${' '.repeat(15)}check: ${check.check}${check.run !== undefined ? ` @ ${check.run}` : ''}: ${check.detail}${more}`;
}

function failingTests(phase: PhaseRecord, limit: number): string[] {
  const bad = phase.results.filter((t) => (phase.name === 'reproduction_before' ? t.status === 'passed' || t.status === 'skipped' : t.status !== 'passed'));
  const shown = bad.slice(0, limit).map((t) => {
    const detail = [t.failure_kind, t.location, t.message].filter((x) => x !== undefined && x !== '').join(' · ');
    return `- ${codeSpan(t.id, { cell: true })} — ${t.status}${detail ? ` (${escapeMarkdown(detail)})` : ''}`;
  });
  if (bad.length > limit) shown.push(`- … ${bad.length - limit} more`);
  return shown;
}

/** The bilingual Markdown report written beside the receipt. */
export function renderReport(
  receipt: Receipt,
  options: { maxTestsPerPhase?: number; baseFailure?: { label: string; attempt: number; excerpt: string; sha256: string } } = {}
): string {
  const limit = options.maxTestsPerPhase ?? 50;
  const verdictZh = { passed: '通过', failed: '失败', inconclusive: '无定论' }[receipt.verdict];
  const out: string[] = [
    `# PatchProof 验证报告 / Validation report`,
    '',
    `**结论 / Verdict: ${verdictZh} / ${receipt.verdict.toUpperCase()}** · 证明级 / proof grade: ${receipt.proof_grade ? '是 / YES' : '否 / NO'}${
      !receipt.proof_grade && receipt.verdict === 'passed' && receipt.tamper_screen !== undefined && tamperWithholds(receipt.tamper_screen)
        ? ` (篡改筛查扣留 / ${tamperWithheldLine(receipt.tamper_screen)})`
        : ''
    }`,
    '',
    '| 阶段 / Phase | 结果 / Result | 测试 / Tests | 原因 / Reasons |',
    '| --- | --- | --- | --- |'
  ];
  for (const phase of receipt.phases) {
    const title = PHASE_TITLES[phase.name];
    const t = phase.tests;
    const counts = `${t.passed} passed, ${t.failed} failed, ${t.errored} errored, ${t.skipped} skipped`;
    out.push(`| ${title.zh} / ${title.en} | ${STATUS_MARK[phase.status]} | ${counts} | ${phase.reasons.join(', ') || '—'} |`);
  }
  if (receipt.gates !== undefined && receipt.build?.status === 'failed' && receipt.phases.some((phase) => phase.status === 'not_run')) {
    out.push('', "构建关卡失败，候选补丁的其余阶段未运行。 / The build gate (L1) failed: the candidate's later phases were not run.");
  } else if (receipt.phases.some((phase) => phase.status === 'not_run')) {
    out.push(
      '',
      "未运行的阶段不需要：基线复现没有确认缺陷，候选补丁的运行已取消。 / The phases not run were not needed: the base reproduction did not establish the bug, so the candidate's runs were cancelled."
    );
    const before = receipt.phases.find((phase) => phase.name === 'reproduction_before');
    if (before?.status === 'inconclusive' && before.reasons.some((code) => PACK_FAULTS.has(code))) {
      out.push(
        '',
        `这是见证包的问题，不是候选补丁的问题：复现测试在未修改的基线上没有按要求失败（${before.reasons.join(', ')}）。请用 \`patchproof witness record --reference\` 检查见证包。 / This is a fault of the witness pack, not of the candidate: its reproduction did not fail as required on the untouched base (${before.reasons.join(', ')}). Check the pack with \`patchproof witness record --reference\`.`
      );
    }
  }
  if (receipt.reasons.length > 0) {
    out.push('', '## 原因 / Reasons', '');
    for (const code of receipt.reasons) out.push(`- \`${code}\`: ${REASON_TEXT[code].zh} / ${REASON_TEXT[code].en}`);
  }
  if (receipt.build !== undefined) out.push('', '## 构建关卡 / Build gate (L1)', '', ...buildLines(receipt, true));
  if (receipt.formal !== undefined) {
    out.push(
      '',
      '## 形式化关卡 / Formal gate',
      '',
      '证明只在所记录的范围内成立（整数模型、数组长度与循环展开上限、求解器版本），每个目标都写明其范围。/ A proof holds within its recorded scope only (the integer model, the array-length and unrolling bounds, the solver version), stated for each target.',
      '',
      ...formalLines(receipt, true)
    );
  }
  const baseFailure = options.baseFailure;
  if (baseFailure !== undefined) {
    // The excerpt is already bounded and redacted (errorExcerpt); the run record keeps its digest.
    const fence = baseFailure.excerpt.includes('```') ? '~~~~' : '```';
    out.push(
      '',
      '## 基线无法运行 / The grader cannot run on the base tree',
      '',
      `${baseFailure.label} run ${baseFailure.attempt}, 输出摘录 / output excerpt (sha256 \`${baseFailure.sha256}\`):`,
      '',
      fence,
      baseFailure.excerpt === '' ? '(no output)' : baseFailure.excerpt,
      fence
    );
  }
  out.push(...tamperSection(receipt, limit));
  out.push(...tripwireSection(receipt, limit));
  const surface = receipt.surface;
  if (surface.findings.length > 0) {
    out.push(
      '',
      '## 测试面 / Test surface',
      '',
      '候选补丁触及的测试面（每条注明是否已在判定前重置为基线）/ What the candidate touched on the test surface (each says whether it was reset to the base before judging):',
      ''
    );
    const restored = new Set(surface.restored);
    const removed = new Set(surface.removed);
    for (const f of surface.findings.slice(0, limit)) {
      const markers = f.skip_markers.map((m) => `line ${m.line}: ${codeSpan(m.text.trim(), { cell: true })}`).join('; ');
      const fate = restored.has(f.path) ? '已恢复 / reset: restored' : removed.has(f.path) ? '已移除 / reset: removed' : '未重置 / not reset';
      out.push(`- ${codeSpan(f.path, { cell: true })} — ${f.change}, ${f.categories.join('+')}, ${fate}${markers ? ` (skip markers: ${markers})` : ''}`);
    }
    if (surface.findings.length > limit) out.push(`- … ${surface.findings.length - limit} more`);
    if (surface.relaxed.length > 0) out.push('', `放宽规则 / relaxed by the witness pack: ${surface.relaxed.join(', ')}`);
  }
  for (const phase of receipt.phases) {
    const lines = failingTests(phase, limit);
    const extra: string[] = [];
    if (phase.flaky && phase.flaky.length > 0) extra.push(`不稳定 / flaky: ${phase.flaky.map((id) => codeSpan(id, { cell: true })).join(', ')}`);
    if (phase.regressions && phase.regressions.length > 0) extra.push(`退化 / regressions: ${phase.regressions.map((id) => codeSpan(id, { cell: true })).join(', ')}`);
    if (phase.preexisting_failures && phase.preexisting_failures.length > 0) {
      extra.push(`基线已失败（不归咎于补丁）/ failing at baseline (not blamed on the patch): ${phase.preexisting_failures.length}`);
    }
    const checks = checkLines(phase, limit);
    if (lines.length === 0 && extra.length === 0 && checks.length === 0) continue;
    out.push('', `## ${PHASE_TITLES[phase.name].zh} / ${PHASE_TITLES[phase.name].en}`, '', ...extra.map((e) => `${e}  `), ...checks, ...lines);
  }
  if (receipt.claim !== undefined) out.push('', ...renderClaimMarkdown(receipt.claim, limit));
  out.push(
    '',
    '## 绑定 / Bindings',
    '',
    `- proposal_hash: \`${receipt.bindings.proposal_hash}\``,
    `- approved_by (declared, not authenticated / 声明式，未认证): ${escapeMarkdown(receipt.bindings.approved_by)}`,
    `- base_snapshot: \`${receipt.bindings.base_snapshot}\``,
    `- diff_digest: \`${receipt.bindings.diff_digest}\``,
    `- witness_digest: \`${receipt.bindings.witness_digest}\` (${receipt.witness.source.kind}: ${escapeMarkdown(receipt.witness.source.location)})`,
    `- runner: ${receipt.runner.kind} (isolated: ${receipt.runner.isolated})${receipt.runner.image_id ? `, image ${receipt.runner.image_id}` : ''}`,
    `- 仓库未变 / repository unchanged: ${receipt.repository.unchanged ? 'YES' : 'NO'}`,
    `- receipt_digest: \`${receipt.receipt_digest}\``,
    '',
    '回执哈希可发现内容变化，但不认证执行者或审批人。/ The receipt digest detects changes; it does not authenticate who ran or approved the validation.',
    ''
  );
  return out.join('\n');
}

/**
 * What the in-process tripwire found changed in the grader, run by run (src/adapters/shared/tripwire.ts):
 * the reason a run is `grader_compromised`, named. Empty when no run named a change.
 */
function tripwireSection(receipt: Receipt, limit: number): string[] {
  const lines = receipt.phases.flatMap((phase) =>
    phase.runs
      .filter((run) => run.canary.changed !== undefined)
      .map(
        (run) => `- ${PHASE_TITLES[phase.name].zh} / ${phase.name}, ${run.label} #${run.attempt}: ${(run.canary.changed ?? []).map((c) => codeSpan(c, { cell: true })).join(', ')}`
      )
  );
  if (lines.length === 0) return [];
  return [
    '',
    '## 评分器被改动 / The grader was changed',
    '',
    '进程内绊线发现测试代码运行期间评分器的函数被替换或删除（在测试进程内检查，可被绕过，不是边界）。/ The in-process tripwire found grader functions replaced or removed while the tests ran (checked inside the test process: a tripwire, not a boundary).',
    '',
    ...lines.slice(0, limit),
    ...(lines.length > limit ? [`- … ${lines.length - limit} more`] : [])
  ];
}

function resetPaths(surface: Receipt['surface']): Set<string> {
  return new Set([...surface.restored, ...surface.removed]);
}
