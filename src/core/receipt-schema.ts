import { z } from 'zod';
import { DIGEST_PATTERN, HEX64_PATTERN, type HashDomain } from './hashing.js';
import { formalRecordSchema } from './formal.js';
import { buildRecordSchema } from './build-gate.js';
import { PHASE_NAMES, PHASE_STATUSES, REASON_CODES, RECORD_LABELS } from './verdict.js';
import { RELATED_SKIP_REASONS } from './related-tests.js';
import { L0_RULES } from './l0-gates.js';
import { CLAIM_FINDINGS, CLAIM_FORMATS } from './claim-codes.js';
import { tamperAllowanceSchema, tamperScreenSchema } from './tamper.js';

/**
 * The receipt, every version from v2 to the one written now (`RECEIPT_SCHEMA`): a strict zod schema;
 * the versions differ only in what each one added (below). Every key is documented in
 * docs/receipt.md. v1 is frozen in src/core/receipt-v1.ts; verify-receipt dispatches on `schema`.
 *
 * v2 over v1: the hidden phase is public as statuses, counts and keyed digests only (`hidden_ids`;
 * see src/core/hidden-ids.ts), and the digest domain is 'patchproof/receipt/v2'.
 * v3 over v2: the same keys, but `witness.pinned_ids.hidden` holds keyed ids too (v2 wrote the
 * pack's real hidden ids there, which named the hidden tests), and the digest domain is
 * 'patchproof/receipt/v3'. v2 receipts stay verifiable under the rules they were written by.
 * v4 over v3: a phase may be `not_run` (the early exit: the base reproduction did not fail, so the
 * patched tree's runs were cancelled or never started; docs/receipt.md), with no runs of the patched
 * tree; the digest domain is 'patchproof/receipt/v4'. v2 and v3 receipts never hold `not_run`.
 *
 * v5 over v4 (one landing, four optional records): `baseline` and `gates` (screening and
 * `validate --early-exit`: a phase after a failed gate is `not_run`), `claim` (the agent's claim
 * against the clean room) and `formal` (the Z3 gate); the digest domain is 'patchproof/receipt/v5'.
 * v4 and older receipts never hold any of the four.
 *
 * v6 over v5 (one landing, all additive): the `build` record (the L1 build gate), `baseline.cache`
 * (a base side reused from `--baseline-cache`), the claim format `cargo-test`, in `formal` the
 * status `checked` and each target's `replay` (the counterexample run as a test in the container),
 * and `gates.related` with its `regression_related` runs (L3's related test files first);
 * the digest domain is 'patchproof/receipt/v6'. v5 and older receipts never hold any of them.
 *
 * v7 over v6 (one landing, additive): the `shard` record (`validate --shard K/N`: the regression
 * suite's share this receipt ran; `inventory.suite_files` is that share, `shard.suite_files` the
 * whole suite); the digest domain is 'patchproof/receipt/v7'. v6 and older receipts never hold it.
 * v8 over v7 (one landing, additive): in `formal`, a target's `scope.integers` may be `python-int`
 * (Python targets are proved over unbounded integers) and a counterexample's integers outside
 * ±(2^53−1) are exact decimal strings (python-int targets only); the digest domain is
 * 'patchproof/receipt/v8'. v7 and older receipts never hold either.
 * v9 over v8 (one landing): the `tamper_screen` record (src/core/tamper.ts: the candidate's changed
 * non-test files screened for constructs that make the in-process grader lie), present in every v9
 * receipt; a finding not allowed by the pack withholds proof grade. The digest domain is
 * 'patchproof/receipt/v9'. v8 and older receipts never hold it.
 * v10 over v9 (one landing, additive, all optional): a run's `canary.changed` (what the tripwire
 * found changed in the grader), a phase's `checks` (the checks that fired, issue 28 item 8) and
 * `sealed_tests` (the base reproduction judged per test, issue 28 items 4, 7); the digest domain is
 * 'patchproof/receipt/v10'. v9 and older receipts never hold any of them.
 * src/core/receipt.ts `RECORDS_SINCE` lists every record with the schema that introduced it.
 */

/** v10: the tripwire's `canary.changed`, a phase's fired `checks` and `sealed_tests` (all optional). */
export const RECEIPT_V10_SCHEMA = 'patchproof.receipt/v10';

/** v9: the `tamper_screen` record (required), which proof grade depends on. */
export const RECEIPT_V9_SCHEMA = 'patchproof.receipt/v9';

/** v8: formal `python-int` scopes and exact big integers in counterexamples. */
export const RECEIPT_V8_SCHEMA = 'patchproof.receipt/v8';

/** v7: the `shard` record (a share of the regression suite, `validate --shard K/N`). */
export const RECEIPT_V7_SCHEMA = 'patchproof.receipt/v7';

/** v6: the `build` record, `baseline.cache`, the `cargo-test` claim format, formal `checked` and replays, `gates.related`. */
export const RECEIPT_V6_SCHEMA = 'patchproof.receipt/v6';
/** v5: `baseline`, `gates`, `claim` and `formal` records (optional). */
export const RECEIPT_V5_SCHEMA = 'patchproof.receipt/v5';
/** The schema this version writes. */
export const RECEIPT_SCHEMA = RECEIPT_V10_SCHEMA;
/** v4, still verified under its rules (`not_run` phases; none of v5's records). */
export const RECEIPT_V4_SCHEMA = 'patchproof.receipt/v4';
/** v3, still verified under its rules (no `not_run` phase). */
export const RECEIPT_V3_SCHEMA = 'patchproof.receipt/v3';
/** v2, still verified: it may carry the pack's real pinned hidden ids in `witness.pinned_ids`. */
export const RECEIPT_V2_SCHEMA = 'patchproof.receipt/v2';
/** Every schema verified by the rules of src/core/receipt.ts (v1 has its own, frozen). */
export const RECEIPT_SCHEMAS = [
  RECEIPT_V10_SCHEMA,
  RECEIPT_V9_SCHEMA,
  RECEIPT_V8_SCHEMA,
  RECEIPT_V7_SCHEMA,
  RECEIPT_V6_SCHEMA,
  RECEIPT_V5_SCHEMA,
  RECEIPT_V4_SCHEMA,
  RECEIPT_V3_SCHEMA,
  RECEIPT_V2_SCHEMA
] as const;
export type ReceiptSchemaName = (typeof RECEIPT_SCHEMAS)[number];

/** True when `schema` is `since` or newer: a record introduced by `since` may appear in it. */
export function schemaAtLeast(schema: ReceiptSchemaName, since: ReceiptSchemaName): boolean {
  // RECEIPT_SCHEMAS is newest first, so a smaller index is a newer schema.
  return RECEIPT_SCHEMAS.indexOf(schema) <= RECEIPT_SCHEMAS.indexOf(since);
}

/** The digest domain each schema seals under. */
const DIGEST_DOMAINS: Record<ReceiptSchemaName, HashDomain> = {
  [RECEIPT_V10_SCHEMA]: 'patchproof/receipt/v10',
  [RECEIPT_V9_SCHEMA]: 'patchproof/receipt/v9',
  [RECEIPT_V8_SCHEMA]: 'patchproof/receipt/v8',
  [RECEIPT_V7_SCHEMA]: 'patchproof/receipt/v7',
  [RECEIPT_V6_SCHEMA]: 'patchproof/receipt/v6',
  [RECEIPT_V5_SCHEMA]: 'patchproof/receipt/v5',
  [RECEIPT_V4_SCHEMA]: 'patchproof/receipt/v4',
  [RECEIPT_V3_SCHEMA]: 'patchproof/receipt/v3',
  [RECEIPT_V2_SCHEMA]: 'patchproof/receipt/v2'
};

export function receiptDigestDomain(schema: ReceiptSchemaName): HashDomain {
  return DIGEST_DOMAINS[schema];
}

/** A hidden test's public id: HMAC-SHA256 of its real id under the pack's hidden-id key. */
export const HIDDEN_ID_PATTERN = /^hmac-sha256:[0-9a-f]{64}$/;

const digest = z.string().regex(DIGEST_PATTERN);
const hex64 = z.string().regex(HEX64_PATTERN);
const count = z.number().int().nonnegative();

export const testCountsSchema = z.strictObject({ passed: count, failed: count, errored: count, skipped: count });

export const testResultSchema = z.strictObject({
  id: z.string().min(1),
  status: z.enum(['passed', 'failed', 'errored', 'skipped']),
  failure_kind: z.enum(['assertion', 'exception_in_code', 'exception_in_test', 'import_error', 'collection_error', 'setup_error', 'timeout', 'unknown']).optional(),
  message: z.string().optional(),
  location: z.string().optional(),
  skip_reason: z.string().optional()
});

export const runRecordSchema = z.strictObject({
  /** `regression_related` (from v6): a run of L3's first tier, the related test files (regression phase only). */
  label: z.enum(RECORD_LABELS),
  attempt: z.number().int().min(1),
  argv: z.array(z.string()),
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  timed_out: z.boolean(),
  output_truncated: z.boolean(),
  output_bytes: count,
  output_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /**
   * SHA-256 of the bounded, redacted excerpt of this run's first error lines (base runs only; see
   * src/core/base-failure.ts errorExcerpt), which the report shows when the base cannot run.
   */
  output_excerpt_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  duration_ms: count,
  problems: z.array(z.string()),
  /** The run's grader canaries: the nonce their names came from, and what each did. */
  canary: z.strictObject({
    nonce: z.string().regex(/^[0-9a-f]{32,}$/),
    pass: z.enum(['passed', 'failed', 'errored', 'skipped', 'missing']),
    fail: z.enum(['passed', 'failed', 'errored', 'skipped', 'missing']),
    /** Twin and mutant canaries among the real tests: kind and statuses only, never test ids. Optional in v1. */
    twins: z
      .array(
        z.strictObject({
          kind: z.enum(['twin', 'mutant']),
          status: z.enum(['passed', 'failed', 'errored', 'skipped', 'missing']),
          original: z.enum(['passed', 'failed', 'errored', 'skipped', 'missing'])
        })
      )
      .optional(),
    /**
     * v10 on: what the tripwire found changed in the grader, as the failed must-pass canary named it
     * (`node:assert/strict.throws replaced`, src/adapters/shared/tripwire.ts). Absent: nothing named.
     */
    changed: z.array(z.string().min(1).max(200)).min(1).max(64).optional()
  }),
  /** The results channel's cross-check (adapters that stream frames). */
  channel: z.strictObject({ frames: count, disagreements: z.array(z.string()), after_end_bytes: count }).optional(),
  infra_error: z.string().optional(),
  /** Sealed runs only: the observation nonce, the phase's sealed cases, the lines read and the cases matched. */
  oracle: z.strictObject({ nonce: z.string().regex(/^[0-9a-f]{32,}$/), cases: count, observed: count, matched: count }).optional()
});

/** One run of the dependency stage (or its cached result). */
export const setupRunSchema = z.strictObject({
  tree: z.enum(['base', 'patched']),
  argv: z.array(z.string()).min(1),
  /** Install scripts as the pack's argv says, or disabled for the candidate's manifests. */
  install_scripts: z.enum(['as_argv', 'disabled']),
  cache_key: digest,
  cached: z.boolean(),
  status: z.enum(['ok', 'failed']),
  exit_code: z.number().int().nullable(),
  timed_out: z.boolean(),
  output_truncated: z.boolean(),
  output_bytes: count,
  output_sha256: hex64,
  duration_ms: count,
  /** Snapshot digest of the output folders (every file, mode and link), null when the stage failed. */
  outputs_digest: digest.nullable(),
  /**
   * Candidate only: why the dependency policy refused the candidate's manifests (a `file:`/`link:`
   * dependency, a non-registry `resolved` URL, a changed test-runner closure); the stage never ran.
   */
  refused: z.array(z.string().min(1)).min(1).optional()
});

export const setupSchema = z.strictObject({
  network: z.boolean(),
  outputs: z.array(z.string().min(1)).min(1),
  env: z.record(z.string(), z.string()),
  base: setupRunSchema,
  /** Present when the candidate changed dependency manifests and the pack allowed it. */
  candidate: setupRunSchema.optional()
});

export const phaseSchema = z.strictObject({
  name: z.enum(PHASE_NAMES),
  /**
   * `not_run` (optional in the schema's sense: older receipts never carry it): the phase was not
   * needed because the base reproduction did not establish the bug; it has no tests and no reasons,
   * and only the runs that did run (the regression phase's base suite). Never part of a pass.
   */
  status: z.enum(PHASE_STATUSES),
  reasons: z.array(z.enum(REASON_CODES)),
  tests: testCountsSchema,
  results: z.array(testResultSchema),
  /** At least one run, except in a `not_run` phase (checked in src/core/receipt.ts). */
  runs: z.array(runRecordSchema),
  baseline: z.strictObject({ tests: testCountsSchema, results: z.array(testResultSchema) }).optional(),
  pass_to_pass: count.optional(),
  regressions: z.array(z.string()).optional(),
  preexisting_failures: z.array(z.string()).optional(),
  missing: z.array(z.string()).optional(),
  flaky: z.array(z.string()).optional(),
  newly_skipped: z.array(z.string()).optional(),
  /**
   * From v10, reproduction_before only, sealed: each test the oracle names and the ids of its results
   * (its sites, its framework failures). Such a test is judged as one result on the base: failed when
   * any of them failed (src/core/sealed-tests.ts). `results` still lists every site.
   */
  sealed_tests: z.array(z.strictObject({ id: z.string().min(1), results: z.array(z.string()).min(1) })).optional(),
  /**
   * How the phase was graded: `sealed` (observations compared on the host with expectations the
   * container never saw) or `in_process` (the test framework's own verdict). Optional in v1 so that
   * receipts made before it still verify; absent means in-process.
   */
  grading: z.enum(['sealed', 'in_process']).optional(),
  /**
   * From v10, optional: the checks behind `grader_compromised` and an inconclusive status (issue 28
   * item 8; src/core/fired-checks.ts): which check (a canary, a twin, a count, an exit status...), in
   * which run (`label#attempt`), and what it saw. Redacted to the marker in the hidden phase.
   */
  checks: z.array(z.strictObject({ check: z.string().min(1), run: z.string().min(1).optional(), detail: z.string() })).optional()
});

export const surfaceFindingSchema = z.strictObject({
  path: z.string().min(1),
  change: z.enum(['add', 'modify', 'delete']),
  categories: z.array(z.enum(['test', 'config', 'protected', 'placement', 'dependency', 'shadow'])).min(1),
  skip_markers: z.array(z.strictObject({ line: z.number().int().min(1), text: z.string() }))
});

const testStatus = z.enum(['passed', 'failed', 'errored', 'skipped']);

/**
 * The agent's claim compared with the clean room (`validate --claimed`; src/core/claim.ts). Optional:
 * absent when no claim was given. It never enters the verdict; verify-receipt checks each row against
 * the receipt's own results of the patched tree.
 */
export const claimSchema = z.strictObject({
  digest,
  format: z.enum(CLAIM_FORMATS),
  tests: count,
  matched: count,
  findings: z.strictObject({ possible_hidden_state_dependency: count, claim_unknown_test: count }),
  rows: z.array(
    z.strictObject({
      id: z.string().min(1),
      claimed: testStatus,
      clean_room: z.enum(['passed', 'failed', 'errored', 'skipped', 'absent', 'not_run']),
      finding: z.enum(CLAIM_FINDINGS).optional(),
      hidden: z.literal(true).optional()
    })
  ),
  omitted: count
});

const allowance = z.enum(['test_edits', 'test_removal', 'skips', 'config_edits', 'dependency_changes', 'workflow_edits']);

export const receiptSchema = z.strictObject({
  schema: z.enum(RECEIPT_SCHEMAS),
  tool_version: z.string().min(1),
  run_id: z.string().min(1),
  started_at: z.iso.datetime(),
  finished_at: z.iso.datetime(),
  verdict: z.enum(['passed', 'failed', 'inconclusive']),
  proof_grade: z.boolean(),
  reasons: z.array(z.enum(REASON_CODES)),
  /** Every digest that bound this run. */
  bindings: z.strictObject({
    proposal_hash: hex64,
    approval_digest: digest,
    approved_by: z.string().min(1),
    diff_digest: digest,
    base_snapshot: digest,
    patched_snapshot: digest,
    witness_digest: digest
  }),
  /** The witness pack that graded the run. */
  witness: z.strictObject({
    source: z.strictObject({ kind: z.enum(['dir', 'archive', 'url', 'folders']), location: z.string() }),
    adapter: z.string().min(1),
    reproduction_repeat: z.number().int().min(1),
    hidden_repeat: z.number().int().min(1),
    regression_retries: z.number().int().min(0),
    expected_failing: z.array(z.string()).optional(),
    /** The pack's pinned test ids (witness.json `reproduction.ids`, `hidden.ids`). Optional in v1; required (possibly empty) in v2. */
    pinned_ids: z.strictObject({ reproduction: z.array(z.string()).optional(), hidden: z.array(z.string()).optional() }).optional(),
    protected: z.array(z.string()),
    /** Relaxations of the test-surface rules the pack declares; `surface.relaxed` says which were used. */
    allow: z.array(allowance),
    /**
     * The pack's `tamper_allow` (from v9, present when the pack has one): the tamper-screen rules it
     * accepts for the paths its globs match; each finding's `allowed` follows from it.
     */
    tamper_allow: z.array(tamperAllowanceSchema).optional()
  }),
  /** What the candidate's diff touched on the test surface, and what was reset before judging. */
  surface: z.strictObject({
    findings: z.array(surfaceFindingSchema),
    reasons: z.array(z.enum(REASON_CODES)),
    relaxed: z.array(allowance),
    restored: z.array(z.string()),
    removed: z.array(z.string())
  }),
  /** The test surface collected through the adapter: suite files per tree and test ids per run. */
  inventory: z.strictObject({
    suite_files: z.strictObject({ base: z.array(z.string()), patched: z.array(z.string()) }),
    test_ids: z.strictObject({
      reproduction_before: z.array(z.string()),
      reproduction_after: z.array(z.string()),
      regression_before: z.array(z.string()),
      regression_after: z.array(z.string()),
      hidden: z.array(z.string())
    })
  }),
  repository: z.strictObject({
    snapshot_before: digest,
    snapshot_after: digest,
    unchanged: z.boolean(),
    changed_paths: z.array(z.string())
  }),
  runner: z.strictObject({
    kind: z.enum(['local', 'docker']),
    isolated: z.boolean(),
    image: z.string().optional(),
    image_id: z.string().optional(),
    settings: z.array(z.string())
  }),
  adapter: z.string().min(1),
  setup: setupSchema.optional(),
  limits: z.strictObject({ timeout_ms: count, output_limit_bytes: count, diff_max_bytes: count, diff_max_files: count }),
  phases: z.array(phaseSchema).length(PHASE_NAMES.length),
  /** How the hidden tests' ids were keyed (their names, messages and locations are never public). */
  hidden_ids: z.strictObject({
    scheme: z.literal('hmac-sha256'),
    /** `witness_key`: derived from the secret witness key; `pack_digest`: a plain pack, not secret. */
    key: z.enum(['witness_key', 'pack_digest']),
    /** HMAC of a fixed label under the key: tells which key made the ids, reveals nothing of it. */
    key_check: hex64
  }),
  /** SHA-256 of hidden-detail.age, the maintainers' encrypted detail; absent for a plain pack. */
  hidden_detail_sha256: hex64.optional(),
  /**
   * The base-side runs (reproduction before, the base suite) and whether they were made once for
   * several candidates (`screen`). `digest` is baselineDigest() of this receipt, re-derived by
   * verify-receipt; candidates that shared a baseline carry the same digest. Optional (new in the
   * screening slice). `cache.entry` (optional, from v6): the baseline was
   * reused from `--baseline-cache`, and this is the content address (SHA-256 of the bytes) of the
   * entry it came from; `shared` is then true.
   */
  baseline: z.strictObject({ shared: z.boolean(), digest, cache: z.strictObject({ entry: digest }).optional() }).optional(),
  /**
   * Gates in cost order with early exit (`screen`, `validate --early-exit`): the L0 policy findings
   * and the diff's metrics for the ranking; a phase after a failed gate is `not_run`. Optional (v5).
   */
  gates: z
    .strictObject({
      early_exit: z.literal(true),
      l0: z.array(z.strictObject({ rule: z.enum(L0_RULES), path: z.string().min(1), line: z.number().int().min(1).optional(), detail: z.string() })),
      /** Lines added plus lines removed by the diff. */
      changed_lines: count,
      /** Exported JS/TS symbols and public Python top-level names whose definition changed, as `path#name`. */
      changed_public_interfaces: z.array(z.string()),
      /**
       * A duplicate's runs were made on another candidate's tree whose changed files normalise to
       * the same key (src/core/normalise.ts): that candidate's diff and graded snapshot, and the key.
       */
      shared_runs: z.strictObject({ diff_digest: digest, patched_snapshot: digest, normalised_key: digest }).optional(),
      /**
       * L3's first tier (optional, from v6): the suite files that import a changed module, run before
       * the full suite (runs `regression_related` in the regression phase). `failed` cites the
       * regressions that stopped the candidate; `skipped` says why there was no tier.
       */
      related: z
        .strictObject({
          status: z.enum(['passed', 'failed', 'inconclusive', 'not_run', 'skipped']),
          skipped: z.enum(RELATED_SKIP_REASONS).optional(),
          files: z.array(z.string().min(1)),
          regressions: z.array(z.string().min(1))
        })
        .optional()
    })
    .optional(),
  /** The agent's claim against the clean room (optional, from v5). */
  claim: claimSchema.optional(),
  /**
   * The formal (Z3) gate (src/core/formal.ts): absent when the pack declares no target. New and
   * optional, from v5; checked in src/core/receipt.ts.
   */
  formal: formalRecordSchema.optional(),
  /**
   * The L1 build gate (src/core/build-gate.ts): the pack's `build.argv` on the base and on the
   * candidate's tree. Absent when the pack has no build. New and optional (listed for v6).
   */
  build: buildRecordSchema.optional(),
  /**
   * `validate --shard K/N` (from v7): this receipt ran the K-th of N shares of the regression suite
   * (src/core/shard.ts `suiteShare`, by file). `suite_files` is the whole suite as discovered;
   * `inventory.suite_files` holds the share that ran. Absent for a whole-suite validation.
   */
  shard: z
    .strictObject({
      index: z.number().int().min(1).max(256),
      count: z.number().int().min(2).max(256),
      suite_files: z.strictObject({ base: z.array(z.string()), patched: z.array(z.string()) })
    })
    .optional(),
  /**
   * The tamper screen (from v9, where it is required; src/core/tamper.ts): what the candidate's
   * changed non-test files introduced that can make the in-process grader lie. A finding that is not
   * allowed, or an unparsed file, withholds proof grade; it never changes the verdict.
   */
  tamper_screen: tamperScreenSchema.optional(),
  receipt_digest: digest
});

export type Receipt = z.infer<typeof receiptSchema>;
export type ReceiptBody = Omit<Receipt, 'receipt_digest'>;
export type PhaseRecord = z.infer<typeof phaseSchema>;
export type RunRecord = z.infer<typeof runRecordSchema>;
export type SetupRunRecord = z.infer<typeof setupRunSchema>;
export type SetupRecord = z.infer<typeof setupSchema>;
export type ClaimRecordSchema = z.infer<typeof claimSchema>;
