import { expect, it } from '@jest/globals';
import { dockerGate } from './hostile-support.js';
import { describeNativeColumn } from './matrix-native-support.js';

/**
 * The hostile matrix's cargo column (rust-textclip, its committed sealed pack): grading-aware, a
 * flood of files from a `.init_array` constructor, the tests read at import
 * (matrix-native-support.ts), and configuration cargo loads by itself (class d).
 */

describeNativeColumn(await dockerGate('native hostile matrix, cargo column'), 'cargo', (validate, timeoutMs) => {
  // Both would hide the regression in clip(_, 0) from the crate's own unit test: a build script
  // rewriting the tests in place (the checkout is mounted read-only, so with the rule off its
  // writes fail and the regression is still seen), and a rustc wrapper named by .cargo/config.toml
  // compiling rewritten copies from /tmp (with the rule off it passes: checked by hand, see
  // docs/security.md, matrix note 6). Config surface either way: removed, grader_tampered.
  it.each([
    { diff: 'rust-build-rs-rewrite-tests', path: 'build.rs' },
    { diff: 'rust-cargo-config-wrapper', path: '.cargo/config.toml' }
  ])(
    "d. configuration cargo loads by itself ($path) that makes the crate's own tests lenient: removed, grader_tampered",
    async ({ diff, path }) => {
      const { status, receipt } = await validate(diff, diff);
      expect([status, receipt.verdict]).toEqual([1, 'failed']);
      expect(receipt.reasons).toContain('grader_tampered');
      expect(receipt.surface.findings).toContainEqual(expect.objectContaining({ path, categories: expect.arrayContaining(['config']) }));
      expect(receipt.surface.removed).toContain(path);
      // The base's build ran, not the candidate's: the regression is seen by the unit test it breaks.
      const regression = receipt.phases.find((p) => p.name === 'regression')!;
      expect([regression.status, regression.reasons]).toEqual(['failed', expect.arrayContaining(['regression'])]);
      expect(receipt.reasons).not.toContain('grader_compromised');
    },
    timeoutMs + 60_000
  );
});
