import { escapeMarkdown } from './markdown.js';
import type { Verdict } from './verdict.js';

/**
 * The agent's CI's claim: the other check runs and commit statuses on the pull request's head commit,
 * set beside the clean room's verdict. Pure. It carries no test ids (check runs have none), so it is
 * compared with the verdict only, and it is shown, never decided on: nothing here reaches the verdict,
 * the reasons, proof grade or the receipt.
 */

/** What one check run or commit status said, normalised. */
export type CiState = 'success' | 'failure' | 'pending' | 'neutral';

/** One check run or commit status of the head commit, as read from GitHub (untrusted text). */
export interface HeadCheck {
  kind: 'check_run' | 'status';
  /** The check run's name, or the status's context. Chosen by whoever posted it. */
  name: string;
  /** The posting app's slug (check runs), or `status`. */
  source: string;
  /** GitHub's own words: the check run's conclusion (or status when not completed), the status's state. */
  said: string;
  state: CiState;
}

/** A check run's conclusion (null while it runs) in the four states. */
export function checkRunState(status: string, conclusion: string | null): CiState {
  if (status !== 'completed' || conclusion === null) return 'pending';
  if (conclusion === 'success') return 'success';
  // Required checks treat neutral and skipped as passing; as a claim they say nothing.
  if (conclusion === 'neutral' || conclusion === 'skipped') return 'neutral';
  return 'failure';
}

/** A commit status's state (success, failure, error, pending) in the four states. */
export function statusState(state: string): CiState {
  if (state === 'success') return 'success';
  if (state === 'pending') return 'pending';
  return 'failure';
}

/** The CI's claim as a whole and how it stands against the clean room. */
export interface CiClaimComparison {
  /** success: at least one success, no failure, nothing pending; failure: any failure; else pending or none. */
  said: 'success' | 'failure' | 'pending' | 'none';
  /** `ci_success_clean_room_failed` or `ci_failure_clean_room_passed`, when the two disagree. */
  finding?: 'ci_success_clean_room_failed' | 'ci_failure_clean_room_passed';
  checks: HeadCheck[];
}

/** Compare the CI's checks with the clean room's verdict. */
export function compareCiClaim(checks: HeadCheck[], verdict: Verdict): CiClaimComparison {
  const states = new Set(checks.map((check) => check.state));
  const said = states.has('failure') ? 'failure' : states.has('pending') ? 'pending' : states.has('success') ? 'success' : 'none';
  const finding =
    said === 'success' && verdict === 'failed' ? 'ci_success_clean_room_failed' : said === 'failure' && verdict === 'passed' ? 'ci_failure_clean_room_passed' : undefined;
  return { said, ...(finding !== undefined ? { finding } : {}), checks };
}

/** At most this many checks are listed in the check run. */
export const CI_CLAIM_ROWS = 30;

const FINDING_TEXT: Record<NonNullable<CiClaimComparison['finding']>, string> = {
  ci_success_clean_room_failed: "智能体的 CI 说成功，干净环境失败 / the agent's CI said success, the clean room failed",
  ci_failure_clean_room_passed: "智能体的 CI 说失败，干净环境通过 / the agent's CI said failure, the clean room passed"
};

/** The comparison as a Markdown section of the check run (every name escaped: the PR's CI chose them). */
export function renderCiClaim(comparison: CiClaimComparison, verdict: Verdict): string {
  const lines = ["### 智能体 CI 的声明 / What the agent's CI said on this commit", ''];
  if (comparison.checks.length === 0) {
    lines.push('头提交上没有其他检查或状态。/ No other check run or commit status on the head commit.');
    return lines.join('\n');
  }
  lines.push(
    `CI: **${comparison.said}** · 干净环境 / clean room: **${verdict}**${comparison.finding !== undefined ? ` · **${comparison.finding}**: ${FINDING_TEXT[comparison.finding]}` : ''}`,
    '',
    '仅供参考，不影响结论。/ Shown for the reviewer; it never changes the verdict.',
    '',
    '| check | source | said |',
    '| --- | --- | --- |'
  );
  const ordered = [...comparison.checks].sort((a, b) => rank(a.state) - rank(b.state));
  for (const check of ordered.slice(0, CI_CLAIM_ROWS)) {
    lines.push(`| ${escapeMarkdown(check.name, 120)} | ${escapeMarkdown(check.source, 60)} | ${escapeMarkdown(check.said, 30)} |`);
  }
  if (ordered.length > CI_CLAIM_ROWS) lines.push('', `… ${ordered.length - CI_CLAIM_ROWS} more not listed.`);
  return lines.join('\n');
}

function rank(state: CiState): number {
  return state === 'failure' ? 0 : state === 'success' ? 1 : state === 'pending' ? 2 : 3;
}
