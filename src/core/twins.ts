import type { TestStatus } from './test-results.js';

/**
 * Twin canaries (pure): what a generated copy of a real test did next to its original, and whether
 * that is right. The copies are made on the host (src/adapters/shared/python-twins.ts); only this outcome
 * is kept, never the test ids (the originals may be hidden tests).
 */

export type TwinKind = 'twin' | 'mutant';

export interface TwinOutcome {
  kind: TwinKind;
  /** The copy's status, or 'missing' when it is absent from the results. */
  status: TestStatus | 'missing';
  /** The original test's status, or 'missing'. */
  original: TestStatus | 'missing';
}

/**
 * A twin must end as its original does (passed, or not passed); a mutant must fail whenever its
 * original passed (when the original did not pass, the mutant proves nothing but must have run).
 * A copy or an original missing alone is never right; both missing means their file did not load
 * (that file's own error is in the results, and a missing original is judged by its phase).
 */
export function twinBehaved(outcome: TwinOutcome): boolean {
  if (outcome.status === 'missing' && outcome.original === 'missing') return true;
  if (outcome.status === 'missing' || outcome.original === 'missing') return false;
  if (outcome.kind === 'twin') return (outcome.status === 'passed') === (outcome.original === 'passed');
  return outcome.original !== 'passed' || outcome.status === 'failed';
}
