import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { changedFileProblems, formalRecordFor } from '../../src/formal/run.js';
import { formalBlockSchema } from '../../src/formal/spec.js';
import { IN_PROCESS } from './formal-support.js';
import { stopZ3 } from './z3-in-process.js';

/**
 * The gate as validate() runs it on the candidate's tree: a changed file that rebinds a builtin the
 * subset calls makes a proof unknown (the proof would be about code that does not run), while a
 * counterexample stays one (a candidate cannot buy its way out of a refutation by rebinding Math).
 */

afterAll(stopZ3);

const block = formalBlockSchema.parse({
  targets: [{ name: 'abs', file: 'src/abs.js', function: 'abs', params: [{ name: 'x', type: 'int' }], returns: 'int', ensures: ['result >= 0'], required: true }]
});

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pp-formal-run-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('the candidate tree through the gate', () => {
  test('a rebinding in another changed file turns a proof into unknown', async () => {
    const files = { 'src/abs.js': 'export function abs(x) { return Math.abs(x); }', 'src/shim.js': 'Math.abs = (v) => v;' };
    const dir = await tree(files);
    dirs.push(dir);
    const changed = new Map(Object.entries(files).map(([p, t]) => [p, Buffer.from(t)]));
    const clean = await formalRecordFor(block, dir, new Map([['src/abs.js', changed.get('src/abs.js')!]]), { solve: IN_PROCESS.solve! });
    expect(clean.status).toBe('proved');
    const hostile = await formalRecordFor(block, dir, changed, { solve: IN_PROCESS.solve! });
    expect(hostile.targets[0]).toMatchObject({ status: 'unknown', reason: expect.stringMatching(/src\/shim\.js: a write to Math/) });
  });

  test('a counterexample stays one whatever else the candidate rebinds', async () => {
    const files = { 'src/abs.js': 'export function abs(x) { return x; }', 'src/shim.js': 'Math.abs = (v) => v;' };
    const dir = await tree(files);
    dirs.push(dir);
    const record = await formalRecordFor(block, dir, new Map(Object.entries(files).map(([p, t]) => [p, Buffer.from(t)])), { solve: IN_PROCESS.solve! });
    expect(record.status).toBe('counterexample');
  });

  test('the scan reads changed JS/TS files only, and not deleted ones', () => {
    const changed = new Map<string, Buffer | null>([
      ['README.md', Buffer.from('Math.abs = 1')],
      ['src/gone.js', null],
      ['src/ok.ts', Buffer.from('export const y: number = Math.max(1, 2);')],
      ['lib/evil.mjs', Buffer.from("Object.defineProperty(Math, 'min', { value: () => 0 });")]
    ]);
    expect(changedFileProblems(changed, ['src/abs.js'])).toEqual([
      'lib/evil.mjs: defineProperty on Math (line 1)',
      'lib/evil.mjs: Math is bound, aliased or passed around (line 1)'
    ]);
  });
});
