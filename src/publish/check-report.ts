import { allowancesOf } from '../core/receipt.js';
import { codeSpan, escapeMarkdown, plainText } from '../core/markdown.js';
import type { PhaseRecord, Receipt } from '../core/receipt-schema.js';
import { renderReport, TAMPER_RULE_TEXT } from '../core/report.js';
import { tamperBlocking, tamperWithheldLine, tamperWithholds } from '../core/tamper.js';
import { surfaceReasons } from '../core/surface.js';
import { RIGHT_REASON_FAILURES } from '../core/test-results.js';
import type { PhaseName, ReasonCode, Verdict } from '../core/verdict.js';
import type { CheckAnnotation, RenderedCheck } from './ports.js';

/**
 * A receipt as a check run: title, bilingual summary (the report of src/core/report.ts), per-phase
 * detail and annotations, all within the Checks API's limits. Pure: receipt in, data out.
 *
 * GitHub enforces the 65,535 limit of `summary` and `text` in UTF-8 bytes ("summary exceeds a maximum
 * bytesize of 65535"), although its description says characters; a Chinese character takes three
 * bytes. So every budget here is counted in UTF-8 bytes, which also bounds the characters.
 */

/** GitHub's limit on `output.summary` and `output.text`. */
export const CHECK_OUTPUT_LIMIT = 65_535;
/** GitHub's limit on an annotation's title. */
export const ANNOTATION_TITLE_LIMIT = 255;
/** GitHub's limit on an annotation's message is "64 KB", unit unsaid: 64,000 bytes fits either reading. */
export const ANNOTATION_MESSAGE_LIMIT = 64_000;
/** One test id, path or skip marker from the candidate or test output, in an annotation (code units). */
export const ANNOTATION_UNTRUSTED_LIMIT = 300;
/** One failure message from test output, in an annotation (code units); the full message is in report.md. */
export const ANNOTATION_UNTRUSTED_MESSAGE_LIMIT = 2_000;
/** Annotations per check run unless told otherwise: four requests' worth (one create, three updates). */
export const DEFAULT_MAX_ANNOTATIONS = 200;
/** Tamper-screen annotations per check run: one request's worth (GitHub takes 50 per request), so they never crowd out the rest. */
export const MAX_TAMPER_ANNOTATIONS = 50;

/** Appended where a summary or text was cut. */
export const TRUNCATED_MARKER = '*… truncated / 已截断 — the full report is report.md in the receipt artifact / 完整报告见回执工件中的 report.md*';

const DEGRADED_NOTE =
  "*部分细节已省略，以符合 GitHub 的长度限制；完整报告见回执工件中的 report.md。/ Some details are left out to fit GitHub's size limit; the full report is report.md in the receipt artifact.*";

/** Ids, paths and messages are clipped to this many bytes once the ladder starts clipping. */
const CLIP_BYTES = 300;

type TestResult = PhaseRecord['results'][number];

/** How much a rendering shows. The ladder is walked from the top until the output fits. */
interface Detail {
  /** Details (tests, runs, id lists) of phases that passed. */
  passedPhases: boolean;
  /** Tests that meet their phase's requirement, and id lists the test table already shows. */
  passingTests: boolean;
  /** Clip each id, path and message to CLIP_BYTES. */
  clip: boolean;
  /** Tests, findings and ids listed per phase. */
  limit: number;
}

// Degrade in this order: drop passing details, then list only failing tests, then cap the lists.
const LADDER: readonly Detail[] = [
  { passedPhases: true, passingTests: true, clip: false, limit: Infinity },
  { passedPhases: false, passingTests: true, clip: false, limit: Infinity },
  { passedPhases: false, passingTests: false, clip: true, limit: Infinity },
  { passedPhases: false, passingTests: false, clip: true, limit: 50 },
  { passedPhases: false, passingTests: false, clip: true, limit: 10 },
  { passedPhases: false, passingTests: false, clip: true, limit: 0 }
];

/** The check run's conclusion. Only `passed` succeeds: neutral or skipped would satisfy a required check. */
export function checkConclusion(verdict: Verdict): 'success' | 'failure' {
  switch (verdict) {
    case 'passed':
      return 'success';
    case 'failed':
    case 'inconclusive':
      return 'failure';
  }
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The longest prefix of `text` within `max` UTF-8 bytes, cut between code points (never inside a surrogate pair). */
export function clipToBytes(text: string, max: number): string {
  if (text.length * 3 <= max) return text;
  let used = 0;
  for (let i = 0; i < text.length;) {
    const unit = text.charCodeAt(i);
    const pair = unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    // A lone surrogate is encoded as U+FFFD: three bytes.
    const size = pair ? 4 : unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
    if (used + size > max) return text.slice(0, i);
    used += size;
    i += pair ? 2 : 1;
  }
  return text;
}

/** `text` within `max` bytes, with `…` where it was cut. */
function clip(text: string, max: number): string {
  return byteLength(text) <= max ? text : `${clipToBytes(text, max - 3)}…`;
}

function isTableRow(line: string): boolean {
  return /^\s*\|/.test(line);
}

/**
 * Fit Markdown within `max` UTF-8 bytes: unchanged when it fits; otherwise cut at a line break, with
 * {@link TRUNCATED_MARKER} after a blank line (which also closes any table or open code span). A table
 * row is kept whole or dropped; another line may be cut, between code points.
 */
export function fitMarkdown(markdown: string, max: number): string {
  if (byteLength(markdown) <= max) return markdown;
  const tail = `\n\n${TRUNCATED_MARKER}\n`;
  const budget = max - byteLength(tail);
  if (budget < 0) throw new RangeError(`a budget of ${max} bytes cannot hold the truncation marker`);
  const kept: string[] = [];
  let used = 0;
  for (const line of markdown.split('\n')) {
    const separator = kept.length > 0 ? 1 : 0;
    const cost = byteLength(line) + separator;
    if (used + cost <= budget) {
      kept.push(line);
      used += cost;
      continue;
    }
    const room = budget - used - separator;
    if (!isTableRow(line) && room > 0) {
      const part = clipToBytes(line, room);
      if (part !== '') kept.push(part);
    }
    break;
  }
  return `${kept.join('\n').trimEnd()}${tail}`;
}

/** A table cell around a code span: one line, pipes escaped (plain untrusted text goes through escapeMarkdown). */
function cell(text: string): string {
  return text.replace(/\r\n|\r|\n/g, ' ').replace(/\|/g, '\\|');
}

/** Does this test meet its phase's requirement (`ok`), break it (`bad`), or neither (`neutral`: a baseline failure, a new test)? */
function judged(phase: PhaseRecord, test: TestResult): 'ok' | 'bad' | 'neutral' {
  switch (phase.name) {
    case 'reproduction_before':
      return (test.status === 'failed' || test.status === 'errored') && test.failure_kind !== undefined && RIGHT_REASON_FAILURES.includes(test.failure_kind) ? 'ok' : 'bad';
    case 'reproduction_after':
    case 'hidden':
      return test.status === 'passed' ? 'ok' : 'bad';
    case 'regression':
      if (test.status === 'passed') return 'ok';
      return phase.regressions?.includes(test.id) || phase.newly_skipped?.includes(test.id) ? 'bad' : 'neutral';
  }
}

/** The reason code a bad test of this phase stands for. */
function testReason(phase: PhaseRecord, test: TestResult): ReasonCode {
  switch (phase.name) {
    case 'reproduction_before':
      return test.status === 'passed' ? 'repro_passes_before' : 'repro_wrong_failure';
    case 'reproduction_after':
      return 'not_fixed';
    case 'regression':
      return phase.newly_skipped?.includes(test.id) ? 'tests_skipped' : 'regression';
    case 'hidden':
      return 'hidden_failed';
  }
}

/** The check run's title; reasons are listed while it stays short (GitHub shows it in one line). */
function title(receipt: Receipt): string {
  if (receipt.verdict === 'passed') {
    const withheld = !receipt.proof_grade && receipt.tamper_screen !== undefined && tamperWithholds(receipt.tamper_screen);
    return `PatchProof: PASSED (${receipt.proof_grade ? 'proof grade' : withheld ? tamperWithheldLine(receipt.tamper_screen!) : 'not proof grade'})`;
  }
  const head = `PatchProof: ${receipt.verdict.toUpperCase()}`;
  let text = head;
  for (const [i, reason] of receipt.reasons.entries()) {
    const next = `${text}${i === 0 ? ' — ' : ', '}${reason}`;
    if (byteLength(next) > ANNOTATION_TITLE_LIMIT - 5) return `${text}, …`;
    text = next;
  }
  return text;
}

// ---------------------------------------------------------------------------------------------
// Summary: the bilingual report, rendered by src/core/report.ts from a receipt view that carries
// only the detail the current rung of the ladder allows.

function clipResult(test: TestResult): TestResult {
  return {
    ...test,
    id: clip(test.id, CLIP_BYTES),
    ...(test.message !== undefined ? { message: clip(test.message, CLIP_BYTES) } : {}),
    ...(test.location !== undefined ? { location: clip(test.location, CLIP_BYTES) } : {})
  };
}

function summaryView(receipt: Receipt, detail: Detail): Receipt {
  const phases = receipt.phases.map((phase): PhaseRecord => {
    const view: PhaseRecord = { ...phase };
    if (!detail.passedPhases && phase.status === 'passed') {
      view.results = [];
      delete view.flaky;
      delete view.preexisting_failures;
    }
    if (!detail.passingTests) {
      // Regressions are in the failing-test list; flakiness stays visible as a reason code.
      delete view.regressions;
      delete view.flaky;
    }
    if (detail.clip) view.results = view.results.map(clipResult);
    return view;
  });
  const surface = detail.clip
    ? {
        ...receipt.surface,
        findings: receipt.surface.findings.map((f) => ({
          ...f,
          path: clip(f.path, CLIP_BYTES),
          skip_markers: f.skip_markers.map((m) => ({ line: m.line, text: clip(m.text, CLIP_BYTES) }))
        }))
      }
    : receipt.surface;
  const tamper =
    detail.clip && receipt.tamper_screen !== undefined
      ? { ...receipt.tamper_screen, findings: receipt.tamper_screen.findings.map((f) => ({ ...f, path: clip(f.path, CLIP_BYTES) })) }
      : receipt.tamper_screen;
  return { ...receipt, phases, surface, ...(tamper !== undefined ? { tamper_screen: tamper } : {}) };
}

function renderSummary(receipt: Receipt, detail: Detail): string {
  const report = renderReport(summaryView(receipt, detail), { maxTestsPerPhase: detail.limit });
  return detail === LADDER[0] ? report : `${report}\n${DEGRADED_NOTE}\n`;
}

// ---------------------------------------------------------------------------------------------
// Text: per-phase detail (counts, runs, every test with its location and message).

const MARK = { ok: '✓', bad: '✗', neutral: '–' } as const;

function idList(label: string, ids: readonly string[] | undefined, detail: Detail): string[] {
  if (ids === undefined || ids.length === 0) return [];
  const shown = ids.slice(0, detail.limit).map((id) => codeSpan(detail.clip ? clip(id, CLIP_BYTES) : id));
  const more = ids.length - shown.length;
  return [`${label} (${ids.length}): ${shown.join(', ')}${more > 0 ? `${shown.length > 0 ? ', ' : ''}… ${more} more` : ''}  `];
}

function runRows(phase: PhaseRecord, detail: Detail): string[] {
  const rows = ['| 运行 / Run | 退出码 / Exit | 输出 / Output | 耗时 / Duration | 金丝雀 / Canaries | 问题 / Problems |', '| --- | --- | --- | --- | --- | --- |'];
  for (const run of phase.runs) {
    const problems = [
      ...(run.timed_out ? ['timed out'] : []),
      ...(run.output_truncated ? ['output truncated'] : []),
      ...(run.infra_error !== undefined ? [`infrastructure: ${run.infra_error}`] : []),
      ...run.problems
    ].join('; ');
    const exit = `${run.exit_code ?? '—'}${run.signal !== null ? ` (${run.signal})` : ''}`;
    rows.push(
      `| ${run.label} #${run.attempt} | ${cell(exit)} | ${run.output_bytes} bytes | ${run.duration_ms} ms | pass: ${run.canary.pass}, fail: ${run.canary.fail} | ${escapeMarkdown(detail.clip ? clip(problems, CLIP_BYTES) : problems) || '—'} |`
    );
  }
  return rows;
}

function testRows(phase: PhaseRecord, detail: Detail): string[] {
  const listed = detail.passingTests ? phase.results : phase.results.filter((t) => judged(phase, t) !== 'ok');
  if (listed.length === 0) return [];
  const shown = listed.slice(0, detail.limit);
  const out: string[] = [];
  if (shown.length > 0) {
    out.push('', '| | 测试 / Test | 结果 / Result | 位置 / Location | 信息 / Message |', '| --- | --- | --- | --- | --- |');
    for (const raw of shown) {
      const t = detail.clip ? clipResult(raw) : raw;
      const result = `${t.status}${t.failure_kind !== undefined ? ` (${t.failure_kind})` : ''}`;
      const message = t.message ?? t.skip_reason ?? '';
      out.push(
        `| ${MARK[judged(phase, raw)]} | ${cell(codeSpan(t.id))} | ${result} | ${t.location !== undefined ? cell(codeSpan(t.location)) : '—'} | ${escapeMarkdown(message) || '—'} |`
      );
    }
  }
  if (listed.length > shown.length) out.push('', `*… ${listed.length - shown.length} more / 另有 ${listed.length - shown.length} 项*`);
  return out;
}

function renderText(receipt: Receipt, detail: Detail): string {
  const out = ['## 阶段详情 / Phase detail', '', `✓ meets the phase's requirement / 符合要求 · ✗ breaks it / 不符合 · – not held against the patch / 不归咎于补丁`];
  for (const phase of receipt.phases) {
    const t = phase.tests;
    out.push(
      '',
      `### ${codeSpan(phase.name)} — ${phase.status.toUpperCase()}`,
      '',
      `${t.passed} passed, ${t.failed} failed, ${t.errored} errored, ${t.skipped} skipped · ${phase.runs.length} run${phase.runs.length === 1 ? '' : 's'}${phase.reasons.length > 0 ? ` · ${phase.reasons.join(', ')}` : ''}`
    );
    if (!detail.passedPhases && phase.status === 'passed') continue;
    const lines: string[] = [];
    if (phase.baseline !== undefined) {
      const b = phase.baseline.tests;
      lines.push(`基线 / baseline: ${b.passed} passed, ${b.failed} failed, ${b.errored} errored, ${b.skipped} skipped · PASS_TO_PASS: ${phase.pass_to_pass ?? 0}  `);
    }
    // Missing ids have no result row, so they are always listed.
    lines.push(...idList('缺失（计为失败）/ missing (count as failed)', phase.missing, detail));
    lines.push(...idList('不稳定 / flaky', phase.flaky, detail));
    if (detail.passingTests) {
      lines.push(...idList('退化 / regressions', phase.regressions, detail));
      lines.push(...idList('新跳过 / newly skipped', phase.newly_skipped, detail));
      lines.push(...idList('基线已失败 / failing at baseline', phase.preexisting_failures, detail));
    }
    if (lines.length > 0) out.push('', ...lines);
    out.push('', ...runRows(phase, detail), ...testRows(phase, detail));
  }
  return `${out.join('\n')}\n${detail === LADDER[0] ? '' : `\n${DEGRADED_NOTE}\n`}`;
}

function fitLadder(render: (detail: Detail) => string, max: number): string {
  for (const detail of LADDER) {
    const text = render(detail);
    if (byteLength(text) <= max) return text;
  }
  return fitMarkdown(render(LADDER[LADDER.length - 1] as Detail), max);
}

// ---------------------------------------------------------------------------------------------
// Annotations.

/** `path:line` (or a bare path, at line 1) when it names a file inside the repository; undefined otherwise. */
function parseLocation(location: string): { path: string; line: number } | undefined {
  const match = /^(.+):(\d+)$/.exec(location);
  const path = (match?.[1] ?? location).replace(/^(\.\/)+/, '');
  const line = match?.[2] !== undefined ? Number(match[2]) : 1;
  // Annotations address repository-relative paths; anything else cannot be placed.
  if (path === '' || path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(path) || /^[a-z]+:\/\//i.test(path)) return undefined;
  // A path that plainText would change (control characters, ANSI, bidi overrides) or clip names no file to place it on.
  if (plainText(path, ANNOTATION_UNTRUSTED_LIMIT) !== path) return undefined;
  if (path.includes('\0') || path.split(/[\\/]/).includes('..')) return undefined;
  if (!Number.isSafeInteger(line) || line < 1 || line > 2_147_483_647) return undefined;
  return { path, line };
}

/**
 * One annotation. GitHub shows annotations as plain text, so every untrusted piece has already
 * passed through plainText (src/core/markdown.ts) where the caller built `heading` and `message`;
 * the path is made one line and clipped here too, and the whole is clipped to GitHub's limits.
 */
function annotation(path: string, line: number, level: CheckAnnotation['annotation_level'], heading: string, message: string): CheckAnnotation {
  return {
    path: plainText(path, ANNOTATION_UNTRUSTED_LIMIT),
    start_line: line,
    end_line: line,
    annotation_level: level,
    title: clip(heading, ANNOTATION_TITLE_LIMIT),
    message: clip(message, ANNOTATION_MESSAGE_LIMIT)
  };
}

const PHASE_REQUIREMENT: Record<PhaseName, string> = {
  reproduction_before: 'must fail before the patch, for the right reason (an assertion, or an exception raised from the code under test)',
  reproduction_after: 'must pass after the patch',
  regression: 'passed before the patch and must still pass after it',
  hidden: 'must pass after the patch'
};

function surfaceAnnotations(receipt: Receipt): CheckAnnotation[] {
  const out: CheckAnnotation[] = [];
  const allow = allowancesOf(receipt.witness.allow);
  for (const finding of receipt.surface.findings) {
    // Per finding, the same rule the receipt's surface reasons came from: relaxed findings are notices.
    const reasons = surfaceReasons([finding], allow).reasons;
    // Every test finding is reset but one in the code's own file (cargo's src/ unit tests).
    const wasReset = !finding.categories.includes('test') || receipt.surface.restored.includes(finding.path) || receipt.surface.removed.includes(finding.path);
    const reset = wasReset
      ? '判定前已重置为基线 / it was reset to the base before judging.'
      : "未重置（单元测试与被测代码在同一文件）/ not reset: its unit tests live in the code's own file.";
    const path = plainText(finding.path, ANNOTATION_UNTRUSTED_LIMIT);
    for (const marker of finding.skip_markers) {
      const level = reasons.includes('tests_skipped') ? 'failure' : 'notice';
      out.push(
        annotation(
          finding.path,
          marker.line,
          level,
          `PatchProof tests_skipped: ${path}`,
          `The candidate added a skip, focus or expected-failure marker: ${plainText(marker.text.trim(), ANNOTATION_UNTRUSTED_LIMIT)}\n候选补丁添加了跳过/聚焦标记；${reset}`
        )
      );
    }
    const others = reasons.filter((r) => r !== 'tests_skipped');
    if (others.length > 0 || finding.skip_markers.length === 0) {
      out.push(
        annotation(
          finding.path,
          1,
          others.length > 0 ? 'failure' : 'notice',
          `PatchProof ${others.length > 0 ? others.join(', ') : 'test surface'}: ${path}`,
          `The candidate's diff (${finding.change}) touches the test surface (${finding.categories.join(', ')}).\n候选补丁触及测试面；${reset}${others.length === 0 ? '\nAllowed by the witness pack, or a new test file: reported, not held against the patch.' : ''}`
        )
      );
    }
  }
  return out;
}

/**
 * One warning per tamper-screen finding, at its file and line (at most MAX_TAMPER_ANNOTATIONS). The
 * path and text are the candidate's: plain text, clipped. An allowed finding is a notice.
 */
function tamperAnnotations(receipt: Receipt): CheckAnnotation[] {
  const screen = receipt.tamper_screen;
  if (screen === undefined) return [];
  const blocking = new Set(tamperBlocking(screen));
  return screen.findings.slice(0, MAX_TAMPER_ANNOTATIONS).map((f) => {
    const withholds = blocking.has(f);
    const path = plainText(f.path, ANNOTATION_UNTRUSTED_LIMIT);
    return annotation(
      f.path,
      f.line,
      withholds ? 'warning' : 'notice',
      `PatchProof tamper screen ${f.rule}: ${path}`,
      `${plainText(f.text, ANNOTATION_UNTRUSTED_LIMIT)}\nThe candidate's change ${TAMPER_RULE_TEXT[f.rule].en}. ${
        withholds ? 'It withholds proof grade (the verdict stays).' : 'The witness pack allows this rule for this path: reported only.'
      }\n篡改筛查：${TAMPER_RULE_TEXT[f.rule].zh}；${withholds ? '证明级被扣留（结论不变）。' : '见证包已豁免，仅报告。'}`
    );
  });
}

function testAnnotations(receipt: Receipt): CheckAnnotation[] {
  const out: CheckAnnotation[] = [];
  for (const phase of receipt.phases) {
    if (phase.status === 'passed') continue;
    for (const test of phase.results) {
      if (judged(phase, test) !== 'bad' || test.location === undefined) continue;
      const where = parseLocation(test.location);
      if (where === undefined) continue;
      const reason = testReason(phase, test);
      const id = plainText(test.id, ANNOTATION_UNTRUSTED_LIMIT);
      const message = test.message !== undefined ? `: ${plainText(test.message, ANNOTATION_UNTRUSTED_MESSAGE_LIMIT)}` : '';
      const outcome = `${test.status}${test.failure_kind !== undefined ? ` (${test.failure_kind})` : ''}${message}`;
      out.push(annotation(where.path, where.line, 'failure', `PatchProof ${reason}: ${id}`, `${phase.name}: ${id}\nThis test ${PHASE_REQUIREMENT[phase.name]}. It ${outcome}`));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

/** Options of {@link renderCheck}. */
export interface RenderCheckOptions {
  /** Budget of `summary` and of `text`, in UTF-8 bytes (so also in characters). Default and maximum 65,535. */
  maxChars?: number;
  /** Annotations kept (test-surface findings first, then tamper-screen findings, then tests in phase order). Default 200. */
  maxAnnotations?: number;
}

/**
 * Render a receipt as a check run. The summary is the bilingual report (degraded, then trimmed to
 * fit); `text` holds per-phase detail; annotations mark failing tests at their `path:line`, the
 * candidate's test-surface findings (skip markers at their line, others at line 1) and the tamper
 * screen's findings at their line (warnings).
 */
export function renderCheck(full: Receipt, options: RenderCheckOptions = {}): RenderedCheck {
  const max = Math.min(options.maxChars ?? CHECK_OUTPUT_LIMIT, CHECK_OUTPUT_LIMIT);
  if (max < 1024) throw new RangeError(`maxChars ${max} is too small for a check run's summary; give at least 1024`);
  const receipt = redactHidden(full);
  const annotations = [...surfaceAnnotations(receipt), ...tamperAnnotations(receipt), ...testAnnotations(receipt)].slice(0, options.maxAnnotations ?? DEFAULT_MAX_ANNOTATIONS);
  return {
    title: title(receipt),
    summary: fitLadder((detail) => renderSummary(receipt, detail), max),
    text: fitLadder((detail) => renderText(receipt, detail), max),
    annotations
  };
}

/**
 * The hidden tests must stay hidden from the candidate: a check run and a job summary are public on
 * the pull request, where an agent iterating on it would read test names, lines and assertion
 * messages. Only counts and statuses are shown; the full ids stay in the receipt artifact.
 */
export function redactHidden(receipt: Receipt): Receipt {
  const hiddenPhase = receipt.phases.find((phase) => phase.name === 'hidden');
  const names = new Map((hiddenPhase?.results ?? []).map((t, i) => [t.id, `hidden test ${i + 1}`]));
  return {
    ...receipt,
    // The claim's rows of hidden tests get the same names as the hidden phase's results.
    ...(receipt.claim !== undefined
      ? { claim: { ...receipt.claim, rows: receipt.claim.rows.map((row) => (row.hidden === true ? { ...row, id: names.get(row.id) ?? 'hidden test' } : row)) } }
      : {}),
    inventory: { ...receipt.inventory, test_ids: { ...receipt.inventory.test_ids, hidden: receipt.inventory.test_ids.hidden.map((_, i) => `hidden test ${i + 1}`) } },
    phases: receipt.phases.map((phase) => {
      if (phase.name !== 'hidden') return phase;
      const rename = new Map(phase.results.map((t, i) => [t.id, `hidden test ${i + 1}`]));
      const results = phase.results.map((t) => ({ id: rename.get(t.id) ?? 'hidden test', status: t.status, ...(t.failure_kind ? { failure_kind: t.failure_kind } : {}) }));
      const { flaky, missing, ...rest } = phase;
      return {
        ...rest,
        results,
        ...(flaky ? { flaky: flaky.map((id) => rename.get(id) ?? 'hidden test') } : {}),
        ...(missing ? { missing: missing.map((id) => rename.get(id) ?? 'hidden test') } : {})
      };
    })
  };
}

/** `check` with `markdown` (already escaped) before its summary, still within GitHub's limit. */
export function withPreamble(check: RenderedCheck, markdown: string): RenderedCheck {
  return { ...check, summary: fitMarkdown(`${markdown}\n\n${check.summary}`, CHECK_OUTPUT_LIMIT) };
}

/**
 * A check run for a refusal: nothing ran and no receipt exists (bad input, a policy refusal, a
 * digest mismatch). Publish it with conclusion `failure`.
 */
export function renderRefusal(code: string, message: string): RenderedCheck {
  const quoted = message
    .split(/\r\n|\r|\n/)
    .map((line) => `> ${line === '' ? '' : codeSpan(line)}`)
    .join('  \n');
  const summary = [
    '# PatchProof 验证报告 / Validation report',
    '',
    `**结论 / Verdict: 拒绝 / REFUSED** · 原因 / reason: ${codeSpan(code)}`,
    '',
    '未运行任何测试，也未写入回执；修正输入后重试。/ Nothing ran and no receipt was written; fix the input and run again.',
    '',
    quoted,
    ''
  ].join('\n');
  return {
    title: clip(`PatchProof: REFUSED — ${code}`, ANNOTATION_TITLE_LIMIT),
    summary: fitMarkdown(summary, CHECK_OUTPUT_LIMIT),
    annotations: []
  };
}

/** One shard of a merged validation, as the merged check run lists it. */
export interface MergedShardRow {
  index: number;
  receipt: Receipt;
}

/**
 * The check run of a merged validation (one candidate's suite run in N shards, src/core/merged.ts):
 * the merged verdict, every shard's verdict, reasons and receipt digest, and the report of each
 * shard that did not pass (so the reason is on the check run).
 */
export function renderMergedCheck(
  merged: { verdict: Verdict; proof_grade: boolean; reasons: readonly ReasonCode[]; merged_digest: string; count: number },
  shards: readonly MergedShardRow[]
): RenderedCheck {
  const upper = merged.verdict.toUpperCase();
  const first = shards[0]?.receipt;
  const rows = [...shards]
    .sort((a, b) => a.index - b.index)
    .map(
      ({ index, receipt }) =>
        `| ${index}/${merged.count} | **${receipt.verdict}** | ${receipt.proof_grade ? 'yes' : 'no'} | ${receipt.reasons.map((r) => codeSpan(r)).join(', ') || '—'} | ${receipt.inventory.suite_files.base.length} | ${codeSpan(receipt.receipt_digest)} |`
    );
  const summary = [
    '# PatchProof 验证报告 / Validation report — merged shards',
    '',
    `**结论 / Verdict: ${upper}** · proof grade: ${merged.proof_grade ? 'yes' : 'no'}${merged.reasons.length > 0 ? ` · reasons: ${merged.reasons.map((r) => codeSpan(r)).join(', ')}` : ''}`,
    '',
    `The regression suite ran in ${merged.count} shards; every shard receipt verified, binds this pull request's proposal${first !== undefined ? ` ${codeSpan(first.bindings.proposal_hash)}` : ''}, and together they are the whole suite. Merged receipt ${codeSpan(merged.merged_digest)}.`,
    '',
    '| shard | verdict | proof grade | reasons | base suite files | receipt |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows
  ].join('\n');
  const notPassed = shards.filter((s) => s.receipt.verdict !== 'passed').sort((a, b) => a.index - b.index);
  const text = notPassed
    .map((s) => `## Shard ${s.index}/${merged.count}\n\n${renderCheck(s.receipt, { maxChars: Math.floor(CHECK_OUTPUT_LIMIT / Math.max(notPassed.length, 1)) - 200 }).summary}`)
    .join('\n\n');
  return {
    title: `PatchProof: ${upper} — ${merged.count} shards merged`,
    summary: fitMarkdown(summary, CHECK_OUTPUT_LIMIT),
    ...(text !== '' ? { text: fitMarkdown(text, CHECK_OUTPUT_LIMIT) } : {}),
    annotations: []
  };
}
