import { lstat, readdir } from 'node:fs/promises';
import { registryEntry, type AdapterName } from '../../adapters/registry.js';
import type { Digest } from '../../core/hashing.js';
import { ConfigurationError } from '../../errors.js';
import { writeWitnessEntries } from './archive.js';
import { digestWitnessEntries } from './digest.js';
import type { PackLimits, WitnessEntry } from './entries.js';
import { readWitnessFolder } from './folder.js';
import { JUNIT_PLACEHOLDER_MARK, parseWitnessManifest, WITNESS_DEFAULTS, WITNESS_MANIFEST_FILE, WITNESS_SCHEMA } from './manifest.js';
import { discoverTestIds } from '../../inventory/test-ids.js';

/** What a new pack starts from. */
export interface InitWitnessOptions {
  adapter: AdapterName;
  /** A folder of reproduction tests to copy into the pack; absent: an empty folder with a README. */
  reproduction?: string;
  /** A folder of hidden tests to copy into the pack; absent: an empty folder with a README. */
  hidden?: string;
  limits?: Partial<PackLimits>;
}

/** How a test file is named and what it imports, per adapter, for the READMEs of a new pack. */
const TEST_HINTS: Partial<Record<AdapterName, string>> = {
  'node-test':
    'Test files are `*.test.js` (or `.mjs`, `.cjs`) using `node:test`. They are staged at the placement, so a test at `.patchproof/reproduction/x.test.js` imports the code under test as `../../src/x.js`.',
  unittest: 'Test files are `test*.py` using `unittest`. They are staged at the placement and run from the repository root, so they import the code under test by its module name.',
  junit:
    'Test files are whatever `junit.tests` in `witness.json` matches (relative to this folder), run by `junit.argv` with the canary tests of `canary/`; see `canary/README.md`.'
};

const P = JUNIT_PLACEHOLDER_MARK;

/**
 * The junit block `witness init --adapter junit` writes: the generic adapter cannot guess the test
 * command, so its fields are placeholders (refused until replaced) that show the expected form;
 * `canary/README.md` explains each one. `report` is a real default, the file the example writes.
 */
const JUNIT_SCAFFOLD = {
  argv: [
    `${P} the test program, e.g. node>`,
    `${P} its arguments, one element each, writing JUnit XML into {results}, e.g. --test, --test-reporter=junit, --test-reporter-destination={results}/junit.xml>`,
    '{files}'
  ],
  report: 'junit.xml',
  tests: [`${P} a glob of the test files, e.g. **/*.test.js>`],
  canary: {
    path: 'canary',
    pass: `${P} the result id of canary/'s must-pass test, e.g. q7 > test.a41c>`,
    fail: `${P} the result id of canary/'s must-fail test, e.g. q7 > test.b7d2>`
  }
};

/** A block that parses, standing in for the placeholders when the new manifest is checked. */
const JUNIT_EXAMPLE = {
  argv: ['node', '--test', '--test-reporter=junit', '--test-reporter-destination={results}/junit.xml', '{files}'],
  report: 'junit.xml',
  tests: ['**/*.test.js'],
  canary: { path: 'canary', pass: 'q7 > test.a41c', fail: 'q7 > test.b7d2' }
};

const JUNIT_CANARY_README = `# canary (the junit adapter's grader canaries)

The generic \`junit\` adapter runs any test command that writes JUnit XML, so it cannot write canary
tests itself: put here one test that must pass and one that must fail (an assertion that cannot
hold), in the pack's own framework. This folder is staged at \`.patchproof/harness/canary/\` in
every copy and its test files run with every test run, last. Import the code under test in them,
so code that makes every assertion pass also turns the must-fail test green (\`grader_compromised\`).
Pick names that give nothing away; the ids are fixed by the pack.

Then replace every \`${P} …>\` placeholder in \`witness.json\`'s \`junit\` block (a pack that still
holds one is refused):

- \`argv\`: the test command, run from the copy's root with no shell (\`["sh", "-c", "…", "sh", "{files}"]\`
  for one). \`{results}\` is the only folder it may write results to, \`{workdir}\` the copy's root;
  \`{files}\` stays an element of its own and becomes the test files, canaries last.
- \`report\`: a glob of the JUnit XML files, relative to \`{results}\`.
- \`tests\`: globs of the test files: the repository's suite, and the reproduction and hidden tests.
- \`canary.pass\`, \`canary.fail\`: the result ids of the two tests here, as a first run reports
  them (\`inventory.test_ids\` in its receipt). node 20's reporter names a test \`b\` in
  \`describe('a')\` \`a > test.b\`.

An example for \`node --test\`, as in the repository's \`witness-packs/junit-semver\`:

\`\`\`js
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as subject from '../../../src/your-module.js';

describe('q7', () => {
  test('a41c', () => { assert.equal(typeof subject, 'object'); });
  test('b7d2', () => { assert.equal(1, 2); });
});
\`\`\`

See docs/witness-pack.md, "The junit adapter". Replace this README with the canary tests (or keep it).
`;

/**
 * Create a pack in `dir` (created; refused when it exists and is not empty): `witness.json` with
 * every default written out, and `reproduction/` and `hidden/` copied from the given folders (the
 * files `takeSnapshot` lists there; symbolic links are refused) or holding a README that says what
 * goes there. The given folders are read as they are on disk, tracked by git or not. Returns the
 * pack digest of what was written. Inside a git work tree only tracked files count towards a pack
 * folder's digest later (`witness digest`, `--witness DIR`): `git add` the pack before resolving it.
 */
export async function initWitness(dir: string, options: InitWitnessOptions): Promise<Digest> {
  return (await initWitnessPack(dir, options)).digest;
}

/** What `witness init` made: the digest, the ids it pinned, and how to pin those it could not. */
export interface InitWitnessResult {
  digest: Digest;
  /** Ids written to `reproduction.ids` / `hidden.ids` (src/inventory/test-ids.ts: only when certain). */
  pinned: { reproduction?: string[]; hidden?: string[] };
  /** One line per test set given but not pinned: why, and exactly how to pin its ids by hand. */
  notes: string[];
}

/** initWitness, reporting the pinned ids it discovered and how to add the others. */
export async function initWitnessPack(dir: string, options: InitWitnessOptions): Promise<InitWitnessResult> {
  const sets = {
    reproduction: options.reproduction !== undefined ? await testFiles('reproduction', options.reproduction, options) : undefined,
    hidden: options.hidden !== undefined ? await testFiles('hidden', options.hidden, options) : undefined
  };
  const pinned: InitWitnessResult['pinned'] = {};
  const notes: string[] = [];
  for (const set of ['reproduction', 'hidden'] as const) {
    const files = sets[set];
    if (files === undefined) continue;
    const placement = WITNESS_DEFAULTS[set].placement;
    const found = discoverTestIds(
      options.adapter,
      placement,
      files.map((f) => ({ path: f.path, text: Buffer.from(f.data).toString('utf8') }))
    );
    if ('ids' in found) pinned[set] = found.ids;
    else notes.push(howToPin(set, options.adapter, found.reason));
  }
  const manifest = {
    schema: WITNESS_SCHEMA,
    adapter: options.adapter,
    reproduction: { ...WITNESS_DEFAULTS.reproduction, ...(pinned.reproduction ? { ids: pinned.reproduction } : {}) },
    hidden: { ...WITNESS_DEFAULTS.hidden, ...(pinned.hidden ? { ids: pinned.hidden } : {}) },
    regression: { exclude: [], retries: WITNESS_DEFAULTS.regression.retries },
    protected: [],
    allow: { test_edits: false, test_removal: false, skips: false, config_edits: false, dependency_changes: false, workflow_edits: false },
    limits: { ...WITNESS_DEFAULTS.limits },
    ...(options.adapter === 'junit' ? { junit: JUNIT_SCAFFOLD } : {})
  };
  // Fails early on an adapter name the schema does not know (the junit placeholders are refused on purpose).
  parseWitnessManifest(options.adapter === 'junit' ? { ...manifest, junit: JUNIT_EXAMPLE } : manifest, 'the new witness.json');
  await checkFresh(dir);
  const entries: WitnessEntry[] = [{ path: WITNESS_MANIFEST_FILE, mode: '100644', data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) }];
  if (options.adapter === 'junit') entries.push({ path: `${JUNIT_SCAFFOLD.canary.path}/README.md`, mode: '100644', data: Buffer.from(JUNIT_CANARY_README) });
  entries.push(...testSet('reproduction', manifest.reproduction.path, sets.reproduction, options));
  entries.push(...testSet('hidden', manifest.hidden.path, sets.hidden, options));
  await writeWitnessEntries(entries, dir);
  return { digest: digestWitnessEntries(entries), pinned, notes };
}

/** The exact steps to pin a set's ids when they could not be discovered. */
function howToPin(set: 'reproduction' | 'hidden', adapter: AdapterName, reason: string): string {
  const source =
    set === 'reproduction'
      ? "run `patchproof validate` once with the reference fix and copy the receipt's `inventory.test_ids.reproduction_before` (the reproduction's real ids) into"
      : 'run `patchproof validate` once with the reference fix and a witness key (`--witness-key-file`), decrypt `hidden-detail.age` with `patchproof hidden-detail` and copy its `test_ids` into';
  return `${set}.ids not pinned (${reason}): ${source} \`${set}.ids\` in witness.json, then take the new digest with \`patchproof witness digest\` (${adapter} ids look like ${registryEntry(adapter).idShape})`;
}

async function checkFresh(dir: string): Promise<void> {
  let isFolder: boolean;
  try {
    isFolder = (await lstat(dir)).isDirectory();
  } catch {
    return;
  }
  if (!isFolder || (await readdir(dir)).length > 0) {
    throw new ConfigurationError(`'${dir}' already exists and is not an empty folder; give a new folder for the witness pack`);
  }
}

async function testFiles(set: 'reproduction' | 'hidden', from: string, options: InitWitnessOptions): Promise<WitnessEntry[]> {
  // Read as it is on disk: a folder of tests given on the command line is often untracked or
  // ignored inside some git work tree, where a tracked-files listing would find it empty.
  const files = await readWitnessFolder(from, options.limits, { onDisk: true });
  if (files.length === 0) {
    throw new ConfigurationError(`the ${set} folder '${from}' holds no files on disk (a .git folder inside does not count); give a folder of ${set} tests`);
  }
  return files;
}

function testSet(set: 'reproduction' | 'hidden', folder: string, files: WitnessEntry[] | undefined, options: InitWitnessOptions): WitnessEntry[] {
  if (files === undefined) {
    return [{ path: `${folder}/README.md`, mode: '100644', data: Buffer.from(readme(set, options.adapter)) }];
  }
  return files.map((file) => ({ ...file, path: `${folder}/${file.path}` }));
}

function readme(set: 'reproduction' | 'hidden', adapter: AdapterName): string {
  const what =
    set === 'reproduction'
      ? 'Reproduction tests: they show the bug. Each must fail on the unpatched repository for the right reason (an assertion, or an exception raised in the code under test) and pass once the patch is applied. List the ids that must fail under `reproduction.expected_failing` in `witness.json`, or leave it out to require all of them.'
      : 'Hidden tests: they check the fix is general, not fitted to the reproduction. The candidate never sees them; each must pass once the patch is applied.';
  const placement = WITNESS_DEFAULTS[set].placement;
  const hint = TEST_HINTS[adapter] ?? `Test files are whatever the ${adapter} adapter runs.`;
  return `# ${set}\n\n${what}\n\nThe files here are staged at \`${placement}/\` in each disposable copy of the repository (\`${set}.placement\` in \`witness.json\`). ${hint}\n\nReplace this README with the tests. Every file of the pack is covered by its digest: after any change, take the new digest.\n`;
}
