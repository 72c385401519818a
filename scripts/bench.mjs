#!/usr/bin/env node
/**
 * Benchmarks: `npm run bench`.
 *
 * Each section is a named entry in SECTIONS with a `run(context)` that prints its own result lines;
 * add a section (Docker overhead, say) by appending an entry. Environment:
 *   BENCH_SECTIONS  comma-separated section names to run (default: all)
 *   BENCH_SCALE     shrink or grow the workloads, e.g. 0.05 for a quick run (default: 1)
 *   BENCH_RUNS      timed repetitions per contender (default: 5)
 *   BENCH_DIR       where generated data is cached (default: <os tmpdir>/patchproof-bench)
 *
 * TypeScript sources are benchmarked in their shipped form: bundled with ncc, as the CLI is.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PROJECT = dirname(dirname(fileURLToPath(import.meta.url)));
const OUT = join(PROJECT, 'bench-out');

/** @typedef {{ scale: number, runs: number, dataDir: string, outDir: string }} BenchContext */

/** @type {{ name: string, description: string, run: (context: BenchContext) => Promise<void> }[]} */
const SECTIONS = [
  {
    name: 'snapshot',
    description: 'takeSnapshot against one sha256sum over the same files (20,000 files, 500 MB at scale 1)',
    run: benchSnapshot
  }
];

async function main() {
  const context = {
    scale: positiveNumber('BENCH_SCALE', 1),
    runs: Math.round(positiveNumber('BENCH_RUNS', 5)),
    dataDir: process.env.BENCH_DIR || join(tmpdir(), 'patchproof-bench'),
    outDir: OUT
  };
  const wanted = (process.env.BENCH_SECTIONS || SECTIONS.map((section) => section.name).join(','))
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = wanted.filter((name) => !SECTIONS.some((section) => section.name === name));
  if (unknown.length > 0) {
    throw new Error(`Unknown BENCH_SECTIONS ${unknown.join(', ')}. Expected some of: ${SECTIONS.map((s) => s.name).join(', ')}.`);
  }
  mkdirSync(context.outDir, { recursive: true });
  mkdirSync(context.dataDir, { recursive: true });
  for (const section of SECTIONS.filter((s) => wanted.includes(s.name))) {
    log(`# ${section.name}: ${section.description}`);
    await section.run(context);
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers shared by sections.

function positiveNumber(name, fallback) {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name}=${text} is not valid. Expected a positive number.`);
  return value;
}

function log(line) {
  process.stderr.write(`${line}\n`);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function seconds(action) {
  const start = performance.now();
  await action();
  return (performance.now() - start) / 1000;
}

/** Runs contenders in turn, `runs` times each, alternating so drift hits them alike; medians in seconds. */
async function alternate(runs, contenders) {
  const times = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  for (let i = 0; i < runs; i++) {
    for (const [name, action] of Object.entries(contenders)) {
      times[name].push(await seconds(action));
    }
  }
  return Object.fromEntries(Object.entries(times).map(([name, list]) => [name, median(list)]));
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'buffer', maxBuffer: 1 << 30, ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}): ${String(result.stderr).trim()}`);
  }
  return result.stdout;
}

/**
 * Bundles one TypeScript module with ncc and imports it. The entry gets a tsconfig of its own that
 * includes only itself, so ncc type-checks just what it imports, not unrelated work in progress.
 */
async function importBundled(outDir, name, source, exports) {
  const entryDir = join(outDir, `${name}-src`);
  const bundleDir = join(outDir, `${name}-bundle`);
  mkdirSync(entryDir, { recursive: true });
  writeFileSync(join(entryDir, 'tsconfig.json'), JSON.stringify({ extends: '../../tsconfig.json', include: ['entry.ts'] }));
  writeFileSync(join(entryDir, 'entry.ts'), `export { ${exports.join(', ')} } from '../../${source}';\n`);
  rmSync(bundleDir, { recursive: true, force: true });
  run(join(PROJECT, 'node_modules/.bin/ncc'), ['build', join(entryDir, 'entry.ts'), '-o', bundleDir, '--target', 'es2022', '-q'], {
    cwd: PROJECT
  });
  return import(pathToFileURL(join(bundleDir, 'index.js')).href);
}

// ---------------------------------------------------------------------------------------------
// Section "snapshot".

const MB = 1_000_000;

async function benchSnapshot(context) {
  const fileCount = Math.max(1, Math.round(20_000 * context.scale));
  const totalBytes = Math.max(fileCount, Math.round(500 * MB * context.scale));
  const tree = join(context.dataDir, `snapshot-${fileCount}-${totalBytes}`);
  const list = `${tree}.files`;
  const parkedGitFile = `${tree}.gitfile`;
  ensureTree(tree, list, parkedGitFile, fileCount, totalBytes);

  log('  bundling src/io/snapshot.ts with ncc');
  const { takeSnapshot } = await importBundled(context.outDir, 'snapshot', 'src/io/snapshot.js', ['takeSnapshot']);

  // One sha256sum fed the whole list: xargs splits only if the names overflow its 1.9 MB buffer.
  const sha256sum = (stdio = 'ignore') =>
    run('xargs', ['-0', '-s', '1900000', '-a', list, 'sha256sum', '--'], { cwd: tree, stdio: ['ignore', stdio, 'pipe'] });

  log('  warming the page cache and checking every hash against sha256sum');
  const expected = new Map(
    sha256sum('pipe')
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => [line.slice(66), line.slice(0, 64)])
  );
  const check = (snapshot, source) => {
    const files = snapshot.entries.filter((entry) => entry.kind === 'file');
    if (snapshot.source !== source || files.length !== fileCount || files.some((entry) => expected.get(entry.path) !== entry.sha256)) {
      throw new Error(`takeSnapshot (${snapshot.source}) disagrees with sha256sum on ${tree}`);
    }
  };
  check(await takeSnapshot(tree), 'git');

  const label = `${fileCount} files, ${Math.round(totalBytes / MB)} MB`;
  const report = (name, times) =>
    console.log(
      `${name}: ${label}: patchproof ${times.patchproof.toFixed(2)} s, sha256sum ${times.sha256sum.toFixed(2)} s, ` +
        `ratio ${(times.patchproof / times.sha256sum).toFixed(2)} (median of ${context.runs})`
    );

  report(
    'snapshot',
    await alternate(context.runs, {
      patchproof: () => takeSnapshot(tree),
      sha256sum: () => sha256sum()
    })
  );

  // Without its .git file the tree is outside any work tree, so takeSnapshot walks it.
  renameSync(join(tree, '.git'), parkedGitFile);
  try {
    check(await takeSnapshot(tree), 'walk');
    report(
      'snapshot (walk)',
      await alternate(context.runs, {
        patchproof: () => takeSnapshot(tree),
        sha256sum: () => sha256sum()
      })
    );
  } finally {
    renameSync(parkedGitFile, join(tree, '.git'));
  }
}

/**
 * A tree of `fileCount` files of random bytes totalling `totalBytes`: a few large files (40% of the
 * bytes) and many small ones with log-uniform sizes, ten to a folder, tracked by a git index whose
 * git folder lives beside the tree. Generated once; reused while its description matches.
 */
function ensureTree(tree, list, parkedGitFile, fileCount, totalBytes) {
  const description = JSON.stringify({ version: 1, fileCount, totalBytes });
  const marker = `${tree}.json`;
  if (existsSync(parkedGitFile) && !existsSync(join(tree, '.git'))) {
    renameSync(parkedGitFile, join(tree, '.git'));
  }
  if (existsSync(marker) && readFileSync(marker, 'utf8') === description) {
    log(`  reusing ${tree}`);
    return;
  }
  log(`  generating ${tree}`);
  for (const path of [tree, `${tree}.git`, list, marker, parkedGitFile]) {
    rmSync(path, { recursive: true, force: true });
  }
  const sizes = fileSizes(fileCount, totalBytes);
  const names = sizes.map((_, i) => `d${String(i % 200).padStart(3, '0')}/e${Math.floor(i / 200) % 10}/f${i}.bin`);
  names.forEach((name, i) => {
    const path = join(tree, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, randomBytes(sizes[i]));
  });
  run('git', ['init', '-q', `--separate-git-dir=${tree}.git`, tree]);
  writeFileSync(list, `${names.join('\0')}\0`);
  // --info-only indexes the files without copying 500 MB into the object store.
  run('git', ['-C', tree, 'update-index', '--add', '--info-only', '-z', '--stdin'], { input: readFileSync(list) });
  writeFileSync(marker, description);
}

/** Deterministic sizes (seeded), summing exactly to `totalBytes`. */
function fileSizes(fileCount, totalBytes) {
  let seed = 0x9e3779b9;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const largeCount = Math.max(1, Math.round(fileCount / 1000));
  const weights = Array.from({ length: fileCount }, (_, i) => (i < largeCount ? 0 : 2 ** (6 + random() * 12)));
  const smallTotal = weights.reduce((sum, w) => sum + w, 0);
  const smallBytes = Math.round(totalBytes * (largeCount === fileCount ? 0 : 0.6));
  const largeBytes = Math.floor((totalBytes - smallBytes) / largeCount);
  const sizes = weights.map((w, i) => (i < largeCount ? largeBytes : Math.floor((w / smallTotal) * smallBytes)));
  // Every hundredth file is empty; the rounding remainder goes to the first file.
  for (let i = largeCount; i < fileCount; i += 100) sizes[i] = 0;
  sizes[0] += totalBytes - sizes.reduce((sum, size) => sum + size, 0);
  // Spread the large files through the tree rather than first in line.
  for (let i = fileCount - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [sizes[i], sizes[j]] = [sizes[j], sizes[i]];
  }
  return sizes;
}

main().catch((error) => {
  log(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
