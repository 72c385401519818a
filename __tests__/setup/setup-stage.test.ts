import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '../../src/errors.js';
import { takeSnapshot } from '../../src/inventory/snapshot.js';
import { createScratch, type Scratch } from '../../src/phases/workspace.js';
import { createLocalRunner } from '../../src/runners/local-runner.js';
import { NO_INSTALL_SCRIPTS_ENV, runSetupStage, setupCacheKey, type SetupStageRequest } from '../../src/phases/setup-stage.js';
import type { WitnessSetup } from '../../src/fetch/witness/manifest.js';

/**
 * The dependency stage on the trusted-local runner with real processes and folders: it fills its
 * outputs once, reuses them by key, re-runs when a cached entry was altered, and records failures.
 * (Its containment, network and read-only view are tested against the real engine in
 * __tests__/setup/setup-docker.test.ts.)
 */

const SNAPSHOT = `sha256:${'a'.repeat(64)}` as const;
const PACK = `sha256:${'b'.repeat(64)}` as const;

/** A setup command that writes node_modules/dep/index.js and counts its runs in a host file. */
function writer(counter: string, extra = ''): WitnessSetup {
  const script = [
    "const fs = require('node:fs');",
    "fs.mkdirSync('node_modules/dep', { recursive: true });",
    "fs.writeFileSync('node_modules/dep/index.js', 'module.exports = ' + JSON.stringify(process.env.npm_config_ignore_scripts || 'scripts-on') + ';\\n');",
    `fs.appendFileSync(${JSON.stringify(counter)}, 'x');`,
    extra
  ].join('\n');
  return { argv: [process.execPath, '-e', script], network: false, outputs: ['node_modules'], env: {}, timeout_seconds: 60 };
}

describe('runSetupStage (local runner)', () => {
  let tmp: string;
  let tree: string;
  let cacheDir: string;
  let scratch: Scratch;
  const runner = createLocalRunner();
  const logs: string[] = [];

  beforeEach(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'pp-setup-'));
    tree = join(tmp, 'tree');
    cacheDir = join(tmp, 'cache');
    await mkdir(tree);
    await writeFile(join(tree, 'package.json'), '{"name":"x"}\n');
    scratch = await createScratch();
    logs.length = 0;
  });

  afterEach(async () => {
    await scratch.dispose();
    await rm(tmp, { recursive: true, force: true });
  });

  function request(setup: WitnessSetup, overrides: Partial<SetupStageRequest> = {}): SetupStageRequest {
    return {
      tree: 'base',
      treeDir: tree,
      snapshot: SNAPSHOT,
      witnessDigest: PACK,
      setup,
      runner,
      execTmp: false,
      outputLimitBytes: 1024 * 1024,
      cacheDir,
      scratch,
      digestTree: async (dir) => (await takeSnapshot(dir)).digest,
      log: (line) => logs.push(line),
      ...overrides
    };
  }

  it('fills the outputs once and reuses them by key', async () => {
    const counter = join(tmp, 'runs');
    const setup = writer(counter);
    const first = await runSetupStage(request(setup));
    expect(first.record).toMatchObject({ tree: 'base', status: 'ok', cached: false, exit_code: 0, install_scripts: 'as_argv' });
    expect(first.record.outputs_digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(first.mounts).toHaveLength(1);
    expect(first.mounts[0]).toMatchObject({ path: 'node_modules', writable: false });
    expect(await readFile(join(first.mounts[0]!.hostDir, 'dep', 'index.js'), 'utf8')).toBe('module.exports = "scripts-on";\n');
    // The tree itself is never written: the stage works on a copy.
    expect(await takeSnapshot(tree).then((s) => s.entries.map((e) => e.path))).toEqual(['package.json']);

    const second = await runSetupStage(request(setup));
    expect(second.record).toMatchObject({ cached: true, status: 'ok', outputs_digest: first.record.outputs_digest, cache_key: first.record.cache_key });
    expect(await readFile(counter, 'utf8')).toBe('x');
  });

  it('keeps what a command that deletes and recreates its output folder wrote (as npm ci does)', async () => {
    const recreate = writer(
      join(tmp, 'runs'),
      "fs.rmSync('node_modules', { recursive: true, force: true }); fs.mkdirSync('node_modules/fresh', { recursive: true }); fs.writeFileSync('node_modules/fresh/x.js', '1');"
    );
    const result = await runSetupStage(request(recreate));
    expect(result.record.status).toBe('ok');
    expect(await readFile(join(result.mounts[0]!.hostDir, 'fresh', 'x.js'), 'utf8')).toBe('1');
  });

  it('runs again under another key: another snapshot, pack or command', () => {
    const setup = writer(join(tmp, 'runs'));
    const keys = new Set([
      setupCacheKey(request(setup)),
      setupCacheKey(request(setup, { snapshot: `sha256:${'c'.repeat(64)}` })),
      setupCacheKey(request(setup, { witnessDigest: `sha256:${'d'.repeat(64)}` })),
      setupCacheKey(request({ ...setup, argv: [...setup.argv, '--'] })),
      setupCacheKey(request({ ...setup, network: true })),
      setupCacheKey(request(setup, { tree: 'patched' }))
    ]);
    expect(keys.size).toBe(6);
  });

  it('discards a cached entry whose files were altered, and runs the stage again', async () => {
    const counter = join(tmp, 'runs');
    const setup = writer(counter);
    const first = await runSetupStage(request(setup));
    await writeFile(join(first.mounts[0]!.hostDir, 'dep', 'index.js'), 'module.exports = "poisoned";\n');
    const second = await runSetupStage(request(setup));
    expect(second.record).toMatchObject({ cached: false, status: 'ok', outputs_digest: first.record.outputs_digest });
    expect(await readFile(join(second.mounts[0]!.hostDir, 'dep', 'index.js'), 'utf8')).toBe('module.exports = "scripts-on";\n');
    expect(await readFile(counter, 'utf8')).toBe('xx');
  });

  it('turns install scripts off and uses candidate_argv for the candidate tree', async () => {
    const counter = join(tmp, 'runs');
    const setup = { ...writer(counter), candidate_argv: writer(counter).argv };
    const result = await runSetupStage(request(setup, { tree: 'patched' }));
    expect(result.record).toMatchObject({ tree: 'patched', install_scripts: 'disabled', status: 'ok' });
    expect(await readFile(join(result.mounts[0]!.hostDir, 'dep', 'index.js'), 'utf8')).toBe(
      `module.exports = ${JSON.stringify(NO_INSTALL_SCRIPTS_ENV.npm_config_ignore_scripts)};\n`
    );
  });

  it('records a failing command as failed, with no outputs and nothing cached', async () => {
    const setup = writer(join(tmp, 'runs'), 'process.exit(3);');
    const result = await runSetupStage(request(setup));
    expect(result.record).toMatchObject({ status: 'failed', exit_code: 3, outputs_digest: null, cached: false });
    expect(result.mounts).toEqual([]);
    const again = await runSetupStage(request(setup));
    expect(again.record.cached).toBe(false);
    expect(logs.some((line) => line.includes('failed: exit 3'))).toBe(true);
  });

  it('records a timeout as failed', async () => {
    const setup = { ...writer(join(tmp, 'runs'), 'setInterval(() => {}, 1000);'), timeout_seconds: 1 };
    const result = await runSetupStage(request(setup));
    expect(result.record).toMatchObject({ status: 'failed', timed_out: true, outputs_digest: null });
  });

  it('refuses an output folder the tree already has', async () => {
    await mkdir(join(tree, 'node_modules'));
    await writeFile(join(tree, 'node_modules', 'committed.js'), '');
    await expect(runSetupStage(request(writer(join(tmp, 'runs'))))).rejects.toThrow(ConfigurationError);
    await expect(runSetupStage(request(writer(join(tmp, 'runs'))))).rejects.toThrow(/setup output 'node_modules' exists in the base tree/);
  });
});
