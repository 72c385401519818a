import { cpSync, existsSync, readdirSync } from 'node:fs';
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  REFUSAL_LINE,
  ensureCli,
  fixture,
  patchproofLeftovers,
  proposeAndApprove,
  readJson,
  runCli,
  tempDir,
  treeListing,
  validateArgs,
  type Approved,
  type CliResult
} from '../helpers/cli.js';

/**
 * End to end: every refusal of the bundled CLI exits 2 with exactly one line on stderr naming the
 * refusal code, prints nothing on stdout and writes nothing to --out. The cases are independent (each
 * has its own folders), so they run concurrently within each block.
 */

const js = fixture('js-duration');

let work: string;
let tmp: string;
let fixtureBefore: string[] | null;
/** The fix candidate, proposed and approved against the real fixture repository. */
let fix: Approved;
/** The overfit candidate, proposed and approved against the same repository. */
let overfit: Approved;
let caseNumber = 0;

beforeAll(async () => {
  await ensureCli();
  work = await tempDir('refusals');
  tmp = await tempDir('cli-tmpdir');
  fixtureBefore = treeListing(js.dir);
  await Promise.all([mkdir(join(work, 'fix')), mkdir(join(work, 'overfit'))]);
  [fix, overfit] = await Promise.all([
    proposeAndApprove(js.repo, js.candidate('fix'), join(work, 'fix'), tmp, 'e2e-refusal-fix'),
    proposeAndApprove(js.repo, js.candidate('overfit'), join(work, 'overfit'), tmp, 'e2e-refusal-overfit')
  ]);
}, 300_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** Exit 2, nothing on stdout, one refusal line on stderr with this code. */
function expectRefusal(result: CliResult, code: string, message?: RegExp): void {
  expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 2, stdout: '' });
  const lines = result.stderr.split('\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toBe('');
  const line = lines[0] as string;
  expect(line).toMatch(REFUSAL_LINE);
  expect(REFUSAL_LINE.exec(line)?.[1]).toBe(code);
  if (message) expect(line).toMatch(message);
}

/** A fresh folder for one test. */
async function caseDir(): Promise<string> {
  caseNumber += 1;
  const dir = join(work, `case-${caseNumber}`);
  await mkdir(dir);
  return dir;
}

/** A copy of the fixture repository in a temp folder (outside any git work tree). */
async function repoCopy(): Promise<string> {
  const dir = join(await caseDir(), 'repo');
  cpSync(js.repo, dir, { recursive: true });
  return dir;
}

interface RefusedRun {
  repo?: string;
  reproduction?: string;
  hidden?: string;
  adapter?: string;
  /** The stderr line must match this too. */
  message?: RegExp;
  /** An --out folder that already exists: it must be left exactly as it was. */
  existingOut?: boolean;
}

/**
 * Validate (by default on the real js-duration fixture) and expect a refusal with `code`; --out must
 * not exist afterwards, or be byte-identical when it existed before.
 */
async function validateRefused(approved: Approved, code: string, options: RefusedRun = {}): Promise<void> {
  const out = join(await caseDir(), 'out');
  if (options.existingOut) {
    await mkdir(out);
    await writeFile(join(out, 'keep.txt'), 'an earlier file\n');
  }
  const before = treeListing(out);
  const result = await runCli(
    validateArgs({
      repo: options.repo ?? js.repo,
      approved,
      reproduction: options.reproduction ?? js.reproduction,
      hidden: options.hidden ?? js.hidden,
      adapter: options.adapter ?? 'node-test',
      out
    }),
    { tmp }
  );
  expectRefusal(result, code, options.message);
  expect(treeListing(out)).toEqual(before);
  if (!options.existingOut) expect(existsSync(out)).toBe(false);
}

describe('validate refuses documents that do not bind', () => {
  it.concurrent('a proposal whose diff was edited after proposing (approval_mismatch)', async () => {
    const proposal = await readJson<Record<string, string>>(fix.proposalPath);
    expect(proposal.diff).toContain('(ms|d|h|m|s)/g');
    const edited = { ...proposal, diff: (proposal.diff as string).replace('(ms|d|h|m|s)/g', '(ms|d|h|m|s|us)/g') };
    const dir = await caseDir();
    const editedPath = join(dir, 'proposal.json');
    await writeFile(editedPath, `${JSON.stringify(edited, null, 2)}\n`);
    await validateRefused({ ...fix, proposalPath: editedPath }, 'approval_mismatch', { message: /diff_digest does not match/ });
  });

  it.concurrent('an approval for another proposal (approval_mismatch)', async () => {
    await validateRefused({ ...fix, approvalPath: overfit.approvalPath }, 'approval_mismatch', { message: /approves proposal [0-9a-f]{64}, not [0-9a-f]{64}/, existingOut: true });
  });

  it.concurrent('an approval edited after approving (approval_mismatch)', async () => {
    const approval = await readJson<Record<string, string>>(fix.approvalPath);
    const path = join(await caseDir(), 'approval.json');
    await writeFile(path, `${JSON.stringify({ ...approval, approved_by: 'someone-else' }, null, 2)}\n`);
    await validateRefused({ ...fix, approvalPath: path }, 'approval_mismatch', { message: /approval_digest does not match/ });
  });

  it.concurrent('a repository changed after proposing (snapshot_mismatch), and the copy is left as it was', async () => {
    const repo = await repoCopy();
    const approved = await proposeAndApprove(repo, js.candidate('fix'), await caseDir(), tmp, 'e2e-snapshot');
    await appendFile(join(repo, 'src', 'format.js'), '// edited after proposing\n');
    const listing = treeListing(repo);
    await validateRefused(approved, 'snapshot_mismatch', { repo, message: /is not the proposal's base/ });
    await validateRefused(approved, 'snapshot_mismatch', { repo, existingOut: true });
    expect(treeListing(repo)).toEqual(listing);
  });

  it.concurrent('a repository that gained a file after proposing (snapshot_mismatch)', async () => {
    const repo = await repoCopy();
    const approved = await proposeAndApprove(repo, js.candidate('fix'), await caseDir(), tmp, 'e2e-snapshot-added');
    await writeFile(join(repo, 'src', 'extra.js'), 'export const extra = 1;\n');
    await validateRefused(approved, 'snapshot_mismatch', { repo });
  });
});

describe('approve refuses anything but the exact full hash', () => {
  const approve = async (hash: string): Promise<{ result: CliResult; out: string }> => {
    const out = join(await caseDir(), 'approval.json');
    const result = await runCli(['approve', '--proposal', fix.proposalPath, '--proposal-hash', hash, '--approved-by', 'e2e', '--run-id', 'r1', '--out', out], { tmp });
    return { result, out };
  };

  it.concurrent.each([
    ['an abbreviated hash', 'bad_input', (h: string) => h.slice(0, 12)],
    ['the hash in upper case', 'bad_input', (h: string) => h.toUpperCase()],
    ['the hash with a sha256: prefix', 'bad_input', (h: string) => `sha256:${h}`],
    ['the hash with trailing whitespace', 'bad_input', (h: string) => `${h} `],
    ['a wrong full hash', 'approval_mismatch', (h: string) => `${h.slice(0, -1)}${h.endsWith('0') ? '1' : '0'}`],
    ["another proposal's hash", 'approval_mismatch', () => overfit.proposal.proposal_hash]
  ])('%s: exit 2 (%s), no approval written', async (_name, code, mangle) => {
    const { result, out } = await approve(mangle(fix.proposal.proposal_hash));
    expectRefusal(result, code);
    expect(existsSync(out)).toBe(false);
  });
});

describe('propose and validate refuse diffs that break policy or do not apply', () => {
  it.concurrent("a diff with '..' in a path (policy_violation at propose time, no proposal written)", async () => {
    const dir = await caseDir();
    const diff = (await readFile(js.candidate('fix'), 'utf8')).replaceAll('src/duration.js', 'src/../../outside.js');
    await writeFile(join(dir, 'dotdot.diff'), diff);
    const out = join(dir, 'proposal.json');
    const result = await runCli(['propose', '--repo', js.repo, '--diff', join(dir, 'dotdot.diff'), '--out', out], { tmp });
    expectRefusal(result, 'policy_violation');
    expect(existsSync(out)).toBe(false);
  });

  it.concurrent('a diff whose hunk context does not match the file (propose accepts it, validate refuses patch_invalid)', async () => {
    const dir = await caseDir();
    const diff = await readFile(js.candidate('fix'), 'utf8');
    // A context line of the hunk, changed: still a well-formed diff, but not of this tree.
    expect(diff).toContain('\n // One <number><unit> token.\n');
    await writeFile(join(dir, 'wrong-context.diff'), diff.replace('\n // One <number><unit> token.\n', '\n // One <number> <unit> token.\n'));
    const approved = await proposeAndApprove(js.repo, join(dir, 'wrong-context.diff'), dir, tmp, 'e2e-wrong-context');
    expect(approved.proposal.base_snapshot).toBe(fix.proposal.base_snapshot);
    await validateRefused(approved, 'patch_invalid', { message: /patch does not apply: 'src\/duration\.js' hunk 1 .* expects/ });
  });

  it.concurrent('a diff made against another version of the file (patch_invalid), on a copy of the repository', async () => {
    const repo = await repoCopy();
    const source = join(repo, 'src', 'duration.js');
    const text = await readFile(source, 'utf8');
    expect(text).toContain('// One <number><unit> token.');
    await writeFile(source, text.replace('// One <number><unit> token.', '// A single <number><unit> token.'));
    const approved = await proposeAndApprove(repo, js.candidate('fix'), await caseDir(), tmp, 'e2e-other-base');
    await validateRefused(approved, 'patch_invalid', { repo, message: /patch does not apply/ });
  });
});

describe('validate and propose refuse bad inputs (bad_input)', () => {
  it.concurrent('--out inside the repository (validate), leaving the repository as it was', async () => {
    const repo = await repoCopy();
    const approved = await proposeAndApprove(repo, js.candidate('fix'), await caseDir(), tmp, 'e2e-out-inside');
    const listing = treeListing(repo);
    for (const out of [join(repo, 'out'), join(repo, 'src', 'deeper', 'out'), repo]) {
      const result = await runCli(validateArgs({ repo, approved, reproduction: js.reproduction, hidden: js.hidden, adapter: 'node-test', out }), { tmp });
      expectRefusal(result, 'bad_input', /--out '.*' is inside the repository/);
    }
    expect(treeListing(repo)).toEqual(listing);
  });

  it.concurrent('--out inside the repository (propose), no proposal written', async () => {
    const repo = await repoCopy();
    const listing = treeListing(repo);
    const result = await runCli(['propose', '--repo', repo, '--diff', js.candidate('fix'), '--out', join(repo, 'proposal.json')], { tmp });
    expectRefusal(result, 'bad_input', /--out '.*' is inside the repository/);
    expect(treeListing(repo)).toEqual(listing);
  });

  it.concurrent('an unknown adapter', async () => {
    await validateRefused(fix, 'bad_input', { adapter: 'mocha', message: /--adapter 'mocha' is unknown; use one of: node-test, pytest, unittest/ });
  });

  it.concurrent('a --hidden folder that does not exist', async () => {
    const missing = join(work, 'no-such-hidden-folder');
    await validateRefused(fix, 'bad_input', { hidden: missing, message: /--hidden '.*no-such-hidden-folder' is not an existing folder/ });
  });

  it.concurrent('no --hidden at all', async () => {
    const out = join(await caseDir(), 'out');
    const args = validateArgs({ repo: js.repo, approved: fix, reproduction: js.reproduction, hidden: js.hidden, adapter: 'node-test', out });
    const at = args.indexOf('--hidden');
    args.splice(at, 2);
    expectRefusal(await runCli(args, { tmp }), 'bad_input', /--hidden is required/);
    expect(existsSync(out)).toBe(false);
  });

  it.concurrent('a reproduction folder with no test files (only a helper and a README)', async () => {
    const dir = join(await caseDir(), 'reproduction');
    await mkdir(dir);
    await writeFile(join(dir, 'helpers.js'), 'export const x = 1;\n');
    await writeFile(join(dir, 'README.md'), '# not a test\n');
    await validateRefused(fix, 'bad_input', { reproduction: dir, message: /the witness pack's reproduction folder holds no test files the node-test adapter runs/ });
  });

  it.concurrent('an empty reproduction folder, with an existing --out left alone', async () => {
    const dir = join(await caseDir(), 'reproduction');
    await mkdir(dir);
    await validateRefused(fix, 'bad_input', { reproduction: dir, existingOut: true, message: /reproduction folder '.*' holds no files/ });
  });

  it.concurrent('node tests given to the unittest adapter (no test_*.py there)', async () => {
    await validateRefused(fix, 'bad_input', { adapter: 'unittest', message: /the witness pack's reproduction folder holds no test files the unittest adapter runs/ });
  });
});

describe('after every refusal', () => {
  it('the real fixture is byte-identical to before', () => {
    expect(fixtureBefore).not.toBeNull();
    expect(treeListing(js.dir)).toEqual(fixtureBefore);
  });

  it('the CLI left no scratch folders (patchproof-*) in its TMPDIR', () => {
    expect(patchproofLeftovers(tmp)).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
