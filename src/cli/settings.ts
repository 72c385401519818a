import { parseArgs } from 'node:util';
import { ADAPTER_NAMES, type AdapterName } from '../adapters/adapter.js';
import { DEFAULT_DIFF_LIMITS } from '../core/diff-policy.js';
import { ConfigurationError } from '../errors.js';

/**
 * The one place that reads the command line: each subcommand's flags become one typed settings
 * object. Errors name the flag and the accepted form.
 */

export const USAGE = `usage:
  patchproof propose --repo DIR --diff FILE --out FILE [--max-diff-bytes N] [--max-diff-files N]
  patchproof approve --proposal FILE --proposal-hash HEX --approved-by NAME --run-id ID --out FILE
  patchproof validate --repo DIR --proposal FILE --approval FILE --reproduction DIR --hidden DIR
                      --adapter ${ADAPTER_NAMES.join('|')} --runner local|docker [--image REF] --out DIR
                      [--timeout SECONDS] [--output-limit BYTES] [--concurrency N]
                      [--max-diff-bytes N] [--max-diff-files N]
  patchproof verify-receipt FILE

exit codes: 0 passed (verify-receipt: valid), 1 failed (verify-receipt: invalid), 2 refused, 3 inconclusive`;

export interface ProposeSettings {
  command: 'propose';
  /** The repository checkout the diff applies to (read only). */
  repo: string;
  /** The unified diff file. */
  diff: string;
  /** Where to write proposal.json. */
  out: string;
  maxDiffBytes: number;
  maxDiffFiles: number;
}

export interface ApproveSettings {
  command: 'approve';
  proposal: string;
  /** The full 64-hex proposal_hash, exactly as reviewed. */
  proposalHash: string;
  /** Declared approver name: audit metadata, not an authenticated identity. */
  approvedBy: string;
  runId: string;
  out: string;
}

export interface ValidateSettings {
  command: 'validate';
  repo: string;
  proposal: string;
  approval: string;
  /** External reproduction tests: must fail before the patch and pass after it. */
  reproduction: string;
  /** External hidden tests the candidate never saw: must pass after the patch. */
  hidden: string;
  adapter: AdapterName;
  runner: 'local' | 'docker';
  /** Docker only: `name@sha256:<digest>` or a local image ID `sha256:<64 hex>`. */
  image?: string;
  /** Folder for receipt.json and report.md; must be outside the repository. */
  out: string;
  timeoutMs: number;
  outputLimitBytes: number;
  concurrency: number;
  maxDiffBytes: number;
  maxDiffFiles: number;
}

export interface VerifySettings {
  command: 'verify-receipt';
  file: string;
}

export type Settings = ProposeSettings | ApproveSettings | ValidateSettings | VerifySettings;

/** Per-run defaults, documented in the README's CLI reference. */
export const DEFAULT_TIMEOUT_SECONDS = 300;
export const DEFAULT_OUTPUT_LIMIT_BYTES = 4 * 1024 * 1024;
export const DEFAULT_CONCURRENCY = 2;

function required(values: Record<string, string | undefined>, name: string, form: string): string {
  const value = values[name];
  if (value === undefined || value === '') throw new ConfigurationError(`--${name} is required: give ${form}`);
  return value;
}

function positiveInt(values: Record<string, string | undefined>, name: string, fallback: number, max: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  if (!/^[1-9][0-9]*$/.test(raw) || Number(raw) > max) {
    throw new ConfigurationError(`--${name} '${raw}' is not valid; give a whole number from 1 to ${max}`);
  }
  return Number(raw);
}

function parse(args: string[], options: Record<string, { type: 'string' }>): { values: Record<string, string | undefined>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options, strict: true, allowPositionals: true });
    return { values: values as Record<string, string | undefined>, positionals };
  } catch (error) {
    throw new ConfigurationError(`${(error as Error).message.split('\n')[0]}; run 'patchproof --help' for usage`);
  }
}

const str = { type: 'string' } as const;
const diffLimitOptions = { 'max-diff-bytes': str, 'max-diff-files': str };

/** Read argv (without node and script) into settings. Throws ConfigurationError for any mistake. */
export function readSettings(argv: readonly string[]): Settings | 'help' {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return 'help';
  const noPositionals = (positionals: string[]): void => {
    if (positionals.length > 0) throw new ConfigurationError(`unexpected argument '${positionals[0]}'; run 'patchproof --help' for usage`);
  };
  switch (command) {
    case 'propose': {
      const { values, positionals } = parse(rest, { repo: str, diff: str, out: str, ...diffLimitOptions });
      noPositionals(positionals);
      return {
        command,
        repo: required(values, 'repo', 'the repository folder'),
        diff: required(values, 'diff', 'the unified diff file'),
        out: required(values, 'out', 'the proposal file to write'),
        maxDiffBytes: positiveInt(values, 'max-diff-bytes', DEFAULT_DIFF_LIMITS.maxBytes, 256 * 1024 * 1024),
        maxDiffFiles: positiveInt(values, 'max-diff-files', DEFAULT_DIFF_LIMITS.maxFiles, 100_000)
      };
    }
    case 'approve': {
      const { values, positionals } = parse(rest, { proposal: str, 'proposal-hash': str, 'approved-by': str, 'run-id': str, out: str });
      noPositionals(positionals);
      return {
        command,
        proposal: required(values, 'proposal', 'the proposal file'),
        proposalHash: required(values, 'proposal-hash', "the proposal's full 64-hex proposal_hash"),
        approvedBy: required(values, 'approved-by', 'the approver name'),
        runId: required(values, 'run-id', 'a run id'),
        out: required(values, 'out', 'the approval file to write')
      };
    }
    case 'validate': {
      const { values, positionals } = parse(rest, {
        repo: str, proposal: str, approval: str, reproduction: str, hidden: str, adapter: str, runner: str, image: str, out: str,
        timeout: str, 'output-limit': str, concurrency: str, ...diffLimitOptions
      });
      noPositionals(positionals);
      const adapter = required(values, 'adapter', ADAPTER_NAMES.join(' or '));
      if (!(ADAPTER_NAMES as readonly string[]).includes(adapter)) {
        throw new ConfigurationError(`--adapter '${adapter}' is unknown; use one of: ${ADAPTER_NAMES.join(', ')}`);
      }
      const runner = required(values, 'runner', 'local or docker');
      if (runner !== 'local' && runner !== 'docker') throw new ConfigurationError(`--runner '${runner}' is unknown; use local or docker`);
      if (runner === 'docker' && values.image === undefined) {
        throw new ConfigurationError('--image is required with --runner docker: give name@sha256:<digest> or a local image ID sha256:<64 hex>');
      }
      if (runner === 'local' && values.image !== undefined) throw new ConfigurationError('--image is only for --runner docker');
      return {
        command,
        repo: required(values, 'repo', 'the repository folder'),
        proposal: required(values, 'proposal', 'the proposal file'),
        approval: required(values, 'approval', 'the approval file'),
        reproduction: required(values, 'reproduction', 'the folder of reproduction tests'),
        hidden: required(values, 'hidden', 'the folder of hidden tests'),
        adapter: adapter as AdapterName,
        runner,
        ...(values.image !== undefined ? { image: values.image } : {}),
        out: required(values, 'out', 'the output folder for receipt.json and report.md'),
        timeoutMs: positiveInt(values, 'timeout', DEFAULT_TIMEOUT_SECONDS, 24 * 3600) * 1000,
        outputLimitBytes: positiveInt(values, 'output-limit', DEFAULT_OUTPUT_LIMIT_BYTES, 1024 * 1024 * 1024),
        concurrency: positiveInt(values, 'concurrency', DEFAULT_CONCURRENCY, 16),
        maxDiffBytes: positiveInt(values, 'max-diff-bytes', DEFAULT_DIFF_LIMITS.maxBytes, 256 * 1024 * 1024),
        maxDiffFiles: positiveInt(values, 'max-diff-files', DEFAULT_DIFF_LIMITS.maxFiles, 100_000)
      };
    }
    case 'verify-receipt': {
      const { positionals } = parse(rest, {});
      if (positionals.length !== 1) throw new ConfigurationError('verify-receipt takes exactly one receipt file');
      return { command, file: positionals[0] as string };
    }
    default:
      throw new ConfigurationError(`unknown command '${command}'; use propose, approve, validate or verify-receipt`);
  }
}
