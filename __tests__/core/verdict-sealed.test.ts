import { fail, pass, run } from '../helpers/evidence.js';
import { judgeHidden, judgeReproductionAfter, judgeReproductionBefore, runAnomalies } from '../../src/core/verdict.js';
import type { TestCaseResult } from '../../src/core/test-results.js';

/** The judge on sealed runs: the oracle's cases decide; framework passes are never evidence. */

const ok = (id: string): TestCaseResult => ({ id: `oracle > ${id}`, status: 'passed' });
const wrong = (id: string): TestCaseResult => ({ id: `oracle > ${id}`, status: 'failed', failure_kind: 'assertion' });

describe('sealed runs', () => {
  it('hidden: framework says all passed, the oracle says a case is wrong: failed', () => {
    const sabotaged = run('hidden', [pass('t.a'), pass('t.b')], { sealed: { results: [ok('h1'), wrong('h2')], problems: [] } });
    expect(judgeHidden([sabotaged])).toMatchObject({ status: 'failed', reasons: ['hidden_failed'] });
  });

  it('hidden: every case matched passes even though framework tests are ignored', () => {
    const honest = run('hidden', [pass('t.a')], { sealed: { results: [ok('h1'), ok('h2')], problems: [] } });
    expect(judgeHidden([honest])).toMatchObject({ status: 'passed', reasons: [] });
  });

  it('a framework failure still counts in a sealed run', () => {
    const crashed = run('hidden', [fail('t.a', 'exception_in_code')], { sealed: { results: [ok('h1')], problems: [] } });
    expect(judgeHidden([crashed]).status).toBe('failed');
  });

  it('observation problems are observations_invalid, whatever the values', () => {
    const forged = run('hidden', [pass('t.a')], { sealed: { results: [ok('h1')], problems: ['case h1 observed 2 times'] } });
    expect(runAnomalies(forged)).toContain('observations_invalid');
    expect(judgeHidden([forged])).toMatchObject({ status: 'failed', reasons: ['observations_invalid'] });
  });

  it('reproduction: a framework test that errored on the base and passes after is not missing', () => {
    const before = run('reproduction_before', [fail('t.crash', 'exception_in_code')], {
      sealed: { results: [wrong('r1'), { id: 'oracle > r2', status: 'failed', failure_kind: 'exception_in_code' }], problems: [] }
    });
    expect(judgeReproductionBefore([before]).status).toBe('passed');
    const after = run('reproduction_after', [pass('t.crash')], { sealed: { results: [ok('r1'), ok('r2')], problems: [] } });
    expect(judgeReproductionAfter([after], [before])).toMatchObject({ status: 'passed', missing: [] });
    const matchedOnBase = run('reproduction_before', [pass('t.a')], { sealed: { results: [ok('r1'), wrong('r2')], problems: [] } });
    expect(judgeReproductionBefore([matchedOnBase]).reasons).toContain('repro_passes_before');
  });
});
