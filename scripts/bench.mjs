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
 *   BENCH_CLI       the bundled CLI the validation sections run (default: dist/cli/index.js)
 *
 * TypeScript sources are benchmarked in their shipped form: bundled with ncc, as the CLI is.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PROJECT = dirname(dirname(fileURLToPath(import.meta.url)));
/** The bundled CLI the validation sections time (BENCH_CLI: another build, e.g. main's, for a before/after). */
const BENCH_CLI = process.env.BENCH_CLI || join(PROJECT, 'dist', 'cli', 'index.js');
const OUT = join(PROJECT, 'bench-out');

/** @typedef {{ scale: number, runs: number, dataDir: string, outDir: string }} BenchContext */

/** @type {{ name: string, description: string, run: (context: BenchContext) => Promise<void> }[]} */
const SECTIONS = [
  {
    name: 'snapshot',
    description: 'takeSnapshot against one sha256sum over the same files (20,000 files, 500 MB at scale 1)',
    run: benchSnapshot
  },
  {
    name: 'snapshot-cli',
    description:
      'patchproof propose (a whole CLI process: its time is the snapshot of the tree) against one sha256sum process over the same files (20,000 files, 500 MB at scale 1)',
    run: benchSnapshotCli
  },
  {
    name: 'docker-overhead',
    description: 'patchproof validate --runner docker of js-duration fix.diff against a shell script making the same docker runs one after another',
    run: benchDockerOverhead
  },
  {
    name: 'corpus-python',
    description:
      'patchproof validate --runner docker of the corpus case xmltodict-xml-injection (pytest, upstream fix) against a shell script making the same docker runs one after another',
    run: (context) => benchAgainstSequential(context, 'corpus-python', corpusCase('xmltodict-xml-injection'))
  },
  {
    name: 'corpus-js',
    description:
      'patchproof validate --runner docker of the corpus case find-my-way-interior-static (node:test, 381 upstream tests, upstream fix) with a warm --setup-cache against a shell script making the same docker runs one after another',
    // find-my-way, not zod (vitest) or sanitize-url (jest): their validations take minutes here, nearly
    // all of it the TypeScript transform inside each run (measured in integrations/README.md, "Speed").
    run: (context) => benchAgainstSequential(context, 'corpus-js', corpusCase('find-my-way-interior-static', { setupCache: true }))
  },
  {
    name: 'setup-cache',
    description: 'patchproof validate --runner docker of go-paginate fix.diff (a pack with a dependency stage) with a warm --setup-cache against a cold one',
    run: benchSetupCache
  },
  {
    name: 'screen',
    description:
      'patchproof screen --runner docker of 10 js-duration candidates (3 stopped at L0, some at reproduction or the suite, 2 duplicates) against 10 separate patchproof validate runs of the same candidates, one after another',
    run: benchScreen
  },
  {
    name: 'early-exit',
    description:
      'patchproof validate --runner docker --early-exit of js-duration not-fixed.diff (it fails at the reproduction after) against the same validation without --early-exit; and with a warm --baseline-cache as well. Twice: on the fixture as shipped (a 3-file suite, each suite run as cheap as one reproduction run) and with 30 more suite files',
    run: benchEarlyExit
  },
  {
    name: 'formal',
    description:
      "patchproof validate --runner docker of the fix of js-pages and of py-pages (each pack with one required formal target) against the same validation with the formal block taken out of the pack; the formal phase's own time per target from the receipt, and the binding check's share of the formal phase",
    run: benchFormal
  },
  {
    name: 'results-flood',
    description:
      'patchproof validate --runner docker of js-duration with a candidate that creates 100,000 empty files in the results mount then hangs, against one that only hangs, under the same --timeout',
    run: benchResultsFlood
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

  log('  bundling src/inventory/snapshot.ts with ncc');
  const { takeSnapshot } = await importBundled(context.outDir, 'snapshot', 'src/inventory/snapshot.js', ['takeSnapshot']);

  // One sha256sum fed the whole list: xargs splits only if the names overflow its 1.9 MB buffer.
  const sha256sum = (stdio = 'ignore') => run('xargs', ['-0', '-s', '1900000', '-a', list, 'sha256sum', '--'], { cwd: tree, stdio: ['ignore', stdio, 'pipe'] });

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
 * The snapshot as a user meets it: `patchproof propose` of a one-file diff over the tree, a whole
 * CLI process (start-up, git ls-files, hashing every tracked file, the diff checks), against one
 * `sha256sum` process (fed by xargs) over the same files. The receipt's base_snapshot must be what
 * takeSnapshot computes, so the CLI did hash the tree.
 */
async function benchSnapshotCli(context) {
  const fileCount = Math.max(1, Math.round(20_000 * context.scale));
  const totalBytes = Math.max(fileCount, Math.round(500 * MB * context.scale));
  const tree = join(context.dataDir, `snapshot-${fileCount}-${totalBytes}`);
  const list = `${tree}.files`;
  ensureTree(tree, list, `${tree}.gitfile`, fileCount, totalBytes);
  const cli = join(PROJECT, 'dist', 'cli', 'index.js');
  const work = join(context.dataDir, 'snapshot-cli');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const diff = join(work, 'add.diff');
  writeFileSync(diff, '--- /dev/null\n+++ b/bench-added.txt\n@@ -0,0 +1 @@\n+added\n');
  const proposal = join(work, 'proposal.json');
  const propose = () => run(process.execPath, [cli, 'propose', '--repo', tree, '--diff', diff, '--out', proposal], { cwd: PROJECT, stdio: ['ignore', 'ignore', 'pipe'] });
  const sha256sum = () => run('xargs', ['-0', '-s', '1900000', '-a', list, 'sha256sum', '--'], { cwd: tree, stdio: ['ignore', 'ignore', 'pipe'] });
  log('  warming the page cache; checking the CLI snapshot against takeSnapshot');
  sha256sum();
  propose();
  const { takeSnapshot } = await importBundled(context.outDir, 'snapshot', 'src/inventory/snapshot.js', ['takeSnapshot']);
  const expected = (await takeSnapshot(tree)).digest;
  const got = JSON.parse(readFileSync(proposal, 'utf8')).base_snapshot;
  if (got !== expected) throw new Error(`patchproof propose recorded ${got}, takeSnapshot says ${expected}`);
  const times = await alternate(context.runs, { patchproof: propose, sha256sum });
  console.log(
    `snapshot-cli: ${fileCount} files, ${Math.round(totalBytes / MB)} MB: patchproof propose ${times.patchproof.toFixed(2)} s, sha256sum ${times.sha256sum.toFixed(2)} s, ` +
      `ratio ${(times.patchproof / times.sha256sum).toFixed(2)} (median of ${context.runs}, whole processes)`
  );
  rmSync(work, { recursive: true, force: true });
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

// ---------------------------------------------------------------------------------------------
// Section "docker-overhead".

/** The tag scripts/build-test-image.sh gives the local test image. */
const TEST_IMAGE_TAG = 'patchproof-test:local';
/** Label of the baseline's containers, so any left behind can be found and removed. */
const BENCH_LABEL = 'patchproof.bench';

/**
 * What PatchProof adds to the test runs themselves: a full `validate --runner docker` of the
 * js-duration fix (snapshots, staging, its hardened runs two at a time, judging, receipt) against
 * a shell script making the same `docker run`s (five, or more when runs are repeated) one after
 * another, with the same image and flags, on copies prepared beforehand (not timed).
 *
 * The baseline is built from one recorded validation: its receipt gives each run's test command
 * (`runs[].argv`, in order) and the image ID; the flags come from `buildDockerRunArgs`
 * (src/runners/docker-args.ts, bundled with ncc) with the default limits. The repository copies
 * are the ones PatchProof really mounted (harness files and staged tests included): a `docker`
 * shim first on PATH copies the read-only mount of each `docker run` before running it, and also
 * records the argv so the baseline's flags are checked against what the CLI passed.
 */
/** The docker client and the local test image's ID, or null (with a printed skip line) without an engine. */
function dockerAndImage(section) {
  const which = spawnSync('sh', ['-c', 'command -v docker'], { encoding: 'utf8' });
  const dockerPath = which.status === 0 ? which.stdout.trim() : '';
  const info = dockerPath === '' ? null : spawnSync(dockerPath, ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8' });
  if (info === null || info.status !== 0) {
    const why = info === null ? 'the docker client is not on PATH' : (info.stderr || `docker info exited ${info.status}`).trim().split('\n')[0];
    console.log(`${section}: skipped: no Docker engine (${why}); start it with scripts/start-docker.sh`);
    return null;
  }
  const image = spawnSync(dockerPath, ['image', 'inspect', '--format', '{{.Id}}', TEST_IMAGE_TAG], { encoding: 'utf8' });
  if (image.status !== 0) {
    throw new Error(`test image ${TEST_IMAGE_TAG} not found: build it with bash scripts/build-test-image.sh`);
  }
  return { dockerPath, imageId: image.stdout.trim() };
}

/** js-duration's fix graded with the pack's folders (--reproduction/--hidden), as the first version of this section did. */
function jsDurationCase() {
  return {
    label: 'fixtures/js-duration/candidates/fix.diff',
    prepare: () => ({
      repo: join(PROJECT, 'fixtures', 'js-duration', 'repo'),
      diff: join(PROJECT, 'fixtures', 'js-duration', 'candidates', 'fix.diff'),
      witnessArgs: [
        '--reproduction',
        join(PROJECT, 'witness-packs', 'js-duration', 'reproduction'),
        '--hidden',
        join(PROJECT, 'witness-packs', 'js-duration', 'hidden'),
        '--adapter',
        'node-test'
      ]
    })
  };
}

/**
 * A corpus case of integrations/ with upstream's fix: fetched (pinned by SHA-256) by its fetch.sh into
 * the bench's data folder, once. `setupCache`: the pack has a dependency stage (an `npm ci`), run once
 * into a --setup-cache before anything is timed; the timed validations reuse it, and the sequential
 * script mounts the same outputs.
 */
function corpusCase(name, { setupCache = false } = {}) {
  return {
    label: `integrations/${name} upstream fix`,
    prepare: (work, cli, context) => {
      const fetched = join(context.dataDir, `corpus-${name}`);
      if (!existsSync(join(fetched, 'upstream-fix.diff'))) {
        rmSync(fetched, { recursive: true, force: true });
        log(`  fetching ${name} with its fetch.sh`);
        run('bash', [join(PROJECT, 'integrations', name, 'fetch.sh'), fetched], { stdio: ['ignore', 'ignore', 'pipe'] });
      }
      const pack = join(PROJECT, 'integrations', name, 'witness-pack');
      const digest = String(run(process.execPath, [cli, 'witness', 'digest', pack], { cwd: PROJECT })).trim();
      return {
        repo: join(fetched, 'repo'),
        diff: join(fetched, 'upstream-fix.diff'),
        witnessArgs: ['--witness', pack, '--witness-digest', digest, ...(setupCache ? ['--setup-cache', join(work, 'setup-cache')] : [])]
      };
    }
  };
}

async function benchDockerOverhead(context) {
  await benchAgainstSequential(context, 'docker-overhead', jsDurationCase());
}

/**
 * One validation (whole CLI processes) against the same docker runs one after another in a shell
 * script, on the repository copies PatchProof really mounted; see the comment above dockerAndImage.
 */
async function benchAgainstSequential(context, section, spec) {
  const docker = dockerAndImage(section);
  if (docker === null) return;
  const { dockerPath, imageId } = docker;

  const cli = BENCH_CLI;
  const work = join(context.dataDir, section);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const node = (args, options = {}) => run(process.execPath, [cli, ...args], { cwd: PROJECT, ...options });
  const { repo, diff, witnessArgs } = spec.prepare(work, cli, context);

  log(`  proposing and approving ${spec.label}`);
  const proposalPath = join(work, 'proposal.json');
  const approvalPath = join(work, 'approval.json');
  node(['propose', '--repo', repo, '--diff', diff, '--out', proposalPath]);
  const proposalHash = JSON.parse(readFileSync(proposalPath, 'utf8')).proposal_hash;
  node(['approve', '--proposal', proposalPath, '--proposal-hash', proposalHash, '--approved-by', 'bench', '--run-id', `bench-${section}`, '--out', approvalPath]);
  const validateArgs = (out) => [
    'validate',
    '--repo',
    repo,
    '--proposal',
    proposalPath,
    '--approval',
    approvalPath,
    ...witnessArgs,
    '--runner',
    'docker',
    '--image',
    imageId,
    '--out',
    out
  ];
  if (witnessArgs.includes('--setup-cache')) {
    log('  filling the dependency stage cache (not timed)');
    node(validateArgs(join(work, 'fill-cache')), { stdio: ['ignore', 'ignore', 'pipe'] });
  }

  log('  recording one validation through a docker shim (copies of the mounted repository copies)');
  const captures = join(work, 'captured');
  const shimDir = join(work, 'shim');
  mkdirSync(captures);
  mkdirSync(shimDir);
  writeFileSync(
    join(shimDir, 'docker'),
    [
      '#!/bin/sh',
      '# Generated by scripts/bench.mjs: records each `docker run` or `docker create` (a container started',
      '# ahead, held at its start gate): argv, and a copy of its read-only bind mount; then runs the real',
      '# docker client with the same arguments.',
      'if [ "$1" = run ] || [ "$1" = create ]; then',
      `  dir=$(mktemp -d ${shellQuote(join(captures, 'run-XXXXXX'))}) || exit 125`,
      '  printf \'%s\\0\' "$@" > "$dir/argv"',
      '  for arg in "$@"; do',
      '    case "$arg" in',
      '      --mount=type=bind,source=*,readonly)',
      '        source=${arg#--mount=type=bind,source=}',
      '        # The first read-only mount is the repository copy; later ones (dependency outputs) stay where they are.',
      '        [ -e "$dir/repo" ] || cp -a "${source%%,target=*}" "$dir/repo" || exit 125',
      '        ;;',
      '    esac',
      '  done',
      'fi',
      `exec ${shellQuote(dockerPath)} "$@"`,
      ''
    ].join('\n')
  );
  chmodSync(join(shimDir, 'docker'), 0o755);
  const recordedOut = join(work, 'recorded');
  const recorded = spawnSync(process.execPath, [cli, ...validateArgs(recordedOut)], {
    cwd: PROJECT,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${shimDir}:${process.env.PATH ?? ''}` }
  });
  if (recorded.status !== 0) throw new Error(`the recorded validation exited ${recorded.status}: ${recorded.stderr.trim()}`);
  const receipt = JSON.parse(readFileSync(join(recordedOut, 'receipt.json'), 'utf8'));
  if (receipt.verdict !== 'passed' || receipt.runner?.image_id !== imageId) {
    throw new Error(`the recorded validation did not pass in ${imageId}: ${receipt.verdict} ${JSON.stringify(receipt.reasons)}`);
  }

  /** Each recorded `docker run`: its container label (run label, maybe with a `-N` suffix), argv and copy. */
  const recordedRuns = readdirSync(captures)
    .map((name) => ({
      name,
      argv: readFileSync(join(captures, name, 'argv'), 'utf8')
        .split('\0')
        .slice(0, -1)
    }))
    // The runner's one question about the image (does it have /bin/sh?) is a created, never started container.
    .filter(({ argv }) => !argv.some((arg) => arg.startsWith('--name=patchproof-probe-')))
    .map(({ name, argv }) => {
      const label = argv.find((arg) => arg.startsWith('--label=patchproof.label='))?.slice('--label=patchproof.label='.length);
      const image = argv.indexOf(imageId);
      if (label === undefined || image < 0 || !existsSync(join(captures, name, 'repo'))) {
        throw new Error(`cannot tell which run ${join(captures, name)} recorded (no patchproof.label label, image or read-only mount)`);
      }
      // A container created ahead runs its command behind the start gate (START_GATE in docker-args.ts).
      const after = argv.slice(image + 1);
      const gated = argv[0] === 'create' && after[0] === '/bin/sh' && after[3] === 'patchproof-gate';
      return { label, argv, command: gated ? after.slice(4) : after, repo: join(captures, name, 'repo'), used: false };
    });

  log('  bundling src/runners/docker-args.ts with ncc');
  const { buildDockerRunArgs, DEFAULT_DOCKER_LIMITS } = await importBundled(context.outDir, 'docker-args', 'src/runners/docker-args.js', [
    'buildDockerRunArgs',
    'DEFAULT_DOCKER_LIMITS'
  ]);

  // Every run the receipt lists, in its order (five, or seven when the reproduction runs twice),
  // matched to the recorded `docker run` with the same label and the same test command.
  const runs = receipt.phases.flatMap((phase) => phase.runs);
  if (recordedRuns.length !== runs.length) {
    throw new Error(`the receipt lists ${runs.length} runs but ${recordedRuns.length} docker runs were recorded`);
  }
  // A hidden run's argv is redacted in the receipt of a sealed pack: it is matched by label alone.
  const redacted = (argv) => argv.length === 1 && argv[0].startsWith('(hidden');
  const sameCommand = (a, b) => a.length === b.length && a.every((arg, i) => arg === b[i]);
  const matched = runs.map((record) => {
    const found = recordedRuns.find(
      (r) => !r.used && (r.label === record.label || r.label.startsWith(`${record.label}-`)) && (redacted(record.argv) || sameCommand(r.command, record.argv))
    );
    if (found === undefined) throw new Error(`no recorded docker run matches the receipt's ${record.label} run ${JSON.stringify(record.argv)}`);
    found.used = true;
    return { record, recordedRun: found };
  });
  log(`  ${runs.length} docker runs per validation`);
  const resultsRoot = join(work, 'results');
  /** The `docker run` argument lists of one baseline repetition (containers named after `tag`). */
  const baselineRuns = (tag) =>
    matched.map(({ record, recordedRun }, index) => {
      const env = Object.fromEntries(
        recordedRun.argv
          .filter((arg) => arg.startsWith('--env='))
          .map((arg) => {
            const [key, ...value] = arg.slice('--env='.length).split('=');
            return [key, value.join('=')];
          })
      );
      const resultsDir = join(resultsRoot, `${tag}-${index}-${record.label}`);
      const name = `ppbench-${tag}-${index}-${record.label.replace(/_/g, '-')}`;
      // Dependency outputs (a warm --setup-cache) are mounted from where the validation mounted them.
      const mounts = recordedRun.argv
        .filter((arg) => arg.startsWith('--mount=type=bind,'))
        .slice(2)
        .map((arg) => {
          const fields = Object.fromEntries(
            arg
              .slice('--mount='.length)
              .split(',')
              .map((kv) => [kv.split('=')[0], kv.slice(kv.indexOf('=') + 1)])
          );
          return { source: fields.source, target: fields.target, writable: !arg.endsWith(',readonly') };
        });
      const noInit = !recordedRun.argv.includes('--init');
      const execTmp = recordedRun.argv.some((arg) => arg.startsWith('--tmpfs=/tmp') && !arg.includes('noexec'));
      // The container layout as the CLI chose it (the workdir follows the repository's name).
      const flag = (prefix) => recordedRun.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
      const home = recordedRun.argv
        .find((arg) => arg.startsWith('--tmpfs=') && arg.includes(',uid='))
        ?.slice('--tmpfs='.length)
        .split(':')[0];
      const settings = {
        imageId: receipt.runner.image_id,
        containerName: name,
        containerWorkdir: flag('--workdir='),
        ...(flag('--user=') !== undefined ? { user: flag('--user=') } : {}),
        ...(home !== undefined ? { home } : {}),
        hostWorkdir: recordedRun.repo,
        hostResultsDir: resultsDir,
        limits: execTmp ? { ...DEFAULT_DOCKER_LIMITS, tmpNoexec: false } : DEFAULT_DOCKER_LIMITS,
        mounts,
        ...(noInit ? { init: false } : {}),
        env,
        argv: recordedRun.command,
        labels: { [BENCH_LABEL]: 'docker-overhead' }
      };
      // The baseline makes plain `docker run`s; the CLI's own were created ahead behind the start gate.
      const args = buildDockerRunArgs(settings);
      checkSameRun(record.label, buildDockerRunArgs({ ...settings, startGate: recordedRun.argv[0] === 'create' }), recordedRun.argv);
      return { label: record.label, args, resultsDir, name, exitCode: record.exit_code };
    });

  // One script per repetition, written before anything is timed.
  const scripts = [];
  for (let i = 0; i <= context.runs; i++) {
    const tag = `r${i}`;
    const planned = baselineRuns(tag);
    const codes = join(work, `${tag}.codes`);
    const lines = ['#!/bin/sh', '# Generated by scripts/bench.mjs: the docker runs of one validation, one after another.', `: > ${shellQuote(codes)}`];
    for (const step of planned) {
      lines.push(`rm -rf ${shellQuote(step.resultsDir)} && mkdir -p -m 777 ${shellQuote(step.resultsDir)}`);
      lines.push(`${shellQuote(dockerPath)} ${step.args.map(shellQuote).join(' ')} > /dev/null 2>&1`);
      lines.push(`echo $? >> ${shellQuote(codes)}`);
      // As the runner does after every run: the container is removed.
      lines.push(`${shellQuote(dockerPath)} rm -f ${shellQuote(step.name)} > /dev/null`);
    }
    const path = join(work, `baseline-${tag}.sh`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    scripts.push({ path, codes, expected: planned.map((step) => step.exitCode) });
  }

  const outs = Array.from({ length: context.runs + 1 }, (_, i) => join(work, `out-${i}`));
  let patchproofRun = 0;
  let baselineRun = 0;
  const contenders = {
    patchproof: () => {
      const out = outs[patchproofRun++];
      const result = spawnSync(process.execPath, [cli, ...validateArgs(out)], { cwd: PROJECT, stdio: ['ignore', 'ignore', 'pipe'] });
      if (result.status !== 0) throw new Error(`patchproof validate exited ${result.status}: ${String(result.stderr).trim()}`);
    },
    sequential: () => {
      const script = scripts[baselineRun++];
      run('sh', [script.path, script.codes], { stdio: ['ignore', 'ignore', 'pipe'] });
    }
  };

  try {
    log('  warming up both once (not timed)');
    contenders.patchproof();
    contenders.sequential();
    const times = await alternate(context.runs, contenders);
    // Every baseline run must have ended as the validation's own run did (same exit code).
    for (const script of scripts) {
      const codes = readFileSync(script.codes, 'utf8').trim().split('\n').map(Number);
      if (codes.join(',') !== script.expected.join(',')) {
        throw new Error(`${script.path} exit codes ${codes.join(',')} differ from the receipt's ${script.expected.join(',')}`);
      }
    }
    for (const out of outs) {
      const verdict = JSON.parse(readFileSync(join(out, 'receipt.json'), 'utf8')).verdict;
      if (verdict !== 'passed') throw new Error(`${out}/receipt.json: verdict ${verdict}, expected passed`);
    }
    console.log(
      `${section}: patchproof validate ${times.patchproof.toFixed(2)} s, sequential docker runs ${times.sequential.toFixed(2)} s, ` +
        `ratio ${(times.patchproof / times.sequential).toFixed(2)} (median of ${context.runs})`
    );
  } finally {
    const left = spawnSync(dockerPath, ['ps', '-aq', '--filter', `label=${BENCH_LABEL}=docker-overhead`], { encoding: 'utf8' });
    const ids = left.stdout.split('\n').filter((line) => line.trim() !== '');
    if (ids.length > 0) spawnSync(dockerPath, ['rm', '-f', ...ids], { stdio: 'ignore' });
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The baseline's `docker run` must be the CLI's, up to the container name, the labels, and the
 * host paths of the two mounts. Anything else (a flag, a limit, the environment, the image, the
 * command) differing means the bundle in dist/ and src/ disagree, and the comparison is unfair.
 */
function checkSameRun(label, built, recorded) {
  if (!built.includes('--log-driver=none')) throw new Error('buildDockerRunArgs no longer passes --log-driver=none: refusing to run it');
  const normalise = (args) =>
    args
      .filter((arg) => !arg.startsWith('--name=') && !arg.startsWith('--label='))
      .map((arg) => arg.replace(/^--mount=type=bind,source=[^,]*,/, '--mount=type=bind,source=<host>,'));
  const a = normalise(built);
  const b = normalise(recorded);
  if (a.join('\0') !== b.join('\0')) {
    const onlyBuilt = a.filter((arg) => !b.includes(arg));
    const onlyRecorded = b.filter((arg) => !a.includes(arg));
    throw new Error(
      `${label}: buildDockerRunArgs (src/) and the CLI (dist/) pass different docker run arguments; run npm run build. ` +
        `Only in src: ${JSON.stringify(onlyBuilt)}; only in dist: ${JSON.stringify(onlyRecorded)}`
    );
  }
}

/** Quote one word for sh. */
function shellQuote(word) {
  return `'${String(word).replace(/'/g, `'\\''`)}'`;
}

main().catch((/** @type {unknown} */ error) => {
  log(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});

// ---------------------------------------------------------------------------------------------
// Section "setup-cache".

/**
 * What the dependency stage's cache saves: the same validation (go-paginate's fix, whose pack warms
 * Go's build cache in its stage) with an empty --setup-cache folder each time (the stage runs) and
 * with one filled beforehand (its outputs are re-hashed and reused). Every receipt must pass, and
 * say whether its stage ran or was reused.
 */
async function benchSetupCache(context) {
  const docker = dockerAndImage('setup-cache');
  if (docker === null) return;
  const cli = join(PROJECT, 'dist', 'cli', 'index.js');
  const fixture = join(PROJECT, 'fixtures', 'go-paginate');
  const pack = join(PROJECT, 'witness-packs', 'go-paginate');
  const work = join(context.dataDir, 'setup-cache');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const node = (args) => String(run(process.execPath, [cli, ...args], { cwd: PROJECT })).trim();

  const proposalPath = join(work, 'proposal.json');
  const approvalPath = join(work, 'approval.json');
  node(['propose', '--repo', join(fixture, 'repo'), '--diff', join(fixture, 'candidates', 'fix.diff'), '--out', proposalPath]);
  const proposalHash = JSON.parse(readFileSync(proposalPath, 'utf8')).proposal_hash;
  node(['approve', '--proposal', proposalPath, '--proposal-hash', proposalHash, '--approved-by', 'bench', '--run-id', 'bench-setup-cache', '--out', approvalPath]);
  const digest = node(['witness', 'digest', pack]);
  let count = 0;
  const validate = (cache, expectCached) => {
    const out = join(work, `out-${count++}`);
    const args = [
      'validate',
      '--repo',
      join(fixture, 'repo'),
      '--proposal',
      proposalPath,
      '--approval',
      approvalPath,
      '--witness',
      pack,
      '--witness-digest',
      digest,
      '--runner',
      'docker',
      '--image',
      docker.imageId,
      '--out',
      out,
      '--setup-cache',
      cache
    ];
    const result = spawnSync(process.execPath, [cli, ...args], { cwd: PROJECT, stdio: ['ignore', 'ignore', 'pipe'] });
    if (result.status !== 0) throw new Error(`patchproof validate exited ${result.status}: ${String(result.stderr).trim()}`);
    const receipt = JSON.parse(readFileSync(join(out, 'receipt.json'), 'utf8'));
    if (receipt.verdict !== 'passed' || receipt.setup?.base?.cached !== expectCached) {
      throw new Error(`${out}/receipt.json: verdict ${receipt.verdict}, setup cached ${receipt.setup?.base?.cached}; expected passed, ${expectCached}`);
    }
  };
  const warmCache = join(work, 'warm-cache');
  let coldRun = 0;
  try {
    log('  filling the warm cache (not timed)');
    validate(warmCache, false);
    const times = await alternate(context.runs, {
      warm: () => validate(warmCache, true),
      cold: () => validate(join(work, `cold-cache-${coldRun++}`), false)
    });
    console.log(`setup-cache: warm ${times.warm.toFixed(2)} s, cold ${times.cold.toFixed(2)} s, ratio ${(times.warm / times.cold).toFixed(2)} (median of ${context.runs})`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// results-flood: the inode flood (fixtures/hostile/inode-flood.diff) against a plain hang
// (fixtures/hostile/busy-loop.diff), both under --timeout 10. Before the results mount capped
// inodes, the flood took about three times its timeout (post-run copying had no limit); now the
// watchdog stops it as output_limit, so its ratio to the plain hang must stay at or below 1.

async function benchResultsFlood(context) {
  const docker = dockerAndImage('results-flood');
  if (docker === null) return;
  const { imageId } = docker;
  const cli = join(PROJECT, 'dist', 'cli', 'index.js');
  const fixture = join(PROJECT, 'fixtures', 'js-duration');
  const work = join(context.dataDir, 'results-flood');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const timeoutSeconds = 10;
  const node = (args) => run(process.execPath, [cli, ...args], { cwd: PROJECT });
  const prepared = {};
  for (const name of ['inode-flood', 'busy-loop']) {
    const dir = join(work, name);
    mkdirSync(dir);
    const proposalPath = join(dir, 'proposal.json');
    const approvalPath = join(dir, 'approval.json');
    node(['propose', '--repo', join(fixture, 'repo'), '--diff', join(PROJECT, 'fixtures', 'hostile', `${name}.diff`), '--out', proposalPath]);
    const proposalHash = JSON.parse(readFileSync(proposalPath, 'utf8')).proposal_hash;
    node(['approve', '--proposal', proposalPath, '--proposal-hash', proposalHash, '--approved-by', 'bench', '--run-id', `bench-${name}`, '--out', approvalPath]);
    prepared[name] = { dir, proposalPath, approvalPath };
  }
  const reasons = {};
  const validate = (name) => () => {
    const { dir, proposalPath, approvalPath } = prepared[name];
    const out = join(dir, `out-${randomBytes(4).toString('hex')}`);
    const result = spawnSync(
      process.execPath,
      [
        cli,
        'validate',
        '--repo',
        join(fixture, 'repo'),
        '--proposal',
        proposalPath,
        '--approval',
        approvalPath,
        '--reproduction',
        join(PROJECT, 'witness-packs', 'js-duration', 'reproduction'),
        '--hidden',
        join(PROJECT, 'witness-packs', 'js-duration', 'hidden'),
        '--adapter',
        'node-test',
        '--runner',
        'docker',
        '--image',
        imageId,
        '--timeout',
        String(timeoutSeconds),
        '--out',
        out
      ],
      { cwd: PROJECT, encoding: 'utf8', timeout: 20 * timeoutSeconds * 1000 }
    );
    if (result.status !== 1) {
      // stderr is null (whatever its type says) when the child did not start; error then says why.
      const why = [result.error?.message, result.stderr].filter((part) => typeof part === 'string').join('; ');
      throw new Error(`validate of ${name} exited ${result.status} (expected 1, failed): ${why.trim()}`);
    }
    reasons[name] = JSON.parse(readFileSync(join(out, 'receipt.json'), 'utf8')).reasons;
  };
  const times = await alternate(Math.max(1, Math.min(context.runs, 3)), { flood: validate('inode-flood'), hang: validate('busy-loop') });
  if (!reasons['inode-flood'].includes('output_limit')) throw new Error(`the flood ended without output_limit: ${JSON.stringify(reasons['inode-flood'])}`);
  console.log(
    `results-flood: flood ${times.flood.toFixed(2)} s (${reasons['inode-flood'].join(',')}), plain hang ${times.hang.toFixed(2)} s (${reasons['busy-loop'].join(',')}), ` +
      `timeout ${timeoutSeconds} s, ratio ${(times.flood / times.hang).toFixed(2)} (median of ${Math.max(1, Math.min(context.runs, 3))})`
  );
}

// ---------------------------------------------------------------------------------------------
// Sections "screen" and "early-exit" (issue 14): whole CLI processes, the same pack, image and
// candidates on both sides, alternated; medians and their ratio.

/** js-duration's pack with `allowed_paths: ['src/**']` (the L0 gate), in `work/pack`, and its digest. */
function screenPack(work, node) {
  const pack = join(work, 'pack');
  run('cp', ['-a', join(PROJECT, 'witness-packs', 'js-duration'), pack]);
  const manifest = JSON.parse(readFileSync(join(pack, 'witness.json'), 'utf8'));
  writeFileSync(join(pack, 'witness.json'), `${JSON.stringify({ ...manifest, allowed_paths: ['src/**'] }, null, 2)}\n`);
  return { pack, digest: String(node(['witness', 'digest', pack])).trim() };
}

/** The ten candidates: eight of the fixture (fix-context a byte-identical copy of the fix, a duplicate), an exact copy of overfit (a duplicate) and a README-only change (stopped at L0). */
function screenCandidates(dir) {
  mkdirSync(dir, { recursive: true });
  const fixture = join(PROJECT, 'fixtures', 'js-duration');
  const from = {
    fix: 'candidates/fix.diff',
    overfit: 'candidates/overfit.diff',
    regressing: 'candidates/regressing.diff',
    'not-fixed': 'candidates/not-fixed.diff',
    'delete-test': 'candidates/delete-test.diff',
    'fix-context': 'screen-candidates/fix-context.diff',
    'fix-string': 'screen-candidates/fix-string.diff',
    'leaks-secret': 'screen-candidates/leaks-secret.diff',
    'overfit-copy': 'candidates/overfit.diff'
  };
  for (const [name, path] of Object.entries(from)) writeFileSync(join(dir, `${name}.diff`), readFileSync(join(fixture, path)));
  const first = readFileSync(join(fixture, 'repo', 'README.md'), 'utf8').split('\n')[0];
  writeFileSync(join(dir, 'readme-only.diff'), `--- a/README.md\n+++ b/README.md\n@@ -1,1 +1,2 @@\n ${first}\n+<!-- bench -->\n`);
  return readdirSync(dir)
    .filter((n) => n.endsWith('.diff'))
    .sort()
    .map((n) => ({ name: n.slice(0, -'.diff'.length), diff: join(dir, n) }));
}

/** Propose and approve one candidate (not timed); returns the files and the proposal_hash. */
function proposeApproved(node, repo, diff, work, name) {
  const proposal = join(work, `${name}.proposal.json`);
  const approval = join(work, `${name}.approval.json`);
  node(['propose', '--repo', repo, '--diff', diff, '--out', proposal]);
  const hash = JSON.parse(readFileSync(proposal, 'utf8')).proposal_hash;
  node(['approve', '--proposal', proposal, '--proposal-hash', hash, '--approved-by', 'bench', '--run-id', `bench-${name}`, '--out', approval]);
  return { proposal, approval, hash };
}

/** A CLI process whose exit code is one of `allowed`; returns it. */
/** Run the CLI and return its stderr and stdout (the log), failing on an exit outside `allowed`. */
function cliOutput(cli, args, allowed) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: PROJECT, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30, encoding: 'utf8' });
  if (!allowed.includes(result.status)) throw new Error(`patchproof ${args[0]} exited ${result.status}: ${result.stderr.trim().split('\n').slice(-5).join(' | ')}`);
  return `${result.stderr}\n${result.stdout}`;
}

function cliStatus(cli, args, allowed) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: PROJECT, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30 });
  if (!allowed.includes(result.status)) throw new Error(`patchproof ${args[0]} exited ${result.status}: ${String(result.stderr).trim().split('\n').slice(-5).join(' | ')}`);
  return result.status;
}

/** Container runs recorded in a receipt (every phase's runs, each counted once). */
function runCount(receipt) {
  const seen = new Set();
  for (const phase of receipt.phases) for (const r of phase.runs ?? []) seen.add(`${r.label}-${r.attempt}`);
  return seen.size;
}

async function benchScreen(context) {
  const docker = dockerAndImage('screen');
  if (docker === null) return;
  const cli = BENCH_CLI;
  const work = join(context.dataDir, 'screen');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const node = (args) => run(process.execPath, [cli, ...args], { cwd: PROJECT });
  const repo = join(PROJECT, 'fixtures', 'js-duration', 'repo');
  try {
    const { pack, digest } = screenPack(work, node);
    const candidates = screenCandidates(join(work, 'candidates'));
    log(`  proposing and approving ${candidates.length} candidates (not timed)`);
    const approved = candidates.map((c) => ({ ...c, ...proposeApproved(node, repo, c.diff, work, c.name) }));
    const common = ['--repo', repo, '--witness', pack, '--witness-digest', digest, '--runner', 'docker', '--image', docker.imageId];
    let round = 0;
    let last = { screen: '', validate: '' };
    const screen = () => {
      const out = join(work, `screen-${round}`);
      last.screen = out;
      // 0: a candidate passed. The fixture's fix must.
      cliStatus(
        cli,
        ['screen', ...common, '--candidates', join(work, 'candidates'), ...approved.flatMap((c) => ['--approve', c.hash]), '--approved-by', 'bench', '--out', out],
        [0]
      );
    };
    const validates = () => {
      const out = join(work, `validate-${round++}`);
      last.validate = out;
      // 0 passed, 1 failed, 2 refused (validate refuses some candidates at its diff policy).
      for (const c of approved) cliStatus(cli, ['validate', ...common, '--proposal', c.proposal, '--approval', c.approval, '--out', join(out, c.name)], [0, 1, 2]);
    };
    const times = await alternate(context.runs, { screen, validates });
    const screening = JSON.parse(readFileSync(join(last.screen, 'screening.json'), 'utf8'));
    const receipt = (dir, name) => (existsSync(join(dir, name, 'receipt.json')) ? JSON.parse(readFileSync(join(dir, name, 'receipt.json'), 'utf8')) : null);
    const duplicates = screening.candidates.filter((c) => c.duplicate_of !== undefined).map((c) => `${c.name} of ${c.duplicate_of}`);
    const screenReceipts = approved.map((c) => receipt(join(last.screen, 'candidates'), c.name));
    const validateReceipts = approved.map((c) => receipt(last.validate, c.name));
    const stopped = screenReceipts.filter((r) => r.phases.some((p) => p.status === 'not_run')).length;
    const ownRuns = screenReceipts.reduce(
      (n, r, i) => n + (screening.candidates[i]?.duplicate_of === undefined ? runCount(r) - runCount({ phases: r.phases.filter((p) => p.name === 'reproduction_before') }) : 0),
      0
    );
    console.log(`screen: verdicts ${approved.map((c, i) => `${c.name} ${screenReceipts[i]?.verdict}/${validateReceipts[i]?.verdict ?? 'refused'}`).join(', ')} (screen/validate)`);
    console.log(
      `screen: duplicates ${duplicates.join(', ') || 'none'}; ${stopped} stopped early; candidate-side runs made by screen about ${ownRuns}, runs in the 10 validate receipts ${validateReceipts.reduce((n, r) => n + (r === null ? 0 : runCount(r)), 0)}`
    );
    console.log(
      `screen: 10 candidates: screen ${times.screen.toFixed(2)} s, 10 validate ${times.validates.toFixed(2)} s, ratio ${(times.screen / times.validates).toFixed(2)} (median of ${context.runs}, whole CLI processes; aim <= 0.6)`
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * js-duration's repository with `count` more suite files beside its own three: each imports the
 * module under test and checks a few dozen values, so a suite run costs what a small project's does.
 */
function repoWithLargerSuite(dir, count) {
  run('cp', ['-a', join(PROJECT, 'fixtures', 'js-duration', 'repo'), dir]);
  for (let i = 1; i <= count; i++) {
    const cases = Array.from({ length: 5 }, (_, j) => {
      const ms = (i * 7 + j) * 3_600_000;
      return `test('formats ${ms} ms in whole hours (${j})', () => {\n  assert.equal(formatDuration(${ms}), '${formatHours(ms)}');\n});\n`;
    });
    writeFileSync(
      join(dir, 'test', `extra-${String(i).padStart(2, '0')}.test.js`),
      `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { formatDuration } from '../src/format.js';\n\n${cases.join('\n')}`
    );
  }
  return dir;
}

/** formatDuration's answer for a whole number of hours (largest unit first, zero parts left out). */
function formatHours(ms) {
  const hours = ms / 3_600_000;
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  return `${days > 0 ? `${days}d` : ''}${rest > 0 ? `${rest}h` : ''}` || '0ms';
}

async function benchEarlyExit(context) {
  const docker = dockerAndImage('early-exit');
  if (docker === null) return;
  const work = join(context.dataDir, 'early-exit');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    await earlyExitOn(context, docker, join(work, 'shipped'), join(PROJECT, 'fixtures', 'js-duration', 'repo'), 'js-duration as shipped (3 suite files)', true);
    await earlyExitOn(context, docker, join(work, 'larger'), repoWithLargerSuite(join(work, 'larger-repo'), 30), 'js-duration with 30 more suite files (33)', false);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function earlyExitOn(context, docker, work, repo, label, withCache) {
  const cli = BENCH_CLI;
  mkdirSync(work, { recursive: true });
  const node = (args) => run(process.execPath, [cli, ...args], { cwd: PROJECT });
  const { pack, digest } = screenPack(work, node);
  const c = proposeApproved(node, repo, join(PROJECT, 'fixtures', 'js-duration', 'candidates', 'not-fixed.diff'), work, 'not-fixed');
  const args = [
    'validate',
    '--repo',
    repo,
    '--proposal',
    c.proposal,
    '--approval',
    c.approval,
    '--witness',
    pack,
    '--witness-digest',
    digest,
    '--runner',
    'docker',
    '--image',
    docker.imageId
  ];
  let round = 0;
  const validate = (extra, check) => () => {
    const out = join(work, `out-${round++}`);
    cliStatus(cli, [...args, '--out', out, ...extra], [1]);
    const receipt = JSON.parse(readFileSync(join(out, 'receipt.json'), 'utf8'));
    check(receipt, out);
  };
  const stoppedEarly = (receipt, out) => {
    const notRun = receipt.phases.filter((p) => p.status === 'not_run').map((p) => p.name);
    if (notRun.join(',') !== 'regression,hidden') throw new Error(`${out}: early exit left not_run ${notRun.join(',') || 'nothing'}; expected regression,hidden`);
  };
  const contenders = {
    early: validate(['--early-exit'], stoppedEarly),
    full: validate([], (receipt, out) => {
      if (receipt.phases.some((p) => p.status === 'not_run')) throw new Error(`${out}: a full validation left a phase not run`);
    })
  };
  // The baseline cache, when this CLI has it: filled once (not timed), then every early exit reuses it.
  const cache = join(work, 'baseline-cache');
  const hasCache = withCache && readFileSync(cli, 'utf8').includes('--baseline-cache');
  if (hasCache) {
    mkdirSync(cache, { mode: 0o700 });
    cliStatus(cli, [...args, '--out', join(work, 'fill'), '--early-exit', '--baseline-cache', cache], [1]);
    contenders.cached = validate(['--early-exit', '--baseline-cache', cache], (receipt, out) => {
      stoppedEarly(receipt, out);
      if (receipt.baseline?.cache === undefined) throw new Error(`${out}: the warm baseline cache was not reused`);
    });
  }
  const times = await alternate(context.runs, contenders);
  console.log(
    `early-exit: ${label}: not-fixed: --early-exit ${times.early.toFixed(2)} s, full ${times.full.toFixed(2)} s, ratio ${(times.early / times.full).toFixed(2)} (median of ${context.runs}, whole CLI processes; aim <= 0.5)`
  );
  if (hasCache) {
    console.log(
      `early-exit: ${label}: not-fixed: --early-exit with a warm --baseline-cache ${times.cached.toFixed(2)} s, full ${times.full.toFixed(2)} s, ratio ${(times.cached / times.full).toFixed(2)} (median of ${context.runs})`
    );
  }
}

/**
 * The formal gate's cost: per pack, the fix validated with the pack as it is (one required target:
 * translation, the solver's proof, the spec checks at load) against the same pack without its
 * `formal` block, alternated; and the receipt's own `formal.targets[].duration_ms`, as a share of
 * the validation's wall time.
 */
async function benchFormal(context) {
  const docker = dockerAndImage('formal');
  if (docker === null) return;
  const cli = BENCH_CLI;
  const node = (args) => run(process.execPath, [cli, ...args], { cwd: PROJECT });
  for (const name of ['js-pages', 'py-pages']) {
    const work = join(context.dataDir, `formal-${name}`);
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    try {
      const repo = join(PROJECT, 'fixtures', name, 'repo');
      const withFormal = join(work, 'pack');
      const without = join(work, 'pack-no-formal');
      cpSync(join(PROJECT, 'witness-packs', name), withFormal, { recursive: true });
      cpSync(join(PROJECT, 'witness-packs', name), without, { recursive: true });
      const manifest = JSON.parse(readFileSync(join(without, 'witness.json'), 'utf8'));
      delete manifest.formal;
      writeFileSync(join(without, 'witness.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      const digestOf = (dir) =>
        String(run(process.execPath, [cli, 'witness', 'digest', dir], { cwd: PROJECT }))
          .trim()
          .split(/\s+/)
          .pop();
      const digests = new Map([withFormal, without].map((dir) => [dir, digestOf(dir)]));
      const c = proposeApproved(node, repo, join(PROJECT, 'fixtures', name, 'candidates', 'fix.diff'), work, 'fix');
      let round = 0;
      const formalMs = [];
      const bindingMs = [];
      const waitedMs = [];
      const validate = (pack, expectFormal) => () => {
        const out = join(work, `out-${round++}`);
        const logged = cliOutput(
          cli,
          [
            'validate',
            '--repo',
            repo,
            '--proposal',
            c.proposal,
            '--approval',
            c.approval,
            '--witness',
            pack,
            '--witness-digest',
            digests.get(pack),
            '--runner',
            'docker',
            '--image',
            docker.imageId,
            '--out',
            out
          ],
          [0]
        );
        const receipt = JSON.parse(readFileSync(join(out, 'receipt.json'), 'utf8'));
        if (expectFormal) {
          if (receipt.formal?.status !== 'proved') throw new Error(`${out}: the fix's formal gate is ${receipt.formal?.status ?? 'absent'}; expected proved`);
          formalMs.push(receipt.formal.targets.reduce((sum, t) => sum + t.duration_ms, 0) / receipt.formal.targets.length);
          // The binding check (issue 29): one probe run in the container per proved target.
          if (receipt.formal.targets.some((t) => t.binding?.outcome !== 'bound')) throw new Error(`${out}: a proved target without a bound binding check`);
          bindingMs.push(receipt.formal.targets.reduce((sum, t) => sum + t.binding.duration_ms, 0));
          // It runs alongside the tests: what it adds is how long concluding waited for it.
          const waited = /concluding waited (\d+) ms for them/.exec(logged);
          if (waited === null) throw new Error(`${out}: the log does not say how long concluding waited for the binding check`);
          waitedMs.push(Number(waited[1]));
        } else if (receipt.formal !== undefined) {
          throw new Error(`${out}: a pack without a formal block recorded one`);
        }
      };
      const times = await alternate(context.runs, { formal: validate(withFormal, true), plain: validate(without, false) });
      const perTarget = median(formalMs) / 1000;
      console.log(
        `formal: ${name} fix: with its formal target ${times.formal.toFixed(2)} s, without ${times.plain.toFixed(2)} s, ratio ${(times.formal / times.plain).toFixed(2)}; the target's own time ${perTarget.toFixed(2)} s per target, ${((100 * perTarget) / times.formal).toFixed(0)}% of the validation (medians of ${context.runs}, whole CLI processes)`
      );
      // The formal phase's cost is what the formal block adds to the validation; the binding check is part of it.
      const binding = median(bindingMs) / 1000;
      const waited = median(waitedMs) / 1000;
      const phase = times.formal - times.plain;
      console.log(
        `formal: ${name} fix: the binding check took ${binding.toFixed(2)} s (copy, probe and container run, from the receipt), alongside the tests; the validation waited ${waited.toFixed(2)} s for it, ${phase > 0 ? `${((100 * waited) / phase).toFixed(0)}% of the formal phase (${phase.toFixed(2)} s: with minus without)` : 'and the formal phase added no measurable time'} (medians of ${context.runs})`
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
}
