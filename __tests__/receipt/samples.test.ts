import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { verifyReceiptText } from '../../src/core/receipt.js';
import { RECEIPT_V1_SCHEMA } from '../../src/core/receipt-v1.js';
import { RECEIPT_SCHEMAS } from '../../src/core/receipt-schema.js';

/**
 * Every receipt schema ever written stays verifiable: one real receipt per version, written by the
 * tool at a commit that wrote that version (data/samples/README.md names each one's origin), is
 * verified by the current code. The list of versions is the code's own, so a new schema without a
 * sample fails here.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const SAMPLES = join(import.meta.dirname, 'data', 'samples');
const HOW_TO_ADD =
  'write its sample with the bundle that writes it: commit the rebuilt dist/ (npm run build), then run `PATCHPROOF_TEST_IMAGE=<test image id> node scripts/receipt-sample.mjs` and commit what it wrote (docs/receipt.md, "Samples")';

/** Every schema this verifier knows, oldest first: v1 (frozen rules) and RECEIPT_SCHEMAS. */
const KNOWN: readonly string[] = [RECEIPT_V1_SCHEMA, ...[...RECEIPT_SCHEMAS].reverse()];

/** The samples folder of a schema: `patchproof.receipt/v7` → `v7`. */
function folderOf(schema: string): string {
  const match = /^patchproof\.receipt\/(v[1-9][0-9]*)$/.exec(schema);
  if (match?.[1] === undefined) throw new Error(`unexpected receipt schema name ${schema}`);
  return match[1];
}

function samplePath(schema: string): string {
  return join(SAMPLES, folderOf(schema), 'receipt.json');
}

/** The sample's path from the repository root, for messages. */
function shown(schema: string): string {
  return relative(ROOT, samplePath(schema));
}

/** One line per schema without a stored sample, saying how to write it. */
function missingSamples(schemas: readonly string[]): string[] {
  return schemas.filter((schema) => !existsSync(samplePath(schema))).map((schema) => `${schema}: no ${shown(schema)}; ${HOW_TO_ADD}`);
}

/**
 * The sample with one byte at `offset` (or the next letter or digit after it) replaced by another of
 * its kind, so the text mostly stays JSON and the edit reaches the structure and digest checks.
 */
function tamperedAt(text: string, offset: number): { text: string; at: number } {
  for (let at = offset; at < text.length; at += 1) {
    const ch = text[at] ?? '';
    let swap: string | undefined;
    if (/[0-8]/.test(ch)) swap = String(Number(ch) + 1);
    else if (ch === '9') swap = '0';
    else if (/[a-y]/.test(ch)) swap = String.fromCharCode(ch.charCodeAt(0) + 1);
    else if (ch === 'z') swap = 'a';
    if (swap !== undefined) return { text: `${text.slice(0, at)}${swap}${text.slice(at + 1)}`, at };
  }
  throw new Error(`no letter or digit after offset ${offset}`);
}

describe('receipt samples: every schema version ever written is still verified', () => {
  it('knows v1 and every schema of RECEIPT_SCHEMAS, in order', () => {
    expect(KNOWN.map(folderOf)).toEqual(KNOWN.map((_, i) => `v${i + 1}`));
  });

  it('has a stored sample for every schema the code knows', () => {
    expect(missingSamples(KNOWN)).toEqual([]);
  });

  it('would name a next schema added without a sample, and how to write it', () => {
    const next = `patchproof.receipt/v${KNOWN.length + 1}`;
    const missing = missingSamples([...KNOWN, next]);
    expect(missing).toHaveLength(1);
    expect(missing[0]).toContain(`${next}: no ${shown(next)}`);
    expect(missing[0]).toContain('node scripts/receipt-sample.mjs');
  });

  it('holds samples only for schemas the code knows, each with its origin in the README', () => {
    const folders = readdirSync(SAMPLES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
    expect(folders).toEqual(KNOWN.map(folderOf));
    const readme = readFileSync(join(SAMPLES, 'README.md'), 'utf8');
    for (const folder of folders) expect(readme).toMatch(new RegExp(`^- ${folder} \\(\`${folder}/receipt\\.json\`\\): .*\\b[0-9a-f]{40}\\b`, 'm'));
  });

  describe.each(KNOWN.map((schema) => [schema]))('%s', (schema) => {
    const read = (): string => {
      if (!existsSync(samplePath(schema))) throw new Error(`${schema} has no sample at ${shown(schema)}; ${HOW_TO_ADD}`);
      return readFileSync(samplePath(schema), 'utf8');
    };

    it('verifies with the current code, with the verdict and proof grade it was written with', () => {
      const text = read();
      const stored = JSON.parse(text) as { schema: string; verdict: string; proof_grade: boolean; receipt_digest: string };
      expect(stored.schema).toBe(schema);
      const check = verifyReceiptText(text);
      expect(check.errors).toEqual([]);
      expect(check.integrity_valid).toBe(true);
      expect({ verdict: check.verdict, proof_grade: check.proof_grade, receipt_digest: check.receipt_digest }).toEqual({
        verdict: stored.verdict,
        proof_grade: stored.proof_grade,
        receipt_digest: stored.receipt_digest
      });
    });

    it('refuses the sample with any one byte changed', () => {
      const text = read();
      // Offsets spread over the whole file, and the verdict's first letter.
      const offsets = [...Array.from({ length: 16 }, (_, i) => Math.floor((i * text.length) / 16)), text.indexOf('"verdict":"') + '"verdict":"'.length];
      for (const offset of offsets) {
        const { text: tampered, at } = tamperedAt(text, offset);
        const check = verifyReceiptText(tampered);
        expect({ at, integrity_valid: check.integrity_valid, refused: check.errors.length > 0 }).toEqual({ at, integrity_valid: false, refused: true });
      }
    });
  });
});
