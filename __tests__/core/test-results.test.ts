import { firstOccurrenceId, indexDuplicateIds, occurrenceId, type TestCaseResult } from '../../src/core/test-results.js';

const result = (id: string, status: TestCaseResult['status'] = 'passed'): TestCaseResult => ({ id, status });

describe('occurrence-indexed test ids', () => {
  it('keeps the first copy of a duplicated id and numbers the others in file order', () => {
    const problems: string[] = [];
    const out = indexDuplicateIds([result('f > a'), result('f > b'), result('f > a', 'failed'), result('f > a')], problems);
    expect(out.map((t) => [t.id, t.status])).toEqual([
      ['f > a', 'passed'],
      ['f > b', 'passed'],
      ['f > a #2', 'failed'],
      ['f > a #3', 'passed']
    ]);
    expect(problems).toEqual([]);
  });
  it('gives the same ids to two runs of the same tree', () => {
    const run = () => indexDuplicateIds([result('x'), result('x'), result('y'), result('x')], []).map((t) => t.id);
    expect(run()).toEqual(run());
  });
  it('fails closed when an index collides with an id the runner reported', () => {
    for (const order of [
      ['x', 'x #2', 'x'],
      ['x', 'x', 'x #2']
    ]) {
      const problems: string[] = [];
      indexDuplicateIds(
        order.map((id) => result(id)),
        problems
      );
      expect(problems).toHaveLength(1);
    }
  });
  it('maps an indexed id back to the first copy', () => {
    expect([firstOccurrenceId(occurrenceId('a > b', 3)), firstOccurrenceId('a > b'), occurrenceId('a', 1)]).toEqual(['a > b', 'a > b', 'a']);
  });
});
