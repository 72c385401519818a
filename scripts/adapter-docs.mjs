#!/usr/bin/env node
// Generates the README's adapter table from the adapters' own READMEs (src/adapters/<name>/README.md,
// the `**Suite:**`, `**Structured results:**` and `**Versions:**` paragraphs), between the
// adapter-docs markers. `--check` exits 1 when the table is stale (a step of .ci/run, and a test).
//   node scripts/adapter-docs.mjs [--check] [--adapters DIR] [--readme FILE]
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const START = '<!-- adapter-docs:start -->';
export const END = '<!-- adapter-docs:end -->';
const FIELDS = [
  ['Suite', 'suite (regression)'],
  ['Structured results', 'structured results'],
  ['Versions', 'versions']
];

function option(args, name, fallback) {
  const index = args.indexOf(name);
  return index >= 0 && args[index + 1] !== undefined ? args[index + 1] : fallback;
}

/** One paragraph `**Label:** text` of an adapter README, on one line; an error names what is missing. */
export function field(text, label, where) {
  const match = text.match(new RegExp(`^\\*\\*${label}:\\*\\*\\s+([\\s\\S]*?)(?:\\n\\s*\\n|$)`, 'm'));
  if (match === null) throw new Error(`${where} has no "**${label}:**" paragraph`);
  return match[1]
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

/** The adapter folders (every folder but shared/), sorted. */
export function adapterFolders(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'shared')
    .map((entry) => entry.name)
    .sort();
}

/** The table, from the READMEs under `adaptersDir`; links are relative to the README at `readmePath`. */
export function renderTable(adaptersDir, readmePath) {
  const lines = [
    '<!-- Generated from src/adapters/<name>/README.md by scripts/adapter-docs.mjs: edit those, then run it. -->',
    `| adapter | ${FIELDS.map(([, heading]) => heading).join(' | ')} |`,
    `| --- | ${FIELDS.map(() => '---').join(' | ')} |`
  ];
  for (const name of adapterFolders(adaptersDir)) {
    const path = join(adaptersDir, name, 'README.md');
    if (!existsSync(path)) throw new Error(`${relative(root, path)} is missing: every adapter folder has a README.md`);
    const text = readFileSync(path, 'utf8');
    const link = relative(dirname(readmePath), path).split('\\').join('/');
    lines.push(`| [\`${name}\`](${link}) | ${FIELDS.map(([label]) => field(text, label, relative(root, path))).join(' | ')} |`);
  }
  return lines.join('\n');
}

export function updateReadme(readme, block) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start === -1 || end === -1 || end < start) throw new Error(`the README has no ${START} ... ${END} markers; add them where the table goes`);
  return `${readme.slice(0, start + START.length)}\n${block}\n${readme.slice(end)}`;
}

function main(args) {
  const adaptersDir = option(args, '--adapters', join(root, 'src', 'adapters'));
  const readmePath = option(args, '--readme', join(root, 'README.md'));
  const readme = readFileSync(readmePath, 'utf8');
  const updated = updateReadme(readme, renderTable(adaptersDir, readmePath));
  if (args.includes('--check')) {
    if (updated !== readme) {
      console.error(`${readmePath}: the adapter table is stale; run: node scripts/adapter-docs.mjs`);
      return 1;
    }
    console.log(`${readmePath}: the adapter table is up to date`);
    return 0;
  }
  if (updated !== readme) writeFileSync(readmePath, updated);
  console.log(`${readmePath}: ${updated === readme ? 'already up to date' : 'adapter table updated'}`);
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    console.error(`adapter-docs: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  }
}
