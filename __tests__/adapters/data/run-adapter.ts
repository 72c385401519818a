import { takeTwins } from '../../../src/adapters/shared/twin-stage.js';
import type { TwinOutcome } from '../../../src/core/twins.js';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HARNESS_DIR } from '../../../src/adapters/adapter.js';
import type { CanaryOutcome, CanaryPlan, TestAdapter, TestCommand } from '../../../src/adapters/adapter.js';
import type { ParsedResults } from '../../../src/core/test-results.js';

/**
 * Test support for the adapter tests: stage a sample project the way PatchProof stages a copy,
 * run the adapter's real command in it, and parse what the real runner wrote.
 */

/** This folder: the sample projects and reproduction tests live beside this file. */
export const DATA_DIR = path.dirname(fileURLToPath(import.meta.url));

/** A staged copy: the repository root and an empty results folder. */
export interface StagedCopy {
  root: string;
  workdir: string;
  resultsDir: string;
}

/** A fresh canary plan, as PatchProof makes one per run: 32 random bytes as lowercase hex. */
export function freshCanary(): CanaryPlan {
  return { nonce: randomBytes(32).toString('hex') };
}

/** Copies `project` into a fresh temp folder with the adapter's harness and, optionally, external tests. */
export async function stageCopy(adapter: TestAdapter, project: string, external?: { from: string; files: readonly string[]; placement: string }): Promise<StagedCopy> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), `patchproof-${adapter.name}-`)));
  const workdir = path.join(root, 'repo');
  const resultsDir = path.join(root, 'results');
  await cp(path.join(DATA_DIR, project), workdir, { recursive: true });
  await mkdir(resultsDir);
  await mkdir(path.join(workdir, HARNESS_DIR), { recursive: true });
  for (const [name, source] of Object.entries(adapter.harness)) {
    await writeFile(path.join(workdir, HARNESS_DIR, name), source);
  }
  if (external !== undefined) {
    await mkdir(path.join(workdir, external.placement), { recursive: true });
    for (const file of external.files) {
      await cp(path.join(DATA_DIR, external.from, file), path.join(workdir, external.placement, file));
    }
  }
  return { root, workdir, resultsDir };
}

/** Every file of a copy, repository-relative and '/'-separated, as suiteFiles() receives them. */
export async function listFiles(copy: StagedCopy): Promise<string[]> {
  const entries = await readdir(copy.workdir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(copy.workdir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** What one real run produced. */
export interface AdapterRun {
  command: TestCommand;
  canaryPlan: CanaryPlan;
  exitCode: number | null;
  /** stdout and stderr as they arrived, interleaved: never rely on the order of lines across them. */
  output: string;
  /** stdout alone, in its own order (frames, spec reporters). */
  stdout: string;
  files: Record<string, string>;
  parsed: ParsedResults & { canary: CanaryOutcome };
  /** What the twin and mutant canaries did (python-twins.ts); empty for adapters without them. */
  twins: TwinOutcome[];
}

/** Which tests a run covers: the repository suite, or external tests staged under `testRoots[0]`. */
export interface RunTests {
  files: string[];
  suite: boolean;
  testRoots: string[];
}

/**
 * Runs the adapter's command in the copy (its staged files written first; minimal env plus
 * PATH/HOME/TMPDIR, as the runner gives) and parses the results. Twin and mutant canaries are
 * off unless `twins` is true (tests of other behaviour assert exact line numbers and tallies).
 */
export async function runAdapter(adapter: TestAdapter, copy: StagedCopy, tests: RunTests, canaryPlan = freshCanary(), twins = false): Promise<AdapterRun> {
  const readFile = (file: string): string | undefined => {
    try {
      return readFileSync(path.join(copy.workdir, file), 'utf8');
    } catch {
      return undefined;
    }
  };
  const command = adapter.command({
    view: { workdir: copy.workdir, resultsDir: copy.resultsDir },
    ...tests,
    canary: canaryPlan,
    readFile,
    ...(twins ? {} : { twins: false as const })
  });
  for (const [file, text] of Object.entries(command.stage)) {
    await mkdir(path.dirname(path.join(copy.workdir, file)), { recursive: true });
    await writeFile(path.join(copy.workdir, file), text);
  }
  const [program, ...args] = command.argv;
  if (program === undefined) {
    throw new Error('empty argv');
  }
  const env = { ...command.env, PATH: process.env.PATH ?? '', HOME: copy.root, TMPDIR: copy.root };
  const { exitCode, output, stdout } = await new Promise<{ exitCode: number | null; output: string; stdout: string }>((resolve, reject) => {
    const child = spawn(program, args, { cwd: copy.workdir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    const outChunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      outChunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ exitCode: code, output: Buffer.concat(chunks).toString('utf8'), stdout: Buffer.concat(outChunks).toString('utf8') }));
  });
  const files = await readResults(copy.resultsDir);
  const raw = adapter.parse({ files, exitCode, workdir: copy.workdir, testRoots: tests.testRoots, canary: canaryPlan });
  // As validate.ts does: twin and mutant canaries come out of the tests (and the claimed tallies).
  const twinned = takeTwins(raw.tests, raw.claimed, command.twins ?? []);
  const { claimed: _claimed, ...rest } = raw;
  const parsed = { ...rest, tests: twinned.tests, ...(twinned.claimed === undefined ? {} : { claimed: twinned.claimed }) };
  return { command, canaryPlan, exitCode, output, stdout, files, parsed, twins: twinned.outcomes };
}

/** Every file of the results folder, by name, as text. */
export async function readResults(resultsDir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of await readdir(resultsDir)) {
    files[name] = await readFile(path.join(resultsDir, name), 'utf8');
  }
  return files;
}

/** Removes a staged copy. */
export async function removeCopy(copy: StagedCopy | undefined): Promise<void> {
  if (copy !== undefined) {
    await rm(copy.root, { recursive: true, force: true });
  }
}
