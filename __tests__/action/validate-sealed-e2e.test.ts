import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyReceiptText } from '../../src/core/receipt.js';
import type { Receipt } from '../../src/core/receipt-schema.js';
import { writeWitnessEntries } from '../../src/fetch/witness/archive.js';
import { digestWitnessEntries } from '../../src/fetch/witness/digest.js';
import { readWitnessFolder } from '../../src/fetch/witness/folder.js';
import { decryptWith, generateWitnessKey, parseWitnessKey, sealHiddenEntries } from '../../src/fetch/witness/sealed.js';
import { startArtifactServer, type ArtifactServer } from '../support/artifact-server.js';
import { startGitHubServer, type GitHubServer } from '../support/github-server.js';
import { ensureActionBundle, runAction, type ActionRun } from './data/validate-bundle.js';
import { JS_DURATION, JS_PACK, PACK_PATH, PULL_NUMBER, makePullRequest, removePullRequest, type PullRequestRepos } from './data/validate-repos.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * Hidden means hidden, end to end through the bundled action (`node dist/index.js`): the base
 * branch keeps the js-duration pack with its hidden tests age-encrypted (hidden.age), the trusted
 * job gets the key as the `witness-key` input, and two hostile candidates (the real fix plus code
 * that reads the hidden test file while it runs) push the hidden test's whole source
 *  - as a skip reason (a node:test test registered, skipped, by the code under test), and
 *  - as a failure message (parseDuration throws it when a hidden test calls it).
 * Nothing the pull request can read may carry it: the check run as the loopback GitHub server
 * received it (title, summary, text, annotations), the job summary, the action's stdout/stderr,
 * and receipt.json and report.md as the loopback artifact service holds them. The maintainers'
 * hidden-detail.age is in the same artifact and opens with the key to the detail, which does
 * hold the hostile text (so these assertions would fail if the text were not redacted).
 *
 * The local runner is used (the machine's Docker is shared with other test runs); the trusted
 * context rules post failure (not_proof_grade or hidden_failed) for it, which is fine: this test
 * is about leaks, not the verdict.
 */

const REPOSITORY = 'octo-org/hello-world';
const TOKEN = 'ghs_test';
const GATE_REF = `${REPOSITORY}/.github/workflows/patchproof-gate.yml@refs/heads/main`;
const HIDDEN_SOURCE = readFileSync(join(JS_PACK, 'hidden', 'millisecond-unit-hidden.test.js'), 'utf8');
/** The hidden tests' names (as node:test reports them) and the hidden file's name. */
const HIDDEN_NAMES = [...HIDDEN_SOURCE.matchAll(/^test\('([^']+)'/gm)].map((m) => m[1] as string);
/** Distinctive lines of the hidden source, beyond the names. */
const HIDDEN_LINES = ["parseDuration('2m500ms')", "parseDuration(' 750 MS ')", 'on inputs the candidate never saw', 'millisecond-unit-hidden'];
const HIDDEN_WORDS = [...HIDDEN_NAMES, ...HIDDEN_LINES];
/** The sealed oracle's hidden cases: their ids (as results and as the pack's pinned hidden ids) and expected values. */
const ORACLE = JSON.parse(readFileSync(join(JS_PACK, 'oracle', 'expected.json'), 'utf8')) as { cases: { id: string; phase: string; expected: unknown }[] };
const HIDDEN_CASES = ORACLE.cases.filter((c) => c.phase === 'hidden');
const PINNED_HIDDEN_IDS = HIDDEN_CASES.map((c) => `oracle > ${c.id}`).sort();
/** Expected values that only a hidden case has: whole numbers of six digits or more, not among the reproduction's. */
const HIDDEN_VALUES = HIDDEN_CASES.map((c) => c.expected)
  .filter((v): v is number => typeof v === 'number' && String(v).length >= 6)
  .filter((v) => !ORACLE.cases.some((c) => c.phase === 'reproduction' && c.expected === v))
  .map(String);
/** The original (unsealed) hidden test, with its literal expectations: witness seal keeps it in oracle/original/hidden/. */
const HIDDEN_ORIGINAL = readFileSync(join(JS_PACK, 'oracle', 'original', 'hidden', 'millisecond-unit-hidden.test.js'), 'utf8');
/** A number standing alone (not inside a hex digest or a longer number). */
const valueIn = (text: string, value: string): boolean => new RegExp(`(?<![0-9a-f])${value}(?![0-9a-f])`).test(text);

/** The fixed duration.js, with `hook` run at the start of every parseDuration call and `prelude` at import. */
function hostileDuration(prelude: string, hook: string): string {
  const original = readFileSync(join(JS_DURATION, 'repo', 'src', 'duration.js'), 'utf8');
  const fixed = original
    .replace('(?:d|h|m|s|ms)', '(?:ms|d|h|m|s)')
    .replace('(d|h|m|s|ms)/g', '(ms|d|h|m|s)/g')
    .replace('export function parseDuration(input) {', 'function fixedParseDuration(input) {');
  if (fixed === original) throw new Error('the fixture changed: hostileDuration no longer applies');
  return [
    "import { readFileSync as hostileRead, readdirSync as hostileList, existsSync as hostileExists } from 'node:fs';",
    "import { fileURLToPath as hostilePath } from 'node:url';",
    "import { test as hostileTest } from 'node:test';",
    fixed,
    // The staged folders' names are random per run (no grader markers), so the candidate looks as an
    // attacker who knows its own repository would: every test file under a dot folder at the root.
    "// Hostile: every test file under the root's dot folders (where staged tests live), read while the tests run.",
    'function hiddenFiles() {',
    "  const root = hostilePath(new URL('../', import.meta.url));",
    '  const found = [];',
    '  const walk = (dir, depth) => {',
    '    let names = [];',
    '    try { names = hostileList(dir, { withFileTypes: true }); } catch { return; }',
    '    for (const entry of names) {',
    "      if (entry.isDirectory() && depth < 4 && entry.name !== 'node_modules') walk(dir + entry.name + '/', depth + 1);",
    "      else if (entry.isFile() && entry.name.endsWith('.test.js')) found.push(dir + entry.name);",
    '    }',
    '  };',
    "  for (const name of hostileList(root)) if (name.startsWith('.') && name !== '.git') walk(root + name + '/', 0);",
    '  return found;',
    '}',
    'function hiddenSources() {',
    // The reproduction test is public (the candidate was given it): only the other staged tests are worth leaking.
    "  return hiddenFiles().filter((file) => hostileExists(file) && !file.endsWith('/millisecond-unit.test.js')).map((file) => hostileRead(file, 'utf8'));",
    '}',
    '/** The hidden names first (so clipping keeps them), then the whole source on the same line (a message keeps its first line). */',
    'function banner(source) {',
    "  return 'LEAK ' + [...source.matchAll(/^test\\('([^']+)'/gm)].map((m) => m[1]).join(' | ') + ' ' + JSON.stringify(source);",
    '}',
    prelude,
    'export function parseDuration(input) {',
    hook,
    '  return fixedParseDuration(input);',
    '}',
    ''
  ].join('\n');
}

const CANDIDATES = {
  // A test registered at import, skipped, whose skip reason is the hidden test's whole source.
  skip: hostileDuration("for (const source of hiddenSources()) hostileTest('hidden leak', { skip: banner(source) }, () => {});", ''),
  // Called from a hidden test, parseDuration throws the hidden test's whole source.
  failure: hostileDuration(
    '',
    "  if (hiddenFiles().some((file) => (new Error().stack ?? '').includes(file))) for (const source of hiddenSources()) throw new Error(banner(source));"
  )
};
type Name = keyof typeof CANDIDATES;

interface Result {
  repos: PullRequestRepos;
  run: ActionRun;
  summary: string;
  github: GitHubServer;
  artifacts: ArtifactServer;
  /** The artifact's files as the loopback service holds them, downloaded with the real client. */
  artifactFiles: Record<string, Buffer>;
  tmp: string;
}

let work: string;
let witnessKey: string;
let sealedPack: string;
let sealedDigest: string;
let plainPack: string;
let bundle: ReturnType<typeof ensureActionBundle> | undefined;
const results = new Map<Name, Result>();

/** Every file of the run's one artifact, downloaded and extracted with the real @actions/artifact client. */
async function downloadArtifactFiles(artifacts: ArtifactServer, github: GitHubServer, into: string): Promise<Record<string, Buffer>> {
  const previous = { ...process.env };
  Object.assign(process.env, artifacts.env(), { GITHUB_API_URL: github.url });
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = () => true;
  try {
    const { DefaultArtifactClient } = await import('@actions/artifact');
    const client = new DefaultArtifactClient();
    const stored = artifacts.artifacts();
    if (stored.length !== 1) return {};
    const { artifact } = await client.getArtifact(stored[0]?.name ?? '');
    const downloaded = await client.downloadArtifact(artifact.id, { path: into, expectedHash: artifact.digest });
    if (downloaded.digestMismatch === true) throw new Error('artifact digest mismatch');
    return Object.fromEntries(readdirSync(into).map((name) => [name, readFileSync(join(into, name))]));
  } finally {
    process.stdout.write = write;
    for (const key of Object.keys(process.env)) if (!(key in previous)) Reflect.deleteProperty(process.env, key);
    Object.assign(process.env, previous);
  }
}

async function runScenario(name: Name): Promise<Result> {
  const repos = makePullRequest({ kind: 'files', files: { 'src/duration.js': CANDIDATES[name] } }, { pack: sealedPack });
  const tmp = mkdtempSync(join(tmpdir(), `pp-sealed-e2e-${name}-`));
  const runnerTemp = join(tmp, 'runner-temp');
  const scratch = join(tmp, 'scratch');
  mkdirSync(runnerTemp);
  mkdirSync(scratch);
  const artifacts = await startArtifactServer({ repository: REPOSITORY });
  const github = await startGitHubServer({
    token: TOKEN,
    repository: REPOSITORY,
    artifacts,
    pulls: [{ number: PULL_NUMBER, headSha: repos.head, baseSha: repos.base, headRepository: 'contributor/hello-world' }]
  });
  const eventPath = join(tmp, 'event.json');
  const summaryPath = join(tmp, 'step-summary.md');
  const repo = { full_name: REPOSITORY, name: 'hello-world', owner: { login: 'octo-org' } };
  writeFileSync(
    eventPath,
    JSON.stringify({
      action: 'synchronize',
      number: PULL_NUMBER,
      pull_request: {
        number: PULL_NUMBER,
        state: 'open',
        title: 'Parse "250ms" as milliseconds',
        base: { ref: 'main', sha: repos.base, repo },
        head: { ref: 'fix-ms', sha: repos.head, repo: { full_name: 'contributor/hello-world', name: 'hello-world', owner: { login: 'contributor' } } }
      },
      repository: { ...repo, default_branch: 'main' },
      sender: { login: 'contributor' }
    })
  );
  writeFileSync(join(tmp, 'output.txt'), '');
  writeFileSync(summaryPath, '');
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: process.env['HOME'] ?? tmp,
    TMPDIR: scratch,
    ...artifacts.env(),
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    GITHUB_API_URL: github.url,
    GITHUB_EVENT_NAME: 'pull_request_target',
    GITHUB_WORKFLOW_REF: GATE_REF,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_WORKSPACE: repos.workspace,
    GITHUB_ACTOR: 'contributor',
    GITHUB_SHA: repos.head,
    GITHUB_REF: 'refs/heads/main',
    GITHUB_OUTPUT: join(tmp, 'output.txt'),
    GITHUB_STEP_SUMMARY: summaryPath,
    RUNNER_TEMP: runnerTemp,
    INPUT_MODE: 'validate',
    INPUT_RUNNER: 'local',
    'INPUT_WITNESS-PACK': PACK_PATH,
    'INPUT_WITNESS-DIGEST': sealedDigest,
    'INPUT_WITNESS-KEY': witnessKey,
    'INPUT_GITHUB-TOKEN': TOKEN,
    'INPUT_CHECK-NAME': 'PatchProof',
    'INPUT_REPOSITORY-PATH': '.',
    INPUT_REPLAY: 'false'
  };
  const run = await runAction((bundle as { path: string }).path, env, repos.workspace);
  // Downloaded later, one run at a time: the client reads the service's address from process.env.
  return { repos, run, summary: readFileSync(summaryPath, 'utf8'), github, artifacts, artifactFiles: {}, tmp };
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'pp-sealed-e2e-'));
  const key = await generateWitnessKey();
  witnessKey = key.fileText;
  // The pack as the maintainers commit it, sealed by seal-hidden from the author's whole pack: the
  // sealed oracle with its originals (oracle/original/), and the hidden ids pinned in witness.json.
  plainPack = join(work, 'plain-pack');
  cpSync(JS_PACK, plainPack, { recursive: true });
  const manifestPath = join(plainPack, 'witness.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { hidden: Record<string, unknown> };
  writeFileSync(manifestPath, `${JSON.stringify({ ...manifest, hidden: { ...manifest.hidden, ids: PINNED_HIDDEN_IDS } }, null, 2)}\n`);
  const entries = await sealHiddenEntries(await readWitnessFolder(plainPack), 'hidden', [key.recipient]);
  sealedPack = join(work, 'sealed-pack');
  await writeWitnessEntries(entries, sealedPack);
  sealedDigest = digestWitnessEntries(entries);
  bundle = ensureActionBundle();
  await Promise.all((Object.keys(CANDIDATES) as Name[]).map(async (name) => results.set(name, await runScenario(name))));
  for (const result of results.values()) result.artifactFiles = await downloadArtifactFiles(result.artifacts, result.github, join(result.tmp, 'download'));
}, 600_000);

afterAll(async () => {
  for (const result of results.values()) {
    await Promise.all([result.github.close(), result.artifacts.close()]);
    removePullRequest(result.repos);
    rmSync(result.tmp, { recursive: true, force: true });
  }
  if (mayBeUnset(work) !== undefined) rmSync(work, { recursive: true, force: true });
  bundle?.dispose();
});

function get(name: Name): Result {
  const result = results.get(name);
  if (result === undefined) throw new Error(`scenario ${name} did not run`);
  return result;
}

interface OpenedDetail {
  phase: { results: { id: string; status: string; message?: string; skip_reason?: string }[] };
  ids: Record<string, string>;
}

async function openDetail(result: Result): Promise<{ text: string; detail: OpenedDetail }> {
  const bytes = result.artifactFiles['hidden-detail.age'];
  if (bytes === undefined)
    throw new Error(`the artifact has no hidden-detail.age; it has ${Object.keys(result.artifactFiles).join(', ') || 'nothing'}\n--- stdout ---\n${result.run.stdout}`);
  const text = new TextDecoder().decode(await decryptWith(parseWitnessKey(witnessKey, 'test key'), bytes, 'hidden-detail.age'));
  return { text, detail: JSON.parse(text) as OpenedDetail };
}

/** Every file of a pack folder but hidden.age, as text, with its path. */
function plainFiles(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) Object.assign(out, plainFiles(dir, rel));
    else if (rel !== 'hidden.age') out[rel] = `${rel}\n${readFileSync(join(dir, rel), 'utf8')}`;
  }
  return out;
}

/** What would give a hidden test away, beyond its names and source lines. */
const SECRETS = [
  ...HIDDEN_WORDS,
  ...PINNED_HIDDEN_IDS,
  ...HIDDEN_CASES.map((c) => c.id),
  HIDDEN_ORIGINAL.split('\n').find((line) => line.includes('assert.equal(parseDuration(')) ?? '(no assertion line)'
].map((line) => line.trim());

describe('the sealed pack the base branch holds', () => {
  it("the author's pack does carry the hidden ids, expectations and originals in plain text (so the next check can fail)", () => {
    const all = Object.values(plainFiles(plainPack)).join('\n');
    expect(HIDDEN_VALUES.length).toBeGreaterThanOrEqual(3);
    for (const secret of SECRETS) expect([secret, all.includes(secret)]).toEqual([secret, true]);
    for (const value of HIDDEN_VALUES) expect([value, valueIn(all, value)]).toEqual([value, true]);
  });

  it("no plain file of it holds a hidden test's name, source, case id, pinned id, original or expected value", () => {
    const files = plainFiles(sealedPack);
    expect(Object.keys(files).sort()).toEqual([
      'oracle/expected.json',
      'oracle/original/reproduction/millisecond-unit.test.js',
      'reproduction/millisecond-unit.test.js',
      'witness.json'
    ]);
    for (const [path, text] of Object.entries(files)) {
      for (const secret of SECRETS) expect([path, secret, text.includes(secret)]).toEqual([path, secret, false]);
      for (const value of HIDDEN_VALUES) expect([path, value, valueIn(text, value)]).toEqual([path, value, false]);
    }
  });
});

describe.each(Object.keys(CANDIDATES) as Name[])('a sealed pack and a candidate leaking the hidden source as a %s', (name) => {
  it("made only requests GitHub's description allows, posted one failure check run and uploaded one artifact", () => {
    const result = get(name);
    if (result.run.status !== 1) throw new Error(`exit ${result.run.status}\n--- stdout ---\n${result.run.stdout}\n--- stderr ---\n${result.run.stderr}`);
    expect(result.github.invalidRequests()).toEqual([]);
    expect(result.artifacts.invalidRequests()).toEqual([]);
    expect(result.github.checkRuns().map((c) => c.conclusion)).toEqual(['failure']);
    expect(Object.keys(result.artifactFiles).sort()).toEqual(['hidden-detail.age', 'receipt.json', 'report.md']);
  });

  it("the hostile text reached the hidden results: the maintainers' detail holds it (so the checks below can fail)", async () => {
    const result = get(name);
    const { text, detail } = await openDetail(result);
    const field = name === 'skip' ? 'skip_reason' : 'message';
    const carriers = detail.phase.results.filter((t) => (t[field] ?? '').includes('LEAK '));
    expect(carriers.length).toBeGreaterThan(0);
    // The names lead the banner, and the source follows them (clipped, in a failure message).
    expect(carriers.some((t) => HIDDEN_NAMES.every((n) => (t[field] ?? '').includes(n)))).toBe(true);
    expect(text).toContain('on inputs the candidate never saw');
    if (name === 'skip') expect(text).toContain("parseDuration('2m500ms')");
  });

  it('nothing the pull request can read carries the hidden source or the hidden test names', () => {
    const result = get(name);
    const [check] = result.github.checkRuns();
    const visible: Record<string, string> = {
      'check title': check?.output.title ?? '',
      'check summary': check?.output.summary ?? '',
      'check text': check?.output.text ?? '',
      'check annotations': JSON.stringify(check?.annotations ?? []),
      'every request the GitHub server received': JSON.stringify(result.github.requests()),
      'job summary': result.summary,
      stdout: result.run.stdout,
      stderr: result.run.stderr,
      'artifact receipt.json': result.artifactFiles['receipt.json']?.toString('utf8') ?? '',
      'artifact report.md': result.artifactFiles['report.md']?.toString('utf8') ?? ''
    };
    expect(visible['check summary']).not.toBe('');
    expect(visible['artifact receipt.json']).not.toBe('');
    expect(visible['artifact report.md']).not.toBe('');
    expect(visible['job summary']).toContain('## PatchProof: FAILED');
    for (const [where, text] of Object.entries(visible)) {
      for (const word of [...SECRETS, 'LEAK ']) expect([where, word, text.includes(word)]).toEqual([where, word, false]);
      for (const value of HIDDEN_VALUES) expect([where, value, valueIn(text, value)]).toEqual([where, value, false]);
    }
  });

  it('the public receipt verifies, keeps the hidden results as keyed ids, and binds hidden-detail.age by its SHA-256; the detail opens with the key', async () => {
    const result = get(name);
    const receiptText = result.artifactFiles['receipt.json']?.toString('utf8') ?? '';
    expect(verifyReceiptText(receiptText)).toMatchObject({ integrity_valid: true });
    const receipt = JSON.parse(receiptText) as Receipt & { hidden_ids: { key: string }; hidden_detail_sha256: string };
    expect(receipt.hidden_ids.key).toBe('witness_key');
    const bytes = result.artifactFiles['hidden-detail.age'] as Buffer;
    expect(bytes.subarray(0, 22).toString('latin1')).toBe('age-encryption.org/v1\n');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(receipt.hidden_detail_sha256);
    const { detail } = await openDetail(result);
    expect(HIDDEN_NAMES.every((n) => Object.values(detail.ids).some((id) => id.includes(n)))).toBe(true);
    // The pack's pinned hidden ids (restored from hidden.age) are in the receipt as keyed ids only, and the detail maps them back.
    const pinned = receipt.witness.pinned_ids?.hidden ?? [];
    expect(pinned).toHaveLength(PINNED_HIDDEN_IDS.length);
    expect(pinned.every((id) => /^hmac-sha256:[0-9a-f]{64}$/.test(id))).toBe(true);
    expect(pinned.map((id) => detail.ids[id]).sort()).toEqual(PINNED_HIDDEN_IDS);
    // The hidden phase was graded by the sealed oracle restored from hidden.age.
    expect(receipt.phases.find((p) => p.name === 'hidden')?.grading).toBe('sealed');
  });
});
