import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { applyFileChanges } from '../../src/core/patch-apply.js';
import { checkDiff } from '../../src/core/diff-policy.js';
import { readReplay, replayArgv, replayPaths, replayTestSource } from '../../src/formal/replay.js';
import { parseWitnessManifest } from '../../src/fetch/witness/manifest.js';
import { ROOT } from '../helpers/cli.js';

/**
 * The Python replay (src/formal/replay.ts, pythonReplaySource) run by real python3 on the host with
 * the product's argv (`python3 -I -B TEST`; in the container end to end: formal-python-docker.test.ts):
 * the generated test imports the candidate's module by its path, calls the target on the model's
 * inputs and checks `ensures` (Python expressions) in real Python.
 */

const manifest = parseWitnessManifest(JSON.parse(readFileSync(join(ROOT, 'witness-packs', 'py-pages', 'witness.json'), 'utf8')), 'witness.json');
const spec = manifest.formal!.targets[0]!;
const NONCE = 'a'.repeat(32);
let tmp = '';

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'pyformal-replay-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function replay(candidate: string | undefined, inputs: Record<string, unknown>, edit?: (text: string) => string) {
  const dir = join(tmp, `${candidate ?? 'base'}-${Math.random().toString(16).slice(2)}`);
  await cp(join(ROOT, 'fixtures', 'py-pages', 'repo'), dir, { recursive: true });
  if (candidate !== undefined) {
    const base = readFileSync(join(dir, 'pages.py'));
    const changes = checkDiff(readFileSync(join(ROOT, 'fixtures', 'py-pages', 'candidates', `${candidate}.diff`), 'utf8'), { maxBytes: 1 << 20, maxFiles: 10 });
    await writeFile(join(dir, 'pages.py'), applyFileChanges(() => base, changes).get('pages.py')!);
  }
  if (edit !== undefined) await writeFile(join(dir, 'pages.py'), edit(readFileSync(join(dir, 'pages.py'), 'utf8')));
  const { test: path } = replayPaths(spec, NONCE);
  await mkdir(join(dir, '.patchproof', 'formal'), { recursive: true });
  await writeFile(join(dir, path), replayTestSource(spec, inputs, NONCE));
  const [cmd, ...args] = replayArgv(spec, join(dir, path));
  const run = spawnSync(cmd!, args, { encoding: 'utf8' });
  return { verdict: readReplay(run.stdout, NONCE, { timedOut: false, outputTruncated: false }), status: run.status };
}

describe('a counterexample replayed as a Python test', () => {
  test('the path and argv: a pytest-style file run isolated', () => {
    expect(replayPaths(spec, NONCE).test).toBe(`.patchproof/formal/test_replay_${NONCE}.py`);
    expect(replayArgv(spec, 'T')).toEqual(['python3', '-I', '-B', 'T']);
  });

  test('plus-one: page_count(0, 1) returns 1 in real Python and breaks ensures: failed', async () => {
    expect(await replay('plus-one', { total: 0, per_page: 1 })).toEqual({ verdict: { outcome: 'failed', detail: 'it returned 1' }, status: 1 });
  });

  test('the fix on the same inputs: ensures holds, passed (the counterexample would not stand)', async () => {
    expect(await replay('fix', { total: 0, per_page: 1 })).toEqual({ verdict: { outcome: 'passed', detail: 'it returned 0' }, status: 0 });
  });

  test('an exception in the target is a failure; a bool where an int is due fails the type check', async () => {
    const raised = await replay(undefined, { total: 5, per_page: 1 }, (t) => t.replace('return total // per_page', 'return total // (per_page - 1)'));
    expect(raised.verdict.outcome).toBe('failed');
    expect(raised.verdict.detail).toMatch(/ZeroDivisionError/);
    const bool = await replay(undefined, { total: 1, per_page: 1 }, (t) => t.replace('return total // per_page', 'return total >= per_page'));
    expect(bool.verdict).toEqual({ outcome: 'failed', detail: 'it returned True' });
  });

  test('the target missing from the module: no result, never failed', async () => {
    const out = await replay(undefined, { total: 0, per_page: 1 }, (t) => t.replace('def page_count', 'def page_total'));
    expect(out.verdict).toEqual({ outcome: 'no_result', detail: 'page_count is not defined by pages.py' });
  });
});
