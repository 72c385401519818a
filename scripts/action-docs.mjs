#!/usr/bin/env node
// Generate the inputs/outputs tables of action.yml into README.md, between the markers
// <!-- action-docs:start --> and <!-- action-docs:end -->, so the README cannot drift from the action.
//   node scripts/action-docs.mjs           rewrite the README's tables
//   node scripts/action-docs.mjs --check   exit 1 when the README's tables are stale (CI)
//   --action FILE / --readme FILE          other files (tests)
// action.yml is parsed with `yaml` (a maintained YAML 1.2 parser): descriptions use quoting and
// folded scalars that a hand-written reader would get wrong.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const START = '<!-- action-docs:start -->';
const END = '<!-- action-docs:end -->';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function option(args, name, fallback) {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const value = args[at + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a file path`);
  return value;
}

/** One Markdown table cell: a single line, pipes escaped, `<` escaped (`<digest>` would be read as an HTML tag and vanish). */
function cell(text) {
  return String(text ?? '')
    .replace(/\s*\n\s*/g, ' ')
    .trim()
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;');
}

/** A default value as code, or nothing. Backticks inside would end the code span early. */
function code(value) {
  if (value === undefined || value === null || value === '') return '';
  // Inside a code span `<` is literal: escape only the pipe.
  const text = String(value)
    .replace(/\s*\n\s*/g, ' ')
    .trim()
    .replace(/\|/g, '\\|');
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

/** The generated block (without the markers) for a parsed action.yml. */
export function renderTables(action) {
  if (action === null || typeof action !== 'object') throw new Error('action.yml is not a mapping');
  const inputs = Object.entries(action.inputs ?? {});
  const outputs = Object.entries(action.outputs ?? {});
  const lines = [
    '<!-- Generated from action.yml by scripts/action-docs.mjs: edit action.yml, then run it. -->',
    '',
    '| input | required | default | description |',
    '| --- | --- | --- | --- |',
    ...inputs.map(([name, spec]) => `| \`${name}\` | ${spec?.required === true ? 'yes' : 'no'} | ${code(spec?.default)} | ${cell(spec?.description)} |`),
    '',
    '| output | description |',
    '| --- | --- |',
    ...outputs.map(([name, spec]) => `| \`${name}\` | ${cell(spec?.description)} |`)
  ];
  return lines.join('\n');
}

/** The README with the block between the markers replaced. Throws when the markers are missing. */
export function updateReadme(readme, block) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`the README has no ${START} ... ${END} markers; add them where the tables go`);
  }
  return `${readme.slice(0, start + START.length)}\n${block}\n${readme.slice(end)}`;
}

function main(args) {
  const actionPath = option(args, '--action', join(root, 'action.yml'));
  const readmePath = option(args, '--readme', join(root, 'README.md'));
  const check = args.includes('--check');
  const block = renderTables(parse(readFileSync(actionPath, 'utf8')));
  const readme = readFileSync(readmePath, 'utf8');
  const updated = updateReadme(readme, block);
  if (check) {
    if (updated !== readme) {
      console.error(`${readmePath}: the action's inputs/outputs tables are stale; run: node scripts/action-docs.mjs`);
      return 1;
    }
    console.log(`${readmePath}: the action's tables are up to date`);
    return 0;
  }
  if (updated !== readme) writeFileSync(readmePath, updated);
  console.log(`${readmePath}: ${updated === readme ? 'already up to date' : 'tables updated'}`);
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    console.error(`action-docs: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  }
}
