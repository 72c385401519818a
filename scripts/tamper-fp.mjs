#!/usr/bin/env node
/**
 * The tamper screen's false-positive measure on real history (issue 26): the last N commits of
 * upstream repositories, each screened as if it were a candidate patch (its changed non-test files
 * against their parent's text), and a table of how many would be flagged, by which rule.
 *
 *   node scripts/tamper-fp.mjs [--commits 200] [--out FILE.md] GIT_DIR[=NAME]...
 *
 * GIT_DIR is a clone (or a bare git directory) of the project; nothing of it is copied anywhere.
 * The screen is compiled from src/ with the project's own TypeScript into .tmp/tamper-fp/ (the
 * bundles do not export it). Test files are told apart by path, as the adapters' default suite
 * patterns do (a `test`/`tests`/`__tests__`/`spec` folder, `test_*.py`, `*_test.py`, `*_test.go`,
 * `*.test.*`, `*.spec.*`, `conftest.py`): they are reset to the base in a validation, never screened.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  /** @type {{ commits: number, repos: { dir: string, name: string }[], file: string | undefined }} */
  const out = { commits: 200, repos: [], file: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--commits') out.commits = Number(argv[++i]);
    else if (arg === '--out') out.file = argv[++i];
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}; usage: tamper-fp.mjs [--commits N] [--out FILE] GIT_DIR[=NAME]...`);
    else {
      const [dir, name] = arg.split('=');
      out.repos.push({ dir, name: name ?? basename(dir.replace(/\/(repo|\.git)\/?$/, '')) });
    }
  }
  if (out.repos.length === 0 || !Number.isInteger(out.commits) || out.commits < 1) {
    throw new Error('usage: tamper-fp.mjs [--commits N] [--out FILE] GIT_DIR[=NAME]...');
  }
  return out;
}

const TEST_PATH = [/(^|\/)(tests?|__tests__|spec|testing|testdata)\//, /(^|\/)test_[^/]*\.py$/, /_test\.(py|go)$/, /\.(test|spec)\.[cm]?[jt]sx?$/, /(^|\/)conftest\.py$/];
const isTest = (path) => TEST_PATH.some((re) => re.test(path));

function git(dir, args) {
  return execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 });
}

function compile() {
  const out = join(ROOT, '.tmp', 'tamper-fp');
  const tsc = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.json'), '--noEmit', 'false', '--outDir', out, '--rootDir', ROOT, '--declaration', 'false'],
    {
      encoding: 'utf8'
    }
  );
  if (tsc.status !== 0) throw new Error(`tsc failed:\n${tsc.stdout}${tsc.stderr}`);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'package.json'), '{"type":"module"}\n');
  return join(out, 'src', 'tamper', 'index.js');
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const { screenChanges, languageOf } = await import(pathToFileURL(compile()).href);
  const rows = [];
  const details = [];
  for (const repo of args.repos) {
    const dir = git(repo.dir, ['rev-parse', '--git-dir']).toString().trim();
    const gitDir = dir.startsWith('/') ? dir : join(repo.dir, dir);
    const commits = git(gitDir, ['rev-list', '--first-parent', '--no-merges', `--max-count=${args.commits}`, 'HEAD'])
      .toString()
      .trim()
      .split('\n');
    const byRule = new Map();
    let flagged = 0;
    let screenedCommits = 0;
    let files = 0;
    for (const commit of commits) {
      const parents = git(gitDir, ['rev-list', '--parents', '-n', '1', commit]).toString().trim().split(' ').slice(1);
      if (parents.length !== 1) continue;
      const changed = git(gitDir, ['diff-tree', '--no-commit-id', '-r', '-z', '--no-renames', '--name-status', parents[0], commit]).toString().split('\0').filter(Boolean);
      const entries = [];
      for (let i = 0; i + 1 < changed.length; i += 2) {
        const [status, path] = [changed[i], changed[i + 1]];
        if (isTest(path) || languageOf(path) === undefined) continue;
        const read = (rev) => {
          try {
            return git(gitDir, ['show', `${rev}:${path}`]).toString('utf8');
          } catch {
            return null;
          }
        };
        entries.push({ path, base: status === 'A' ? null : read(parents[0]), patched: status === 'D' ? null : read(commit) });
      }
      if (entries.length === 0) continue;
      screenedCommits += 1;
      files += entries.length;
      const screen = await screenChanges(entries, []);
      if (screen.findings.length === 0) continue;
      flagged += 1;
      const rules = new Set(screen.findings.map((f) => f.rule));
      for (const rule of rules) byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
      const subject = git(gitDir, ['log', '-1', '--format=%s', commit]).toString().trim();
      details.push(`- ${repo.name} \`${commit.slice(0, 10)}\` ${subject.replace(/[`|]/g, "'").slice(0, 80)}`);
      for (const f of screen.findings.slice(0, 5)) details.push(`  - \`${f.rule}\` ${f.path}:${f.line} \`${f.text.replace(/`/g, "'").slice(0, 100)}\``);
      if (screen.findings.length > 5) details.push(`  - and ${screen.findings.length - 5} more`);
    }
    const rules =
      [...byRule]
        .sort((a, b) => b[1] - a[1])
        .map(([rule, n]) => `${rule} ${n}`)
        .join(', ') || '—';
    rows.push(`| ${repo.name} | ${commits.length} | ${screenedCommits} (${files} files) | ${flagged} | ${rules} |`);
  }
  const table = [
    '| project | commits read | commits with screened changes | flagged | commits per rule |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    'Flagged commits (first five findings each):',
    '',
    ...details
  ].join('\n');
  if (args.file !== undefined) writeFileSync(args.file, `${table}\n`);
  process.stdout.write(`${table}\n`);
}

main().catch((/** @type {unknown} */ error) => {
  process.stderr.write(`tamper-fp: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
