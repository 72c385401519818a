import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { jsTwinParses, jsTwins } from '../../src/adapters/shared/js-twins.js';
import { nodeTestAdapter } from '../../src/adapters/node-test/index.js';
import { runAnomalies } from '../../src/core/verdict.js';
import { freshCanary, removeCopy, runAdapter, stageCopy, type StagedCopy } from './data/run-adapter.js';

/**
 * Twin and mutant canaries for the JS adapters (js-twins.ts, @babel/parser on the host): generation,
 * and a real node:test run of the generated file. The Docker end-to-end and hostile tests are in
 * __tests__/hostile/canary-twins.test.ts.
 */

const DATA = path.join(path.dirname(new URL(import.meta.url).pathname), 'data', 'js-twins');
const FILE = 'test/calc.test.js';

describe('js twin generation (@babel/parser)', () => {
  it('copies test() calls through the same binding and quotes, next to real tests of the same describe', async () => {
    const text = await readFile(path.join(DATA, FILE), 'utf8');
    const { stage, twins } = jsTwins({ [FILE]: text }, freshCanary(), { mutants: 'all', twins: 1 });
    expect(
      twins
        .filter((t) => t.kind === 'mutant')
        .map((t) => t.of)
        .sort()
    ).toEqual(['adds small numbers', 'greets by name', 'keeps both values', 'sum of a pair is positive']);
    expect(twins.filter((t) => t.kind === 'twin')).toHaveLength(1);
    const out = stage[FILE]!;
    for (const line of text.split('\n')) expect(out).toContain(line);
    for (const twin of twins) {
      expect(twin.owner).toBe(['keeps both values', 'sum of a pair is positive'].includes(twin.of) ? 'pairs' : null);
      expect(out).toContain(`test('${twin.name}', () => {`);
    }
    expect(out).toContain('assert.ok(!(add(a, b) > 0));');
    expect(out).not.toMatch(/mutant|twin|canary|patchproof|"/i);
  });

  it('parses a file once per content within the process: the same twins from the kept parse, new ones for new content', async () => {
    const text = await readFile(path.join(DATA, FILE), 'utf8');
    const canary = freshCanary();
    const budget = { mutants: 'all' as const, twins: 1 };
    // A content no other test parsed, so the first call below must parse it.
    const unique = `${text}\n// ${canary.nonce}\n`;
    const parsesBefore = jsTwinParses();
    const first = jsTwins({ [FILE]: unique }, canary, budget);
    expect(jsTwinParses()).toBe(parsesBefore + 1);
    // The same content again (the patched tree's suite run after the base's): no parse, the same result.
    const second = jsTwins({ [FILE]: unique }, canary, budget);
    expect(jsTwinParses()).toBe(parsesBefore + 1);
    expect(second).toEqual(first);
    // Another nonce on the kept parse: fresh names and positions, every original line still there.
    const other = jsTwins({ [FILE]: unique }, freshCanary(), budget);
    expect(jsTwinParses()).toBe(parsesBefore + 1);
    expect(other.twins.map((t) => t.name)).not.toEqual(first.twins.map((t) => t.name));
    for (const line of unique.split('\n')) expect(other.stage[FILE]).toContain(line);
    // Changed content under the same name is parsed anew: a test added there can be copied.
    const changed = `${unique}test('doubles a lonely value', () => {\n  assert.equal(2 * 2, 4);\n});\n`;
    const third = jsTwins({ [FILE]: changed }, canary, { mutants: 'all', twins: 0 });
    expect(jsTwinParses()).toBe(parsesBefore + 2);
    expect(third.twins.map((t) => t.of)).toContain('doubles a lonely value');
    // A file that does not parse is remembered as such, and still gets no twins.
    const bad = `test('x', () => { // ${canary.nonce}`;
    expect(jsTwins({ 'test/bad.test.js': bad }, canary, budget)).toEqual({ stage: {}, twins: [] });
    expect(jsTwins({ 'test/bad.test.js': bad }, canary, budget)).toEqual({ stage: {}, twins: [] });
    expect(jsTwinParses()).toBe(parsesBefore + 3);
  });

  it('skips what it cannot parse', () => {
    expect(jsTwins({ 'test/bad.test.js': "test('x', () => {" }, freshCanary(), { mutants: 'all', twins: 1 })).toEqual({ stage: {}, twins: [] });
  });
});

describe('js twins on a real node:test run', () => {
  let copy: StagedCopy | undefined;
  afterEach(async () => {
    await removeCopy(copy);
  });

  it('every mutant fails and the twin passes next to its passing original; real tests keep their ids and lines', async () => {
    copy = await stageCopy(nodeTestAdapter, 'js-twins');
    const run = await runAdapter(nodeTestAdapter, copy, { files: [FILE], suite: true, testRoots: [] }, freshCanary(), true);
    // A suite run: at most 4 mutants and 2 exact twins (twin-stage.ts).
    expect(run.twins.length).toBe(6);
    for (const outcome of run.twins) {
      expect(outcome).toEqual(outcome.kind === 'mutant' ? { kind: 'mutant', status: 'failed', original: 'passed' } : { kind: 'twin', status: 'passed', original: 'passed' });
    }
    expect(run.parsed.tests.map((t) => [t.id, t.status, t.location]).sort()).toEqual(
      [
        [`${FILE} > adds small numbers`, 'passed', `${FILE}:5`],
        [`${FILE} > greets by name`, 'passed', `${FILE}:9`],
        [`${FILE} > pairs > keeps both values`, 'passed', `${FILE}:14`],
        [`${FILE} > pairs > sum of a pair is positive`, 'passed', `${FILE}:18`]
      ].sort()
    );
    const evidence = {
      label: 'hidden' as const,
      attempt: 1,
      exitCode: run.exitCode,
      timedOut: false,
      outputTruncated: false,
      parsed: run.parsed,
      canary: { ...run.parsed.canary, twins: run.twins }
    };
    expect(runAnomalies(evidence)).toEqual([]);
  }, 60_000);
});
