import { PromoteError } from '../errors.js';
import { quoteForMessage } from './diff-policy.js';
import type { Merged } from './merged.js';
import type { Screening, ScreenedCandidate } from './screening.js';

/**
 * Which receipt promote takes from a screening or merged receipt, once that receipt verified with
 * everything it binds (src/core/screening.ts, src/core/merged.ts). Pure: the reading and the
 * receipt store are src/cli/promote-source.ts's.
 */

/**
 * The candidate of a verified screening to promote: the one ranked first, or the one `--candidate`
 * names. Only a candidate whose verdict passed; a screening where none passed promotes nothing.
 * Proof grade and the binding to the diff and base are checked on its receipt afterwards
 * (checkPromotable), as for a single receipt.
 */
export function pickScreened(screening: Screening, candidate: string | undefined): ScreenedCandidate {
  const byName = new Map(screening.candidates.map((c) => [c.name, c]));
  const passed = screening.ranking.map((r) => byName.get(r.name)).filter((c): c is ScreenedCandidate => c?.verdict === 'passed');
  if (passed.length === 0) {
    const verdicts = screening.ranking.map((r) => `${r.name} ${byName.get(r.name)?.verdict ?? '?'}`).join(', ');
    throw new PromoteError(`no candidate of the screening passed (${verdicts}); there is nothing to promote`);
  }
  if (candidate === undefined) {
    const first = byName.get(screening.ranking[0]?.name ?? '');
    // The ranking puts every pass before every failure; a verified screening cannot lead with a failure.
    if (first === undefined || first !== passed[0]) throw new PromoteError('the candidate ranked first did not pass; name the candidate to promote with --candidate');
    return first;
  }
  const named = byName.get(candidate);
  if (named === undefined) {
    throw new PromoteError(`--candidate ${quoteForMessage(candidate)} is no candidate of the screening; name one of ${screening.ranking.map((r) => r.name).join(', ')}`);
  }
  if (named.verdict !== 'passed') {
    throw new PromoteError(`--candidate ${candidate}'s verdict is ${named.verdict}; only a passed candidate can be promoted (passed: ${passed.map((c) => c.name).join(', ')})`);
  }
  return named;
}

/** A verified merged receipt may be promoted only when the merged verdict passed with proof grade (every shard passed, each in the hardened runner). */
export function checkMergedPromotable(merged: Pick<Merged, 'verdict' | 'proof_grade' | 'count' | 'reasons'>): void {
  if (merged.verdict !== 'passed') {
    throw new PromoteError(
      `the merged verdict of the ${merged.count} shards is ${merged.verdict}${merged.reasons.length > 0 ? ` [${merged.reasons.join(', ')}]` : ''}; only a passed validation can be promoted`
    );
  }
  if (!merged.proof_grade)
    throw new PromoteError('the merged receipt is not proof grade (a shard did not pass in the hardened runner); validate with --runner docker and a sealed pack first');
}
