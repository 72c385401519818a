import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CommandRequest } from '../../src/adapters/adapter.js';
import { goAdapter, GO_CACHE_SEED, GO_ENV } from '../../src/adapters/go/index.js';
import { goCanaryFileName, goCanaryPackage, goCanarySource, goCanaryTestNames, goPackageName } from '../../src/adapters/go/canary.js';
import { GO_MIN_MINOR, GO_RESULTS_FILE, GO_VERSION_FILE } from '../../src/adapters/go/results.js';
import { getAdapter } from '../../src/adapters/registry.js';
import { ConfigurationError } from '../../src/errors.js';
import { freshCanary, listFiles, removeCopy, runAdapter, stageCopy } from './data/run-adapter.js';
import type { StagedCopy } from './data/run-adapter.js';

const NONCE = '0123456789abcdeffedcba9876543210';
const VIEW = { workdir: '/patchproof/repo', resultsDir: '/patchproof/results' };

function request(overrides: Partial<CommandRequest>): CommandRequest {
  return { view: VIEW, files: [], suite: true, testRoots: [], canary: { nonce: NONCE }, ...overrides };
}

const SOURCES: Record<string, string> = {
  'calc_test.go': '// Copyright\n\n/* package wrong */\npackage calc_test\n',
  'calc_internal_test.go': '//go:build !windows\n\npackage calc // in-package tests\n',
  'pkg/a/a_test.go': 'package a\n'
};
const readFile = (file: string): string | undefined => SOURCES[file];

describe('go adapter command', () => {
  it('is registered as "go", and runs what it builds from /tmp, as PID 1, with the supervisor staged', () => {
    expect(getAdapter('go')).toBe(goAdapter);
    expect(goAdapter.execTmp).toBe(true);
    expect(goAdapter.pid1).toBe(true);
    expect(Object.keys(goAdapter.harness)).toEqual(['supervise.py']);
  });

  it("declares the staged files' top-level tests (never for the suite), which must all run", () => {
    const files = ['.patchproof/hidden/a_test.go'];
    const source =
      'package hidden\n\nfunc TestOne(t *testing.T) {}\nfunc TestMain(m *testing.M) {}\nfunc Testlower(t *testing.T) {}\n/*\nfunc TestCommented(t *testing.T) {}\n*/\nfunc TestÄ(t *testing.T) {}\nfunc BenchmarkX(b *testing.B) {}\n';
    const command = goAdapter.command(request({ files, suite: false, testRoots: ['.patchproof/hidden'], readFile: (file) => (file === files[0] ? source : undefined) }));
    expect(command.declared).toEqual(['TestOne', 'TestÄ']);
    expect(goAdapter.command(request({ files: ['calc_test.go'], readFile })).declared).toBeUndefined();
  });

  it('runs the suite packages through the sh harness with every result in the results folder', () => {
    const command = goAdapter.command(request({ files: ['calc_internal_test.go', 'calc_test.go', 'pkg/a/a_test.go'], readFile }));
    expect(command.argv.slice(0, 2)).toEqual(['sh', '-c']);
    // The harness seeds the build cache from a setup stage's output when there is one.
    expect(command.argv[2]).toContain(`if [ -d ${GO_CACHE_SEED} ] && [ ! -e "$GOCACHE" ]; then cp -R ${GO_CACHE_SEED} "$GOCACHE"`);
    // The go command is exec'd from a non-dumpable copy (mode 0111) as the container's PID 1.
    expect(command.argv[2]).toContain('chmod 0111 "$gobin"');
    expect(command.argv[2]).toMatch(/exec "\$gobin" "\$@" 9>&1 > "\$out"$/);
    expect(command.argv.slice(3)).toEqual([
      'patchproof-go',
      `/patchproof/results/${GO_RESULTS_FILE}`,
      `/patchproof/results/${GO_VERSION_FILE}`,
      'test',
      '-json',
      '-count=1',
      '-vet=off',
      // Every test binary runs under the supervisor, one action at a time (src/adapters/shared/supervisor.ts).
      '-p',
      '1',
      '-exec',
      `python3 -I -S '${VIEW.workdir}/.patchproof/harness/supervise.py'`,
      '.',
      './pkg/a'
    ]);
    expect(command.env).toEqual({ ...GO_ENV });
    expect(command.env).toMatchObject({ GOPROXY: 'off', GOTOOLCHAIN: 'local', GOCACHE: '/tmp/gocache', GOPATH: '/tmp/gopath', CGO_ENABLED: '0' });
    const canaryFile = goCanaryFileName({ nonce: NONCE });
    expect(Object.keys(command.stage).sort()).toEqual([canaryFile, `pkg/a/${canaryFile}`]);
    // The in-package clause wins, so the canaries run before the package's own tests.
    expect(command.stage[canaryFile]).toContain('\npackage calc\n');
    expect(command.stage[`pkg/a/${canaryFile}`]).toContain('\npackage a\n');
  });

  it('names staged external tests as files of one folder, the canary file among them', () => {
    const files = ['.patchproof/reproduction/a_test.go', '.patchproof/reproduction/b_test.go'];
    const command = goAdapter.command(
      request({ files, suite: false, testRoots: ['.patchproof/reproduction'], readFile: (file) => (files.includes(file) ? 'package reproduction\n' : undefined) })
    );
    const canaryFile = `.patchproof/reproduction/${goCanaryFileName({ nonce: NONCE })}`;
    expect(command.argv.slice(-3)).toEqual([`./${canaryFile}`, `./${files[0]}`, `./${files[1]}`]);
    expect(Object.keys(command.stage)).toEqual([canaryFile]);
    expect(command.stage[canaryFile]).toContain('\npackage reproduction\n');
  });

  it('refuses external tests spread over folders, runs without test files, and a copy it cannot read', () => {
    const external = { suite: false, testRoots: ['.patchproof/hidden'], readFile: () => 'package hidden\n' };
    expect(() => goAdapter.command(request({ ...external, files: ['.patchproof/hidden/a_test.go', '.patchproof/hidden/sub/b_test.go'] }))).toThrow(ConfigurationError);
    expect(() => goAdapter.command(request({ ...external, files: [] }))).toThrow(ConfigurationError);
    expect(() => goAdapter.command(request({ files: ['calc_test.go'] }))).toThrow(/readFile/);
    expect(() => goAdapter.command(request({ files: ['calc_test.go'], readFile: () => '// no clause\n' }))).toThrow(/package clause/);
  });
});

describe('go canaries', () => {
  it('reads package clauses past comments and build constraints', () => {
    expect(goPackageName(SOURCES['calc_test.go'] ?? '')).toBe('calc_test');
    expect(goPackageName(SOURCES['calc_internal_test.go'] ?? '')).toBe('calc');
    expect(
      goCanaryPackage([
        { file: 'x_test.go', text: 'package x_test\n' },
        { file: 'y_test.go', text: undefined }
      ])
    ).toBe('x_test');
  });

  it('generates one must-pass and one must-fail test named from the nonce, in run order, in a file that sorts first', () => {
    const plan = { nonce: NONCE };
    const names = goCanaryTestNames(plan);
    expect(names).toEqual({ pass: 'Test_c0123456789abcdef', fail: 'Test_cfedcba9876543210' });
    const source = goCanarySource(plan, 'calc');
    expect(source.indexOf(names.pass)).toBeLessThan(source.indexOf(names.fail));
    expect(source).toMatch(new RegExp(`func ${names.pass}\\(t \\*testing.T\\) \\{\\n\\tgot := 1\\n\\tif got != 1 \\{`));
    expect(source).toMatch(new RegExp(`func ${names.fail}\\(t \\*testing.T\\) \\{\\n\\tgot := 1\\n\\tif got != 2 \\{`));
    // An odd last digit runs the must-fail canary first.
    const odd = { nonce: `${NONCE.slice(0, -1)}1` };
    const oddSource = goCanarySource(odd, 'calc');
    expect(oddSource.indexOf(goCanaryTestNames(odd).fail)).toBeLessThan(oddSource.indexOf(goCanaryTestNames(odd).pass));
    expect(goCanaryFileName(plan) < 'a_test.go').toBe(true);
    expect(goCanaryFileName(plan) < 'Z_test.go').toBe(true);
  });
});

// The live runs need Go 1.24 or later on PATH (the test image has it; a host may not).
const probe = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' });
// stdout is null (whatever its type says) when go could not be started at all; probe.error says why.
const minor = probe.error === undefined ? /^go1\.(\d+)/.exec(probe.stdout)?.[1] : undefined;
const GO_MISSING =
  probe.status === 0 && minor !== undefined && Number(minor) >= GO_MIN_MINOR
    ? undefined
    : `go1.${GO_MIN_MINOR} or later is not on PATH (${(probe.stdout || String(probe.error)).trim()})`;
if (GO_MISSING !== undefined) console.warn(`SKIPPING the real go test runs: ${GO_MISSING}.`);
const describeWithGo = GO_MISSING === undefined ? describe : describe.skip;

describeWithGo('go adapter on real go test runs', () => {
  let copy: StagedCopy | undefined;
  afterEach(async () => {
    await removeCopy(copy);
    copy = undefined;
  });

  it('runs a suite package with its canaries and leaves results only in the results folder', async () => {
    copy = await stageCopy(goAdapter, 'go/go-project');
    const files = goAdapter.suiteFiles(await listFiles(copy)).filter((file) => file.startsWith('passing/') || file.startsWith('failing/'));
    const run = await runAdapter(goAdapter, copy, { files, suite: true, testRoots: [] });
    expect(Object.keys(run.files).sort()).toEqual([GO_RESULTS_FILE, GO_VERSION_FILE]);
    expect(run.exitCode).toBe(1);
    expect(run.parsed.problems).toEqual([]);
    expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    const ids = run.parsed.tests.map((test) => test.id);
    expect(ids).toContain('example.com/gocases/passing/TestSumTable/two_values');
    expect(ids).toContain('example.com/gocases/failing/TestAssertion');
    expect(ids.some((id) => id.includes('Test_c'))).toBe(false);
  }, 180_000);

  it('runs staged external tests as named files and judges their failures', async () => {
    const placement = '.patchproof/hidden';
    copy = await stageCopy(goAdapter, 'go/go-project', { from: 'go/go-project/.patchproof/reproduction', files: ['repro_test.go'], placement });
    const run = await runAdapter(goAdapter, copy, { files: [`${placement}/repro_test.go`], suite: false, testRoots: [placement] }, freshCanary());
    expect(run.parsed.problems).toEqual([]);
    expect(run.parsed.canary).toEqual({ pass: 'passed', fail: 'failed' });
    expect(run.parsed.tests.map((test) => [test.id, test.failure_kind])).toEqual([
      [`${placement}/TestSumAssertion`, 'assertion'],
      [`${placement}/TestThirdPanicsInCode`, 'exception_in_code']
    ]);
    expect(existsSync(path.join(copy.workdir, placement, goCanaryFileName(run.canaryPlan)))).toBe(true);
  }, 180_000);
});
