/**
 * Which shard of `validate --shard K/N` runs a suite file. Pure. The files of the base and the
 * patched suite together (the patched one may hold the candidate's new test files), sorted, are
 * dealt round: the i-th goes to shard (i mod N) + 1. Every shard of one validation discovers the same
 * two lists (one base snapshot, one candidate), so they cut them alike; a file is in the same shard
 * on both trees, so each shard compares a test with itself; and the shares partition both lists.
 */

export interface SuiteFiles {
  base: readonly string[];
  patched: readonly string[];
}

/** The shard (1..count) of each suite file. */
export function shardOfFiles(suite: SuiteFiles, count: number): Map<string, number> {
  const all = [...new Set([...suite.base, ...suite.patched])].sort();
  return new Map(all.map((file, i) => [file, (i % count) + 1]));
}

/** The files of each tree that shard `index` of `count` runs, in their order. */
export function suiteShare(suite: SuiteFiles, index: number, count: number): { base: string[]; patched: string[] } {
  const shardOf = shardOfFiles(suite, count);
  return { base: suite.base.filter((f) => shardOf.get(f) === index), patched: suite.patched.filter((f) => shardOf.get(f) === index) };
}
