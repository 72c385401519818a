import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ROOT, ensureCli } from '../helpers/cli.js';
import { packDigest, stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { mayBeUnset } from '../helpers/lifecycle.js';
import { dockerGate, hostileDiff } from './hostile-support.js';

/**
 * The tripwire (issue 26, item 4), end to end in the Docker runner through the bundled CLI. Each
 * candidate is one of the value lies of value-lies.test.ts that replaces a grader function:
 * node:assert/strict's `throws` (js-duration), unittest's `TestCase.assertEqual` (py-calculator),
 * jest's `toBe` through `expect.extend` (jest-money). Here the pack ALLOWS the tamper screen's
 * rules for the file that lies (`tamper_allow`), so the screen finds the lie but withholds nothing:
 * canaries, twins and mutants do not see it either (the lie is keyed on the values compared). Only
 * the tripwire is left: the regression suite's must-pass canary finds the function replaced since
 * before the code under test was imported, the run is `grader_compromised`, and the receipt names
 * the change.
 *
 * Without the tripwire (wip/land2's bundle at abace7e) each of the three passed with proof grade
 * (fixtures/hostile/README.md).
 */

const gate = await dockerGate('tripwire tests');

interface TripwireReceiptView {
  verdict: string;
  reasons: string[];
  proof_grade: boolean;
  adapter: string;
  phases: { name: string; status: string; reasons: string[]; runs: { label: string; canary: { pass: string; fail: string; changed?: string[] } }[] }[];
  tamper_screen?: { findings: { rule: string; path: string; allowed: boolean }[] };
}

interface Row {
  adapter: 'node-test' | 'unittest' | 'jest';
  fixture: string;
  diff: string;
  /** The changed non-test file that lies, allowed by the pack. */
  path: string;
  /** What the tripwire must name. */
  changed: string;
  setupCache?: true;
}

const ROWS: readonly Row[] = [
  { adapter: 'node-test', fixture: 'js-duration', diff: 'node-lying-throws', path: 'src/timeouts.js', changed: 'node:assert/strict.throws replaced' },
  { adapter: 'unittest', fixture: 'py-calculator', diff: 'py-lying-assert-equal', path: 'calculator.py', changed: 'unittest.TestCase.assertEqual replaced' },
  { adapter: 'jest', fixture: 'jest-money', diff: 'jest-lying-to-be', path: 'src/money.js', changed: 'expect matcher.toBe replaced', setupCache: true }
];

/** The fixture's committed (sealed) pack, with the tamper screen's rules allowed for `path`. */
async function allowingPack(row: Row): Promise<StagedFixture> {
  const staged = await stageFixture(`tripwire-${row.fixture}`, { repo: join(ROOT, 'fixtures', row.fixture, 'repo'), pack: join(ROOT, 'witness-packs', row.fixture) });
  const manifestPath = join(staged.pack, 'witness.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Record<string, unknown>;
  manifest.tamper_allow = ['monkeypatch', 'test_framework_reference'].map((rule) => ({ rule, paths: [row.path] }));
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return { ...staged, digest: await packDigest(staged.pack, staged.tmp) };
}

for (const row of ROWS) {
  gate.describeDocker(`the tripwire, ${row.adapter}, in the Docker runner`, () => {
    let fixture: StagedFixture;

    beforeAll(async () => {
      gate.requireDocker();
      await ensureCli();
      fixture = await allowingPack(row);
    }, 300_000);

    afterAll(async () => {
      if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
    });

    it(`${row.diff}, its lie allowed by the pack: grader_compromised, the receipt names ${row.changed}`, async () => {
      const { receipt } = await validateInDocker<TripwireReceiptView>(fixture, {
        diff: hostileDiff(row.diff),
        label: `tripwire-${row.adapter}`,
        imageId: gate.imageId,
        timeoutMs: 900_000,
        ...(row.setupCache === true ? { setupCache: join(fixture.tmp, 'setup-cache') } : {})
      });
      expect(receipt.adapter).toBe(row.adapter);
      // The screen saw the lie, and the pack allowed it: nothing but the tripwire is left to stop it.
      const findings = (receipt.tamper_screen?.findings ?? []).filter((f) => f.path === row.path);
      expect(findings.length > 0 && findings.every((f) => f.allowed)).toBe(true);
      const regression = receipt.phases.find((p) => p.name === 'regression');
      const named = [...new Set((regression?.runs ?? []).flatMap((r) => r.canary.changed ?? []))];
      expect({ verdict: receipt.verdict, proof_grade: receipt.proof_grade, reasons: regression?.reasons, named }).toEqual({
        verdict: expect.not.stringMatching(/^passed$/),
        proof_grade: false,
        reasons: expect.arrayContaining(['grader_compromised']),
        named: expect.arrayContaining([row.changed])
      });
    }, 900_000);
  });
}
