import { baseUnrunnable, errorExcerpt, EXCERPT_LINES, excerptSha256, redactLine } from '../../src/core/base-failure.js';
import { judge, type RunsByLabel } from '../../src/core/verdict.js';
import { fail, infra, pass, run } from '../helpers/evidence.js';

const collection = (label: Parameters<typeof run>[0]) => run(label, [fail('tests/test_x.py', 'collection_error')]);

function runs(base: Pick<RunsByLabel, 'reproduction_before' | 'regression_before'>): RunsByLabel {
  return {
    ...base,
    reproduction_after: [run('reproduction_after', [pass('r')]), run('reproduction_after', [pass('r')], { attempt: 2 })],
    regression_after: [run('regression_after', [pass('a')])],
    hidden: [run('hidden', [fail('h')])]
  };
}

describe('a base tree the grader cannot run', () => {
  it('is inconclusive (base_unrunnable), never blamed on the candidate, when every base run ran nothing', () => {
    const unrunnable = runs({
      reproduction_before: [collection('reproduction_before'), run('reproduction_before', [], { attempt: 2 })],
      regression_before: [infra('regression_before')]
    });
    const judged = judge(unrunnable, true);
    expect(judged).toMatchObject({ verdict: 'inconclusive', reasons: ['base_unrunnable'] });
    // The candidate's phases are not needed once the base reproduction established nothing.
    expect(judged.phases.map((p) => [p.status, p.reasons])).toEqual([['inconclusive', ['base_unrunnable']], ...Array<unknown>(3).fill(['not_run', []])]);
  });

  it('is judged as usual when any base run ran a test: a collection error in the base reproduction is then the pack fault it is', () => {
    const base = { reproduction_before: [collection('reproduction_before')], regression_before: [run('regression_before', [pass('a')])] };
    expect(baseUnrunnable(base)).toBe(false);
    const judged = judge(runs({ ...base, reproduction_before: [collection('reproduction_before'), collection('reproduction_before')] }), true);
    // Not base_unrunnable (the suite ran), and not the candidate's fault either (issue 28): the
    // reproduction fails for a reason the pack does not allow on a tree the candidate never touched.
    expect(judged).toMatchObject({ verdict: 'inconclusive' });
    expect(judged.phases[0]).toMatchObject({ status: 'inconclusive', reasons: ['repro_wrong_failure'] });
  });

  it('still fails a candidate that touched its grader', () => {
    const unrunnable = runs({ reproduction_before: [collection('reproduction_before')], regression_before: [collection('regression_before')] });
    expect(judge(unrunnable, true, { surfaceReasons: ['grader_tampered'] }).verdict).toBe('failed');
  });
});

describe('the excerpt of a failed base run', () => {
  it('starts at the first error line, keeps at most EXCERPT_LINES short lines, and is digested as shown', () => {
    const output = ['collecting ...', '', '\u001b[31mERROR tests/test_x.py\u001b[0m', ...Array.from({ length: 20 }, (_, i) => `line ${i} ${'x'.repeat(300)}`), '', 'later'].join(
      '\n'
    );
    const excerpt = errorExcerpt(output);
    const lines = excerpt.split('\n');
    expect(lines[0]).toBe('ERROR tests/test_x.py');
    expect(lines).toHaveLength(EXCERPT_LINES);
    expect(lines[3]).toBe('…');
    expect(lines.at(-1)).toMatch(/^line 19 /);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(200);
    expect(excerptSha256(excerpt)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("keeps a Python traceback's head and the exception at its end", () => {
    const traceback = [
      'test_calc (unittest.loader._FailedTest.test_calc) ... ERROR',
      'c0123 (patchproof.Checks) ... ok',
      '',
      '=====',
      'ERROR: tests.test_calculator (unittest.loader._FailedTest.tests.test_calculator)',
      '-----',
      'ImportError: Failed to import test module: tests.test_calculator',
      'Traceback (most recent call last):',
      ...Array.from({ length: 8 }, (_, i) => `  File "/w/x${i}.py", line ${i}, in <module>`),
      '  File "/w/lexer.py", line 22',
      '    def tokenize(source:   # SECRET_TOKEN=abc123def',
      '                ^',
      "SyntaxError: '(' was never closed",
      '',
      '',
      'ERROR: tests.test_lexer'
    ].join('\n');
    const lines = errorExcerpt(traceback).split('\n');
    expect(lines[0]).toMatch(/^ERROR: tests\.test_calculator/);
    expect(lines.at(-1)).toBe("SyntaxError: '(' was never closed");
    expect(lines.join('\n')).not.toContain('abc123def');
  });

  it('redacts tokens, secrets and unguessable hex (canary nonces)', () => {
    const line = redactLine('Error: GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz012345 Test_c0123456789abcdef0123 Authorization: Bearer abc.def.ghi.jkl');
    expect(line).not.toMatch(/ghp_|0123456789abcdef|abc\.def/);
    expect(line).toContain('Error:');
    expect(redactLine('ERROR: tests/test_x.py:3: SyntaxError')).toBe('ERROR: tests/test_x.py:3: SyntaxError');
  });
});
