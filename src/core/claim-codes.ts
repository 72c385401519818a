/**
 * The closed sets of the claim record, apart from src/core/claim.ts so that the receipt schema can
 * name them without an import cycle (claim.ts reads the receipt's phases).
 */

/** The findings a claimed test can have (not verdict reasons: they never enter `reasons`). */
export const CLAIM_FINDINGS = ['possible_hidden_state_dependency', 'claim_unknown_test'] as const;
export type ClaimFinding = (typeof CLAIM_FINDINGS)[number];

/** The formats a claim is read in (src/adapters/claim-results.ts). */
export const CLAIM_FORMATS = ['junit', 'jest-json', 'go-json', 'cargo-test'] as const;
export type ClaimFormat = (typeof CLAIM_FORMATS)[number];
