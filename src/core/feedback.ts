import type { Receipt } from './receipt-schema.js';
import { gateReasons } from './receipt.js';
import { formatDiagnostic } from './build-diagnostics.js';
import { tamperBlocking } from './tamper.js';

/**
 * Feedback for refinement (`feedback.json`, docs/screen.md), derived from a candidate's receipt
 * alone: which gate failed, the failing tests with their assertion messages and locations (hidden
 * tests by keyed id and status only, as in the check run), and the checks it still passes.
 * `compareFeedback` is the refinement loop's continue/stop rule.
 */

export const FEEDBACK_SCHEMA = 'patchproof.feedback/v1';

export const GATE_NAMES = ['L0_policy', 'L1_build', 'L2_reproduction', 'L3_regression', 'L4_hidden'] as const;
export type GateName = (typeof GATE_NAMES)[number];

export interface Feedback {
  schema: typeof FEEDBACK_SCHEMA;
  receipt_digest: string;
  diff_digest: string;
  verdict: Receipt['verdict'];
  reasons: string[];
  /** The first gate that did not pass; null when all passed. */
  failed_gate: GateName | null;
  /** Each gate's status; `L1_build` only when the pack has a build. */
  gates: Partial<Record<GateName, 'passed' | 'failed' | 'inconclusive' | 'not_run'>>;
  /**
   * The L1 build gate, when the pack has one: its status and the first root cause of a failed build
   * (the candidate's, or the base's when the build fails there), as `file:line:column: message`.
   */
  build?: { status: string; tree?: 'base' | 'patched'; first_error?: string; file?: string; line?: number; column?: number; message?: string };
  /** L0 findings: rule, path, line. */
  policy: { rule: string; path: string; line?: number; detail: string }[];
  /** Tests that did not pass in the candidate's phases (hidden: keyed id and status only). */
  failing: { phase: string; id: string; status: string; failure_kind?: string; message?: string; location?: string }[];
  /** Every check the candidate passes, as `phase:test id` (L0 as `L0_policy`): what compare counts. */
  passing: string[];
  /**
   * The tamper screen's findings that withhold proof grade (receipt v9): rule, path, line and the
   * offending text, so a refinement can take them out. Absent when nothing is withheld.
   */
  tamper?: { rule: string; path: string; line: number; text: string }[];
}

const PHASE_OF_GATE: Record<Exclude<GateName, 'L0_policy' | 'L1_build'>, string> = { L2_reproduction: 'reproduction_after', L3_regression: 'regression', L4_hidden: 'hidden' };

export function feedbackOf(receipt: Receipt): Feedback {
  const l0Failed = gateReasons(receipt.gates).length > 0 || receipt.surface.reasons.length > 0;
  const gates = {
    L0_policy: l0Failed ? 'failed' : 'passed',
    ...(receipt.build !== undefined ? { L1_build: receipt.build.status } : {}),
    ...Object.fromEntries(Object.entries(PHASE_OF_GATE).map(([gate, phase]) => [gate, receipt.phases.find((p) => p.name === phase)?.status ?? 'not_run']))
  } as Feedback['gates'];
  const failedGate = GATE_NAMES.find((g) => gates[g] !== undefined && gates[g] !== 'passed') ?? null;
  const failing: Feedback['failing'] = [];
  const blocking = receipt.tamper_screen !== undefined ? tamperBlocking(receipt.tamper_screen) : [];
  const passing: string[] = [...(l0Failed ? [] : ['L0_policy']), ...(receipt.build?.status === 'passed' ? ['L1_build'] : [])];
  for (const phase of receipt.phases.filter((p) => p.name !== 'reproduction_before')) {
    for (const test of phase.results) {
      if (test.status === 'passed') {
        passing.push(`${phase.name}:${test.id}`);
        continue;
      }
      failing.push({
        phase: phase.name,
        id: test.id,
        status: test.status,
        ...(test.failure_kind !== undefined ? { failure_kind: test.failure_kind } : {}),
        // Hidden tests keep their secrets: the receipt already holds no message for them.
        ...(phase.name !== 'hidden' && test.message !== undefined ? { message: test.message.slice(0, 2000) } : {}),
        ...(phase.name !== 'hidden' && test.location !== undefined ? { location: test.location } : {})
      });
    }
  }
  return {
    schema: FEEDBACK_SCHEMA,
    receipt_digest: receipt.receipt_digest,
    diff_digest: receipt.bindings.diff_digest,
    verdict: receipt.verdict,
    reasons: [...receipt.reasons],
    failed_gate: failedGate,
    gates,
    ...(receipt.build !== undefined ? { build: buildFeedback(receipt.build) } : {}),
    policy: (receipt.gates?.l0 ?? []).map((f) => ({ ...f })),
    failing,
    passing: passing.sort(),
    ...(blocking.length > 0 ? { tamper: blocking.map((f) => ({ rule: f.rule, path: f.path, line: f.line, text: f.text })) } : {})
  };
}

function buildFeedback(build: NonNullable<Receipt['build']>): NonNullable<Feedback['build']> {
  const tree = build.candidate?.diagnostic !== undefined ? 'patched' : build.base.diagnostic !== undefined ? 'base' : undefined;
  const diagnostic = tree === 'patched' ? build.candidate?.diagnostic : tree === 'base' ? build.base.diagnostic : undefined;
  if (tree === undefined || diagnostic === undefined) return { status: build.status };
  return {
    status: build.status,
    tree,
    first_error: formatDiagnostic(diagnostic),
    ...(diagnostic.file !== undefined ? { file: diagnostic.file } : {}),
    ...(diagnostic.line !== undefined ? { line: diagnostic.line } : {}),
    ...(diagnostic.column !== undefined ? { column: diagnostic.column } : {}),
    message: diagnostic.message
  };
}

export interface Comparison {
  improved: boolean;
  gained: string[];
  lost: string[];
}

/**
 * Did the new candidate improve on the old one? Improved: it passes at least one check the old one
 * did not and loses none (the seed's continue rule); anything else is no progress or worse.
 * Both receipts must be for the same base and witness pack, or their checks are not comparable.
 */
export function compareFeedback(oldReceipt: Receipt, newReceipt: Receipt): Comparison {
  const before = new Set(feedbackOf(oldReceipt).passing);
  const after = new Set(feedbackOf(newReceipt).passing);
  const gained = [...after].filter((c) => !before.has(c)).sort();
  const lost = [...before].filter((c) => !after.has(c)).sort();
  return { improved: gained.length > 0 && lost.length === 0, gained, lost };
}
