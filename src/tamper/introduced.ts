import { diffLines } from 'diff';
import { findingKey, type RawFinding } from './raw-finding.js';

/**
 * Which findings the patch introduced: the multiset of (rule, normalised text) of the base file
 * against the patched file's. A construct the base already had, as many times, is not counted, on
 * whatever line it now stands; one more of it, anywhere, is. Pure.
 *
 * When a key occurs more often after the patch, the extra occurrences reported are those on lines
 * the patch added (then the last ones), so the finding points at the new code.
 */
export function introducedFindings(base: readonly RawFinding[] | undefined, patched: readonly RawFinding[], added: ReadonlySet<number> | undefined): RawFinding[] {
  const before = new Map<string, number>();
  for (const f of base ?? []) before.set(findingKey(f), (before.get(findingKey(f)) ?? 0) + 1);
  const byKey = new Map<string, { finding: RawFinding; index: number }[]>();
  patched.forEach((finding, index) => {
    const key = findingKey(finding);
    byKey.set(key, [...(byKey.get(key) ?? []), { finding, index }]);
  });
  const chosen: { finding: RawFinding; index: number }[] = [];
  for (const [key, occurrences] of byKey) {
    const extra = occurrences.length - (before.get(key) ?? 0);
    if (extra <= 0) continue;
    const touched = (f: RawFinding): boolean => {
      if (added === undefined) return true;
      for (let line = f.line; line <= f.endLine; line += 1) if (added.has(line)) return true;
      return false;
    };
    const ranked = [...occurrences].sort((a, b) => Number(touched(b.finding)) - Number(touched(a.finding)) || b.index - a.index);
    chosen.push(...ranked.slice(0, extra));
  }
  return chosen.sort((a, b) => a.index - b.index).map((c) => c.finding);
}

/** The 1-based lines of `patched` that are not lines of `base` (a line diff); undefined when the diff gives up. */
export function addedLineNumbers(base: string, patched: string): Set<number> | undefined {
  const changes = diffLines(base, patched, { maxEditLength: 20_000 });
  if (changes === undefined) return undefined;
  const added = new Set<number>();
  let line = 1;
  for (const change of changes) {
    const lines = change.count;
    if (change.removed) continue;
    if (change.added) for (let i = 0; i < lines; i += 1) added.add(line + i);
    line += lines;
  }
  return added;
}
