/**
 * SMT-LIB 2 text for the formal gate: term builders and the parser of Z3's `get-value` answers.
 * Pure. Integers are mathematical integers here; the translator adds the obligations that keep a JS
 * number inside the safe-integer range, where the two agree.
 */

/** Number.MAX_SAFE_INTEGER: every integer of the model lies in [-SAFE, SAFE]. */
export const SAFE = '9007199254740991';

export function int(value: number | bigint): string {
  const n = BigInt(value);
  return n < 0n ? `(- ${-n})` : `${n}`;
}

export function and(...terms: string[]): string {
  const kept = terms.filter((t) => t !== 'true');
  if (kept.includes('false')) return 'false';
  if (kept.length === 0) return 'true';
  return kept.length === 1 ? kept[0]! : `(and ${kept.join(' ')})`;
}

export function or(...terms: string[]): string {
  const kept = terms.filter((t) => t !== 'false');
  if (kept.includes('true')) return 'true';
  if (kept.length === 0) return 'false';
  return kept.length === 1 ? kept[0]! : `(or ${kept.join(' ')})`;
}

export function not(term: string): string {
  if (term === 'true') return 'false';
  if (term === 'false') return 'true';
  return `(not ${term})`;
}

export function implies(a: string, b: string): string {
  if (a === 'false' || b === 'true') return 'true';
  if (a === 'true') return b;
  return `(=> ${a} ${b})`;
}

export function ite(c: string, a: string, b: string): string {
  if (c === 'true' || a === b) return a;
  if (c === 'false') return b;
  return `(ite ${c} ${a} ${b})`;
}

export function app(op: string, ...args: string[]): string {
  return `(${op} ${args.join(' ')})`;
}

/** The integer quotient truncated toward zero, as Math.trunc(a / b) gives it for b ≠ 0. */
export function truncDiv(a: string, b: string): string {
  return `(ite (>= ${a} 0) (ite (> ${b} 0) (div ${a} ${b}) (- (div ${a} (- ${b})))) (ite (> ${b} 0) (- (div (- ${a}) ${b})) (div (- ${a}) (- ${b}))))`;
}

/** JS `a % b` for b ≠ 0: the remainder takes the dividend's sign. */
export function jsRem(a: string, b: string): string {
  return `(- ${a} (* ${b} ${truncDiv(a, b)}))`;
}

export function inSafeRange(term: string): string {
  return `(and (<= (- ${SAFE}) ${term}) (<= ${term} ${SAFE}))`;
}

/** A value in a `get-value` answer: an integer or a boolean. */
export type SmtValue = bigint | boolean;

/** Parse Z3's `((name value) …)` answer of get-value: integers (`(- 5)` for negatives) and booleans. */
export function parseValues(text: string): Map<string, SmtValue> {
  const values = new Map<string, SmtValue>();
  const pattern = /\(([A-Za-z_][A-Za-z0-9_]*) (\(- (\d+)\)|(\d+)|true|false)\)/g;
  for (const match of text.matchAll(pattern)) {
    const [, name, whole, negative, positive] = match;
    if (negative !== undefined) values.set(name!, -BigInt(negative));
    else if (positive !== undefined) values.set(name!, BigInt(positive));
    else values.set(name!, whole === 'true');
  }
  return values;
}
