import type { TamperRule } from '../core/tamper.js';

/**
 * A construct one language's rules found in one file, before the base is compared: where it is and
 * its source text. `key` (the rule and the text with whitespace runs made one space) is what the
 * base-vs-patched comparison counts.
 */
export interface RawFinding {
  rule: TamperRule;
  /** 1-based first and last line of the construct. */
  line: number;
  endLine: number;
  /** The construct's source text as it stands in the file. */
  source: string;
}

/**
 * The multiset key of a finding: its rule and its text with layout made uniform (whitespace runs
 * one space, none beside punctuation), so re-indenting or re-wrapping a construct the base had is
 * not a new one. Whitespace inside a string literal is treated alike: `"a , b"` and `"a,b"` are one key.
 */
export function findingKey(finding: Pick<RawFinding, 'rule' | 'source'>): string {
  const text = finding.source
    .replace(/\s+/g, ' ')
    .replace(/ ?([()[\]{},.:;=+\-*/<>!&|^%~?@]) ?/g, '$1')
    .trim();
  return `${finding.rule}\u0000${text}`;
}

/** Collects findings, one per rule and construct (the same node reached twice is one finding). */
export class FindingSink {
  private readonly seen = new Set<string>();
  readonly findings: RawFinding[] = [];

  /** Record `rule` for the construct at `start..end` (offsets, for identity) spanning `line..endLine`. */
  add(rule: TamperRule, source: string, line: number, endLine: number, start: number, end: number): void {
    const id = `${rule}:${start}:${end}`;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.findings.push({ rule, line, endLine, source });
  }
}
