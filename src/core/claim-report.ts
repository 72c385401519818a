import type { ClaimFinding, ClaimRecord, ClaimRow } from './claim.js';
import { clipText } from './markdown.js';

/**
 * The claim table (pure): in the zh/en report, the console and the check run. Bounded: findings
 * first (the receipt keeps them first), at most `limit` rows, the rest counted. Hidden tests show
 * only their keyed ids, as everywhere else; the claim's own labels are untrusted text, flattened.
 */

export const FINDING_TEXT: Record<ClaimFinding, { en: string; zh: string }> = {
  possible_hidden_state_dependency: {
    en: "passed in the agent's workspace, fails in the clean room: a possible dependency on state the diff does not carry",
    zh: '在代理工作区通过、在洁净环境失败：可能依赖补丁之外的隐藏状态'
  },
  claim_unknown_test: { en: 'the claim names a test the clean room did not run', zh: '声明中的测试在洁净环境中不存在' }
};

/** One line of untrusted text: control characters to spaces, clipped. */
function flat(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- deliberate: C0/C1 controls and line separators in untrusted text become spaces
  return clipText(text, max).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
}

/** A markdown code span for a row id (clipped, one line, pipes escaped, fence longer than any backtick run). */
function span(text: string): string {
  const body = flat(text, 200).replace(/\|/g, '\\|');
  const fence = '`'.repeat(Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  const pad = body.startsWith('`') || body.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

function summary(claim: ClaimRecord): string {
  return `${claim.tests} claimed (${claim.format}), ${claim.matched} matched; possible_hidden_state_dependency: ${claim.findings.possible_hidden_state_dependency}, claim_unknown_test: ${claim.findings.claim_unknown_test}`;
}

function shown(claim: ClaimRecord, limit: number): { rows: ClaimRow[]; more: number } {
  const rows = claim.rows.slice(0, limit);
  return { rows, more: claim.tests - rows.length };
}

/** The report's (and check run's) markdown section. */
export function renderClaimMarkdown(claim: ClaimRecord, limit = 50): string[] {
  const { rows, more } = shown(claim, limit);
  const out = [
    "## 代理声明对照 / The agent's claim against the clean room",
    '',
    `声明摘要 / claim digest \`${claim.digest}\` · ${summary(claim)}`,
    '',
    '声明不影响结论与退出码。/ The claim changes neither the verdict nor the exit code.',
    '',
    '| 测试 / Test | 声明 / Claimed | 洁净环境 / Clean room | 发现 / Finding |',
    '| --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row.hidden === true ? '(hidden) ' : ''}${span(row.id)} | ${row.claimed} | ${row.clean_room} | ${row.finding ?? '—'} |`)
  ];
  if (more > 0) out.push(`| … ${more} more | | | |`);
  const found = (Object.keys(FINDING_TEXT) as ClaimFinding[]).filter((finding) => claim.findings[finding] > 0);
  if (found.length > 0) out.push('', ...found.map((finding) => `- \`${finding}\`: ${FINDING_TEXT[finding].zh} / ${FINDING_TEXT[finding].en}`));
  return out;
}

/** The console lines `patchproof validate` prints. */
export function renderClaimConsole(claim: ClaimRecord, limit = 20): string {
  const { rows, more } = shown(claim, limit);
  const lines = [
    `claim: ${summary(claim)} (not part of the verdict)`,
    ...rows.map(
      (row) => `  ${`[${row.finding ?? 'agrees'}]`.padEnd(36)}${row.claimed.padEnd(8)} -> ${row.clean_room.padEnd(8)} ${row.hidden === true ? '(hidden) ' : ''}${flat(row.id, 160)}`
    )
  ];
  if (more > 0) lines.push(`  … ${more} more (receipt.json: claim.rows)`);
  return lines.join('\n');
}
