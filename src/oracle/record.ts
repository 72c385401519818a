import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseOracleFile, recordExpectations, type OracleFile } from '../core/oracle.js';
import { baseProblems, referenceFailures, reproductionSealProblems, type RecordedPackRun } from '../core/record-checks.js';
import { approveProposal, createProposal } from '../core/proposal.js';
import { ConfigurationError } from '../errors.js';
import { witnessAdapter } from '../adapters/registry.js';
import type { Runner } from '../runners/runner.js';
import { takeSnapshot } from '../inventory/snapshot.js';
import { digestWitnessFolder } from '../fetch/witness/digest.js';
import { resolveWitness } from '../fetch/witness/fetch.js';
import { TOOL_VERSION } from '../version.js';
import { recordRuns } from '../phases/validate.js';

/**
 * `patchproof witness record PACK --reference DIFF --repo REPO`: record a sealed pack's expected
 * values from a reference fix. The pack's observing tests (their sealed form) run in the runner
 * (the hardened container with `--runner docker`) on the base with the reference diff applied, each
 * phase twice; the host collects the observations from the runs' output, as validate does, and
 * writes them as the expected values of the pack's pending sites. It refuses, and writes nothing,
 * when a case is not observed, a sealed case is not satisfied, or the two runs disagree
 * (src/core/oracle.ts, recordExpectations). The reference fix is trusted: it is what "right" means.
 *
 * The pack is trusted less (issue 28): the sealed reproduction also runs on the base, in the same
 * runner, and record refuses a reproduction with no sealed site, one that fails with the reference
 * fix (for a reason that has nothing to do with the bug, or at all), one that does not fail on the
 * base for a reason the pack allows, and one none of whose sealed sites tells the base from the
 * reference fix: an oracle that holds for any implementation (src/core/record-checks.ts).
 */

export interface RecordOptions {
  pack: string;
  repo: string;
  /** The reference fix: a unified diff against the repository's checkout. */
  diff: string;
  runner: Runner;
  timeoutMs?: number;
  concurrency: number;
  setupCacheDir?: string;
  log: (line: string) => void;
}

export interface RecordReport {
  oracleFile: string;
  /** Cases recorded for pending sites. */
  recorded: number;
  /** Sealed cases the reference fix was checked against (and satisfied). */
  checked: number;
  cases: number;
  /** Reproduction cases whose base observation differs from their expectation, in every base run. */
  discriminating: number;
}

function refuse(problems: readonly string[]): never {
  throw new ConfigurationError(`witness record refused; nothing was written: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`);
}

export async function recordPack(options: RecordOptions): Promise<RecordReport> {
  const { digest } = await digestWitnessFolder(options.pack);
  const witness = await resolveWitness(options.pack, digest);
  try {
    const manifest = witness.manifest;
    const oracleFile = manifest.oracle?.expected;
    if (oracleFile === undefined) throw new ConfigurationError(`the witness pack has no oracle; run 'patchproof witness seal ${options.pack}' first`);
    const oracle: OracleFile = parseOracleFile(JSON.parse(await readFile(join(witness.dir, ...oracleFile.split('/')), 'utf8')));
    const unsealed = reproductionSealProblems(oracle);
    if (unsealed.length > 0) refuse(unsealed);
    const base = await takeSnapshot(options.repo);
    const proposal = createProposal(options.diff, base.digest, TOOL_VERSION);
    const approval = approveProposal(proposal, proposal.proposal_hash, `record-${randomBytes(4).toString('hex')}`, 'patchproof witness record', TOOL_VERSION);
    const runs: RecordedPackRun[] = [];
    await recordRuns(
      {
        repoDir: options.repo,
        proposal,
        approval,
        witness: { dir: witness.dir, digest: witness.digest, manifest, source: witness.source },
        adapter: await witnessAdapter(manifest, witness.dir),
        runner: options.runner,
        limits: {
          timeoutMs: options.timeoutMs ?? manifest.limits.timeout_seconds * 1000,
          outputLimitBytes: manifest.limits.output_limit_bytes,
          diff: { maxBytes: manifest.limits.diff_max_bytes, maxFiles: manifest.limits.diff_max_files }
        },
        concurrency: options.concurrency,
        ...(options.setupCacheDir !== undefined ? { setupCacheDir: options.setupCacheDir } : {}),
        recordObservations: (run) => runs.push(run)
      },
      { snapshot: (dir) => takeSnapshot(dir), now: () => new Date(), log: options.log, nonce: () => randomBytes(16).toString('hex') }
    );
    const reference = runs.filter((run) => run.tree === 'patched');
    const outcome = recordExpectations(oracle, reference);
    // A reference that fails for the wrong reason explains missing observations: it goes first.
    const first = [...referenceFailures(reference), ...(outcome.ok ? [] : outcome.problems)];
    if (first.length > 0 || !outcome.ok) refuse(first);
    const againstBase = baseProblems(outcome.oracle, runs, {
      ...(manifest.reproduction.expected_failing ? { expectedFailing: manifest.reproduction.expected_failing } : {}),
      ...(manifest.reproduction.ids ? { pinned: manifest.reproduction.ids } : {})
    });
    if (againstBase.problems.length > 0) refuse(againstBase.problems);
    await writeFile(join(options.pack, ...oracleFile.split('/')), `${JSON.stringify(outcome.oracle, null, 2)}\n`);
    return { oracleFile, recorded: outcome.recorded, checked: outcome.checked, cases: outcome.oracle.cases.length, discriminating: againstBase.discriminating.length };
  } finally {
    await witness.dispose();
  }
}
