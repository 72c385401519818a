import { parseArgs } from 'node:util';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ADAPTER_NAMES, type AdapterName } from '../adapters/registry.js';
import { DEFAULT_DIFF_LIMITS } from '../core/diff-policy.js';
import { ConfigurationError } from '../errors.js';

/**
 * The one place that reads the command line: each subcommand's flags become one typed settings
 * object. Errors name the flag and the accepted form.
 */

export const USAGE = `usage:
  patchproof propose --repo DIR --diff FILE --out FILE [--max-diff-bytes N] [--max-diff-files N]
  patchproof approve --proposal FILE --proposal-hash HEX --approved-by NAME --run-id ID --out FILE
  patchproof validate --repo DIR --proposal FILE --approval FILE
                      (--witness DIR|FILE.tar.gz|URL --witness-digest sha256:HEX
                       | --reproduction DIR --hidden DIR --adapter ${ADAPTER_NAMES.join('|')})
                      --runner local|docker [--image REF] --out DIR
                      [--timeout SECONDS] [--output-limit BYTES] [--concurrency N]
                      [--max-diff-bytes N] [--max-diff-files N] [--setup-cache DIR]
                      [--witness-key-file FILE]   (a sealed pack: the age identity that opens hidden.age)
                      [--container-workdir PATH] [--container-results PATH] [--container-home PATH]
                      [--container-user UID:GID] [--container-env NAME=VALUE]...
                      [--receipt-store DIR]   (where promote finds the receipts validate produced)
                      [--claimed FILE]   (the agent's own results: JUnit XML, jest/vitest --json, go test -json)
                      [--early-exit]   (gates in cost order: L0 policy, reproduction, suite, hidden; the first failure stops)
                      [--baseline-cache DIR]   (base-side runs kept for the next candidate on the same base; only you may write DIR)
                      [--shard K/N]   (the K-th of N shares of the regression suite, by file; merge the N receipts)
  patchproof screen --repo DIR --witness DIR|FILE.tar.gz|URL --witness-digest sha256:HEX
                      --candidates DIR|FILE... --approve PROPOSAL_HASH... --approved-by NAME [--run-id ID]
                      --runner local|docker [--image REF] --out DIR
                      [--timeout SECONDS] [--concurrency N] [--setup-cache DIR] [--witness-key-file FILE]
                      [--baseline-cache DIR] [--shard K/N]   (this shard's candidates only: shard.json, no ranking; needs --baseline-cache)
                      [--receipt-store DIR]   (where promote finds the candidates' receipts and the screening)
  patchproof merge --repo DIR --out DIR [--receipt-store DIR] SHARD_DIR...   (screen shards: verified and ranked into one screening receipt)
  patchproof merge --out DIR RECEIPT...   (validate shards: verified and sealed into one merged receipt)
  patchproof compare OLD_RECEIPT NEW_RECEIPT   (exit 0 improved, 1 no progress or worse)
  patchproof verify-receipt FILE
  patchproof promote RECEIPT --repo DIR [--dry-run] [--path FILE]... [--receipt-store DIR] [--log FILE]
                     (RECEIPT: validate's receipt.json, a screening.json [--candidate NAME], or a merged.json of suite shards)
                     [--trusted-root FILE --signer-workflow OWNER/REPO/.github/workflows/F.yml --source-ref REF
                      --diff FILE [--bundle FILE] [--repository OWNER/REPO]]   (an attested receipt instead of the store)
  patchproof witness init DIR --adapter ${ADAPTER_NAMES.join('|')} [--reproduction DIR] [--hidden DIR]
  patchproof witness digest DIR
  patchproof witness pack DIR --out FILE.tar.gz
  patchproof witness seal DIR
  patchproof witness record DIR --reference DIFF --repo DIR --runner local|docker [--image REF]
                      [--timeout SECONDS] [--concurrency N] [--setup-cache DIR]
  patchproof witness keygen --out FILE
  patchproof witness seal-hidden DIR --recipient age1…[,age1…] --out DIR
  patchproof hidden-detail FILE --witness-key-file FILE

exit codes: 0 passed (verify-receipt: valid; promote: applied or planned), 1 failed (verify-receipt: invalid),
            2 refused (promote: nothing written), 3 inconclusive, 4 promote stopped half-way by a race (partial_conflict)

receipt store: --receipt-store, else $PATCHPROOF_RECEIPT_STORE, else $XDG_STATE_HOME/patchproof/receipts
               (~/.local/state/patchproof/receipts)`;

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

/** Where the grader comes from: a digest-pinned witness pack, or two folders (a shortcut). */
export type WitnessSource =
  { kind: 'pack'; source: string; digest: string; adapter?: AdapterName } | { kind: 'folders'; reproduction: string; hidden: string; adapter: AdapterName };

export interface ValidateSettings {
  command: 'validate';
  repo: string;
  proposal: string;
  approval: string;
  witness: WitnessSource;
  runner: 'local' | 'docker';
  /** Docker only: `name@sha256:<digest>` or a local image ID `sha256:<64 hex>`. */
  image?: string;
  /** Folder for receipt.json and report.md; must be outside the repository. */
  out: string;
  /** Overrides of the witness pack's limits; undefined keeps the pack's. */
  timeoutMs?: number;
  outputLimitBytes?: number;
  maxDiffBytes?: number;
  maxDiffFiles?: number;
  concurrency: number;
  /** Where the pack's dependency stage keeps its outputs between runs; absent: one validation only. */
  setupCache?: string;
  /** A sealed pack's witness key file (an age identity); never readable by the candidate. */
  witnessKeyFile?: string;
  /**
   * Docker only: the test process's paths, user and added variables (`--container-*`); each absent
   * part keeps the default (`/home/runner/work/<repo>/<repo>`, uid 1001, CI=true).
   */
  container: { workdir?: string; resultsDir?: string; home?: string; user?: string; env: Record<string, string> };
  /** `--receipt-store`; absent: `defaultReceiptStore()`. */
  receiptStore?: string;
  /** `--early-exit`: gates in cost order, the first failed gate stops the candidate (off by default). */
  earlyExit?: boolean;
  /** `--claimed`: the agent's own results, compared with the clean room (never part of the verdict). */
  claimed?: string;
  /**
   * `--baseline-cache DIR`: the base-side runs kept between validations on the same base (outside
   * the repository; only its owner may write it: src/phases/baseline-cache.ts).
   */
  baselineCache?: string;
  /** `--shard K/N`: only the K-th of N shares of the regression suite (by file); `patchproof merge` joins the shards' receipts. */
  shard?: { index: number; count: number };
}

/** `patchproof screen`: validate's settings for the shared parts, and the candidates with their approvals. */
export interface ScreenSettings extends Omit<ValidateSettings, 'command' | 'proposal' | 'approval' | 'earlyExit' | 'claimed'> {
  command: 'screen';
  /** Diff files, or folders whose *.diff and *.patch files are the candidates. */
  candidates: string[];
  /** The approved proposal hashes: each candidate's exact 64-hex proposal_hash. */
  approve: string[];
  approvedBy: string;
  /** Each candidate's approval gets run id `<runId>-<name>`. */
  runId: string;
  /** `--shard K/N`: validate only the K-th of N shares of the candidates (groups of one normalised key stay together). */
  shard?: { index: number; count: number };
}

/** `patchproof merge`: the shards of one screening (each a `screen --shard K/N --out` folder) into one screening receipt. */
export interface MergeSettings {
  command: 'merge';
  /** Screen shards: the base checkout the candidates were screened on (its snapshot must be the shards' base). */
  repo?: string;
  out: string;
  shards: string[];
  /** Screen shards: `--receipt-store`, where the merged screening is kept when the store holds every candidate receipt it binds; absent: `defaultReceiptStore()`. */
  receiptStore?: string;
}

export interface CompareSettings {
  command: 'compare';
  old: string;
  new: string;
}

export interface PromoteSettings {
  command: 'promote';
  /** receipt.json as validate wrote it. */
  receipt: string;
  /** The working tree to write the diff into. */
  repo: string;
  dryRun: boolean;
  /** Only these files of the diff (`--path`, repeatable); empty: all of them. */
  paths: string[];
  /** The receipt store validate wrote to. */
  store: string;
  /** Where the action log goes; absent: beside the receipt in the store (attested: beside the receipt file). */
  log?: string;
  /** Set with `--trusted-root`: the receipt is taken on a Sigstore attestation instead of the receipt store. */
  attested?: AttestedPromoteSettings;
  /** `--candidate NAME`, for a screening receipt: promote this candidate instead of the one ranked first. */
  candidate?: string;
}

/** promote of an attested receipt: who must have signed it, and the diff it binds. */
export interface AttestedPromoteSettings {
  /** `--trusted-root`: Sigstore trusted root(s), JSON or JSON lines (gh attestation trusted-root). */
  trustedRoot: string;
  /** `--bundle`; absent: receipt.sigstore.json beside the receipt. */
  bundle?: string;
  /** `--signer-workflow OWNER/REPO/.github/workflows/FILE.yml`: the gate. */
  signerWorkflow: string;
  /** `--repository OWNER/REPO` whose run signed; absent: the signer workflow's repository. */
  repository: string;
  /** `--source-ref`: the default branch the signing run was on, e.g. refs/heads/main. */
  sourceRef: string;
  /** `--diff`: the diff the receipt binds (its digest must equal the receipt's diff_digest). */
  diff: string;
}

export interface WitnessKeygenSettings {
  command: 'witness-keygen';
  /** The identity file to create (mode 0600; refused if it exists). */
  out: string;
}

export interface WitnessSealHiddenSettings {
  command: 'witness-seal-hidden';
  /** The plain pack folder. */
  dir: string;
  /** age recipients (age1…) the hidden part is encrypted to. */
  recipients: string[];
  /** The sealed pack folder to create (must not exist). */
  out: string;
}

export interface HiddenDetailSettings {
  command: 'hidden-detail';
  /** hidden-detail.age, written beside a receipt. */
  file: string;
  witnessKeyFile: string;
}

export interface VerifySettings {
  command: 'verify-receipt';
  file: string;
}

export interface WitnessInitSettings {
  command: 'witness-init';
  dir: string;
  adapter: AdapterName;
  reproduction?: string;
  hidden?: string;
}

export interface WitnessDigestSettings {
  command: 'witness-digest';
  dir: string;
}

export interface WitnessPackSettings {
  command: 'witness-pack';
  dir: string;
  /** The .tar.gz to write (byte-reproducible). */
  out: string;
}

export interface WitnessSealSettings {
  command: 'witness-seal';
  dir: string;
}

/** `witness record DIR --reference DIFF --repo REPO`: record a sealed pack's expected values from a reference fix. */
export interface WitnessRecordSettings {
  command: 'witness-record';
  dir: string;
  reference: string;
  repo: string;
  runner: 'local' | 'docker';
  image?: string;
  timeoutMs?: number;
  concurrency: number;
  setupCache?: string;
}

export type Settings =
  | WitnessSealSettings
  | WitnessRecordSettings
  | ProposeSettings
  | ApproveSettings
  | ValidateSettings
  | MergeSettings
  | VerifySettings
  | WitnessInitSettings
  | WitnessDigestSettings
  | WitnessPackSettings
  | WitnessKeygenSettings
  | WitnessSealHiddenSettings
  | HiddenDetailSettings
  | PromoteSettings
  | ScreenSettings
  | CompareSettings;

/**
 * The local receipt store (src/receipt/store.ts): `$PATCHPROOF_RECEIPT_STORE`, else the XDG state
 * folder. The one place the CLI reads these variables.
 */
export function defaultReceiptStore(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PATCHPROOF_RECEIPT_STORE !== undefined && env.PATCHPROOF_RECEIPT_STORE !== '') return env.PATCHPROOF_RECEIPT_STORE;
  const state = env.XDG_STATE_HOME !== undefined && env.XDG_STATE_HOME !== '' ? env.XDG_STATE_HOME : join(env.HOME ?? homedir(), '.local', 'state');
  return join(state, 'patchproof', 'receipts');
}

/** Per-run defaults, documented in the README's CLI reference. */
export const DEFAULT_CONCURRENCY = 2;

function required(values: Record<string, string | undefined>, name: string, form: string): string {
  const value = values[name];
  if (value === undefined || value === '') throw new ConfigurationError(`--${name} is required: give ${form}`);
  return value;
}

function optionalInt(values: Record<string, string | undefined>, name: string, max: number): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(raw) || Number(raw) > max) {
    throw new ConfigurationError(`--${name} '${raw}' is not valid; give a whole number from 1 to ${max}`);
  }
  return Number(raw);
}

function positiveInt(values: Record<string, string | undefined>, name: string, fallback: number, max: number): number {
  return optionalInt(values, name, max) ?? fallback;
}

function adapterName(value: string, flag = '--adapter'): AdapterName {
  if (!(ADAPTER_NAMES as readonly string[]).includes(value)) {
    throw new ConfigurationError(`${flag} '${value}' is unknown; use one of: ${ADAPTER_NAMES.join(', ')}`);
  }
  return value as AdapterName;
}

function witnessSource(values: Record<string, string | undefined>): WitnessSource {
  const pack = values.witness !== undefined || values['witness-digest'] !== undefined;
  const folders = values.reproduction !== undefined || values.hidden !== undefined;
  if (pack && folders) {
    throw new ConfigurationError('give either --witness with --witness-digest, or --reproduction with --hidden, not both');
  }
  if (pack) {
    return {
      kind: 'pack',
      source: required(values, 'witness', 'a witness pack folder, .tar.gz file or https URL'),
      digest: required(values, 'witness-digest', "the pack's digest, sha256:<64 hex> (patchproof witness digest DIR prints it)"),
      ...(values.adapter !== undefined ? { adapter: adapterName(values.adapter) } : {})
    };
  }
  if (!folders) {
    throw new ConfigurationError('--witness is required: give a witness pack and its --witness-digest (or --reproduction and --hidden folders)');
  }
  return {
    kind: 'folders',
    reproduction: required(values, 'reproduction', 'the folder of reproduction tests'),
    hidden: required(values, 'hidden', 'the folder of hidden tests'),
    adapter: adapterName(required(values, 'adapter', ADAPTER_NAMES.join(' or ')))
  };
}

/** `--shard K/N`: 1 ≤ K ≤ N ≤ 256. */
function shardOf(raw: string): { index: number; count: number } {
  const match = /^([1-9][0-9]{0,2})\/([1-9][0-9]{0,2})$/.exec(raw);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || index > count || count > 256) throw new ConfigurationError(`--shard '${raw}' is not valid; give K/N with 1 <= K <= N <= 256, e.g. --shard 1/3`);
  return { index, count };
}

function parse(args: string[], options: Record<string, { type: 'string' }>): { values: Record<string, string | undefined>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options, strict: true, allowPositionals: true });
    return { values, positionals };
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
    case 'screen': {
      // The repeated flags are taken out; the rest are validate's and parsed by its rules.
      const multi: Record<'candidates' | 'approve', string[]> = { candidates: [], approve: [] };
      const single: Record<'approved-by' | 'run-id' | 'shard', string | undefined> = { 'approved-by': undefined, 'run-id': undefined, shard: undefined };
      const others: string[] = [];
      for (let i = 0; i < rest.length; i++) {
        const arg = rest[i] ?? '';
        const name = arg.replace(/^--/, '').split('=')[0] ?? '';
        if (!arg.startsWith('--') || !(name in multi || name in single)) {
          others.push(arg);
          continue;
        }
        const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : rest[++i];
        if (value === undefined || value === '') throw new ConfigurationError(`--${name} needs a value`);
        if (name in multi) multi[name as keyof typeof multi].push(value);
        else single[name as keyof typeof single] = value;
      }
      const foreign = others.find((arg) => /^--(?:proposal|approval)(?:=|$)/.test(arg));
      if (foreign !== undefined)
        throw new ConfigurationError(`${foreign.split('=')[0]} is not a screen option: screen proposes each candidate itself and takes its approval by --approve PROPOSAL_HASH`);
      if (multi.candidates.length === 0) throw new ConfigurationError('--candidates is required: give diff files or folders of *.diff files');
      if (single['approved-by'] === undefined) throw new ConfigurationError('--approved-by is required: give the approver name');
      const validate = readSettings(['validate', ...others, '--proposal', '(screen)', '--approval', '(screen)']) as ValidateSettings;
      if (validate.witness.kind !== 'pack') throw new ConfigurationError('screen takes a witness pack: --witness with --witness-digest');
      if (validate.earlyExit === true) throw new ConfigurationError('--early-exit is not a screen option (screen always gates with early exit)');
      if (validate.claimed !== undefined)
        throw new ConfigurationError('--claimed is a validate option: screen compares no claim; validate the one candidate the agent made the claim for');
      const { command: _c, proposal: _p, approval: _a, earlyExit: _e, claimed: _cl, ...shared } = validate;
      const shard = single.shard !== undefined ? shardOf(single.shard) : undefined;
      if (shard !== undefined && shared.baselineCache === undefined) {
        throw new ConfigurationError(
          '--shard needs --baseline-cache DIR: every shard must reuse one base side (run shard 1 first, or warm the cache), or their receipts cannot be merged'
        );
      }
      return {
        ...shared,
        command: 'screen',
        candidates: multi.candidates,
        approve: multi.approve,
        approvedBy: single['approved-by'],
        runId: single['run-id'] ?? 'screen',
        ...(shard !== undefined ? { shard } : {})
      };
    }
    case 'merge': {
      const { values, positionals } = parse(rest, { repo: str, out: str, 'receipt-store': str });
      if (values['receipt-store'] !== undefined && values.repo === undefined)
        throw new ConfigurationError('--receipt-store is for screen shards (with --repo): a merged receipt of validate shards is promoted from its shards, which validate stored');
      if (positionals.length === 0)
        throw new ConfigurationError("merge takes the shards: 'patchproof merge --repo DIR --out DIR SHARD_DIR...' (screen) or 'patchproof merge --out DIR RECEIPT...' (validate)");
      return {
        command: 'merge',
        ...(values.repo !== undefined ? { repo: values.repo } : {}),
        out: required(values, 'out', 'the folder to write the merged receipt to'),
        shards: positionals,
        ...(values['receipt-store'] !== undefined ? { receiptStore: values['receipt-store'] } : {})
      };
    }
    case 'compare': {
      const { positionals } = parse(rest, {});
      if (positionals.length !== 2) throw new ConfigurationError('compare takes two receipts: patchproof compare OLD_RECEIPT NEW_RECEIPT');
      return { command: 'compare', old: positionals[0] as string, new: positionals[1] as string };
    }
    case 'validate': {
      // --container-env may repeat: taken out before the single-valued options are parsed.
      const containerEnv: Record<string, string> = {};
      let earlyExit = false;
      const others: string[] = [];
      for (let i = 0; i < rest.length; i++) {
        const arg = rest[i] ?? '';
        const inline = arg.startsWith('--container-env=') ? arg.slice('--container-env='.length) : undefined;
        if (arg === '--early-exit') {
          earlyExit = true;
          continue;
        }
        if (arg !== '--container-env' && inline === undefined) {
          others.push(arg);
          continue;
        }
        const pair = inline ?? rest[++i];
        const eq = pair === undefined ? -1 : pair.indexOf('=');
        if (pair === undefined || eq <= 0) throw new ConfigurationError(`--container-env '${pair ?? ''}' is malformed. Expected NAME=VALUE.`);
        containerEnv[pair.slice(0, eq)] = pair.slice(eq + 1);
      }
      const { values, positionals } = parse(others, {
        repo: str,
        proposal: str,
        approval: str,
        witness: str,
        'witness-digest': str,
        reproduction: str,
        hidden: str,
        adapter: str,
        runner: str,
        image: str,
        out: str,
        timeout: str,
        'output-limit': str,
        concurrency: str,
        'setup-cache': str,
        ...diffLimitOptions,
        'witness-key-file': str,
        'container-workdir': str,
        'container-results': str,
        'container-home': str,
        'container-user': str,
        'receipt-store': str,
        claimed: str,
        'baseline-cache': str,
        shard: str
      });
      noPositionals(positionals);
      const shard = values.shard !== undefined ? shardOf(values.shard) : undefined;
      if (shard !== undefined) {
        if (shard.count === 1) throw new ConfigurationError('--shard 1/1 is the whole suite: leave --shard out');
        const clash = [earlyExit ? '--early-exit' : '', values['baseline-cache'] !== undefined ? '--baseline-cache' : '', values.claimed !== undefined ? '--claimed' : ''].filter(
          (f) => f !== ''
        );
        if (clash.length > 0) throw new ConfigurationError(`--shard cannot go with ${clash.join(' or ')}: a shard runs a share of the suite, while those judge the whole of it`);
      }
      const repo = required(values, 'repo', 'the repository folder');
      const proposal = required(values, 'proposal', 'the proposal file');
      const approval = required(values, 'approval', 'the approval file');
      const witness = witnessSource(values);
      const runner = required(values, 'runner', 'local or docker');
      if (runner !== 'local' && runner !== 'docker') throw new ConfigurationError(`--runner '${runner}' is unknown; use local or docker`);
      if (runner === 'docker' && values.image === undefined) {
        throw new ConfigurationError('--image is required with --runner docker: give name@sha256:<digest> or a local image ID sha256:<64 hex>');
      }
      if (runner === 'local' && values.image !== undefined) throw new ConfigurationError('--image is only for --runner docker');
      const containerGiven = ['container-workdir', 'container-results', 'container-home', 'container-user'].some((name) => values[name] !== undefined);
      if (runner === 'local' && (containerGiven || Object.keys(containerEnv).length > 0)) {
        throw new ConfigurationError('--container-* options are only for --runner docker');
      }
      const timeout = optionalInt(values, 'timeout', 24 * 3600);
      const outputLimit = optionalInt(values, 'output-limit', 1024 * 1024 * 1024);
      const maxDiffBytes = optionalInt(values, 'max-diff-bytes', 256 * 1024 * 1024);
      const maxDiffFiles = optionalInt(values, 'max-diff-files', 100_000);
      return {
        command,
        repo,
        proposal,
        approval,
        witness,
        runner,
        ...(values.image !== undefined ? { image: values.image } : {}),
        out: required(values, 'out', 'the output folder for receipt.json and report.md'),
        ...(timeout !== undefined ? { timeoutMs: timeout * 1000 } : {}),
        ...(outputLimit !== undefined ? { outputLimitBytes: outputLimit } : {}),
        ...(maxDiffBytes !== undefined ? { maxDiffBytes } : {}),
        ...(maxDiffFiles !== undefined ? { maxDiffFiles } : {}),
        concurrency: positiveInt(values, 'concurrency', DEFAULT_CONCURRENCY, 16),
        ...(values['setup-cache'] !== undefined ? { setupCache: values['setup-cache'] } : {}),
        ...(values['witness-key-file'] !== undefined ? { witnessKeyFile: values['witness-key-file'] } : {}),
        container: {
          ...(values['container-workdir'] !== undefined ? { workdir: values['container-workdir'] } : {}),
          ...(values['container-results'] !== undefined ? { resultsDir: values['container-results'] } : {}),
          ...(values['container-home'] !== undefined ? { home: values['container-home'] } : {}),
          ...(values['container-user'] !== undefined ? { user: values['container-user'] } : {}),
          env: containerEnv
        },
        ...(values['receipt-store'] !== undefined ? { receiptStore: values['receipt-store'] } : {}),
        ...(earlyExit ? { earlyExit } : {}),
        ...(values.claimed !== undefined ? { claimed: values.claimed } : {}),
        ...(values['baseline-cache'] !== undefined ? { baselineCache: values['baseline-cache'] } : {}),
        ...(shard !== undefined ? { shard } : {})
      };
    }
    case 'promote': {
      let parsed;
      try {
        parsed = parseArgs({
          args: rest,
          options: {
            repo: str,
            'dry-run': { type: 'boolean' },
            path: { type: 'string', multiple: true },
            'receipt-store': str,
            log: str,
            'trusted-root': str,
            bundle: str,
            'signer-workflow': str,
            repository: str,
            'source-ref': str,
            diff: str,
            candidate: str
          },
          strict: true,
          allowPositionals: true
        });
      } catch (error) {
        throw new ConfigurationError(`${(error as Error).message.split('\n')[0]}; run 'patchproof --help' for usage`);
      }
      const { values, positionals } = parsed;
      if (positionals.length !== 1) throw new ConfigurationError('promote takes exactly one receipt file: patchproof promote RECEIPT --repo DIR');
      return {
        command,
        receipt: positionals[0] as string,
        repo: required(values as Record<string, string | undefined>, 'repo', 'the working tree to promote into'),
        dryRun: values['dry-run'] === true,
        paths: values.path ?? [],
        store: values['receipt-store'] ?? defaultReceiptStore(),
        ...(values.log !== undefined ? { log: values.log } : {}),
        ...(values.candidate !== undefined ? { candidate: values.candidate } : {}),
        ...attestedPromote(values)
      };
    }
    case 'witness': {
      const [verb, ...args] = rest;
      if (verb === 'init') {
        const { values, positionals } = parse(args, { adapter: str, reproduction: str, hidden: str });
        if (positionals.length !== 1) throw new ConfigurationError('witness init takes exactly one folder: patchproof witness init DIR --adapter NAME');
        return {
          command: 'witness-init',
          dir: positionals[0] as string,
          adapter: adapterName(required(values, 'adapter', ADAPTER_NAMES.join(' or '))),
          ...(values.reproduction !== undefined ? { reproduction: values.reproduction } : {}),
          ...(values.hidden !== undefined ? { hidden: values.hidden } : {})
        };
      }
      if (verb === 'digest') {
        const { positionals } = parse(args, {});
        if (positionals.length !== 1) throw new ConfigurationError('witness digest takes exactly one pack folder');
        return { command: 'witness-digest', dir: positionals[0] as string };
      }
      if (verb === 'pack') {
        const { values, positionals } = parse(args, { out: str });
        if (positionals.length !== 1) throw new ConfigurationError('witness pack takes exactly one pack folder: patchproof witness pack DIR --out FILE.tar.gz');
        return { command: 'witness-pack', dir: positionals[0] as string, out: required(values, 'out', 'the .tar.gz file to write') };
      }
      if (verb === 'seal') {
        const { positionals } = parse(args, {});
        if (positionals.length !== 1) throw new ConfigurationError('witness seal takes exactly one pack folder: patchproof witness seal DIR');
        return { command: 'witness-seal', dir: positionals[0] as string };
      }
      if (verb === 'record') {
        const { values, positionals } = parse(args, { reference: str, repo: str, runner: str, image: str, timeout: str, concurrency: str, 'setup-cache': str });
        if (positionals.length !== 1)
          throw new ConfigurationError('witness record takes exactly one pack folder: patchproof witness record DIR --reference DIFF --repo DIR --runner docker --image REF');
        const runner = required(values, 'runner', 'local or docker');
        if (runner !== 'local' && runner !== 'docker') throw new ConfigurationError(`--runner '${runner}' is unknown; use local or docker`);
        if (runner === 'docker' && values.image === undefined) {
          throw new ConfigurationError('--image is required with --runner docker: give name@sha256:<digest> or a local image ID sha256:<64 hex>');
        }
        if (runner === 'local' && values.image !== undefined) throw new ConfigurationError('--image is only for --runner docker');
        const timeout = optionalInt(values, 'timeout', 24 * 3600);
        return {
          command: 'witness-record',
          dir: positionals[0] as string,
          reference: required(values, 'reference', 'the reference fix, a unified diff file'),
          repo: required(values, 'repo', 'the repository folder the reference diff applies to'),
          runner,
          ...(values.image !== undefined ? { image: values.image } : {}),
          ...(timeout !== undefined ? { timeoutMs: timeout * 1000 } : {}),
          concurrency: positiveInt(values, 'concurrency', DEFAULT_CONCURRENCY, 16),
          ...(values['setup-cache'] !== undefined ? { setupCache: values['setup-cache'] } : {})
        };
      }
      if (verb === 'keygen') {
        const { values, positionals } = parse(args, { out: str });
        if (positionals.length > 0) throw new ConfigurationError('witness keygen takes no folder: patchproof witness keygen --out FILE');
        return { command: 'witness-keygen', out: required(values, 'out', 'the key file to create') };
      }
      if (verb === 'seal-hidden') {
        const { values, positionals } = parse(args, { recipient: str, out: str });
        if (positionals.length !== 1)
          throw new ConfigurationError('witness seal-hidden takes exactly one pack folder: patchproof witness seal-hidden DIR --recipient age1… --out DIR');
        const recipients = required(values, 'recipient', 'one or more age recipients (age1…), comma-separated')
          .split(',')
          .map((r) => r.trim())
          .filter((r) => r !== '');
        return { command: 'witness-seal-hidden', dir: positionals[0] as string, recipients, out: required(values, 'out', 'the sealed pack folder to create') };
      }
      throw new ConfigurationError(`unknown witness command '${verb ?? ''}'; use witness init, digest, pack, seal, record, keygen or seal-hidden`);
    }
    case 'verify-receipt': {
      const { positionals } = parse(rest, {});
      if (positionals.length !== 1) throw new ConfigurationError('verify-receipt takes exactly one receipt file');
      return { command, file: positionals[0] as string };
    }
    case 'hidden-detail': {
      const { values, positionals } = parse(rest, { 'witness-key-file': str });
      if (positionals.length !== 1) throw new ConfigurationError('hidden-detail takes exactly one hidden-detail.age file');
      return { command, file: positionals[0] as string, witnessKeyFile: required(values, 'witness-key-file', 'the witness key file the pack was sealed for') };
    }
    default:
      throw new ConfigurationError(`unknown command '${command}'; use propose, approve, validate, screen, merge, compare, verify-receipt, promote, witness or hidden-detail`);
  }
}

const SIGNER_WORKFLOW = /^([A-Za-z0-9][A-Za-z0-9-]*\/(?!\.\.?\/)[A-Za-z0-9_.-]+)\/\.github\/workflows\/[A-Za-z0-9_.-]+\.ya?ml$/;
const REPOSITORY = /^[A-Za-z0-9][A-Za-z0-9-]*\/(?!\.\.?$)[A-Za-z0-9_.-]+$/;

/** promote's attestation flags: all of --trusted-root, --signer-workflow, --source-ref and --diff, or none of them. */
function attestedPromote(values: Record<string, unknown>): { attested?: AttestedPromoteSettings } {
  const text = (name: string): string | undefined => (typeof values[name] === 'string' ? values[name] : undefined);
  const trustedRoot = text('trusted-root');
  const others = ['bundle', 'signer-workflow', 'repository', 'source-ref', 'diff'].filter((name) => text(name) !== undefined);
  if (trustedRoot === undefined) {
    if (others.length > 0) throw new ConfigurationError(`--${others[0] ?? ''} takes an attested receipt: give --trusted-root too (or drop it to use the receipt store)`);
    return {};
  }
  if (text('receipt-store') !== undefined) throw new ConfigurationError('--trusted-root and --receipt-store are two sources of trust; give one of them');
  const signerWorkflow = text('signer-workflow');
  const match = SIGNER_WORKFLOW.exec(signerWorkflow ?? '');
  if (signerWorkflow === undefined || match === null)
    throw new ConfigurationError(`--signer-workflow '${signerWorkflow ?? ''}' is not valid; give the gate, OWNER/REPO/.github/workflows/FILE.yml`);
  const repository = text('repository') ?? match[1]!;
  if (!REPOSITORY.test(repository)) throw new ConfigurationError(`--repository '${repository}' is not OWNER/REPO`);
  const sourceRef = text('source-ref');
  if (sourceRef === undefined || !/^refs\/heads\/[A-Za-z0-9._/-]+$/.test(sourceRef) || sourceRef.includes('..')) {
    throw new ConfigurationError(`--source-ref '${sourceRef ?? ''}' is not valid; give the default branch the gate signs from, e.g. refs/heads/main`);
  }
  const diff = text('diff');
  if (diff === undefined) throw new ConfigurationError('--diff is required with --trusted-root: the diff the receipt binds (e.g. jq -r .diff proposal.json)');
  const bundle = text('bundle');
  return { attested: { trustedRoot, signerWorkflow, repository, sourceRef, diff, ...(bundle !== undefined ? { bundle } : {}) } };
}
