import { codeSpan, escapeMarkdown } from './markdown.js';
import { l0Failed } from './l0-gates.js';
import { gateReasons } from './receipt.js';
import type { Receipt } from './receipt-schema.js';
import type { Screening } from './screening.js';
import { tamperWithheldLine, tamperWithholds } from './tamper.js';

/**
 * The screen mode's one comparison table (job summary and the tracking comment). Pure: the sealed
 * screening, each candidate's receipt and where it came from in, Markdown out. Only statuses and
 * counts are shown, never test names or messages, so nothing of the hidden tests is posted. Candidate
 * names are PatchProof's own (`pr-N`, `ref-…`, checked by the screening schema); refs and labels are
 * chosen by others: code spans.
 */

/** Where a candidate came from: a pull request or a ref, and the commit that was validated. */
export interface CandidateOrigin {
  name: string;
  pullNumber?: number;
  ref?: string;
  /** The commit validated, where its check run goes. */
  headSha: string;
}

/** A candidate that was not validated, and why (in one line). */
export interface SkippedCandidate {
  label: string;
  /** Markdown, safe as it is: whoever makes it escapes what others chose (branch names, refusal messages). */
  why: string;
}

/** L0 policy, L1 build, L2 reproduction, L3 regression, L4 hidden, formal: each as one word. */
export function gateStatuses(receipt: Receipt): string[] {
  const phase = (name: string): string => receipt.phases.find((p) => p.name === name)?.status ?? 'n/a';
  const l0 = gateReasons(receipt.gates).length > 0 || receipt.surface.reasons.length > 0 || (receipt.gates !== undefined && l0Failed(receipt.gates.l0)) ? 'failed' : 'passed';
  return [l0, receipt.build?.status ?? 'n/a', phase('reproduction_after'), phase('regression'), phase('hidden'), receipt.formal?.status ?? 'n/a'];
}

export function renderScreenTable(
  screening: Screening,
  receipts: ReadonlyMap<string, Receipt>,
  origins: ReadonlyMap<string, CandidateOrigin>,
  skipped: readonly SkippedCandidate[]
): string {
  const byName = new Map(screening.candidates.map((c) => [c.name, c]));
  const rows = screening.ranking.map((r) => {
    const c = byName.get(r.name)!;
    const origin = origins.get(r.name);
    const receipt = receipts.get(r.name);
    const what = origin?.pullNumber !== undefined ? `#${origin.pullNumber}` : codeSpan(origin?.ref ?? r.name, { max: 100, cell: true });
    const gates = receipt !== undefined ? gateStatuses(receipt).join(' / ') : 'n/a';
    const withheld = receipt?.tamper_screen !== undefined && tamperWithholds(receipt.tamper_screen) ? tamperWithheldLine(receipt.tamper_screen) : '';
    const notes = [withheld, c.duplicate_of !== undefined ? `duplicate of ${c.duplicate_of}` : '', ...c.similar.map((s) => `similar to ${s.name} (${s.score.toFixed(2)})`)]
      .filter((n) => n !== '')
      .join('; ');
    return `| ${r.rank} | ${what} | ${codeSpan((origin?.headSha ?? '').slice(0, 12), { cell: true })} | **${c.verdict}** | ${gates} | ${notes} |`;
  });
  const lines = [
    `### PatchProof screening: ${screening.candidates.length} candidates, best: ${screening.ranking.length > 0 && byName.get(screening.ranking[0]!.name)?.verdict === 'passed' ? screening.ranking[0]!.name : 'none passed'}`,
    '',
    '| rank | candidate | commit | verdict | L0 policy / L1 build / L2 reproduction / L3 regression / L4 hidden / formal | proof grade withheld, duplicates, similarity |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Ranking tuple, lowest first: (${screening.rank_fields.join(', ')}). Screening receipt ${codeSpan(screening.screening_digest)}.`
  ];
  if (skipped.length > 0) lines.push('', '**Not validated / 未验证:**', '', ...skipped.map((s) => `- ${codeSpan(s.label, { max: 200 })}: ${s.why}`));
  return `${lines.join('\n')}\n`;
}

/** The table when no screening could be sealed (nothing validated, a shard refused or missing): the candidates are not judged. */
export function renderScreenFailure(why: string, skipped: readonly SkippedCandidate[]): string {
  const lines = ['### PatchProof screening: INCONCLUSIVE', '', escapeMarkdown(why, 2_000), '', 'No check run of this screening was posted as success.'];
  if (skipped.length > 0) lines.push('', '**Not validated / 未验证:**', '', ...skipped.map((s) => `- ${codeSpan(s.label, { max: 200 })}: ${s.why}`));
  return `${lines.join('\n')}\n`;
}
