import picomatch from 'picomatch';
import { z } from 'zod';
import { HARNESS_DIR, RESERVED_DIR } from '../../adapters/adapter.js';
import { ADAPTER_NAMES, type AdapterName } from '../../adapters/registry.js';
import { junitArgvProblem, type JunitConfig } from '../../adapters/junit/config.js';
import { checkRepoPath, quoteForMessage } from '../../core/diff-policy.js';
import { ALLOWABLE_TAMPER_RULES, type AllowableTamperRule } from '../../core/tamper.js';
import { ConfigurationError } from '../../errors.js';
import { formalBlockSchema, targetName, type FormalBlock } from '../../formal/spec.js';

/**
 * The witness manifest (`witness.json`, schema `patchproof.witness/v1`): which adapter runs the
 * pack's tests, where they sit in the pack and where they are staged in each disposable copy, what
 * the candidate may not touch, and the limits of the run. Pure: untrusted JSON in, typed data out.
 * Every field is documented in docs/witness-pack.md.
 */

/** The one schema tag this version reads; a new key or meaning means a new tag. */
export const WITNESS_SCHEMA = 'patchproof.witness/v1';

/** The manifest's file name at the root of every pack. */
export const WITNESS_MANIFEST_FILE = 'witness.json';

/** A set of external tests (reproduction or hidden) in the pack. */
export interface WitnessTestSet {
  /** Pack-relative folder holding the tests. */
  path: string;
  /** Repository-relative folder the tests are staged at inside each disposable copy. */
  placement: string;
  /** How many times the tests run per phase; every run must agree. 1..10. */
  repeat: number;
  /**
   * The pinned ids of these tests: every run of the set must report exactly these (a missing,
   * extra or renamed id fails the phase; one that never ran counts as failed). Absent: not pinned.
   */
  ids?: string[];
}

/** The reproduction tests: they must fail on the base and pass after the patch. */
export interface WitnessReproduction extends WitnessTestSet {
  /** Test ids that must fail on the base; absent means every reproduction test. */
  expected_failing?: string[];
}

/** The regression phase: the repository's own suite, held to its baseline. */
export interface WitnessRegression {
  /** Globs of test files to run; absent means the adapter's own suite, discovered its default way. */
  include?: string[];
  /** Globs of test files left out of the suite. */
  exclude: string[];
  /** How often a PASS_TO_PASS test that fails after the patch is re-run, to tell a regression from a flake. 0..3. */
  retries: number;
}

/** Relaxations of the test-surface rules; each is false (forbidden) unless the pack says otherwise. */
export interface WitnessAllowances {
  test_edits: boolean;
  test_removal: boolean;
  skips: boolean;
  config_edits: boolean;
  dependency_changes: boolean;
  /**
   * The candidate may touch `.github/**` (workflows, actions, the CODEOWNERS file). Off by default:
   * a change there can rewrite the gate that judges the next pull request.
   */
  workflow_edits: boolean;
}

/** Limits of a validation run. */
export interface WitnessRunLimits {
  timeout_seconds: number;
  output_limit_bytes: number;
  diff_max_bytes: number;
  diff_max_files: number;
}

/**
 * The dependency stage: a command run once per base snapshot in its own container (the only one
 * that may have network, and only when `network` is true) that fills the `outputs` folders; every
 * test run then sees them read-only at the same paths.
 */
export interface WitnessSetup {
  argv: string[];
  /** Run against the candidate's manifests when the pack allows dependency changes; defaults to argv. */
  candidate_argv?: string[];
  network: boolean;
  /** Repository-relative folders the stage fills (e.g. node_modules); absent from the base tree. */
  outputs: string[];
  /** Given to the stage and to every test run (the adapter's own variables win). */
  env: Record<string, string>;
  timeout_seconds: number;
}

/** A parsed, validated manifest with every default applied. */
export interface WitnessManifest {
  schema: typeof WITNESS_SCHEMA;
  adapter: AdapterName;
  reproduction: WitnessReproduction;
  hidden: WitnessTestSet;
  regression: WitnessRegression;
  /** Globs of repository paths the candidate may not touch. */
  protected: string[];
  /**
   * Globs of repository paths a candidate may change at all (the L0 policy gate of `screen` and
   * `validate --early-exit`); absent: any path the other rules allow.
   */
  allowed_paths?: string[];
  allow: WitnessAllowances;
  limits: WitnessRunLimits;
  /** The dependency stage, when the project needs one. */
  setup?: WitnessSetup;
  /** The generic junit adapter's command, report, test globs and canaries: required with it, refused otherwise. */
  junit?: JunitConfig;
  /** Sealed oracles: the pack-relative file of expected observations, never staged into a copy. */
  oracle?: { expected: string };
  /** The formal (Z3) gate's targets: functions with a spec, proved or refuted on the host. */
  formal?: FormalBlock;
  /**
   * The L1 build/static gate: a command (e.g. `["npx", "tsc", "--noEmit"]`, `["python3", "-m",
   * "compileall", "-q", "."]`, `["cargo", "check", "--offline"]`) run in the hardened container on
   * the base and on the candidate's tree, before the reproduction; absent: no build gate.
   */
  build?: WitnessBuild;
  /**
   * Tamper-screen findings the maintainers accept (src/tamper/): a rule, for the paths its globs
   * match. Such a finding is still listed, with `allowed: true`, and does not withhold proof grade.
   * `unparsed` cannot be allowed. Absent: none.
   */
  tamper_allow?: WitnessTamperAllowance[];
  /**
   * Variables every test run gets, over the adapter's plain defaults (issue 28 item 6): the suite's
   * plain run has exactly what the pack asks for here (e.g. `{"NO_COLOR": "1"}` when the suite
   * expects it, or another `TZ`). Names other than HOME, TMPDIR, PATH and anything holding
   * `patchproof`, which the grader uses. Absent: none.
   */
  env?: Record<string, string>;
}

/** One `tamper_allow` entry. */
export interface WitnessTamperAllowance {
  rule: AllowableTamperRule;
  paths: string[];
}

/** The pack's build command (src/core/build-gate.ts). */
export interface WitnessBuild {
  argv: string[];
  /** Per-run limit; defaults to limits.timeout_seconds. */
  timeout_seconds?: number;
}

/** The defaults `parseWitnessManifest` applies, as a manifest would spell them. */
export const WITNESS_DEFAULTS = Object.freeze({
  reproduction: { path: 'reproduction', placement: `${RESERVED_DIR}/reproduction`, repeat: 2 },
  hidden: { path: 'hidden', placement: `${RESERVED_DIR}/hidden`, repeat: 1 },
  regression: { exclude: [] as string[], retries: 1 },
  limits: { timeout_seconds: 300, output_limit_bytes: 4 * 1024 * 1024, diff_max_bytes: 1024 * 1024, diff_max_files: 200 }
});

/** What each field accepts, for messages. Array elements are keyed `field[]`. */
const FORMS: Readonly<Record<string, string>> = {
  '': 'a JSON object with at least "schema" and "adapter"',
  schema: JSON.stringify(WITNESS_SCHEMA),
  adapter: `one of ${ADAPTER_NAMES.map((name) => JSON.stringify(name)).join(', ')}`,
  reproduction: 'an object with path, placement, repeat, expected_failing and ids, all optional',
  'reproduction.path': 'a pack-relative folder such as "reproduction" (no "..", "." or empty segments)',
  'reproduction.placement': `a repository-relative folder such as "${WITNESS_DEFAULTS.reproduction.placement}"`,
  'reproduction.repeat': 'a whole number from 1 to 10',
  'reproduction.expected_failing': 'a non-empty list of distinct test ids; omit it to expect every reproduction test to fail',
  'reproduction.expected_failing[]': 'a test id: a non-empty string',
  hidden: 'an object with path, placement, repeat and ids, all optional',
  'hidden.path': 'a pack-relative folder such as "hidden" (no "..", "." or empty segments)',
  'hidden.placement': `a repository-relative folder such as "${WITNESS_DEFAULTS.hidden.placement}"`,
  'hidden.repeat': 'a whole number from 1 to 10',
  'reproduction.ids': 'a non-empty list of distinct test ids, every reproduction test exactly once',
  'hidden.ids': 'a non-empty list of distinct test ids, every hidden test exactly once',
  regression: 'an object with include, exclude and retries, all optional',
  'regression.include': "a non-empty list of glob patterns; omit it to run the adapter's own suite",
  'regression.include[]': 'a glob pattern',
  'regression.exclude': 'a list of glob patterns',
  'regression.exclude[]': 'a glob pattern',
  'regression.retries': 'a whole number from 0 to 3',
  protected: 'a list of glob patterns of repository paths',
  'protected[]': 'a glob pattern',
  allowed_paths: 'a non-empty list of glob patterns of repository paths a candidate may change',
  'allowed_paths[]': 'a glob pattern',
  allow: 'an object with test_edits, test_removal, skips, config_edits, dependency_changes and workflow_edits, each true or false',
  'allow.test_edits': 'true or false',
  'allow.test_removal': 'true or false',
  'allow.skips': 'true or false',
  'allow.config_edits': 'true or false',
  'allow.dependency_changes': 'true or false',
  'allow.workflow_edits': 'true or false',
  limits: 'an object with timeout_seconds, output_limit_bytes, diff_max_bytes and diff_max_files, all optional',
  'limits.timeout_seconds': 'a whole number of seconds from 1 to 86400',
  'limits.output_limit_bytes': 'a whole number of bytes, at least 1',
  'limits.diff_max_bytes': 'a whole number of bytes, at least 1',
  'limits.diff_max_files': 'a whole number of files, at least 1',
  junit: 'an object with argv, report, tests and canary, given with "adapter": "junit" only',
  'junit.argv':
    'a non-empty list of strings: a program, its arguments and a {files} element of its own, e.g. ["node", "--test", "--test-reporter=junit", "--test-reporter-destination={results}/junit.xml", "{files}"]',
  'junit.argv[]': 'a non-empty string',
  'junit.report': "a glob of the JUnit XML files relative to the results folder, such as 'junit.xml'",
  'junit.tests': "a non-empty list of globs of test files, such as ['**/*.test.js']",
  'junit.tests[]': 'a glob pattern',
  'junit.canary': 'an object with path, pass and fail',
  'junit.canary.path': 'a pack-relative folder such as "canary" holding a must-pass and a must-fail test',
  oracle: 'an object with expected, the pack-relative oracle file',
  'oracle.expected': 'a pack-relative file such as "oracle/expected.json", outside the reproduction and hidden folders',
  'junit.canary.pass': 'the result id of the canary test that must pass',
  'junit.canary.fail': 'the result id of the canary test that must fail, unlike junit.canary.pass',
  formal: 'an object with targets (and optionally memory_mb); see docs/witness-pack.md, "The formal block"',
  'formal.targets': 'a list of 1 to 16 targets, each with file, function, params, returns and ensures',
  'formal.targets[]': 'an object with file, function, params, returns, ensures and optionally name, requires, bounds, time_limit_seconds, required and wrong_implementations',
  'formal.targets[].name': 'a name such as "pageCount" (letters, digits, _ and $)',
  'formal.targets[].file': 'a repository-relative .js, .ts or .py file such as "src/paginate.js" or "pages.py"',
  'formal.targets[].function': 'the name of a top-level function in that file',
  'formal.targets[].params': 'a list of up to 8 { "name": …, "type": "int" | "bool" | "int[]" }, in the function\'s order',
  'formal.targets[].params[].name': 'a JavaScript identifier',
  'formal.targets[].params[].type': '"int", "bool" or "int[]"',
  'formal.targets[].returns': '"int" or "bool"',
  'formal.targets[].requires': 'a list of JavaScript expressions over the parameters',
  'formal.targets[].requires[]': 'a JavaScript expression such as "n >= 0"',
  'formal.targets[].ensures': 'a non-empty list of JavaScript expressions over the parameters and result',
  'formal.targets[].ensures[]': 'a JavaScript expression such as "result >= 0"',
  'formal.targets[].bounds': 'an object with unroll (0..64) and array_length (0..16)',
  'formal.targets[].bounds.unroll': 'a whole number from 0 to 64',
  'formal.targets[].bounds.array_length': 'a whole number from 0 to 16',
  'formal.targets[].time_limit_seconds': 'a whole number of seconds from 1 to 600',
  'formal.targets[].required': 'true or false',
  'formal.targets[].wrong_implementations': 'a list of whole function definitions the spec must refute',
  'formal.targets[].wrong_implementations[]': 'a function definition with the target\'s name, e.g. "function f(x) { return x; }"',
  'formal.memory_mb': 'a whole number of megabytes from 64 to 8192',
  build: 'an object with argv and optionally timeout_seconds',
  'build.argv': 'a non-empty list of strings, the command, e.g. ["npx", "tsc", "--noEmit"]',
  'build.argv[]': 'a non-empty string without NUL',
  'build.timeout_seconds': 'a whole number of seconds from 1 to 86400',
  setup: 'an object with argv and outputs, and optionally candidate_argv, network, env and timeout_seconds',
  'setup.argv': 'a non-empty list of strings, the command, e.g. ["npm", "ci", "--ignore-scripts"]',
  'setup.argv[]': 'a non-empty string without NUL',
  'setup.candidate_argv': "a non-empty list of strings (the command for the candidate's manifests)",
  'setup.candidate_argv[]': 'a non-empty string without NUL',
  'setup.network': 'true or false (false unless the stage must download)',
  'setup.outputs': 'a non-empty list of repository-relative folders such as "node_modules"',
  'setup.outputs[]': 'a repository-relative folder such as "node_modules"',
  'setup.env': 'an object of environment variables (names like NAME_1 other than HOME, TMPDIR and PATH; string values)',
  'setup.timeout_seconds': 'a whole number of seconds from 1 to 86400',
  env: 'an object of environment variables for every test run (names like NAME_1 other than HOME, TMPDIR, PATH and names holding "patchproof"; string values)',
  tamper_allow: 'a list of { "rule": …, "paths": [globs] } entries',
  'tamper_allow[]': 'an object with rule and paths',
  'tamper_allow[].rule': `one of ${ALLOWABLE_TAMPER_RULES.map((r) => JSON.stringify(r)).join(', ')} (unparsed cannot be allowed)`,
  'tamper_allow[].paths': 'a non-empty list of repository-relative globs',
  'tamper_allow[].paths[]': 'a glob pattern'
};

/** Variables the runner sets itself: a pack may not override them. */
const RUNNER_ENV = new Set(['HOME', 'TMPDIR', 'PATH']);

const text = z.string().min(1);
const positive = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const repeat = z.number().int().min(1).max(10);
const globs = z.array(z.string());

const reproductionSchema = z.strictObject({
  path: text.default(WITNESS_DEFAULTS.reproduction.path),
  placement: text.default(WITNESS_DEFAULTS.reproduction.placement),
  repeat: repeat.default(WITNESS_DEFAULTS.reproduction.repeat),
  expected_failing: z.array(text).min(1).optional(),
  ids: z.array(text).min(1).optional()
});

const hiddenSchema = z.strictObject({
  path: text.default(WITNESS_DEFAULTS.hidden.path),
  placement: text.default(WITNESS_DEFAULTS.hidden.placement),
  repeat: repeat.default(WITNESS_DEFAULTS.hidden.repeat),
  ids: z.array(text).min(1).optional()
});

const flag = z.boolean().default(false);

const argvSchema = z
  .array(
    z
      .string()
      .min(1)
      .refine((arg) => !arg.includes('\0'))
  )
  .min(1);

const setupSchema = z.strictObject({
  argv: argvSchema,
  candidate_argv: argvSchema.optional(),
  network: z.boolean().default(false),
  outputs: z.array(text).min(1),
  env: z
    .record(
      z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
        .refine((key) => !RUNNER_ENV.has(key)),
      z.string().refine((value) => !value.includes('\0'))
    )
    .default(() => ({})),
  timeout_seconds: z.number().int().min(1).max(86_400).default(600)
});

// `prefault` (not `default`) so an absent object is parsed from `{}` and gets its fields' defaults.
const manifestSchema = z.strictObject({
  schema: z.literal(WITNESS_SCHEMA),
  adapter: z.enum(ADAPTER_NAMES),
  reproduction: reproductionSchema.prefault({}),
  hidden: hiddenSchema.prefault({}),
  regression: z
    .strictObject({
      include: globs.min(1).optional(),
      exclude: globs.default(() => []),
      retries: z.number().int().min(0).max(3).default(WITNESS_DEFAULTS.regression.retries)
    })
    .prefault({}),
  protected: globs.default(() => []),
  allowed_paths: globs.min(1).optional(),
  allow: z.strictObject({ test_edits: flag, test_removal: flag, skips: flag, config_edits: flag, dependency_changes: flag, workflow_edits: flag }).prefault({}),
  limits: z
    .strictObject({
      timeout_seconds: z.number().int().min(1).max(86_400).default(WITNESS_DEFAULTS.limits.timeout_seconds),
      output_limit_bytes: positive.default(WITNESS_DEFAULTS.limits.output_limit_bytes),
      diff_max_bytes: positive.default(WITNESS_DEFAULTS.limits.diff_max_bytes),
      diff_max_files: positive.default(WITNESS_DEFAULTS.limits.diff_max_files)
    })
    .prefault({}),
  setup: setupSchema.optional(),
  junit: z
    .strictObject({
      argv: z.array(text).min(1),
      report: text,
      tests: z.array(z.string()).min(1),
      canary: z.strictObject({ path: text, pass: text, fail: text })
    })
    .optional(),
  oracle: z.strictObject({ expected: text }).optional(),
  formal: formalBlockSchema.optional(),
  build: z.strictObject({ argv: argvSchema, timeout_seconds: z.number().int().min(1).max(86_400).optional() }).optional(),
  tamper_allow: z.array(z.strictObject({ rule: z.enum(ALLOWABLE_TAMPER_RULES), paths: z.array(z.string()).min(1) })).optional(),
  env: z
    .record(
      z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
        .refine((key) => !RUNNER_ENV.has(key) && !/patchproof/i.test(key)),
      z.string().refine((value) => !value.includes('\0'))
    )
    .optional()
});

/**
 * Parse untrusted manifest JSON (already `JSON.parse`d) into a WitnessManifest with every default
 * applied. Throws a ConfigurationError with one line naming `source`, the field and the form it
 * accepts: for a wrong type or value, an unknown field (a new field means a new schema version), a
 * path or placement that is not a safe relative folder, overlapping reproduction and hidden folders,
 * or a glob picomatch cannot compile.
 */
export function parseWitnessManifest(value: unknown, source: string): WitnessManifest {
  const parsed = manifestSchema.safeParse(value);
  if (!parsed.success) {
    throw new ConfigurationError(describeIssue(parsed.error.issues[0], value, source));
  }
  const manifest: WitnessManifest = parsed.data;
  checkFolders(manifest, source);
  checkGlobs(manifest, source);
  checkJunit(manifest, source);
  checkOracle(manifest, source);
  checkFormal(manifest, source);
  return manifest;
}

/** The oracle file: a safe pack path outside every staged folder, so it never enters a copy. */
function checkOracle(manifest: WitnessManifest, source: string): void {
  const oracle = manifest.oracle;
  if (oracle === undefined) return;
  const problem = checkRepoPath(oracle.expected);
  if (problem !== undefined) refuse(source, 'oracle.expected', `${shown(oracle.expected)} ${problem}`, FORMS['oracle.expected']!);
  const staged = [manifest.reproduction.path, manifest.hidden.path, ...(manifest.junit ? [manifest.junit.canary.path] : [])];
  const clash = staged.find((folder) => overlaps(oracle.expected, folder));
  if (clash !== undefined) {
    refuse(source, 'oracle.expected', `${shown(oracle.expected)} lies in ${shown(clash)}, which is staged into every copy`, FORMS['oracle.expected']!);
  }
}

/** The formal block: safe repository paths of JS/TS or Python files, and distinct target names. */
function checkFormal(manifest: WitnessManifest, source: string): void {
  const targets = manifest.formal?.targets ?? [];
  const seen = new Set<string>();
  targets.forEach((target, index) => {
    const field = `formal.targets[${index}]`;
    const problem = checkRepoPath(target.file) ?? (/\.((c|m)?[jt]sx?|py)$/.test(target.file) ? undefined : 'is not a .js, .ts or .py file');
    if (problem !== undefined) refuse(source, `${field}.file`, `${shown(target.file)} ${problem}`, FORMS['formal.targets[].file']!);
    const name = targetName(target);
    if (seen.has(name)) refuse(source, `${field}.name`, `${shown(name)} names two targets`, 'a name of its own for each target');
    seen.add(name);
    const params = target.params.map((p) => p.name);
    const twice = params.find((p, i) => params.indexOf(p) !== i || p === 'result');
    if (twice !== undefined) refuse(source, `${field}.params`, `names ${shown(twice)} twice or calls a parameter result`, FORMS['formal.targets[].params']!);
  });
}

/**
 * How the placeholders `witness init --adapter junit` writes into the junit block begin: a pack
 * still holding one is refused, so a scaffold never runs as if it were a grader.
 */
export const JUNIT_PLACEHOLDER_MARK = '<replace:';

/** The junit block: present exactly with the junit adapter, and usable. */
function checkJunit(manifest: WitnessManifest, source: string): void {
  const junit = manifest.junit;
  if (junit === undefined) {
    if (manifest.adapter === 'junit') refuse(source, 'junit', 'is missing (the junit adapter runs only what it says)', FORMS.junit!);
    return;
  }
  if (manifest.adapter !== 'junit') refuse(source, 'junit', `is given with the ${manifest.adapter} adapter`, 'no junit block, or "adapter": "junit"');
  const fields: [string, string][] = [
    ...junit.argv.map((element, index): [string, string] => [`junit.argv[${index}]`, element]),
    ['junit.report', junit.report],
    ...junit.tests.map((glob, index): [string, string] => [`junit.tests[${index}]`, glob]),
    ['junit.canary.path', junit.canary.path],
    ['junit.canary.pass', junit.canary.pass],
    ['junit.canary.fail', junit.canary.fail]
  ];
  const placeholder = fields.find(([, value]) => value.includes(JUNIT_PLACEHOLDER_MARK));
  if (placeholder !== undefined) {
    const [field, value] = placeholder;
    const form = FORMS[field.replace(/\[\d+\]$/, '[]')] ?? FORMS[field.replace(/\[\d+\]$/, '')] ?? 'a value of your own';
    refuse(source, field, `still holds the placeholder ${shown(value)} that witness init wrote (see the pack's canary/README.md)`, form);
  }
  const argvProblem = junitArgvProblem(junit.argv);
  if (argvProblem !== undefined) refuse(source, 'junit.argv', argvProblem, FORMS['junit.argv']!);
  const globbed: [string, string][] = [['junit.report', junit.report], ...junit.tests.map((glob, index): [string, string] => [`junit.tests[${index}]`, glob])];
  for (const [field, glob] of globbed) {
    const problem = globProblem(glob);
    if (problem !== undefined) refuse(source, field, `${shown(glob)} ${problem}`, GLOB_FORM);
  }
  const pathProblem = checkRepoPath(junit.canary.path);
  if (pathProblem !== undefined) refuse(source, 'junit.canary.path', `${shown(junit.canary.path)} ${pathProblem}`, FORMS['junit.canary.path']!);
  for (const set of ['reproduction', 'hidden'] as const) {
    if (overlaps(junit.canary.path, manifest[set].path)) {
      refuse(source, 'junit.canary.path', `${shown(junit.canary.path)} overlaps ${set}.path ${shown(manifest[set].path)}`, 'a folder of its own for the canary tests');
    }
  }
  if (junit.canary.pass === junit.canary.fail) refuse(source, 'junit.canary.fail', `is the same id as junit.canary.pass`, FORMS['junit.canary.fail']!);
}

function describeIssue(issue: z.core.$ZodIssue | undefined, input: unknown, source: string): string {
  if (issue === undefined) {
    return `${source} is not a witness manifest; expected ${FORMS['']}.`;
  }
  const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    const parent = fieldName(path);
    const known = knownKeys(path);
    const unknown = issue.keys.map((key) => (parent === '' ? key : `${parent}.${key}`)).join(', ');
    return `${source}: unknown field ${unknown}; expected only ${known}.`;
  }
  const field = fieldName(path);
  const form = FORMS[formKey(path)] ?? 'a valid value';
  const received = valueAt(input, path);
  if (field === '') {
    return `${source} is not a witness manifest (it is ${shown(received)}); expected ${form}.`;
  }
  const what = received === undefined ? 'is missing' : `is ${shown(received)}`;
  return `${source}: ${field} ${what}; expected ${form}.`;
}

/** `reproduction.expected_failing[2]`, as a person would name it. */
function fieldName(path: readonly (string | number)[]): string {
  return path.reduce<string>((name, key) => (typeof key === 'number' ? `${name}[${key}]` : name === '' ? key : `${name}.${key}`), '');
}

function formKey(path: readonly (string | number)[]): string {
  return path.reduce<string>((name, key) => (typeof key === 'number' ? `${name}[]` : name === '' ? key : `${name}.${key}`), '');
}

function knownKeys(path: readonly (string | number)[]): string {
  const prefix = formKey(path);
  const keys = Object.keys(FORMS)
    .filter((key) => key !== '' && !key.endsWith('[]'))
    .filter((key) => (prefix === '' ? !key.includes('.') : key.startsWith(`${prefix}.`) && !key.slice(prefix.length + 1).includes('.')))
    .map((key) => (prefix === '' ? key : key.slice(prefix.length + 1)));
  return keys.join(', ');
}

function valueAt(input: unknown, path: readonly (string | number)[]): unknown {
  let current = input;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) {
      return undefined;
    }
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

function shown(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
  if (typeof value === 'string') return quoteForMessage(value, 60);
  // A number or a boolean from the JSON, undefined for a missing field (the rest for completeness); any other object is 'an object'.
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' || typeof value === 'symbol' || typeof value === 'function' || value === undefined) {
    return String(value);
  }
  return 'an object';
}

function refuse(source: string, field: string, problem: string, form: string): never {
  throw new ConfigurationError(`${source}: ${field} ${problem}; expected ${form}.`);
}

/**
 * A placement passes `checkRepoPath`, except that it may lie under PatchProof's own `.patchproof/`
 * folder (where tests are staged by default), though never at that folder itself or over the harness.
 */
function placementProblem(placement: string): string | undefined {
  const parts = placement.split('/');
  if (parts[0]?.toLowerCase() !== RESERVED_DIR) {
    return checkRepoPath(placement);
  }
  const rest = parts.slice(1).join('/');
  if (rest === '') {
    return `is PatchProof's own '${RESERVED_DIR}' folder`;
  }
  const problem = checkRepoPath(rest);
  if (problem !== undefined) {
    return problem;
  }
  // Case-insensitive: on macOS and Windows file systems .patchproof/Harness is the harness folder.
  return overlaps(placement, HARNESS_DIR) ? `overlaps '${HARNESS_DIR}', where PatchProof stages its harness` : undefined;
}

/** One folder is the other, or lies inside it (compared case-insensitively, as some file systems do). */
function overlaps(a: string, b: string): boolean {
  const x = `${a.toLowerCase()}/`;
  const y = `${b.toLowerCase()}/`;
  return x.startsWith(y) || y.startsWith(x);
}

function checkFolders(manifest: WitnessManifest, source: string): void {
  for (const set of ['reproduction', 'hidden'] as const) {
    const pathProblem = checkRepoPath(manifest[set].path);
    if (pathProblem !== undefined) {
      refuse(source, `${set}.path`, `${shown(manifest[set].path)} ${pathProblem}`, FORMS[`${set}.path`]!);
    }
    const placementIssue = placementProblem(manifest[set].placement);
    if (placementIssue !== undefined) {
      refuse(source, `${set}.placement`, `${shown(manifest[set].placement)} ${placementIssue}`, FORMS[`${set}.placement`]!);
    }
  }
  // Overlapping folders would run one set's tests as part of the other.
  if (overlaps(manifest.reproduction.path, manifest.hidden.path)) {
    refuse(source, 'hidden.path', `${shown(manifest.hidden.path)} overlaps reproduction.path ${shown(manifest.reproduction.path)}`, 'separate folders for the two test sets');
  }
  if (overlaps(manifest.reproduction.placement, manifest.hidden.placement)) {
    refuse(
      source,
      'hidden.placement',
      `${shown(manifest.hidden.placement)} overlaps reproduction.placement ${shown(manifest.reproduction.placement)}`,
      'separate folders for the two test sets'
    );
  }
  const outputs = manifest.setup?.outputs ?? [];
  outputs.forEach((output, index) => {
    const field = `setup.outputs[${index}]`;
    const problem = placementProblem(output);
    if (problem !== undefined) refuse(source, field, `${shown(output)} ${problem}`, FORMS['setup.outputs[]']!);
    const clash = [manifest.reproduction.placement, manifest.hidden.placement, ...outputs.slice(0, index)].find((other) => overlaps(output, other));
    if (clash !== undefined) refuse(source, field, `${shown(output)} overlaps ${shown(clash)}`, 'a folder of its own, apart from the placements and the other outputs');
  });
  const ids = manifest.reproduction.expected_failing ?? [];
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate !== undefined) {
    refuse(source, 'reproduction.expected_failing', `lists ${shown(duplicate)} twice`, FORMS['reproduction.expected_failing']!);
  }
  for (const field of ['reproduction', 'hidden'] as const) {
    const pinned = manifest[field].ids ?? [];
    const twice = pinned.find((id, index) => pinned.indexOf(id) !== index);
    if (twice !== undefined) refuse(source, `${field}.ids`, `lists ${shown(twice)} twice`, FORMS[`${field}.ids`]!);
  }
  const pinnedRepro = manifest.reproduction.ids;
  const outside = pinnedRepro === undefined ? undefined : ids.find((id) => !pinnedRepro.includes(id));
  if (outside !== undefined) {
    refuse(source, 'reproduction.expected_failing', `lists ${shown(outside)}, which is not among reproduction.ids`, 'ids among reproduction.ids');
  }
}

function checkGlobs(manifest: WitnessManifest, source: string): void {
  const lists: [string, readonly string[]][] = [
    ['regression.include', manifest.regression.include ?? []],
    ['regression.exclude', manifest.regression.exclude],
    ['protected', manifest.protected],
    ['allowed_paths', manifest.allowed_paths ?? []],
    ...(manifest.tamper_allow ?? []).map((entry, index): [string, readonly string[]] => [`tamper_allow[${index}].paths`, entry.paths])
  ];
  for (const [field, list] of lists) {
    list.forEach((glob, index) => {
      const problem = globProblem(glob);
      if (problem !== undefined) {
        refuse(source, `${field}[${index}]`, `${shown(glob)} ${problem}`, GLOB_FORM);
      }
    });
  }
}

const GLOB_FORM = "a repository-relative glob such as 'src/**/*.ts' (picomatch syntax, '/'-separated, no leading '!' or '/')";
// eslint-disable-next-line no-control-regex -- deliberate: a glob with a C0/C1 control character is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Why picomatch, or the rules for repository paths, would not take this glob. */
function globProblem(glob: string): string | undefined {
  if (glob === '') return 'is empty';
  if (CONTROL.test(glob)) return 'contains a control character';
  // A backslash is an escape on POSIX but a separator on Windows: its meaning would depend on the machine.
  if (glob.includes('\\')) return 'contains a backslash';
  if (glob.startsWith('/')) return 'is absolute';
  // In a list a negation would match every other path, so `protected: ["!x"]` would protect everything.
  if (glob.startsWith('!')) return "is a negation; list paths to leave out under 'exclude' instead";
  const parts = glob.split('/');
  if (parts.includes('..') || parts.includes('.') || parts.includes('')) return "has a '.', '..' or empty segment";
  try {
    // strictBrackets: an unclosed bracket or brace is an error, not silently a literal character.
    picomatch.makeRe(glob, { dot: true, strictBrackets: true });
  } catch (error) {
    return `does not compile (${error instanceof Error ? error.message : String(error)})`;
  }
  return undefined;
}
