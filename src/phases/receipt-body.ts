import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sealReceipt, setupReasons, baselineDigest } from '../core/receipt.js';
import { RECEIPT_SCHEMA, type ReceiptBody, type RunRecord, type SetupRecord } from '../core/receipt-schema.js';
import { deriveHiddenIdKey, redactHidden } from '../core/hidden-ids.js';
import { diffSnapshots } from '../core/snapshot-record.js';
import { excerptSha256 } from '../core/base-failure.js';
import { judge, judgeRelatedTier, RELATED_LABEL, RUN_LABELS, type GradingModel, type RunLabel, type RunsByLabel } from '../core/verdict.js';
import type { RelatedTierPlan } from '../core/related-tests.js';
import { changedLines, l0Failed } from '../core/l0-gates.js';
import { changedPublicInterfaces } from '../core/public-interfaces.js';
import { phaseIsSealed, type OraclePhase } from '../core/oracle.js';
import { tamperWithholds } from '../core/tamper.js';
import { TOOL_VERSION } from '../version.js';
import type { Binding, Staged } from './bind.js';
import type { Decision, Phase, PhaseContext } from './phase.js';
import type { PhaseRuns } from './run-phases.js';
import type { RunOutput, ValidationResult } from './types.js';

/**
 * After the runs: re-check the real checkout, judge every phase, let the phases conclude (formal,
 * build) and annotate (claim), and seal the receipt. Records keep the order the receipt always had.
 */
export async function sealValidation(
  ctx: PhaseContext,
  ordered: readonly Phase[],
  runs: PhaseRuns,
  binding: Binding,
  staged: Staged,
  setup: { record?: SetupRecord }
): Promise<ValidationResult> {
  const { request, deps, trees, key, state } = ctx;
  const { proposal, approval, witness, adapter } = request;
  const manifest = witness.manifest;
  const { before, startedAt, changes, oracle } = binding;
  const { surface, findings, reset, applied, tracked, base, patchedSnapshot } = staged;
  const { outputs, notRun: notRunPhases, madeRuns } = runs;
  const l0 = state.l0;
  const related = state.related;
  const relatedOutputs = outputs.filter((o) => o.evidence.label === RELATED_LABEL);
  const byLabel = Object.fromEntries(RUN_LABELS.map((label) => [label, outputs.filter((o) => o.evidence.label === label)])) as Record<RunLabel, RunOutput[]>;
  const evidence = Object.fromEntries(RUN_LABELS.map((label) => [label, byLabel[label].map((o) => o.evidence)])) as RunsByLabel;
  const after = await deps.snapshot(request.repoDir);
  const unchanged = after.digest === before.digest;
  const delta = diffSnapshots(before, after);
  const judgement = judge(evidence, unchanged, {
    ...(manifest.reproduction.expected_failing ? { expectedFailing: manifest.reproduction.expected_failing } : {}),
    pinned: {
      ...(manifest.reproduction.ids ? { reproduction: manifest.reproduction.ids } : {}),
      ...(manifest.hidden.ids ? { hidden: manifest.hidden.ids } : {})
    },
    surfaceReasons: [...surface.reasons, ...setupReasons(setup.record), ...(l0 !== undefined && l0Failed(l0) ? (['policy_gate_failed'] as const) : [])],
    notRun: notRunPhases,
    related: relatedOutputs.map((o) => o.evidence)
  });
  if (judgement.reasons.includes('base_unrunnable')) {
    const shown = [...byLabel.reproduction_before, ...byLabel.regression_before].find((o) => (o.excerpt ?? '') !== '') ?? byLabel.reproduction_before[0];
    if (shown !== undefined) {
      const excerpt = shown.excerpt ?? '';
      deps.log(`patchproof: the grader cannot run on the base tree; ${shown.record.label} run ${shown.record.attempt} says:`);
      for (const line of (excerpt === '' ? '(no output)' : excerpt).split('\n')) deps.log(`  | ${line}`);
      deps.baseFailure?.({ label: shown.record.label, attempt: shown.record.attempt, excerpt, sha256: excerptSha256(excerpt) });
    }
  }
  let decided: Decision = { verdict: judgement.verdict, reasons: judgement.reasons };
  for (const phase of ordered) if (phase.conclude !== undefined) decided = await phase.conclude(ctx, decided);
  const formal = state.formal?.record;
  const build = state.build;
  const tamperScreen = state.tamper;
  // The tamper screen ran on every validation that seals a receipt (only witness record skips it).
  if (tamperScreen === undefined) throw new Error('the tamper screen did not run; no receipt is sealed without it');
  const recordsOf = (...labels: RunLabel[]): RunRecord[] => labels.flatMap((label) => byLabel[label].map((o) => o.record));
  const runsOf: Record<string, RunRecord[]> = {
    reproduction_before: recordsOf('reproduction_before'),
    reproduction_after: recordsOf('reproduction_after'),
    regression: [...recordsOf('regression_before'), ...relatedOutputs.map((o) => o.record), ...recordsOf('regression_after')],
    hidden: recordsOf('hidden')
  };
  const sealedPhase = (phase: OraclePhase): GradingModel => (phaseIsSealed(oracle, phase) ? 'sealed' : 'in_process');
  const grading: Record<string, GradingModel> = {
    reproduction_before: sealedPhase('reproduction'),
    reproduction_after: sealedPhase('reproduction'),
    regression: 'in_process',
    hidden: sealedPhase('hidden')
  };
  const idsOf = (label: RunLabel): string[] => [...new Set(byLabel[label][0]?.evidence.parsed?.tests.map((t) => t.id) ?? [])].sort();
  const runner = request.runner.description;
  const allowed = (Object.keys(manifest.allow) as (keyof typeof manifest.allow)[]).filter((key) => manifest.allow[key]).sort();
  const unredacted: Omit<ReceiptBody, 'hidden_ids'> = {
    schema: RECEIPT_SCHEMA,
    tool_version: TOOL_VERSION,
    run_id: approval.run_id,
    started_at: startedAt.toISOString(),
    finished_at: deps.now().toISOString(),
    verdict: decided.verdict,
    // Proof grade needs the candidate's side (reproduction after, hidden) graded by sealed oracles,
    // and a clean tamper screen: an in-process lie keyed on values passes the sealed oracles' twins.
    proof_grade:
      runner.isolated && decided.verdict === 'passed' && unchanged && grading.reproduction_after === 'sealed' && grading.hidden === 'sealed' && !tamperWithholds(tamperScreen),
    reasons: decided.reasons,
    bindings: {
      proposal_hash: proposal.proposal_hash,
      approval_digest: approval.approval_digest,
      approved_by: approval.approved_by,
      diff_digest: proposal.diff_digest,
      base_snapshot: proposal.base_snapshot,
      patched_snapshot: patchedSnapshot,
      witness_digest: witness.digest
    },
    witness: {
      source: witness.source,
      adapter: manifest.adapter,
      reproduction_repeat: manifest.reproduction.repeat,
      hidden_repeat: manifest.hidden.repeat,
      regression_retries: manifest.regression.retries,
      ...(manifest.reproduction.expected_failing ? { expected_failing: [...manifest.reproduction.expected_failing] } : {}),
      ...(manifest.reproduction.ids || manifest.hidden.ids
        ? {
            pinned_ids: {
              ...(manifest.reproduction.ids ? { reproduction: [...manifest.reproduction.ids] } : {}),
              ...(manifest.hidden.ids ? { hidden: [...manifest.hidden.ids] } : {})
            }
          }
        : {}),
      protected: [...manifest.protected],
      allow: allowed,
      ...(manifest.tamper_allow !== undefined && manifest.tamper_allow.length > 0
        ? { tamper_allow: manifest.tamper_allow.map((entry) => ({ rule: entry.rule, paths: [...entry.paths] })) }
        : {})
    },
    surface: { findings, reasons: surface.reasons, relaxed: surface.relaxed, restored: reset.restore, removed: reset.remove },
    inventory: {
      suite_files: { base: trees.suite.base, patched: trees.suite.patched },
      test_ids: {
        reproduction_before: idsOf('reproduction_before'),
        reproduction_after: idsOf('reproduction_after'),
        regression_before: idsOf('regression_before'),
        regression_after: idsOf('regression_after'),
        hidden: idsOf('hidden')
      }
    },
    repository: {
      snapshot_before: before.digest,
      snapshot_after: after.digest,
      unchanged,
      changed_paths: [...delta.added, ...delta.removed, ...delta.changed].sort()
    },
    runner: { ...runner, settings: [...runner.settings] },
    adapter: adapter.name,
    ...(setup.record !== undefined ? { setup: setup.record } : {}),
    limits: {
      timeout_ms: request.limits.timeoutMs,
      output_limit_bytes: request.limits.outputLimitBytes,
      diff_max_bytes: request.limits.diff.maxBytes,
      diff_max_files: request.limits.diff.maxFiles
    },
    phases: judgement.phases.map((p) => ({ ...p, runs: runsOf[p.name] ?? [], grading: grading[p.name] })),
    ...(formal !== undefined ? { formal } : {}),
    ...(build !== undefined ? { build } : {}),
    ...(request.shard !== undefined && trees.wholeSuite !== undefined
      ? { shard: { index: request.shard.index, count: request.shard.count, suite_files: { base: trees.wholeSuite.base, patched: trees.wholeSuite.patched } } }
      : {}),
    tamper_screen: tamperScreen
  };
  // Hidden means hidden: the public receipt keeps statuses, counts and keyed ids only.
  const hiddenKey = deriveHiddenIdKey(witness.witnessKey, witness.digest);
  const redacted = redactHidden(unredacted, hiddenKey);
  for (const phase of ordered) phase.annotate?.(ctx, redacted.body);
  const hiddenDetail = request.encryptHiddenDetail !== undefined ? await request.encryptHiddenDetail(redacted.detail) : undefined;
  const screening = request.earlyExit === true || request.baseline !== undefined || request.baselineShared === true || request.baselineCache !== undefined;
  const cacheEntry = request.baseline !== undefined ? request.baselineCache?.entry : undefined;
  // Recorded only when this receipt's phases hold runs made on the other candidate's tree.
  const sharedRuns = request.sharedRuns !== undefined && outputs.some((o) => request.sharedRuns!.outputs.includes(o)) ? request.sharedRuns : undefined;
  const bodyWithGates: ReceiptBody = {
    ...redacted.body,
    ...(hiddenDetail !== undefined ? { hidden_detail_sha256: createHash('sha256').update(hiddenDetail).digest('hex') } : {}),
    ...(l0 !== undefined
      ? {
          gates: {
            early_exit: true as const,
            l0,
            changed_lines: changedLines(changes),
            changed_public_interfaces: [...applied]
              .flatMap(([path, content]) => changedPublicInterfaces(path, tracked.has(path) ? readFileSync(join(base, ...path.split('/'))) : undefined, content))
              .sort(),
            ...(sharedRuns !== undefined
              ? { shared_runs: { diff_digest: sharedRuns.diffDigest, patched_snapshot: sharedRuns.patchedSnapshot, normalised_key: sharedRuns.normalisedKey } }
              : {}),
            ...(related !== undefined ? { related: relatedRecord(related, relatedOutputs, byLabel.regression_before[0]) } : {})
          }
        }
      : {})
  };
  const body: ReceiptBody = screening
    ? {
        ...bodyWithGates,
        baseline: {
          shared: request.baseline !== undefined || request.baselineShared === true,
          digest: baselineDigest(bodyWithGates),
          ...(cacheEntry !== undefined ? { cache: { entry: cacheEntry } } : {})
        }
      }
    : bodyWithGates;
  const receipt = sealReceipt(body);
  const isBase = (o: RunOutput): boolean => o.evidence.label === 'reproduction_before' || o.evidence.label === 'regression_before';
  const patchedRuns = outputs.filter((o) => !isBase(o));
  return {
    receipt,
    ...(hiddenDetail !== undefined ? { hiddenDetail } : {}),
    baseline: {
      baseSnapshot: before.digest,
      witnessDigest: witness.digest,
      outputs: outputs.filter(isBase),
      ...(state.builds.base !== undefined ? { build: state.builds.base } : {})
    },
    ...(madeRuns && patchedRuns.length > 0 ? { runs: { diffDigest: proposal.diff_digest, patchedSnapshot, normalisedKey: key, outputs: patchedRuns } } : {}),
    normalisedKey: key,
    changedPaths: changes.map((change) => change.path)
  };
}

/** The receipt's `gates.related`: the tier's files and outcome (src/core/receipt.ts checks it against the regression phase). */
function relatedRecord(plan: RelatedTierPlan, runs: readonly RunOutput[], before: RunOutput | undefined): NonNullable<NonNullable<ReceiptBody['gates']>['related']> {
  if ('skipped' in plan) return { status: 'skipped', skipped: plan.skipped, files: [], regressions: [] };
  if (runs.length === 0) return { status: 'not_run', files: plan.files, regressions: [] };
  const tier = judgeRelatedTier(
    before?.evidence,
    runs.map((o) => o.evidence)
  );
  return { status: tier.status, files: plan.files, regressions: tier.regressions };
}
