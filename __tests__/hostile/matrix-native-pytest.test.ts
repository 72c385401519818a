import { dockerGate } from './hostile-support.js';
import { describeNativeColumn } from './matrix-native-support.js';

/**
 * The hostile matrix's pytest column (py-calculator's originals as a pytest pack, sealed with
 * `witness seal`): grading-aware, a flood of files, the tests read at import
 * (matrix-native-support.ts), and a root module shadowing the hidden test module (class c).
 */

describeNativeColumn(await dockerGate('native hostile matrix, pytest column'), 'pytest', (validate, timeoutMs) => {
  it(
    'c. a root module named like the hidden test module: test surface (shadow), removed, grader_tampered',
    async () => {
      const { status, receipt } = await validate('py-shadow-hidden', 'shadow');
      expect([status, receipt.verdict]).toEqual([1, 'failed']);
      expect(receipt.reasons).toContain('grader_tampered');
      expect(receipt.surface.findings).toContainEqual(expect.objectContaining({ path: 'test_hidden_associativity.py', categories: ['test', 'shadow'] }));
      expect(receipt.surface.removed).toContain('test_hidden_associativity.py');
      expect(receipt.phases.find((p) => p.name === 'hidden')!.status).toBe('failed');
    },
    timeoutMs + 60_000
  );
});
