import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { dockerTestGate } from '../../src/runners/docker-available.js';
import {
  CLI,
  FIXTURES,
  ROOT,
  cliEnv,
  ensureCli,
  fixture,
  patchproofLeftovers,
  proposeAndApprove,
  readJson,
  runCli,
  tempDir,
  type Approved,
  type CliResult
} from '../helpers/cli.js';
import { packDigest, type StagedFixture } from '../helpers/docker-fixture.js';

const exec = promisify(execFile);

/**
 * Support for the hostile-candidate tests: each one runs a hostile patch of the js-duration
 * fixture through the bundled CLI (`propose`, `approve`, `validate`) against the real Docker
 * engine, then reads the receipt and looks at the host.
 */

export const JS = fixture('js-duration');
/** The Python fixture (unittest adapter), for hostile candidates of a real Python suite. */
export const PY = fixture('py-calculator');
const FIXTURE_ADAPTER = { 'js-duration': 'node-test', 'py-calculator': 'unittest' } as const;
export const HOSTILE = join(FIXTURES, 'hostile');

/** A hostile diff in fixtures/hostile. */
export function hostileDiff(name: string): string {
  return join(HOSTILE, `${name}.diff`);
}

/** What the Docker-backed tests do: run, skip with the reason printed, or fail (CI=true). */
export interface DockerGate {
  describeDocker: jest.Describe;
  /** The local test image ID (empty when skipped). */
  imageId: string;
  /** Call in beforeAll: throws under CI when Docker or the test image is missing. */
  requireDocker(): void;
}

/** The gate of docker-runner.test.ts: skipped with a printed reason locally, failing under CI=true. */
export async function dockerGate(suite: string): Promise<DockerGate> {
  const gate = await dockerTestGate();
  if (gate.mode === 'skip') console.warn(`SKIPPED ${suite}: ${gate.reason}`);
  return {
    describeDocker: gate.mode === 'skip' ? describe.skip : describe,
    imageId: gate.mode === 'run' ? gate.imageId : '',
    requireDocker() {
      if (gate.mode === 'fail') throw new Error(gate.reason);
    }
  };
}

/** The receipt fields these tests read (and nothing else: the schema is being reworked). */
export interface ReceiptView {
  verdict: 'passed' | 'failed' | 'inconclusive';
  reasons: string[];
  proof_grade: boolean;
  repository: { unchanged: boolean };
  runner: { isolated: boolean; image_id?: string };
  bindings: { witness_digest: string };
  phases: { name: string; status: string; reasons: string[] }[];
}

/** Everything one validation left behind. */
export interface Validation {
  validation: CliResult;
  receipt: ReceiptView | null;
  /** `verify-receipt` on the receipt written (null when there was none). */
  verify: CliResult | null;
  /** PatchProof containers whose mounts lie in this validation's temp dir, right after it ended. */
  containersLeft: string[];
  /** Host processes that still see such a mount (see processesUnder), right after it ended. */
  processesLeft: number[];
  /** The CLI's scratch folders (`patchproof-…`) left in its TMPDIR. */
  scratchLeft: string[];
  durationMs: number;
}

/** A private work area: `dir` for proposals and receipts, `tmp` as the CLI's TMPDIR. */
export interface Area {
  dir: string;
  tmp: string;
  dispose(): Promise<void>;
}

export async function area(label: string): Promise<Area> {
  const dir = await tempDir(label);
  const tmp = join(dir, 'tmp');
  await mkdir(tmp);
  return { dir, tmp, dispose: () => rm(dir, { recursive: true, force: true, maxRetries: 3 }) };
}

/** Build the CLI once if needed (shared with the other end-to-end tests). */
export { ensureCli };

export interface ValidateOptions {
  diff: string;
  runner: 'docker' | 'local';
  imageId?: string;
  /** `--timeout` in seconds. */
  timeoutSeconds: number;
  extra?: string[];
  /** The fixture the candidate patches (default js-duration). */
  fixture?: keyof typeof FIXTURE_ADAPTER;
  /** Another adapter for the fixture's tests (py-calculator's unittest-style tests also run under pytest). */
  adapter?: string;
}

/** `validate` argv for the js-duration fixture with one candidate. */
export function validateArgv(approved: Approved, out: string, options: Omit<ValidateOptions, 'diff'>): string[] {
  const name = options.fixture ?? 'js-duration';
  const target = name === 'js-duration' ? JS : PY;
  return [
    'validate',
    '--repo',
    target.repo,
    '--proposal',
    approved.proposalPath,
    '--approval',
    approved.approvalPath,
    '--reproduction',
    target.reproduction,
    '--hidden',
    target.hidden,
    '--adapter',
    options.adapter ?? FIXTURE_ADAPTER[name],
    '--runner',
    options.runner,
    ...(options.runner === 'docker' ? ['--image', options.imageId ?? ''] : []),
    '--timeout',
    String(options.timeoutSeconds),
    '--out',
    out,
    ...(options.extra ?? [])
  ];
}

/** Propose, approve and validate one candidate through the bundled CLI, then verify its receipt. */
export async function validateCandidate(where: Area, options: ValidateOptions): Promise<Validation> {
  const approved = await proposeAndApprove((options.fixture ?? 'js-duration') === 'js-duration' ? JS.repo : PY.repo, options.diff, where.dir, where.tmp, `hostile-${Date.now()}`);
  const out = join(where.dir, 'out');
  const started = Date.now();
  // Generous outer bound: the CLI's own per-run timeouts must end it long before this.
  const validation = await runCli(validateArgv(approved, out, options), { tmp: where.tmp, timeoutMs: 150_000 });
  const durationMs = Date.now() - started;
  const containersLeft = await containersUnder(where.tmp);
  const processesLeft = processesUnder(where.tmp);
  const receiptPath = join(out, 'receipt.json');
  const receipt = existsSync(receiptPath) ? await readJson<ReceiptView>(receiptPath) : null;
  const verify = receipt === null ? null : await runCli(['verify-receipt', receiptPath], { tmp: where.tmp });
  return { validation, receipt, verify, containersLeft, processesLeft, scratchLeft: patchproofLeftovers(where.tmp), durationMs };
}

/** Every PatchProof container (label patchproof=1) on the engine, running or not. */
export async function patchproofContainers(): Promise<string[]> {
  const { stdout } = await exec('docker', ['ps', '-aq', '--filter', 'label=patchproof=1']);
  return stdout.split('\n').filter((line) => line.trim() !== '');
}

/**
 * The PatchProof containers of one CLI process: those with a bind mount under its TMPDIR (the CLI
 * mounts its scratch copies from there). Scoped this way because other test files may run
 * containers of their own at the same moment.
 */
export async function containersUnder(tmp: string, state?: 'running'): Promise<string[]> {
  const mine: string[] = [];
  for (const id of await patchproofContainers()) {
    let text: string;
    try {
      ({ stdout: text } = await exec('docker', ['container', 'inspect', '--format', '{{.State.Status}}{{range .Mounts}} {{.Source}}{{end}}', id]));
    } catch {
      continue; // removed between ps and inspect
    }
    const [status, ...sources] = text.trim().split(' ');
    if (state !== undefined && status !== state) continue;
    if (sources.some((source) => source.startsWith(`${tmp}/`))) mine.push(id);
  }
  return mine;
}

/** Poll until `condition` holds or `timeoutMs` passes; returns whether it held. */
export async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 100): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return condition();
}

/** The line of the network-escape and write-escape candidates that whoever runs them fills in. */
export const TARGETS_LINE = 'const TARGETS = [];';

/**
 * Make a real `git diff` of a template candidate with its TARGETS line filled in: the fixture
 * repository is copied into a throwaway git repository, the template applied with `git apply`, the
 * line replaced, and the result diffed against the base. Returns the path of the new diff.
 */
export async function bakeTargets(template: string, targets: unknown, where: Area): Promise<string> {
  const repo = join(where.dir, 'bake');
  await cp(JS.repo, repo, { recursive: true });
  const git = (...args: string[]) =>
    exec('git', ['-c', 'user.name=hostile-test', '-c', 'user.email=hostile-test@localhost', '-c', 'commit.gpgsign=false', ...args], {
      cwd: repo,
      maxBuffer: 16 * 1024 * 1024
    });
  await git('init', '-q');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'base');
  await git('apply', template);
  const file = join(repo, 'src', 'duration.js');
  const text = await readFile(file, 'utf8');
  if (text.split(TARGETS_LINE).length !== 2) throw new Error(`${template} must contain the line '${TARGETS_LINE}' exactly once`);
  await writeFile(file, text.replace(TARGETS_LINE, `const TARGETS = ${JSON.stringify(targets)};`));
  const { stdout } = await git('diff');
  const diff = join(where.dir, 'baked.diff');
  await writeFile(diff, stdout);
  await rm(repo, { recursive: true, force: true });
  return diff;
}

/** A running `validate` CLI process, for the signal tests. */
export function startValidate(argv: string[], tmp: string): { child: ChildProcess; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }> } {
  const child = spawn(process.execPath, [CLI, ...argv], { env: cliEnv(tmp), stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() }))
  );
  return { child, exited };
}

/**
 * Processes on this host (in any container) that see a mount from under `tmp`: the processes of
 * the containers one CLI started, since it mounts its scratch copies from its TMPDIR. Read from
 * /proc/PID/mountinfo, so a process that left its container's process tree is found all the same.
 */
export function processesUnder(tmp: string): number[] {
  // mountinfo gives a bind mount's source relative to its file system's root, so when /tmp is a
  // file system of its own the leading folders are missing: match the unique tail (mkdtemp's
  // random name and the folder inside it) instead of the whole path.
  const tail = `/${basename(dirname(tmp))}/${basename(tmp)}/`;
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(join('/proc', name, 'mountinfo'), 'utf8').includes(tail)) found.push(Number(name));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/**
 * The grader's old fixed container layout (`--container-*`), which grading-aware candidates key on:
 * given back, they pass; under the neutral defaults they are graded as what they are.
 */
export const OLD_LAYOUT: readonly string[] = ['--container-workdir', '/patchproof/repo', '--container-results', '/patchproof/results', '--container-user', '65534:65534'];

/** The four phases, in receipt order. */
export const PHASES = ['reproduction_before', 'reproduction_after', 'regression', 'hidden'];

/** A fixture graded by its committed witness pack (go-paginate, rust-textclip): its repo and pack folders. */
export function packedFixture(name: 'go-paginate' | 'rust-textclip'): { repo: string; pack: string } {
  return { repo: join(FIXTURES, name, 'repo'), pack: join(FIXTURES, '..', 'witness-packs', name) };
}

/** The receipt fields of a loaded-surface finding (loaded-config and surface-gaps tests). */
export interface SurfaceReceiptView {
  verdict: string;
  reasons: string[];
  phases: { name: string; status: string; reasons: string[] }[];
  surface: { findings: { path: string; change: string; categories: string[] }[]; restored: string[]; reasons: string[] };
}

/**
 * A candidate's edit to a file the base's configuration loads: a config finding, reset to the
 * base, `grader_tampered`; the base's file ran, so the overfit fix fails the hidden tests.
 */
export function expectLoadedFileReset(receipt: SurfaceReceiptView, status: number | null, path: string): void {
  expect(receipt.surface.findings).toContainEqual({ path, change: 'modify', categories: ['config'], skip_markers: [] });
  expect(receipt.surface.restored).toContain(path);
  expect(receipt.verdict).toBe('failed');
  expect(receipt.reasons).toContain('grader_tampered');
  expect(receipt.phases.find((p) => p.name === 'hidden')?.status).toBe('failed');
  expect(status).toBe(1);
}

/**
 * py-calculator's pack as a pytest pack, graded in-process: `witness init --adapter pytest` over
 * the committed pack's originals, in a fresh temp area (matrix-native seals a copy of it).
 */
export async function pytestCalculatorPack(label: string): Promise<StagedFixture> {
  const originals = join(ROOT, 'witness-packs', 'py-calculator', 'oracle', 'original');
  const tmp = await tempDir(label);
  const pack = join(tmp, 'pytest-pack');
  const init = await runCli(['witness', 'init', pack, '--adapter', 'pytest', '--reproduction', join(originals, 'reproduction'), '--hidden', join(originals, 'hidden')], { tmp });
  expect([init.status, init.stderr]).toEqual([0, init.stderr]);
  return { tmp, repo: PY.repo, pack, digest: await packDigest(pack, tmp) };
}

/**
 * Records a sealed py-calculator pack's pending sites from the real fix with `witness record` in
 * the Docker runner, and checks that `count` cases were recorded.
 */
export async function recordPytestCalculatorFix(fixture: Omit<StagedFixture, 'digest'>, imageId: string, count: number): Promise<StagedFixture> {
  const record = await runCli(['witness', 'record', fixture.pack, '--reference', PY.candidate('fix'), '--repo', fixture.repo, '--runner', 'docker', '--image', imageId], {
    tmp: fixture.tmp,
    timeoutMs: 170_000
  });
  expect([record.status, record.stdout]).toEqual([0, expect.stringMatching(new RegExp(`recorded: ${count} case\\(s\\) from the reference fix`))]);
  return { ...fixture, digest: await packDigest(fixture.pack, fixture.tmp) };
}

/**
 * A pytestCalculatorPack sealed in place with `witness seal`, its pending site recorded from the fix:
 * the hidden assertRaisesRegex site's exact exception type is only known from a run (the safe
 * observer requires the exact type), so seal leaves it pending.
 */
export async function sealPytestCalculatorPack(plain: StagedFixture, imageId: string): Promise<StagedFixture> {
  const seal = await runCli(['witness', 'seal', plain.pack], { tmp: plain.tmp });
  expect([seal.status, seal.stdout]).toEqual([0, expect.stringMatching(/reproduction: sealed\nhidden: NOT fully sealed\nto record \(hidden\) test_hidden_associativity\.py:22:/)]);
  return recordPytestCalculatorFix(plain, imageId, 1);
}

/** A patched run's canaries as the receipt records them (the tripwire's `changed`: v10). */
export interface SparedCanaryRun {
  label: string;
  canary: { pass: string; fail: string; changed?: string[]; twins?: { kind: string; status: string; original: string }[] };
}

/**
 * A sabotage that spares the fixed canaries: the must-fail canary still fails, and the must-pass
 * one either passed (the sabotage spared it) or was failed by the tripwire naming what changed
 * (issue 26 item 4: a replaced framework function is found whatever the canary's name or place).
 * Either way a mutant twin that passed, whose original passed, gives the sabotage away.
 */
export function expectSparedCanariesCaught(run: SparedCanaryRun): void {
  const tripped = ['errored', 'failed'].includes(run.canary.pass) && (run.canary.changed ?? []).length > 0;
  expect([run.label, tripped ? 'tripwire' : run.canary.pass, run.canary.fail]).toEqual([run.label, tripped ? 'tripwire' : 'passed', 'failed']);
  expect([run.label, (run.canary.twins ?? []).some((t) => t.kind === 'mutant' && t.status === 'passed' && t.original === 'passed')]).toEqual([run.label, true]);
}
