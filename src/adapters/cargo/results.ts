import path from 'node:path';
import type { ParsedResults, TestCaseResult, TestCounts } from '../../core/test-results.js';
import type { CanaryOutcome, CanaryPlan, ParseRequest } from '../adapter.js';
import { canaryNames, takeCanaries } from '../shared/canary.js';
import { cargoModuleFile, cargoTargetName } from './entry.js';
import { SECOND_PROCESS_FINDING, supervisionChannel } from '../shared/supervisor.js';
import { CARGO_BUILD_FILE, CARGO_RUN_FILE, CARGO_RUN_FORMAT } from './harness.js';
import { readFailure } from './panic.js';
import { messageLine } from '../shared/exception-site.js';
import { readLibtestList, readLibtestRun, type LibtestRun } from './libtest.js';

/**
 * Turns what the cargo harness wrote (cargo-harness.ts) into PatchProof's test results.
 *
 * Test ids: `<kind>:<target>::<test path>` for the package's own targets (`lib:textclip::tests::
 * clips`, `test:columns::fits`, `bin:tool::tests::parses`), which is the test function's Rust path
 * in its crate behind the kind of target; `<file>::<test path>` for external tests, from the module
 * that stands for the file in the generated target (`.patchproof/reproduction/clip.rs::cuts`).
 *
 * Status mapping: `ok` is passed, `ignored` is skipped (its reason, else "ignored"), `failed` is
 * `failed` for an assertion and `errored` for anything else (see cargo-panic.ts). A selected target
 * that did not compile is one `errored` result with kind `collection_error`: `<kind>:<target>`, or,
 * for the generated target, one per external file (`<file>`), with the first compiler error.
 *
 * Fail closed: the manifest must be PatchProof's and name this run's generated target; every built
 * target needs its inventory (`--list`) and its results; every listed test exactly one start and
 * one outcome; no outcome for an unlisted test; one summary whose counts match the outcomes and the
 * binary's exit code; no id twice. Anything else is a problem. Lines that are not JSON objects are
 * output the code under test wrote to stdout itself, and are left out; JSON lines libtest never
 * writes (a forged `ok`) show up as duplicates or mismatches.
 */

/** The id prefix of tests at the root of the generated target (the canaries). */
export const CARGO_GENERATED_ID = 'test:patchproof';

interface TargetEntry {
  kind: string;
  name: string;
  srcPath: string;
  built: boolean;
  list?: { file: string; exitCode: number | null; signal: string | null; error?: string };
  run?: { file: string; exitCode: number | null; signal: string | null; error?: string };
}

interface RunManifest {
  mode: 'suite' | 'external';
  generated: string;
  files: string[];
  metadataError?: string;
  build?: { exitCode: number | null };
  targets: TargetEntry[];
  /** What the harness did to supervise the binaries (absent in manifests from before it did). */
  supervision?: { supervised: boolean; pid1: boolean; killed: number; leftovers: number };
}

/** The ids of a plan's canaries. */
export function cargoCanaryIds(plan: CanaryPlan): { pass: string; fail: string } {
  const names = canaryNames(plan);
  return { pass: `${CARGO_GENERATED_ID}::${names.pass}`, fail: `${CARGO_GENERATED_ID}::${names.fail}` };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isExit = (value: unknown): value is number | null => value === null || (typeof value === 'number' && Number.isInteger(value));

function readStep(value: unknown): TargetEntry['run'] | undefined {
  if (!isRecord(value) || typeof value.file !== 'string' || !isExit(value.exitCode)) return undefined;
  const signal = typeof value.signal === 'string' ? value.signal : null;
  return { file: value.file, exitCode: value.exitCode, signal, ...(typeof value.error === 'string' ? { error: value.error } : {}) };
}

/** Reads and checks the run manifest (untrusted JSON); undefined, with a problem, when unusable. */
function readManifest(text: string, problems: string[]): RunManifest | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    problems.push(`${CARGO_RUN_FILE} is not JSON`);
    return undefined;
  }
  if (!isRecord(data) || data.format !== CARGO_RUN_FORMAT || (data.mode !== 'suite' && data.mode !== 'external') || typeof data.generated !== 'string') {
    problems.push(`${CARGO_RUN_FILE} is not a ${CARGO_RUN_FORMAT} manifest`);
    return undefined;
  }
  const files = Array.isArray(data.files) ? data.files.filter((f): f is string => typeof f === 'string') : [];
  const metadata = isRecord(data.metadata) ? data.metadata : {};
  const targets: TargetEntry[] = [];
  for (const value of Array.isArray(data.targets) ? data.targets : []) {
    if (!isRecord(value) || typeof value.kind !== 'string' || typeof value.name !== 'string' || typeof value.srcPath !== 'string' || typeof value.built !== 'boolean') {
      problems.push(`${CARGO_RUN_FILE}: a target entry is malformed`);
      return undefined;
    }
    const list = readStep(value.list);
    const run = readStep(value.run);
    if (value.built && (list === undefined || run === undefined)) {
      problems.push(`${CARGO_RUN_FILE}: built target ${value.kind}:${value.name} has no list or run record`);
      return undefined;
    }
    targets.push({ kind: value.kind, name: value.name, srcPath: value.srcPath, built: value.built, ...(list ? { list } : {}), ...(run ? { run } : {}) });
  }
  const build = isRecord(data.build) && isExit(data.build.exitCode) ? { exitCode: data.build.exitCode } : undefined;
  const sup = data.supervision;
  const count = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
  const supervision =
    isRecord(sup) && typeof sup.supervised === 'boolean' && typeof sup.pid1 === 'boolean' && count(sup.killed) && count(sup.leftovers)
      ? { supervised: sup.supervised, pid1: sup.pid1, killed: sup.killed, leftovers: sup.leftovers }
      : undefined;
  if (sup !== undefined && supervision === undefined) problems.push(`${CARGO_RUN_FILE}: the supervision record is malformed`);
  return {
    ...(supervision ? { supervision } : {}),
    mode: data.mode,
    generated: data.generated,
    files,
    ...(typeof metadata.error === 'string' ? { metadataError: metadata.error } : {}),
    ...(build ? { build } : {}),
    targets
  };
}

/** The id of a libtest test of a target. */
function testId(target: TargetEntry, generated: string, name: string): string {
  if (target.kind === 'canary' || (target.kind === 'test' && target.name === generated)) {
    const cut = name.indexOf('::');
    const file = cut < 0 ? undefined : cargoModuleFile(name.slice(0, cut));
    return file === undefined ? `${CARGO_GENERATED_ID}::${name}` : `${file}::${name.slice(cut + 2)}`;
  }
  return `${target.kind}:${target.name}::${name}`;
}

/** A compiler error: its message and the repository files its spans point at. */
interface CompilerError {
  message: string;
  files: string[];
}

/** The compiler errors of each target (`kind:name`), from cargo's JSON messages. */
function compilerErrors(text: string | undefined, workdir: string): Map<string, CompilerError[]> {
  const errors = new Map<string, CompilerError[]>();
  for (const line of (text ?? '').split('\n')) {
    if (!line.startsWith('{')) continue;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isRecord(data) || data.reason !== 'compiler-message' || !isRecord(data.message) || !isRecord(data.target)) continue;
    const { level, message, spans } = data.message;
    if (level !== 'error' || typeof message !== 'string') continue;
    const kinds = Array.isArray(data.target.kind) ? data.target.kind.map(String) : [];
    const kind = kinds.some((k) => LIB_KINDS.has(k)) ? 'lib' : (kinds[0] ?? '');
    const files = (Array.isArray(spans) ? spans : []).flatMap((span) => (isRecord(span) && typeof span.file_name === 'string' ? [repoRelativePath(span.file_name, workdir)] : []));
    const key = `${kind}:${String(data.target.name)}`;
    errors.set(key, [...(errors.get(key) ?? []), { message, files }]);
  }
  return errors;
}

const LIB_KINDS = new Set(['lib', 'rlib', 'dylib', 'cdylib', 'staticlib', 'proc-macro']);

/** A path cargo or rustc printed (relative to the package root, or absolute), made repository-relative. */
function repoRelativePath(file: string, workdir: string): string {
  const root = path.posix.normalize(workdir).replace(/\/+$/, '');
  const absolute = path.posix.isAbsolute(file) ? path.posix.normalize(file) : path.posix.join(root, file);
  return absolute.startsWith(`${root}/`) ? absolute.slice(root.length + 1) : absolute;
}

/**
 * The results of a selected target that did not build. A target without errors of its own did not
 * build because the library failed: the library's first error is shown. For the generated target,
 * each external file gets its own first error, else the target's.
 */
function notBuilt(target: TargetEntry, manifest: RunManifest, errors: Map<string, CompilerError[]>): TestCaseResult[] {
  const libraryErrors = [...errors].find(([key]) => key.startsWith('lib:'))?.[1];
  const own = errors.get(`${target.kind}:${target.name}`) ?? libraryErrors ?? [...errors.values()][0] ?? [];
  const result = (id: string, error: CompilerError | undefined): TestCaseResult => {
    const message = messageLine(`does not compile: ${error?.message ?? 'the build failed'}`);
    return { id, status: 'errored', failure_kind: 'collection_error', ...(message === undefined ? {} : { message }) };
  };
  // The canary fallback is not a test of the run: its failure leaves the canaries missing.
  if (target.kind === 'canary') return [];
  if (target.kind === 'test' && target.name === manifest.generated) {
    if (manifest.mode !== 'external') return [];
    return manifest.files.map((file) => result(file, own.find((error) => error.files.includes(file)) ?? own[0]));
  }
  return [result(`${target.kind}:${target.name}`, own[0])];
}

function location(source: { path?: string; line?: number }): string | undefined {
  if (source.path === undefined) return undefined;
  const normal = path.posix.normalize(source.path);
  return source.line === undefined ? normal : `${normal}:${source.line}`;
}

interface Tally {
  passed: number;
  failed: number;
  ignored: number;
}

/** The results of one built target, checked against its inventory. */
function builtTarget(target: TargetEntry, manifest: RunManifest, request: ParseRequest, problems: string[], claimed: Tally): TestCaseResult[] {
  const label = `${target.kind}:${target.name}`;
  const listText = target.list === undefined ? undefined : request.files[target.list.file];
  const runText = target.run === undefined ? undefined : request.files[target.run.file];
  if (target.list?.error !== undefined || target.run?.error !== undefined) {
    problems.push(`${label}: the test binary could not be run (${target.list?.error ?? target.run?.error ?? ''})`);
  }
  if (listText === undefined || runText === undefined) {
    problems.push(`${label}: its libtest output is missing`);
    return [];
  }
  const list = readLibtestList(listText, label);
  problems.push(...list.problems);
  if (target.list?.exitCode !== 0) problems.push(`${label}: --list exited ${target.list?.exitCode ?? target.list?.signal ?? 'abnormally'}`);
  const run: LibtestRun = readLibtestRun(runText, label, list.tests);
  problems.push(...run.problems);
  if (run.summary !== undefined) {
    claimed.passed += run.summary.passed;
    claimed.failed += run.summary.failed;
    claimed.ignored += run.summary.ignored;
    const expected = run.summary.failed > 0 ? 101 : 0;
    if (target.run?.exitCode !== expected) {
      problems.push(`${label}: the test binary exited ${target.run?.exitCode ?? target.run?.signal ?? 'abnormally'}; its results imply exit code ${expected}`);
    }
  }
  const results: TestCaseResult[] = [];
  for (const [name, outcome] of run.outcomes) {
    const source = list.tests.get(name) ?? {};
    const where = location(source);
    const base = { id: testId(target, manifest.generated, name), ...(where === undefined ? {} : { location: where }) };
    if (outcome.event === 'ok') {
      results.push({ ...base, status: 'passed' });
    } else if (outcome.event === 'ignored') {
      results.push({ ...base, status: 'skipped', skip_reason: messageLine(outcome.message) ?? 'ignored' });
    } else {
      const reading = readFailure(outcome.stdout, outcome.message, { testName: name, workdir: request.workdir, testRoots: request.testRoots });
      const message = messageLine(reading.message, request.workdir);
      results.push({ ...base, status: reading.kind === 'assertion' ? 'failed' : 'errored', failure_kind: reading.kind, ...(message === undefined ? {} : { message }) });
    }
  }
  return results;
}

function withoutCanaries(claimed: Tally, canary: CanaryOutcome, problems: string[]): TestCounts | undefined {
  const rest = { ...claimed };
  for (const status of [canary.pass, canary.fail]) {
    if (status === 'passed') rest.passed -= 1;
    else if (status === 'failed' || status === 'errored') rest.failed -= 1;
    else if (status === 'skipped') rest.ignored -= 1;
  }
  if (rest.passed < 0 || rest.failed < 0 || rest.ignored < 0) {
    problems.push('libtest summaries do not cover their own tests');
    return undefined;
  }
  return { passed: rest.passed, failed: rest.failed, errored: 0, skipped: rest.ignored };
}

const MISSING: CanaryOutcome = { pass: 'missing', fail: 'missing' };

/** Parses the cargo harness's results (pure: the files' text in, results out). */
export function parseCargoResults(request: ParseRequest): ParsedResults & { canary: CanaryOutcome } {
  const problems: string[] = [];
  const text = request.files[CARGO_RUN_FILE];
  if (text === undefined) {
    return { tests: [], problems: [`${CARGO_RUN_FILE} is missing: the cargo harness wrote no results`], canary: MISSING };
  }
  const manifest = readManifest(text, problems);
  if (manifest === undefined) return { tests: [], problems, canary: MISSING };
  const generated = cargoTargetName(request.canary);
  if (manifest.generated !== generated) problems.push(`${CARGO_RUN_FILE} is for target ${manifest.generated}, not this run's ${generated}`);
  if (manifest.metadataError !== undefined) problems.push(`cargo metadata: ${manifest.metadataError}`);
  if (!manifest.targets.some((t) => t.kind === 'test' && t.name === generated)) {
    problems.push(`the generated test target ${generated} was not among the package's targets (autotests = false, or no package at the root)`);
  }
  const fallbacks = manifest.targets.filter((t) => t.kind === 'canary');
  const generatedBuilt = manifest.targets.some((t) => t.kind === 'test' && t.name === generated && t.built);
  if (fallbacks.length > 1 || (fallbacks.length === 1 && generatedBuilt)) problems.push('the canary fallback ran although the generated target built');
  if (fallbacks.some((t) => !t.built)) problems.push('the canary fallback did not compile');

  const errors = compilerErrors(request.files[CARGO_BUILD_FILE], request.workdir);
  const claimed: Tally = { passed: 0, failed: 0, ignored: 0 };
  const all: TestCaseResult[] = [];
  for (const target of manifest.targets) {
    if (target.built) {
      all.push(...builtTarget(target, manifest, request, problems, claimed));
    } else {
      const failures = notBuilt(target, manifest, errors);
      // Not libtest's tallies, but PatchProof's own verdict on the target: counted as failures.
      claimed.failed += failures.length;
      all.push(...failures);
    }
  }
  const seen = new Set<string>();
  for (const test of all) {
    if (seen.has(test.id)) problems.push(`test id '${test.id}' occurs more than once`);
    seen.add(test.id);
  }
  const anyFailure = manifest.build?.exitCode !== 0 || manifest.targets.some((t) => !t.built || t.run?.exitCode !== 0 || t.list?.exitCode !== 0);
  const expectedExit = anyFailure ? 1 : 0;
  if (request.exitCode !== expectedExit) problems.push(`the cargo harness exited ${request.exitCode ?? 'abnormally'}; its results imply exit code ${expectedExit}`);
  const { tests, canary } = takeCanaries(all, cargoCanaryIds(request.canary));
  const counts = withoutCanaries(claimed, canary, problems);
  const findings = supervisionFindings(manifest);
  return { tests, ...(counts === undefined ? {} : { claimed: counts }), problems, canary, ...(findings.length > 0 ? { channel: supervisionChannel(findings) } : {}) };
}

/** What the supervision found (supervisor.ts): a binary the filter killed, processes that outlived the build. */
function supervisionFindings(manifest: RunManifest): string[] {
  const findings: string[] = [];
  for (const target of manifest.targets) {
    for (const step of [target.list, target.run]) {
      if (step?.signal === 'SIGSYS') findings.push(`${target.kind}:${target.name}: ${SECOND_PROCESS_FINDING}`);
    }
  }
  if ((manifest.supervision?.leftovers ?? 0) > 0) {
    findings.push(`${manifest.supervision?.leftovers ?? 0} process(es) left behind by the build could not be stopped before the test binaries ran`);
  }
  return findings;
}
