import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cargoAdapter } from '../../../../src/adapters/cargo/index.js';
import type { TestCommand } from '../../../../src/adapters/adapter.js';
import { DATA_DIR, readResults, stageCopy } from '../run-adapter.js';
import type { StagedCopy } from '../run-adapter.js';

/**
 * Recorded runs of the cargo harness: each scenario staged from the sample project in this folder,
 * run for real (host cargo, or cargo in the Docker test image), and its result files kept under
 * `runs/<toolchain>/<scenario>/` with `meta.json` (what the parser needs to read them again: the
 * nonce, the working directory the test process saw, its exit code, the test roots).
 */

export const CARGO_DATA = path.join(DATA_DIR, 'cargo');

/** The toolchains runs are recorded with. */
export type Toolchain = 'host' | 'docker';

export interface Scenario {
  name: string;
  /** A folder of files copied over the project (relative to CARGO_DATA). */
  overlay?: string;
  /** External tests, staged at `.patchproof/reproduction` (relative to CARGO_DATA). */
  external?: { from: string; files: string[] };
  /** A fixed nonce, so the recorded file names are stable. */
  nonce: string;
}

const nonce = (digit: string): string => `${'0123456789abcdef'}${digit.repeat(16)}${'00112233445566778899aabbccddee'}${digit}${digit}`;

export const SCENARIOS: readonly Scenario[] = [
  { name: 'suite', nonce: nonce('1') },
  { name: 'external', external: { from: 'reproduction', files: ['cases.rs', 'more.rs', 'support/mod.rs'] }, nonce: nonce('2') },
  { name: 'external-compile-error', external: { from: 'reproduction-broken', files: ['new_api.rs', 'more.rs'] }, nonce: nonce('3') },
  { name: 'suite-broken-lib', overlay: 'variants/broken-lib', nonce: nonce('4') },
  { name: 'suite-broken-test', overlay: 'variants/broken-test', nonce: nonce('5') }
];

export const PLACEMENT = '.patchproof/reproduction';

export interface RecordMeta {
  scenario: string;
  toolchain: string[];
  nonce: string;
  workdir: string;
  exitCode: number | null;
  testRoots: string[];
  suite: boolean;
}

/** What one recorded run holds. */
export interface Recorded {
  meta: RecordMeta;
  files: Record<string, string>;
}

/** A scenario's staged copy and the run request for it. */
export async function stageScenario(scenario: Scenario): Promise<{ copy: StagedCopy; tests: { files: string[]; suite: boolean; testRoots: string[] } }> {
  const external = scenario.external;
  const copy = await stageCopy(
    cargoAdapter,
    'cargo/project',
    external === undefined ? undefined : { from: path.join('cargo', external.from), files: external.files, placement: PLACEMENT }
  );
  if (scenario.overlay !== undefined) await cp(path.join(CARGO_DATA, scenario.overlay), copy.workdir, { recursive: true });
  if (external !== undefined) {
    const files = external.files.filter((file) => cargoAdapter.isTestFile(file)).map((file) => `${PLACEMENT}/${file}`);
    return { copy, tests: { files, suite: false, testRoots: [PLACEMENT] } };
  }
  const all = (await readdir(copy.workdir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(copy.workdir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  return { copy, tests: { files: cargoAdapter.suiteFiles(all), suite: true, testRoots: [] } };
}

/** Writes a run's result files and meta into `runs/<toolchain>/<scenario>/`. */
export async function saveRecorded(toolchain: Toolchain, scenario: Scenario, meta: Omit<RecordMeta, 'scenario' | 'toolchain' | 'nonce'>, resultsDir: string): Promise<void> {
  const files = await readResults(resultsDir);
  const manifest = JSON.parse(files['cargo-run.json'] ?? '{}') as { toolchain?: string[] };
  const dir = path.join(CARGO_DATA, 'runs', toolchain, scenario.name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  const full: RecordMeta = { scenario: scenario.name, toolchain: manifest.toolchain ?? [], nonce: scenario.nonce, ...meta };
  await writeFile(path.join(dir, 'meta.json'), `${JSON.stringify(full, null, 2)}\n`);
}

/** The toolchains that have recorded runs. */
export async function recordedToolchains(): Promise<Toolchain[]> {
  const present = await readdir(path.join(CARGO_DATA, 'runs')).catch(() => [] as string[]);
  return (['host', 'docker'] as const).filter((name) => present.includes(name));
}

/** A recorded run: its meta and its result files (meta.json left out). */
export async function loadRecorded(toolchain: Toolchain, scenario: string): Promise<Recorded> {
  const dir = path.join(CARGO_DATA, 'runs', toolchain, scenario);
  const files: Record<string, string> = {};
  for (const name of await readdir(dir)) {
    if (name !== 'meta.json') files[name] = await readFile(path.join(dir, name), 'utf8');
  }
  const meta = JSON.parse(await readFile(path.join(dir, 'meta.json'), 'utf8')) as RecordMeta;
  return { meta, files };
}

/** The command of a scenario, as the adapter builds it for a view. */
export function scenarioCommand(scenario: Scenario, view: { workdir: string; resultsDir: string }, tests: { files: string[]; suite: boolean; testRoots: string[] }): TestCommand {
  return cargoAdapter.command({ view, ...tests, canary: { nonce: scenario.nonce } });
}
