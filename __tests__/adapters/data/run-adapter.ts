import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HARNESS_DIR } from '../../../src/adapters/adapter.js';
import type { TestAdapter } from '../../../src/adapters/adapter.js';
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

/** Copies `project` into a fresh temp folder with the adapter's harness and, optionally, external tests. */
export async function stageCopy(
  adapter: TestAdapter,
  project: string,
  external?: { from: string; files: readonly string[]; placement: string }
): Promise<StagedCopy> {
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

/** What one real run produced. */
export interface AdapterRun {
  exitCode: number | null;
  output: string;
  files: Record<string, string>;
  parsed: ParsedResults;
}

/** Runs the adapter's command in the copy (minimal env plus PATH/HOME/TMPDIR, as the runner gives) and parses the results. */
export async function runAdapter(
  adapter: TestAdapter,
  copy: StagedCopy,
  tests?: { files: string[]; testRoot: string }
): Promise<AdapterRun> {
  const command = adapter.command({ view: { workdir: copy.workdir, resultsDir: copy.resultsDir }, ...(tests ?? {}) });
  const [program, ...args] = command.argv;
  if (program === undefined) {
    throw new Error('empty argv');
  }
  const env = { ...command.env, PATH: process.env.PATH ?? '', HOME: copy.root, TMPDIR: copy.root };
  const { exitCode, output } = await new Promise<{ exitCode: number | null; output: string }>((resolve, reject) => {
    const child = spawn(program, args, { cwd: copy.workdir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ exitCode: code, output: Buffer.concat(chunks).toString('utf8') }));
  });
  const files = await readResults(copy.resultsDir);
  const parsed = adapter.parse({ files, exitCode, workdir: copy.workdir, testRoots: tests ? [tests.testRoot] : [] });
  return { exitCode, output, files, parsed };
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
