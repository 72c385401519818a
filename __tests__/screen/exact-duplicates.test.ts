import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ROOT } from '../helpers/cli.js';
import { exactKey, normalisedKey, similarity } from '../../src/core/normalise.js';
import { shardMembers } from '../../src/core/screening.js';
import { originalsOf, proposeCandidate, screenBase } from '../../src/phases/screen-pipeline.js';

/**
 * Which candidates of a screening share one validation: only those whose changed files are
 * byte-identical. Code can read its own comments back (Function.prototype.toString,
 * inspect.getsource, stack line numbers), so a copy that differs only in comments and layout is
 * validated on its own, and reported as a near-duplicate. Real diffs of fixtures/js-duration:
 * the fix, the same change with less diff context (byte-identical result) and the fix with other
 * comments and spacing (the same tokens, other bytes).
 */

const FIXTURE = join(ROOT, 'fixtures', 'js-duration');
const LIMITS = { maxBytes: 1024 * 1024, maxFiles: 200 };

async function propose(): Promise<Record<'fix' | 'fix-context' | 'fix-comments', ReturnType<typeof proposeCandidate> & { name: string }>> {
  const base = await screenBase(join(FIXTURE, 'repo'));
  const read = (path: string): Promise<string> => readFile(join(FIXTURE, path), 'utf8');
  return {
    fix: { name: 'fix', ...proposeCandidate(await read('candidates/fix.diff'), base, LIMITS) },
    'fix-context': { name: 'fix-context', ...proposeCandidate(await read('screen-candidates/fix-context.diff'), base, LIMITS) },
    'fix-comments': { name: 'fix-comments', ...proposeCandidate(await read('screen-candidates/fix-comments.diff'), base, LIMITS) }
  };
}

describe('exact duplicates share a validation; normalised ones do not', () => {
  it('keys the byte-identical copy like the fix, and the comment-only copy apart (with the same normalised key)', async () => {
    const c = await propose();
    // Two different diffs with one result.
    expect(c['fix-context'].proposal.diff_digest).not.toBe(c.fix.proposal.diff_digest);
    expect(c['fix-context'].exact).toBe(c.fix.exact);
    expect(c['fix-context'].key).toBe(c.fix.key);
    // The comment-only copy: the same tokens, other bytes.
    expect(c['fix-comments'].key).toBe(c.fix.key);
    expect(c['fix-comments'].exact).not.toBe(c.fix.exact);
    expect(similarity(c['fix-comments'].applied, c.fix.applied)).toBe(1);
  });

  it('groups the byte-identical copy with the fix, never the comment-only copy', async () => {
    const c = await propose();
    const candidates = [c.fix, c['fix-comments'], c['fix-context']];
    const original = originalsOf(candidates);
    expect(original.get(c.fix.exact)?.name).toBe('fix');
    expect(original.get(c['fix-context'].exact)?.name).toBe('fix');
    expect(original.get(c['fix-comments'].exact)?.name).toBe('fix-comments');
    expect(original.size).toBe(2);
    // Sharding keeps an exact group in one shard, and may put the comment-only copy in another.
    const keys = candidates.map((x) => ({ name: x.name, key: x.exact }));
    expect([...shardMembers(keys, 1, 2)]).toEqual(['fix', 'fix-context']);
    expect([...shardMembers(keys, 2, 2)]).toEqual(['fix-comments']);
  });

  it('keys exact bytes: a comment, a space or a deletion changes the exact key', () => {
    const js = (text: string): Buffer => Buffer.from(text, 'utf8');
    const plain = new Map([['src/a.js', js('let a = 1;\n')]]);
    const comment = new Map([['src/a.js', js('let a = 1; // x\n')]]);
    const spaced = new Map([['src/a.js', js('let a  = 1;\n')]]);
    expect(normalisedKey(comment)).toBe(normalisedKey(plain));
    expect(normalisedKey(spaced)).toBe(normalisedKey(plain));
    expect(exactKey(comment)).not.toBe(exactKey(plain));
    expect(exactKey(spaced)).not.toBe(exactKey(plain));
    expect(exactKey(new Map([['src/a.js', js('let a = 1;\n')]]))).toBe(exactKey(plain));
    expect(exactKey(new Map([['src/b.js', js('let a = 1;\n')]]))).not.toBe(exactKey(plain));
    expect(exactKey(new Map([['src/a.js', null]]))).not.toBe(exactKey(new Map([['src/a.js', js('')]])));
  });
});
