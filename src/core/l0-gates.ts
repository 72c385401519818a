import picomatch from 'picomatch';
import type { FileChange } from './diff-policy.js';

/**
 * The L0 policy gate: cheap checks of the diff itself, before any container runs (`screen`, and
 * `validate --early-exit`). Pure: the changes and the pack's `allowed_paths` in, findings out.
 *
 * Hard rules fail the candidate (verdict failed, reason `policy_gate_failed`, later phases
 * `not_run`); soft rules only count as risk findings in the ranking. Python indentation is never
 * treated as insignificant whitespace.
 */

export const L0_RULES = ['outside_allowed_paths', 'secret', 'generated_file', 'whitespace_only_hunk'] as const;
export type L0Rule = (typeof L0_RULES)[number];

/** Rules that stop a candidate; the others are risk findings for the ranking only. */
export const HARD_L0_RULES: readonly L0Rule[] = ['outside_allowed_paths', 'secret', 'generated_file'];

export interface L0Finding {
  rule: L0Rule;
  path: string;
  /** The line in the new file (added lines) or the hunk's first new line; absent for path rules. */
  line?: number;
  /** What matched, with any secret's value left out. */
  detail: string;
}

/** Paths that look generated: bundles, minified files, maps, bytecode, vendored or generated sources. */
const GENERATED_PATHS = picomatch(
  ['**/*.min.js', '**/*.min.css', '**/*.map', '**/*.pyc', '**/__pycache__/**', '**/node_modules/**', 'dist/**', '**/*.generated.*', '**/*_pb2.py', '**/*.pb.go'],
  { dot: true }
);
/** Markers generators write into their outputs. */
const GENERATED_MARKER = /@generated\b|\bDO NOT EDIT\b|\bautomatically generated\b/i;

/** Paths that hold secrets by convention. */
const SECRET_PATHS = picomatch(['**/.env', '**/.env.*', '**/*.pem', '**/*.key', '**/id_rsa', '**/id_ed25519', '**/*.p12'], { dot: true });
/** Well-known credential shapes; the value itself never goes into a finding. */
const SECRET_LINES: readonly { name: string; pattern: RegExp }[] = [
  { name: 'private key block', pattern: /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/ },
  { name: 'AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { name: 'GitHub token', pattern: /\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bgithub_pat_[A-Za-z0-9_]{40,}\b/ },
  { name: 'Slack token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/ },
  { name: 'npm token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/ },
  { name: 'credential assignment', pattern: /\b(?:api[_-]?key|secret[_-]?key|client[_-]?secret|password|passwd|auth[_-]?token|access[_-]?token)\b\s*[:=]\s*["'][^"'\s]{12,}["']/i }
];

const isPython = (path: string): boolean => /\.pyi?$/.test(path);

/**
 * Is this hunk a change of whitespace only? Elsewhere all whitespace is dropped before comparing;
 * in Python only blank lines and trailing whitespace are, because indentation is syntax there.
 */
function whitespaceOnly(path: string, lines: readonly string[]): boolean {
  const removed = lines.filter((l) => l.startsWith('-')).map((l) => l.slice(1));
  const added = lines.filter((l) => l.startsWith('+')).map((l) => l.slice(1));
  if (removed.length === 0 && added.length === 0) return false;
  if (isPython(path)) {
    const norm = (side: string[]): string =>
      side
        .map((l) => l.replace(/[ \t\r]+$/, ''))
        .filter((l) => l !== '')
        .join('\n');
    return norm(removed) === norm(added);
  }
  const norm = (side: string[]): string => side.join('').replace(/\s+/g, '');
  return norm(removed) === norm(added);
}

/** Every L0 finding of a diff, in path order, then line order. */
export function l0Findings(changes: readonly FileChange[], allowedPaths: readonly string[] | undefined): L0Finding[] {
  const allowed = allowedPaths === undefined ? undefined : picomatch([...allowedPaths], { dot: true });
  const findings: L0Finding[] = [];
  for (const change of [...changes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const { path } = change;
    if (allowed !== undefined && !allowed(path)) findings.push({ rule: 'outside_allowed_paths', path, detail: `${change.op} of a path outside the pack's allowed_paths` });
    if (SECRET_PATHS(path) && change.op !== 'delete') findings.push({ rule: 'secret', path, detail: 'a file of a kind that holds secrets (.env, key, certificate)' });
    if (GENERATED_PATHS(path) && change.op !== 'delete')
      findings.push({ rule: 'generated_file', path, detail: 'a path that looks generated (bundle, minified, map, bytecode, vendored)' });
    let markedGenerated = false;
    for (const hunk of change.hunks) {
      let line = hunk.newStart;
      for (const text of hunk.lines) {
        if (text.startsWith('+')) {
          const added = text.slice(1);
          const secret = SECRET_LINES.find((s) => s.pattern.test(added));
          if (secret !== undefined) findings.push({ rule: 'secret', path, line, detail: `an added line looks like a ${secret.name}` });
          if (!markedGenerated && GENERATED_MARKER.test(added)) {
            markedGenerated = true;
            findings.push({ rule: 'generated_file', path, line, detail: 'an added line carries a generator marker (@generated, DO NOT EDIT)' });
          }
        }
        if (!text.startsWith('-') && !text.startsWith('\\')) line += 1;
      }
      if (change.op === 'modify' && whitespaceOnly(path, hunk.lines)) {
        findings.push({ rule: 'whitespace_only_hunk', path, line: hunk.newStart, detail: 'a hunk that changes whitespace only (unrelated formatting)' });
      }
    }
  }
  return findings;
}

/** Does any finding stop the candidate? */
export function l0Failed(findings: readonly L0Finding[]): boolean {
  return findings.some((f) => HARD_L0_RULES.includes(f.rule));
}

/** Lines added plus lines removed: the ranking's `changed_lines`. */
export function changedLines(changes: readonly FileChange[]): number {
  return changes.reduce((sum, c) => sum + c.hunks.reduce((n, h) => n + h.lines.filter((l) => l.startsWith('+') || l.startsWith('-')).length, 0), 0);
}
