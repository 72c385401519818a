import { checkMergedPromotable, pickScreened } from '../../src/core/promote-source.js';
import { RANK_FIELDS, rankCandidates, sealScreening, SCREENING_SCHEMA, type RankKey, type Screening } from '../../src/core/screening.js';
import { PromoteError } from '../../src/errors.js';

/** Which candidate promote takes from a verified screening receipt, and when a merged receipt may be promoted (src/core/promote-source.ts). */

const D = (c: string): `sha256:${string}` => `sha256:${c.repeat(64)}`;
const key = (hard: number, lines: number): RankKey => ({ ...(Object.fromEntries(RANK_FIELDS.map((f) => [f, 0])) as RankKey), hard_gates_failed: hard, changed_lines: lines });

/** A screening of candidates (name, verdict, rank key), ranked by the real ranking. */
function screeningOf(candidates: { name: string; verdict: 'passed' | 'failed' | 'inconclusive'; key: RankKey }[]): Screening {
  const entries = candidates.map((c, i) => ({
    name: c.name,
    receipt: `candidates/${c.name}/receipt.json`,
    receipt_digest: D(String(i + 1)),
    diff_digest: D(String.fromCharCode(97 + i)),
    verdict: c.verdict,
    normalised_key: D(String.fromCharCode(97 + i)),
    similar: [],
    rank_key: c.key
  }));
  return sealScreening({
    schema: SCREENING_SCHEMA,
    tool_version: 'test',
    started_at: '2026-12-02T08:00:00.000Z',
    finished_at: '2026-12-02T08:01:00.000Z',
    base_snapshot: D('0'),
    witness_digest: D('f'),
    baseline_digest: D('e'),
    rank_fields: [...RANK_FIELDS],
    candidates: entries,
    ranking: rankCandidates(entries)
  });
}

describe('pickScreened', () => {
  const screening = screeningOf([
    { name: 'overfit', verdict: 'failed', key: key(1, 2) },
    { name: 'fix', verdict: 'passed', key: key(0, 6) },
    { name: 'fix-small', verdict: 'passed', key: key(0, 4) }
  ]);

  it('takes the candidate ranked first when none is named', () => {
    expect(screening.ranking.map((r) => r.name)).toEqual(['fix-small', 'fix', 'overfit']);
    expect(pickScreened(screening, undefined).name).toBe('fix-small');
  });

  it('takes a passed candidate that is not ranked first only when it is named', () => {
    expect(pickScreened(screening, 'fix').name).toBe('fix');
  });

  it('refuses a named candidate that did not pass, or is not in the screening', () => {
    expect(() => pickScreened(screening, 'overfit')).toThrow(/--candidate overfit's verdict is failed; only a passed candidate can be promoted \(passed: fix-small, fix\)/);
    expect(() => pickScreened(screening, 'nope')).toThrow(/--candidate 'nope' is no candidate of the screening; name one of fix-small, fix, overfit/);
  });

  it('refuses a screening where no candidate passed, named or not', () => {
    const none = screeningOf([
      { name: 'a', verdict: 'failed', key: key(1, 1) },
      { name: 'b', verdict: 'inconclusive', key: key(2, 1) }
    ]);
    expect(() => pickScreened(none, undefined)).toThrow(/no candidate of the screening passed \(a failed, b inconclusive\)/);
    expect(() => pickScreened(none, 'a')).toThrow(PromoteError);
  });

  it('refuses a screening whose first ranked candidate did not pass (a ranking that does not follow from the keys)', () => {
    const forged = { ...screening, ranking: [...screening.ranking].reverse() };
    expect(() => pickScreened(forged, undefined)).toThrow(/ranked first did not pass/);
  });
});

describe('checkMergedPromotable', () => {
  it('accepts only a passed, proof-grade merged verdict', () => {
    expect(() => checkMergedPromotable({ verdict: 'passed', proof_grade: true, count: 2, reasons: [] })).not.toThrow();
    expect(() => checkMergedPromotable({ verdict: 'failed', proof_grade: false, count: 2, reasons: ['regression'] })).toThrow(
      /merged verdict of the 2 shards is failed \[regression\]; only a passed validation can be promoted/
    );
    expect(() => checkMergedPromotable({ verdict: 'passed', proof_grade: false, count: 2, reasons: [] })).toThrow(/not proof grade/);
  });
});
