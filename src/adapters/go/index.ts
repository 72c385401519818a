import path from 'node:path';
import { ConfigurationError } from '../../errors.js';
import { HARNESS_DIR, RESERVED_DIR } from '../adapter.js';
import type { CommandRequest, TestAdapter, TestCommand } from '../adapter.js';
import { checkCanaryPlan } from '../shared/canary.js';
import { goCanaryFileName, goCanaryPackage, goCanarySource } from './canary.js';
import { folderOf, GO_SKIP_MARKERS, GO_SURFACE, goPackageFolders, goSuiteFiles, isGoTestFile } from './files.js';
import { GO_RESULTS_FILE, GO_VERSION_FILE, parseGoResults } from './results.js';
import { GO_SUPERVISED_FLAGS, goDeclaredTests } from './supervision.js';
import { nonDumpableCopy, SUPERVISOR_FILE, SUPERVISOR_SOURCE } from '../shared/supervisor.js';
import { checkRelativePath, checkTestFiles } from '../shared/test-files.js';

/**
 * The go adapter: runs `go test -json` (Go 1.24 or later, parsed by go-results.ts) with a grader
 * canary file in every tested package (go-canary.ts). Which files are tests, the test surface and
 * skip markers are in go-files.ts.
 *
 * The regression suite runs the packages (folders) holding the suite's test files. External tests
 * (reproduction, hidden) are named as files, so `go test` builds them as one package of their own
 * (`command-line-arguments`) wherever they are staged: the default `.patchproof/…` placements work
 * although the go command ignores folders starting with a dot as packages. They must all lie
 * directly in their placement folder, and being outside the code's packages they test it from
 * outside (any package name; they import the module's packages by import path).
 *
 * test2json writes to standard output, and the copy is read-only: a `sh` harness records
 * `go env GOVERSION` and sends the event stream into the results folder. The build cache, module
 * cache and temporary build folders live under /tmp (the build cache seeded from GO_CACHE_SEED when
 * a setup stage filled it); there is no network (GOPROXY=off, so only the standard library and
 * vendored or already cached modules build) and no toolchain switch (GOTOOLCHAIN=local). `go vet`
 * is off (`-vet=off`): it is not a test, and judging by it would make a vet finding a test failure.
 * Test results are never cached (`-count=1`).
 */

/**
 * A build cache a pack's `setup` stage may fill (repository-relative, read-only in test runs). Go
 * needs a writable cache, so the harness copies it to GOCACHE before the run: without it every run
 * compiles the standard library again.
 */
export const GO_CACHE_SEED = `${RESERVED_DIR}/deps/gocache`;

/**
 * Copies the seed cache (when there is one) to $GOCACHE, runs `go env GOVERSION` into $2, then
 * execs `go "$@"` with its standard output into $1. A failed copy only costs time: go rebuilds what
 * is missing, and checks every cache entry it uses against its recorded size.
 *
 * The go command is exec'd from a copy only executable, never readable, by the test user, so it is
 * non-dumpable: as the container's PID 1 (no docker-init) no test binary can reach it through
 * /proc or ptrace (src/adapters/shared/supervisor.ts). Its GOROOT is set, since the copy is elsewhere.
 */
const GO_HARNESS_SCRIPT = [
  'out="$1"; version="$2"; shift 2',
  `if [ -d ${GO_CACHE_SEED} ] && [ ! -e "$GOCACHE" ]; then cp -R ${GO_CACHE_SEED} "$GOCACHE" 2>/dev/null || true; fi`,
  'go env GOVERSION > "$version"',
  'GOROOT="$(go env GOROOT)"; export GOROOT',
  nonDumpableCopy('gobin', '$GOROOT/bin/go', 'patchproof-go'),
  // fd 9 stays on the run's stdout: the sealed-oracle helper of a go pack writes its observations
  // there (src/oracle/generic/patchproof_obs_test.go); go test's own stdout is the results file.
  'exec "$gobin" "$@" 9>&1 > "$out"'
].join('; ');

/** The environment of every go test run (the runner adds HOME, TMPDIR and PATH). */
export const GO_ENV: Readonly<Record<string, string>> = Object.freeze({
  GOFLAGS: '',
  GOENV: 'off',
  GOPROXY: 'off',
  GOSUMDB: 'off',
  GONOSUMDB: '',
  GOTOOLCHAIN: 'local',
  CGO_ENABLED: '0',
  GOCACHE: '/tmp/gocache',
  GOPATH: '/tmp/gopath',
  TZ: 'UTC',
  LANG: 'C.UTF-8'
});

/** A `go test` package argument for a repository-relative folder. */
function packageArg(folder: string): string {
  return folder === '' ? '.' : `./${folder}`;
}

/** Staged external tests: the one folder holding them, which must be the run's test root. */
function externalFolder(request: CommandRequest): string {
  const root = request.testRoots[0]?.replace(/\/+$/, '');
  if (root === undefined || request.testRoots.length !== 1) {
    throw new ConfigurationError('the go adapter runs staged external tests from exactly one folder (testRoots)');
  }
  checkRelativePath(root, 'test folder');
  const elsewhere = request.files.filter((file) => folderOf(file) !== root || !isGoTestFile(file.slice(root.length + 1)));
  if (elsewhere.length > 0) {
    throw new ConfigurationError(
      `go test builds the named test files as one package from one folder; keep every _test.go file directly in '${root}', not: ${elsewhere.join(', ')}`
    );
  }
  return root;
}

/** The package clause the canaries of `folder` take, read from the folder's test files in the copy. */
function canaryPackage(request: CommandRequest, folder: string): string {
  const readFile = request.readFile;
  if (readFile === undefined) {
    throw new ConfigurationError('the go adapter needs to read the test files of the copy (CommandRequest.readFile) to add its canaries');
  }
  const files = request.files.filter((file) => folderOf(file) === folder).sort();
  return goCanaryPackage(files.map((file) => ({ file, text: readFile(file) })));
}

function goCommand(request: CommandRequest): TestCommand {
  const { resultsDir, workdir } = request.view;
  checkTestFiles(request.files);
  checkCanaryPlan(request.canary);
  const canaryFile = goCanaryFileName(request.canary);
  const folders = request.suite ? goPackageFolders(request.files) : [externalFolder(request)];
  const stage: Record<string, string> = {};
  for (const folder of folders) {
    const file = folder === '' ? canaryFile : `${folder}/${canaryFile}`;
    stage[file] = goCanarySource(request.canary, canaryPackage(request, folder));
  }
  const targets = request.suite ? folders.map(packageArg) : [...request.files, ...Object.keys(stage)].sort().map((file) => `./${file}`);
  const argv = [
    'sh',
    '-c',
    GO_HARNESS_SCRIPT,
    'patchproof-go',
    path.posix.join(resultsDir, GO_RESULTS_FILE),
    path.posix.join(resultsDir, GO_VERSION_FILE),
    'test',
    '-json',
    '-count=1',
    '-vet=off',
    ...GO_SUPERVISED_FLAGS(path.posix.join(workdir, HARNESS_DIR, SUPERVISOR_FILE)),
    // Every target starts with './', so none can be read as a flag. (`--` would end the package list.)
    ...targets
  ];
  // The staged tests' own top-level tests must all run: a -test.skip or -test.run set in-process
  // (flag.Set from init) would make failing ones vanish instead of fail.
  const declared = request.suite ? undefined : goDeclaredTests(request.files.map((file) => request.readFile?.(file) ?? ''));
  return { argv, env: { ...GO_ENV }, stage, resultFiles: [GO_RESULTS_FILE, GO_VERSION_FILE], ...(declared === undefined ? {} : { declared }) };
}

/** The go adapter (stateless). */
export const goAdapter: TestAdapter<'go'> = {
  name: 'go',
  harness: { [SUPERVISOR_FILE]: SUPERVISOR_SOURCE },
  // The go command's copy and the canary file's name say what they are: hidden whole each run.
  markerNames: ['patchproof-go', 'patchproof_canary'],
  // Every test binary runs under the supervisor, and the go command is PID 1 (supervisor.ts).
  pid1: true,
  // go test runs the test binary it builds under /tmp (GOTMPDIR defaults to TMPDIR).
  execTmp: true,
  isTestFile: isGoTestFile,
  suiteFiles: goSuiteFiles,
  surface: GO_SURFACE,
  skipMarkers: GO_SKIP_MARKERS,
  command: goCommand,
  parse: parseGoResults
};
