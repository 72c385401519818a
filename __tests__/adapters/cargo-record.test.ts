import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { chmod } from 'node:fs/promises';
import { buildDockerRunArgs, CONTAINER_RESULTS_DIR, CONTAINER_WORKDIR, DEFAULT_DOCKER_LIMITS } from '../../src/runners/docker-args.js';
import { removeCopy } from './data/run-adapter.js';
import { SCENARIOS, saveRecorded, scenarioCommand, stageScenario } from './data/cargo/record.js';
import { stageFiles } from '../../src/phases/workspace.js';

/**
 * Re-records the cargo runs the parser tests read (__tests__/adapters/data/cargo/runs/). Off by
 * default; PATCHPROOF_RECORD_CARGO=host records with the host's cargo, =docker with the test image's
 * (PATCHPROOF_RECORD_IMAGE: its image ID), in a container with the Docker runner's flags. Every
 * scenario is run for real, then saved.
 */

const mode = process.env.PATCHPROOF_RECORD_CARGO;
const describeRecording = mode === 'host' || mode === 'docker' ? describe : describe.skip;

describeRecording(`recording cargo runs (${mode ?? 'off'})`, () => {
  for (const scenario of SCENARIOS) {
    it(
      scenario.name,
      async () => {
        const { copy, tests } = await stageScenario(scenario);
        try {
          if (mode === 'docker') {
            const view = { workdir: CONTAINER_WORKDIR, resultsDir: CONTAINER_RESULTS_DIR };
            const command = scenarioCommand(scenario, view, tests);
            await stageFiles(copy.workdir, command.stage);
            await chmod(copy.resultsDir, 0o777);
            const args = buildDockerRunArgs({
              imageId: process.env.PATCHPROOF_RECORD_IMAGE ?? '',
              containerName: `patchproof-record-${scenario.name}-${process.pid}`,
              hostWorkdir: copy.workdir,
              hostResultsDir: copy.resultsDir,
              limits: { ...DEFAULT_DOCKER_LIMITS, tmpNoexec: false },
              env: { ...command.env, HOME: '/tmp', TMPDIR: '/tmp' },
              argv: command.argv
            });
            // Docker mounts a tmpfs noexec unless told `exec`; the test binaries run from /tmp.
            const withExec = args.map((arg) => (arg.startsWith('--tmpfs=/tmp:') && !/[:,](?:no)?exec\b/.test(arg) ? arg.replace('--tmpfs=/tmp:rw', '--tmpfs=/tmp:rw,exec') : arg));
            const started = Date.now();
            const exitCode = await new Promise<number | null>((resolve, reject) => {
              const child = spawn('docker', [withExec[0] ?? 'run', '--rm', ...withExec.slice(1)], { stdio: 'inherit' });
              child.on('error', reject);
              child.on('close', resolve);
            });
            console.log(`${scenario.name}: exit ${exitCode ?? 'none'} in ${Date.now() - started} ms`);
            await saveRecorded('docker', scenario, { workdir: view.workdir, exitCode, testRoots: tests.testRoots, suite: tests.suite }, copy.resultsDir);
            // The must-fail canary alone makes every honest run exit 1.
            expect(exitCode).toBe(1);
          } else {
            // The toolchain's own bin folder first: a rustup proxy needs a HOME the run does not keep.
            const sysroot = spawnSync('rustc', ['--print', 'sysroot'], { encoding: 'utf8' }).stdout.trim();
            const view = { workdir: copy.workdir, resultsDir: copy.resultsDir };
            const command = scenarioCommand(scenario, view, tests);
            await stageFiles(copy.workdir, command.stage);
            const env = { ...command.env, PATH: `${path.join(sysroot, 'bin')}:${process.env.PATH ?? ''}`, HOME: copy.root, TMPDIR: copy.root };
            const exitCode = await new Promise<number | null>((resolve, reject) => {
              const child = spawn(command.argv[0] ?? 'node', command.argv.slice(1), { cwd: copy.workdir, env, stdio: 'inherit' });
              child.on('error', reject);
              child.on('close', resolve);
            });
            await saveRecorded('host', scenario, { workdir: copy.workdir, exitCode, testRoots: tests.testRoots, suite: tests.suite }, copy.resultsDir);
            expect(exitCode).toBe(1);
          }
        } finally {
          await removeCopy(copy);
        }
      },
      600_000
    );
  }
});
