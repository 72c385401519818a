/**
 * The harness the cargo adapter stages as `.patchproof/harness/cargo-harness.mjs` and runs with
 * `node`. It never lets the crate be compiled with unstable features, and writes every stream it
 * collects into the results folder only after the last test process has ended:
 *
 * 1. `cargo metadata --no-deps` lists the root package's targets.
 * 2. It builds with `cargo build --frozen --message-format=json`: the generated target alone for
 *    external tests (`--test patchproof_<nonce>`), every test target for the suite (`--tests
 *    --keep-going`, so one target that does not compile leaves the others to run). `RUSTC_BOOTSTRAP`
 *    is removed from cargo's environment.
 * 3. It runs each selected test executable twice, with `RUSTC_BOOTSTRAP=1` in the environment of
 *    that binary only (libtest's JSON output is unstable-gated, the crate is not):
 *    `-Z unstable-options --format json --list` (the inventory, before any test runs) and
 *    `-Z unstable-options --format json --report-time` (the results), with `RUST_BACKTRACE=1` so a
 *    panic's frames say where it came from. The working directory is the package root, as under
 *    `cargo test`.
 * 4. When the generated target did not build, it compiles the canary fallback alone with
 *    `rustc --test` and runs it the same way (see cargo-entry.ts).
 *
 * Files written: `cargo-run.json` (the run manifest: cargo's and rustc's versions, the targets, exit
 * codes, file names),
 * `cargo-build.jsonl` (cargo's JSON messages), `t<N>-list.jsonl` and `t<N>-run.jsonl` (libtest's
 * raw JSON lines per target). The harness exits 1 when anything failed or did not build, else 0.
 *
 * `CARGO_HOME` and `CARGO_TARGET_DIR` are set under the process's temp folder (`/tmp` in the
 * container: it must not be mounted noexec, see TestAdapter.execTmp), `CARGO_INCREMENTAL=0`.
 *
 * Supervision (`--supervisor PATH`, src/adapters/shared/supervisor.ts): every test binary is started
 * through the supervisor (`python3 -I -S PATH exe args`), which execs it under a seccomp filter
 * that kills it on any attempt to start a second process. When the harness is the container's
 * PID 1 it first kills every other process of the container (a build script or proc-macro may have
 * left one behind) and records any it could not stop; after the last binary, it removes whatever
 * the binaries left in the results folder before writing its own files there. The manifest's
 * `supervision` says what was done.
 */

/** File name of the staged harness. */
export const CARGO_HARNESS_FILE = 'cargo-harness.mjs';

/** The run manifest the harness writes, relative to the results directory. */
export const CARGO_RUN_FILE = 'cargo-run.json';

/** The `format` value of the run manifest. */
export const CARGO_RUN_FORMAT = 'patchproof/cargo-run/v1';

/** cargo's build messages, relative to the results directory. */
export const CARGO_BUILD_FILE = 'cargo-build.jsonl';

/** Source of the harness (Node 18 or later, no dependencies). */
export const CARGO_HARNESS_SOURCE = String.raw`// PatchProof cargo harness (generated from src/adapters/cargo/harness.ts).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';

const MAX_BUFFER = 64 * 1024 * 1024;
const LIB_KINDS = ['lib', 'rlib', 'dylib', 'cdylib', 'staticlib', 'proc-macro'];

function parseArgs(argv) {
  const options = { results: '', target: '', mode: '', fallback: '', supervisor: '', files: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      options.files = argv.slice(i + 1);
      break;
    }
    const key = arg.replace(/^--/, '');
    if (!(key in options) || key === 'files' || i + 1 >= argv.length) throw new Error('bad argument ' + arg);
    options[key] = argv[++i];
  }
  if (!options.results || !options.target || !['suite', 'external'].includes(options.mode)) throw new Error('missing arguments');
  return options;
}

const options = parseArgs(process.argv.slice(2));
const root = realpathSync(process.cwd());
const temp = tmpdir();
const baseEnv = { ...process.env };
delete baseEnv.RUSTC_BOOTSTRAP;
const cargoEnv = {
  ...baseEnv,
  CARGO_HOME: join(temp, 'cargo-home'),
  CARGO_TARGET_DIR: join(temp, 'cargo-target'),
  CARGO_NET_OFFLINE: 'true',
  CARGO_TERM_COLOR: 'never',
  CARGO_INCREMENTAL: '0'
};
const cargo = process.env.CARGO || 'cargo';
const outputs = {};
const manifest = {
  format: 'patchproof/cargo-run/v1',
  mode: options.mode,
  generated: options.target,
  files: options.files,
  targets: [],
  supervision: { supervised: options.supervisor !== '', pid1: process.pid === 1, killed: 0, leftovers: 0 }
};

function log(line) {
  process.stderr.write('[patchproof cargo] ' + line + '\n');
}

// fd 9 of every program the harness runs is the run's stdout: the sealed-oracle helper of a cargo
// pack writes its observations there (src/oracle/generic/patchproof_obs.rs), past libtest's capture
// and this harness's reading of the test binary's stdout.
const STDIO = ['ignore', 'pipe', 'inherit', 'ignore', 'ignore', 'ignore', 'ignore', 'ignore', 'ignore', 1];

function run(program, args, env, cwd) {
  const result = spawnSync(program, args, { cwd, env, stdio: STDIO, maxBuffer: MAX_BUFFER, encoding: 'utf8' });
  return {
    exitCode: result.status,
    signal: result.signal,
    ...(result.error ? { error: String(result.error.message || result.error) } : {}),
    stdout: result.stdout || ''
  };
}

function repoPath(file) {
  let full = file;
  try {
    full = realpathSync(file);
  } catch {}
  const rel = relative(root, full).split(sep).join('/');
  return rel.startsWith('../') || rel === '..' ? full : rel;
}

function kindOf(target) {
  const kinds = target.kind || [];
  return kinds.some((kind) => LIB_KINDS.includes(kind)) ? 'lib' : String(kinds[0]);
}

function finish(code) {
  mkdirSync(options.results, { recursive: true });
  // Whatever a test binary left here (a planted manifest, a symlink at a result's name) goes first.
  for (const name of readdirSync(options.results)) rmSync(join(options.results, name), { recursive: true, force: true });
  for (const [name, text] of Object.entries(outputs)) writeFileSync(join(options.results, name), text, { flag: 'wx' });
  writeFileSync(join(options.results, 'cargo-run.json'), JSON.stringify(manifest, null, 2) + '\n', { flag: 'wx' });
  process.exit(code);
}

// Processes of this container other than this one that are still alive (zombies are dead).
function otherProcesses() {
  const others = [];
  for (const name of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync('/proc/' + name + '/stat', 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z') others.push(Number(name));
    } catch {}
  }
  return others;
}

// As PID 1 only (a container of its own): kill(-1) would reach every process of the user elsewhere.
function stopLeftovers() {
  if (process.pid !== 1) return;
  for (let round = 0; round < 50; round++) {
    const others = otherProcesses();
    if (others.length === 0) return;
    manifest.supervision.killed += others.length;
    try {
      process.kill(-1, 'SIGKILL');
    } catch {}
    spawnSync('sleep', ['0.02']);
  }
  manifest.supervision.leftovers = otherProcesses().length;
}

const versions = [run(cargo, ['--version'], cargoEnv, root), run(process.env.RUSTC || 'rustc', ['--version'], cargoEnv, root)];
manifest.toolchain = versions.map((v) => v.stdout.trim()).filter((v) => v !== '');

// 1. The root package and its targets.
const metadata = run(cargo, ['metadata', '--no-deps', '--format-version', '1', '--frozen'], cargoEnv, root);
manifest.metadata = { exitCode: metadata.exitCode, signal: metadata.signal, ...(metadata.error ? { error: metadata.error } : {}) };
let pkg;
try {
  const parsed = JSON.parse(metadata.stdout);
  pkg = parsed.packages.find((p) => repoPath(dirname(p.manifest_path)) === '');
} catch {}
if (!pkg) {
  manifest.metadata.error = manifest.metadata.error || 'no package with its Cargo.toml at the repository root';
  log('cargo metadata: ' + manifest.metadata.error);
  finish(1);
}

const suiteFiles = new Set(options.files);
const testable = pkg.targets.filter((t) => ['lib', 'bin', 'test'].includes(kindOf(t)));
const selected = testable.filter((t) =>
  t.name === options.target && kindOf(t) === 'test'
    ? true
    : options.mode === 'suite' && t.test !== false && suiteFiles.has(repoPath(t.src_path))
);
const generated = selected.find((t) => t.name === options.target && kindOf(t) === 'test');
if (!generated) log('the generated target ' + options.target + ' is not a test target of the package (autotests = false?)');

// 2. Build (never with RUSTC_BOOTSTRAP).
const buildArgs = ['build', '--frozen', '--message-format=json'];
if (options.mode === 'suite') buildArgs.push('--tests', '--keep-going');
else buildArgs.push('--test', options.target);
const build = run(cargo, buildArgs, cargoEnv, root);
manifest.build = { exitCode: build.exitCode, signal: build.signal, ...(build.error ? { error: build.error } : {}), file: 'cargo-build.jsonl' };
outputs['cargo-build.jsonl'] = build.stdout;
const executables = new Map();
for (const line of build.stdout.split('\n')) {
  if (!line.startsWith('{')) continue;
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    continue;
  }
  if (message.reason === 'compiler-artifact' && message.profile && message.profile.test && message.executable) {
    executables.set(kindOf(message.target) + ':' + message.target.name + ':' + repoPath(message.target.src_path), message.executable);
  } else if (message.reason === 'compiler-message' && message.message && message.message.level === 'error' && message.message.rendered) {
    process.stderr.write(message.message.rendered);
  }
}

// 3. Inventory and results of every selected target that built.
const testEnv = { ...baseEnv, RUSTC_BOOTSTRAP: '1', RUST_BACKTRACE: '1', CARGO_MANIFEST_DIR: root, CARGO_PKG_NAME: pkg.name, CARGO_PKG_VERSION: pkg.version };
let failed = build.exitCode !== 0;
function runBinary(executable, args) {
  if (options.supervisor === '') return run(executable, args, testEnv, root);
  stopLeftovers();
  return run('python3', ['-I', '-S', options.supervisor, executable, ...args], testEnv, root);
}
function runTarget(entry, executable) {
  const index = manifest.targets.length;
  const listed = runBinary(executable, ['-Z', 'unstable-options', '--format', 'json', '--list']);
  const ran = runBinary(executable, ['-Z', 'unstable-options', '--format', 'json', '--report-time']);
  outputs['t' + index + '-list.jsonl'] = listed.stdout;
  outputs['t' + index + '-run.jsonl'] = ran.stdout;
  const describe = (r, file) => ({ file, exitCode: r.exitCode, signal: r.signal, ...(r.error ? { error: r.error } : {}) });
  manifest.targets.push({ ...entry, built: true, list: describe(listed, 't' + index + '-list.jsonl'), run: describe(ran, 't' + index + '-run.jsonl') });
  if (listed.exitCode !== 0 || ran.exitCode !== 0) failed = true;
  log(entry.kind + ' ' + entry.name + ': exit ' + (ran.exitCode === null ? ran.signal : ran.exitCode));
}
for (const target of selected) {
  const entry = { kind: kindOf(target), name: target.name, srcPath: repoPath(target.src_path) };
  const executable = executables.get(entry.kind + ':' + entry.name + ':' + entry.srcPath);
  if (executable) runTarget(entry, executable);
  else {
    manifest.targets.push({ ...entry, built: false });
    failed = true;
    log(entry.kind + ' ' + entry.name + ': not built');
  }
}

// 4. The canaries alone, when the generated target could not run them.
if (generated && !executables.has('test:' + generated.name + ':' + repoPath(generated.src_path)) && options.fallback) {
  const output = join(cargoEnv.CARGO_TARGET_DIR, 'patchproof-canary-' + options.target);
  mkdirSync(dirname(output), { recursive: true });
  const rustc = run(process.env.RUSTC || 'rustc', ['--edition', '2021', '--test', '-C', 'debuginfo=1', '-o', output, join(root, options.fallback)], cargoEnv, root);
  if (rustc.exitCode === 0) runTarget({ kind: 'canary', name: options.target, srcPath: options.fallback }, output);
  else {
    manifest.targets.push({ kind: 'canary', name: options.target, srcPath: options.fallback, built: false });
    failed = true;
  }
}
finish(failed ? 1 : 0);
`;
