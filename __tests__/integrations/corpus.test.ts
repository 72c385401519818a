import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { ROOT, ensureCli, runCli, tempDir } from '../helpers/cli.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * The real-project corpus (integrations/, `npm run corpus`): every case folder is complete and
 * uses the shared fetch helper, its committed receipts verify offline and carry the verdict its
 * case.json expects, the README table is the one those receipts give, and, with Docker, the cases
 * marked "ci" are fetched and graded again from scratch (every candidate must get its expected
 * verdict). The Docker part needs the network (Debian's archive): under CI=true a failure fails.
 */

const exec = promisify(execFile);
const INTEGRATIONS = join(ROOT, 'integrations');
const CORPUS = join(ROOT, 'scripts', 'corpus.mjs');
const ROLES = ['fix', 'overfit', 'regressing', 'tampering'];

interface CaseFile {
  project: string;
  version: string;
  adapter: string;
  ci?: boolean;
  upstream_fix: { commit: string; url: string };
  candidates: { name: string; role: string; diff: string; expect: { verdict: string; reason?: string; proof_grade?: boolean } }[];
  /** `corpus --screen`: candidates screened together (issue 14), with what the screening must show. */
  screen?: { candidates: { name: string; diff: string; verdict: string; duplicate_of?: string }[]; best: string[] };
}

interface ReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  phases: { name: string; tests: { passed: number; failed: number; errored: number; skipped: number } }[];
}

const cases = readdirSync(INTEGRATIONS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'lib')
  .map((entry) => entry.name)
  .sort();

function readCase(name: string): CaseFile {
  return JSON.parse(readFileSync(join(INTEGRATIONS, name, 'case.json'), 'utf8')) as CaseFile;
}

/** The kept receipt's bytes (receipts/NAME.json, or NAME.json.gz for large ones). */
function receiptBytes(name: string, candidate: string): Buffer {
  const plain = join(INTEGRATIONS, name, 'receipts', `${candidate}.json`);
  return existsSync(plain) ? readFileSync(plain) : gunzipSync(readFileSync(`${plain}.gz`));
}

describe('the corpus folders', () => {
  it('has at least three cases, each complete: case.json, fetch.sh on the shared helper, a sealed pack and a candidate per role', () => {
    expect(cases.length).toBeGreaterThanOrEqual(3);
    for (const name of cases) {
      const data = readCase(name);
      expect(data.upstream_fix.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(data.candidates.map((c) => c.role).sort()).toEqual([...ROLES].sort());
      for (const candidate of data.candidates) {
        if (candidate.diff !== 'fetched:upstream-fix.diff') expect(existsSync(join(INTEGRATIONS, name, candidate.diff))).toBe(true);
      }
      const fetch = readFileSync(join(INTEGRATIONS, name, 'fetch.sh'), 'utf8');
      // One fetch implementation per source: the case's script only pins its files and calls the
      // helper for a Debian patch (fetch-debian.sh), a fix between two Debian releases
      // (fetch-debian-pair.sh) or two npm releases (fetch-npm.sh).
      const helper = fetch.includes('lib/fetch-npm.sh') ? 'npm' : fetch.includes('lib/fetch-debian-pair.sh') ? 'debian-pair' : 'debian';
      expect(fetch).toContain(`lib/fetch-${helper}.sh`);
      expect(fetch).toContain(`fetch_${helper.replace('-', '_')}_case "$@"`);
      expect(fetch).not.toMatch(/apt-get -q|sha256sum|^[^#\n]*npm pack/m);
      expect(existsSync(join(INTEGRATIONS, name, 'witness-pack', 'witness.json'))).toBe(true);
    }
  });

  it('spans six adapters, the compiled ones (go, cargo) among them', () => {
    const adapters = new Set(cases.map((name) => readCase(name).adapter));
    expect(adapters.size).toBeGreaterThanOrEqual(6);
    expect([...adapters]).toEqual(expect.arrayContaining(['go', 'cargo']));
  });

  it('grades at least four cases in .ci/run: those case.json marks "ci", and h11 by its own test', () => {
    const graded = cases.filter((name) => readCase(name).ci === true);
    expect(graded).not.toContain('h11-chunked-encoding');
    expect([...graded, 'h11-chunked-encoding'].length).toBeGreaterThanOrEqual(4);
  });

  it('writes no mirror or registry host name into the corpus', () => {
    const hostLike = /\b[a-z0-9-]+\.(?:debian\.org|npmjs\.(?:org|com))\b/i;
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.(sh|json|md)$/.test(entry.name) && entry.name !== 'receipt.json' && !full.includes('/receipts/') && hostLike.test(readFileSync(full, 'utf8'))) offenders.push(full);
      }
    };
    walk(INTEGRATIONS);
    // Links to bugs.debian.org and security-tracker pages are citations, not a mirror.
    expect(offenders.filter((file) => !/README\.md$/.test(file))).toEqual([]);
  });

  it('the README tables (integrations/README.md and README.md) are the ones the committed receipts give', async () => {
    await expect(exec(process.execPath, [CORPUS, '--check-table'], { cwd: ROOT })).resolves.toBeDefined();
  });
});

describe('the committed receipts of the corpus', () => {
  let tmp: string;

  beforeAll(async () => {
    await ensureCli();
    tmp = await tempDir('corpus-receipts');
  });

  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it.each(cases.filter((name) => readCase(name).ci === true))('%s: every candidate\'s receipt verifies offline and carries its expected verdict', async (name) => {
    for (const candidate of readCase(name).candidates) {
      const path = join(tmp, `${name}-${candidate.name}.json`);
      const bytes = receiptBytes(name, candidate.name);
      await writeFile(path, bytes);
      const verify = await runCli(['verify-receipt', path], { tmp });
      expect({ candidate: candidate.name, status: verify.status }).toEqual({ candidate: candidate.name, status: 0 });
      const receipt = JSON.parse(bytes.toString('utf8')) as ReceiptView;
      expect({ candidate: candidate.name, verdict: receipt.verdict }).toEqual({ candidate: candidate.name, verdict: candidate.expect.verdict });
      if (candidate.expect.reason !== undefined) expect(receipt.reasons).toContain(candidate.expect.reason);
      else expect(receipt.reasons).toEqual([]);
      if (candidate.expect.proof_grade !== undefined) expect(receipt.proof_grade).toBe(candidate.expect.proof_grade);
      // The project's own suite ran: a regression phase with upstream's tests in it.
      const regression = receipt.phases.find((p) => p.name === 'regression');
      expect(regression === undefined ? 0 : regression.tests.passed + regression.tests.failed).toBeGreaterThan(10);
    }
  }, 120_000);
});

describe('the committed screenings of the corpus (corpus --screen)', () => {
  let tmp: string;

  beforeAll(async () => {
    await ensureCli();
    tmp = await tempDir('corpus-screenings');
  });

  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  const screened = cases.filter((name) => readCase(name).screen !== undefined);

  it('at least one case screens at least three candidates, with a duplicate and a failing one', () => {
    const blocks = screened.map((name) => readCase(name).screen!);
    expect(blocks.some((b) => b.candidates.length >= 3 && b.candidates.some((c) => c.duplicate_of !== undefined) && b.candidates.some((c) => c.verdict !== 'passed'))).toBe(true);
  });

  it.each(screened)("%s: the kept screening verifies offline and shows the verdicts, duplicates and best case.json expects", async (name) => {
    const block = readCase(name).screen!;
    const kept = join(INTEGRATIONS, name, 'receipts', 'screening', 'screening.json');
    const verify = await runCli(['verify-receipt', kept], { tmp });
    expect([verify.status, verify.stdout]).toEqual([0, expect.stringContaining('"kind": "screening"')]);
    const screening = JSON.parse(readFileSync(kept, 'utf8')) as { candidates: { name: string; verdict: string; duplicate_of?: string }[]; ranking: { name: string }[] };
    for (const expected of block.candidates) {
      const got = screening.candidates.find((c) => c.name === expected.name);
      expect({ name: expected.name, verdict: got?.verdict, duplicate_of: got?.duplicate_of }).toEqual({
        name: expected.name,
        verdict: expected.verdict,
        duplicate_of: expected.duplicate_of
      });
    }
    expect(block.best).toContain(screening.ranking[0]?.name);
  });
});

const gate = await dockerGate('corpus (Docker)');

gate.describeDocker('the corpus cases marked "ci", fetched and graded from scratch in the Docker runner', () => {
  let tmp: string;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    tmp = await tempDir('corpus-run');
  });

  afterAll(async () => {
    if (mayBeUnset(tmp) !== undefined) await rm(tmp, { recursive: true, force: true });
  });

  it('every candidate gets the verdict its case.json expects', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PATCHPROOF_TEST_IMAGE: gate.imageId, TMPDIR: tmp };
    delete env.NODE_OPTIONS;
    let output: string;
    try {
      const result = await exec(process.execPath, [CORPUS, '--ci', '--keep', join(tmp, 'work'), '--out', join(tmp, 'receipts')], {
        cwd: ROOT,
        env,
        timeout: 1_500_000,
        maxBuffer: 16 * 1024 * 1024
      });
      output = result.stdout;
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string };
      if (process.env.CI !== 'true' && /fetch [a-z0-9]+: /.test(failed.stderr ?? '')) {
        console.warn(`SKIPPED corpus run: a case could not be fetched: ${failed.stderr?.trim()}`);
        return;
      }
      throw new Error(`npm run corpus --ci failed:\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`);
    }
    console.log(output);
    const ciCases = cases.filter((name) => readCase(name).ci === true);
    const graded = output.split('\n').filter((line) => line.startsWith('ok   '));
    expect(graded).toHaveLength(ciCases.reduce((sum, name) => sum + readCase(name).candidates.length, 0));
    expect(output).not.toMatch(/^FAIL /m);
  }, 1_500_000);

  it("corpus --screen: every case with a screen block is fetched and screened again, and gets its expected verdicts, duplicates and best", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PATCHPROOF_TEST_IMAGE: gate.imageId, TMPDIR: tmp };
    delete env.NODE_OPTIONS;
    const screenedCases = cases.filter((name) => readCase(name).screen !== undefined);
    let output: string;
    try {
      const result = await exec(
        process.execPath,
        [CORPUS, '--screen', ...screenedCases.flatMap((name) => ['--case', name]), '--keep', join(tmp, 'screen-work'), '--out', join(tmp, 'screenings')],
        { cwd: ROOT, env, timeout: 1_500_000, maxBuffer: 16 * 1024 * 1024 }
      );
      output = result.stdout;
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string };
      if (process.env.CI !== 'true' && /fetch [a-z0-9-]+: /.test(failed.stderr ?? '')) {
        console.warn(`SKIPPED corpus screening: a case could not be fetched: ${failed.stderr?.trim()}`);
        return;
      }
      throw new Error(`corpus --screen failed:\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`);
    }
    const lines = output.split('\n').filter((line) => line.startsWith('ok   ') && line.includes('/screen: '));
    expect(lines).toHaveLength(screenedCases.length);
    expect(output).not.toMatch(/^FAIL /m);
    for (const name of screenedCases) {
      const verify = await runCli(['verify-receipt', join(tmp, 'screenings', name, 'screening', 'screening.json')], { tmp });
      expect(verify.status).toBe(0);
    }
  }, 1_500_000);
});
