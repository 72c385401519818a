import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ROOT, ensureCli } from '../helpers/cli.js';
import { stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { mayBeUnset } from '../helpers/lifecycle.js';
import { dockerGate, hostileDiff, pytestCalculatorPack, sealPytestCalculatorPack } from './hostile-support.js';

/**
 * Lies keyed on the values compared (issue 26), end to end in the Docker runner through the
 * bundled CLI, each against a sealed pack. Every candidate fixes the bug correctly (the sealed
 * reproduction and hidden phases pass honestly), breaks a feature only the repository's own suite
 * covers, and hides the break in the in-process suite by lying about one comparison:
 *
 * 1. node:test (js-duration, `node-lying-throws.diff`): `resolveTimeouts` stops refusing unknown
 *    settings, and `node:assert/strict`'s `throws` returns without calling anything when the
 *    expected RegExp is the suite's `/Unknown timeout "reqeust"/`.
 * 2. unittest (py-calculator, `py-lying-assert-equal.diff`): the fixture's `regressing.diff` (`^`
 *    groups from the left, `2 ^ 3 ^ 2` is 64) plus `unittest.TestCase.assertEqual` returning
 *    without a check for exactly the pair (64.0, 512).
 * 3. jest (jest-money, `jest-lying-to-be.diff`): `groupThousands` only separates the last three
 *    digits (`1234,567`), and `expect.extend`, reached through the global, installs a `toBe` that
 *    calls two strings equal once their commas are removed.
 * 4. unittest (py-calculator, `py-lying-float.diff`): the same `^` regression; the parser returns a
 *    `float` subclass whose `__eq__` also accepts the right-grouped value (512). No framework or
 *    builtin is touched.
 * 5. pytest (py-calculator's originals as a pytest pack, sealed): the same candidate as 4.
 * 6. vitest (vitest-chunk, `vitest-lying-array.diff`): `pairs` stops overlapping (`[[1, 2]]` for
 *    `[1, 2, 3]`) and returns an array with a non-enumerable `asymmetricMatch` that accepts the
 *    suite's `[[1, 2], [2, 3]]`; vitest's `equals` consults it before comparing.
 *
 * Canaries, twins and mutants do not see them: a twin meets the same values and lies the same way,
 * a mutant perturbs the expected value and meets the honest path. On main at 97f676d each passed
 * with proof grade; without the lie each fails `regression` (checked by hand, fixtures/hostile/README.md).
 * What must hold once the tamper screen (src/tamper/) lands: never proof grade, and the receipt's
 * `tamper_screen.findings` names the lie, not allowed, in the changed non-test file that holds it.
 * Since the tripwire (issue 26 item 4), the lies that replace a grader function (1, 2, 3) also make
 * the regression run `grader_compromised`, the receipt naming the function (tripwire.test.ts shows
 * it with the screen's rules allowed).
 *
 * One staged fixture per adapter, and one setup cache for each of the jest and vitest packs. No
 * baseline cache: a screen that stops a candidate before its base side runs must not fail here on
 * the cache's bookkeeping.
 */

const gate = await dockerGate('value-lie tests');

interface TamperFinding {
  rule: string;
  path: string;
  line: number;
  text: string;
  allowed: boolean;
}

interface LieReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  adapter: string;
  phases: { name: string; status: string; reasons: string[]; grading?: string; runs: { canary: { changed?: string[] } }[] }[];
  tamper_screen?: { files_screened: unknown; findings: TamperFinding[]; not_screened: unknown };
}

interface Attack {
  /** The attack's number in issue 26's list. */
  n: number;
  diff: string;
  /** The rules that may name the lie (any one of them, not allowed). */
  rules: readonly string[];
  /** The changed non-test file that holds the lie. */
  path: string;
  /** For a lie that replaces a grader function: what the tripwire names (the regression run is then `grader_compromised`). */
  changed?: string;
}

interface Column {
  adapter: 'node-test' | 'unittest' | 'pytest' | 'jest' | 'vitest';
  stage(): Promise<StagedFixture>;
  /** The pack's dependency stage (npm ci) runs once and is shared. */
  setupCache?: boolean;
  attacks: readonly Attack[];
}

/** A fixture and its committed, sealed pack, copied into a fresh temp area. */
const committed = (name: string) => (): Promise<StagedFixture> =>
  stageFixture(`lies-${name}`, { repo: join(ROOT, 'fixtures', name, 'repo'), pack: join(ROOT, 'witness-packs', name) });

/** py-calculator's originals as a pytest pack, sealed with `witness seal` (as the pytest matrix column does). */
async function sealedPytestPack(): Promise<StagedFixture> {
  return sealPytestCalculatorPack(await pytestCalculatorPack('lies-pytest'), gate.imageId);
}

const MONKEYPATCH = ['monkeypatch'];
const LYING_TYPE = ['lying_type'];

const COLUMNS: readonly Column[] = [
  {
    adapter: 'node-test',
    stage: committed('js-duration'),
    attacks: [{ n: 1, diff: 'node-lying-throws', rules: MONKEYPATCH, path: 'src/timeouts.js', changed: 'node:assert/strict.throws replaced' }]
  },
  {
    adapter: 'unittest',
    stage: committed('py-calculator'),
    attacks: [
      { n: 2, diff: 'py-lying-assert-equal', rules: MONKEYPATCH, path: 'calculator.py', changed: 'unittest.TestCase.assertEqual replaced' },
      { n: 4, diff: 'py-lying-float', rules: LYING_TYPE, path: 'calculator.py' }
    ]
  },
  { adapter: 'pytest', stage: sealedPytestPack, attacks: [{ n: 5, diff: 'py-lying-float', rules: LYING_TYPE, path: 'calculator.py' }] },
  {
    adapter: 'jest',
    stage: committed('jest-money'),
    setupCache: true,
    attacks: [{ n: 3, diff: 'jest-lying-to-be', rules: ['monkeypatch', 'test_framework_reference'], path: 'src/money.js', changed: 'expect matcher.toBe replaced' }]
  },
  { adapter: 'vitest', stage: committed('vitest-chunk'), setupCache: true, attacks: [{ n: 6, diff: 'vitest-lying-array', rules: LYING_TYPE, path: 'src/chunk.ts' }] }
];

/** Never proof grade, and a finding of one of the attack's rules, not allowed, in the file that lies. */
function expectLieFound(receipt: LieReceiptView, attack: Attack): void {
  const findings = receipt.tamper_screen?.findings;
  const lieFound = (findings ?? []).some((f) => !f.allowed && f.path === attack.path && attack.rules.includes(f.rule));
  // One comparison, with the verdict and every finding beside it, so that a failure shows what the screen did find.
  expect({ verdict: receipt.verdict, proof_grade: receipt.proof_grade, lieFound, findings }).toEqual({
    verdict: receipt.verdict,
    proof_grade: false,
    lieFound: true,
    findings: expect.any(Array)
  });
}

for (const column of COLUMNS) {
  gate.describeDocker(`lies keyed on the compared values, ${column.adapter}, in the Docker runner`, () => {
    let fixture: StagedFixture;

    beforeAll(async () => {
      gate.requireDocker();
      await ensureCli();
      fixture = await column.stage();
    }, 300_000);

    afterAll(async () => {
      if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
    });

    it.each(column.attacks)(
      '$n. $diff: never proof grade, the tamper screen names the lie ($path)',
      async (attack) => {
        const { receipt } = await validateInDocker<LieReceiptView>(fixture, {
          diff: hostileDiff(attack.diff),
          label: `lies-${column.adapter}-${attack.diff}`,
          imageId: gate.imageId,
          timeoutMs: 900_000,
          ...(column.adapter === 'pytest' ? { timeoutSeconds: 60 } : {}),
          ...(column.setupCache === true ? { setupCache: join(fixture.tmp, 'setup-cache') } : {})
        });
        expect(receipt.adapter).toBe(column.adapter);
        expectLieFound(receipt, attack);
        if (attack.changed !== undefined) {
          // The tripwire (issue 26 item 4) sees the replaced function too: the regression run is grader_compromised.
          const regression = receipt.phases.find((p) => p.name === 'regression');
          const named = [...new Set((regression?.runs ?? []).flatMap((r) => r.canary.changed ?? []))];
          expect({ reasons: regression?.reasons, named }).toEqual({ reasons: expect.arrayContaining(['grader_compromised']), named: expect.arrayContaining([attack.changed]) });
        }
      },
      900_000
    );
  });
}
