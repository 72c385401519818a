import { screenChanges } from '../../src/tamper/index.js';
import type { TamperFinding, TamperRule } from '../../src/core/tamper.js';

/** The findings of one file, screened as the patch's (base null: a new file; else the base's text). */
export async function findingsOf(path: string, patched: string, base: string | null = null): Promise<TamperFinding[]> {
  return (await screenChanges([{ path, base, patched }], [])).findings;
}

/** The rules that fired on one file. */
export async function rulesOf(path: string, patched: string, base: string | null = null): Promise<TamperRule[]> {
  return [...new Set((await findingsOf(path, patched, base)).map((f) => f.rule))].sort();
}

/** A rule case: code that must fire the rule, and a near miss that must not. */
export type RuleCase = [rule: TamperRule, what: string, fires: string, nearMiss: string];

/**
 * The table of one language: each positive fires its rule, each near miss does not fire that rule.
 * (A near miss may fire another rule; that is stated where it does.)
 */
export function describeRules(language: string, path: string, cases: readonly RuleCase[]): void {
  describe(`${language} rules`, () => {
    it.each(cases.map((c) => [c[0], c[1], c[2]] as const))('%s fires on %s', async (rule, _what, code) => {
      expect(await rulesOf(path, code)).toContain(rule);
    });
    it.each(cases.map((c) => [c[0], c[1], c[3]] as const))('%s does not fire on the near miss of %s', async (rule, _what, code) => {
      expect(await rulesOf(path, code)).not.toContain(rule);
    });
  });
}
