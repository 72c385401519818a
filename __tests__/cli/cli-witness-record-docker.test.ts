import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseOracleFile, type OracleFile } from '../../src/core/oracle.js';
import { ROOT, REFUSAL_LINE, ensureCli, fixture as fixtureOf, proposeAndApprove, runCli, tempDir } from '../helpers/cli.js';
import { dockerGate } from '../hostile/hostile-support.js';
import { mayBeUnset } from '../helpers/lifecycle.js';

/**
 * `patchproof witness record PACK --reference DIFF` end to end in the hardened Docker runner,
 * through the bundled CLI, on py-calculator. Every expected value `witness seal` took from the
 * author's literals is forgotten (each case becomes a pending site, as a non-literal expected side
 * would be), then recorded from the real fix in the container: the recorded oracle must be the
 * sealed one, value for value. A reference that does not fix the bug, or a pack whose pending site
 * the reference never reaches, is refused, and the oracle file is left as it was.
 */

const gate = await dockerGate('witness record Docker end-to-end tests');
const py = fixtureOf('py-calculator');
const PACK = join(ROOT, 'witness-packs', 'py-calculator');

let tmp: string;
let sealed: OracleFile;

/** A copy of the sealed pack whose cases are all pending (their expected values forgotten). */
async function forgetfulPack(name: string, edit: (oracle: OracleFile) => OracleFile = (o) => o): Promise<string> {
  const pack = join(tmp, name);
  await cp(PACK, pack, { recursive: true });
  const pending = sealed.cases.map((c) => ({
    phase: c.phase,
    site: c.id,
    file: c.id.slice(c.id.indexOf(':') + 1, c.id.lastIndexOf('/')),
    line: Number(c.id.slice(c.id.lastIndexOf('/') + 1)),
    text: '(forgotten)',
    comparator: c.comparator,
    ...(c.test === undefined ? {} : { test: c.test }),
    // a raises case keeps its comparator, not its recorded exact type: record takes that from the fix
    ...(c.comparator.kind === 'raises' ? { expected: null } : {})
  }));
  const oracle = edit({ schema: sealed.schema, cases: [], unsealed: [], pending });
  await writeFile(join(pack, 'oracle', 'expected.json'), `${JSON.stringify(oracle, null, 2)}\n`);
  return pack;
}

async function record(pack: string, diff: string) {
  return runCli(['witness', 'record', pack, '--reference', diff, '--repo', py.repo, '--runner', 'docker', '--image', gate.imageId, '--timeout', '60'], {
    tmp,
    timeoutMs: 240_000
  });
}

const oracleOf = async (pack: string): Promise<OracleFile> => parseOracleFile(JSON.parse(await readFile(join(pack, 'oracle', 'expected.json'), 'utf8')));

beforeAll(async () => {
  await ensureCli();
  tmp = await tempDir('record');
  sealed = await oracleOf(PACK);
}, 120_000);

afterAll(async () => {
  if (mayBeUnset(tmp) !== undefined) await rm(tmp, { recursive: true, force: true });
});

gate.describeDocker('witness record --reference in the Docker runner', () => {
  it('records from the real fix exactly the expected values witness seal took from the literals', async () => {
    gate.requireDocker();
    const pack = await forgetfulPack('forgotten');
    // Until its sites are recorded, validate refuses the pack: an observation with no expectation checks nothing.
    const approved = await proposeAndApprove(py.repo, py.candidate('fix'), tmp, tmp, 'record-refused');
    const digest = (await runCli(['witness', 'digest', pack], { tmp })).stdout.trim();
    const refused = await runCli(
      [
        'validate',
        '--repo',
        py.repo,
        '--proposal',
        approved.proposalPath,
        '--approval',
        approved.approvalPath,
        '--witness',
        pack,
        '--witness-digest',
        digest,
        '--runner',
        'docker',
        '--image',
        gate.imageId,
        '--out',
        join(tmp, 'refused-out')
      ],
      { tmp }
    );
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/site\(s\) whose expected values are not recorded yet; run 'patchproof witness record PACK --reference DIFF'/);
    const result = await record(pack, py.candidate('fix'));
    expect({ status: result.status, stderr: result.status === 0 ? '' : result.stderr.slice(-1500) }).toEqual({ status: 0, stderr: '' });
    expect(result.stdout).toMatch(new RegExp(`recorded: ${sealed.cases.length} case\\(s\\)`));
    // Both reproduction cases observe 9 and a ZeroDivisionError on the base.
    expect(result.stdout).toMatch(/discriminating: 2 reproduction case\(s\) observed otherwise on the base/);
    const recorded = await oracleOf(pack);
    expect(recorded.pending).toBeUndefined();
    expect(recorded.cases).toEqual(sealed.cases);
    // The pack is now byte for byte the sealed pack again: the same digest.
    const digests = await Promise.all([pack, PACK].map(async (dir) => (await runCli(['witness', 'digest', dir], { tmp })).stdout.trim()));
    expect(digests[0]).toBe(digests[1]);
  }, 300_000);

  it('checks the sealed cases against the reference: a diff that does not fix the bug is refused, nothing written', async () => {
    gate.requireDocker();
    const pack = join(tmp, 'sealed-copy');
    await cp(PACK, pack, { recursive: true });
    const text = await readFile(join(pack, 'oracle', 'expected.json'), 'utf8');
    const result = await record(pack, py.candidate('not-fixed'));
    expect(result.status).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines.at(-1)).toMatch(REFUSAL_LINE);
    expect(lines.at(-1)).toMatch(/witness record refused; nothing was written: .*does not satisfy sealed case reproduction:test_repro_subtraction\.py\/13/);
    expect(await readFile(join(pack, 'oracle', 'expected.json'), 'utf8')).toBe(text);
  }, 300_000);

  it('refuses a pending site the reference never observes', async () => {
    gate.requireDocker();
    const pack = await forgetfulPack('never', (oracle) => ({
      ...oracle,
      pending: [
        ...(oracle.pending ?? []),
        {
          phase: 'hidden',
          site: 'hidden:test_hidden_associativity.py/999',
          file: 'test_hidden_associativity.py',
          line: 999,
          text: 'a site no test reaches',
          comparator: { kind: 'exact' }
        }
      ]
    }));
    const result = await record(pack, py.candidate('fix'));
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/test_hidden_associativity\.py:999 was never observed with the reference fix/);
    expect((await oracleOf(pack)).pending).toHaveLength(sealed.cases.length + 1);
  }, 300_000);
});

/**
 * Issue 28: record also runs the sealed reproduction on the base, in the same container, and
 * refuses a pack whose reproduction does not tell the base from the reference fix, and one whose
 * reproduction fails with the reference fix for a reason that has nothing to do with the bug.
 */
const REPRO = 'test_repro_subtraction.py';

/** A copy of the sealed pack whose reproduction is `test` (a sealed file) with the oracle `cases`/`pending` for it. */
async function packWithReproduction(name: string, test: string, reproduction: Pick<OracleFile, 'cases' | 'pending'>): Promise<{ pack: string; text: string }> {
  const pack = join(tmp, name);
  await cp(PACK, pack, { recursive: true });
  await writeFile(join(pack, 'reproduction', REPRO), test);
  const oracle: OracleFile = {
    ...sealed,
    cases: [...reproduction.cases, ...sealed.cases.filter((c) => c.phase === 'hidden')],
    ...(reproduction.pending !== undefined ? { pending: reproduction.pending } : {})
  };
  const text = `${JSON.stringify(oracle, null, 2)}\n`;
  await writeFile(join(pack, 'oracle', 'expected.json'), text);
  return { pack, text };
}

const sealedTest = (imports: string, body: string): string =>
  [
    'from patchproof_oracle import observe, observe_raises  # sealed by patchproof witness seal',
    'import unittest',
    '',
    imports,
    '',
    '',
    'class ChainedSubtractionTest(unittest.TestCase):',
    body,
    ''
  ].join('\n');

gate.describeDocker('witness record refuses a pack that does not tell the base from the reference (issue 28)', () => {
  it('refuses a reproduction that already passes on the base, and one whose only site observes a value the test passes in', async () => {
    gate.requireDocker();
    // (a) "1 + 2" is 3 on the base too: the reproduction does not reproduce the bug.
    const passing = await packWithReproduction(
      'passes-on-base',
      sealedTest('from calculator import evaluate', '    def test_addition(self):\n        observe("reproduction:test_repro_subtraction.py/9", lambda: (evaluate("1 + 2")))'),
      { cases: [{ id: 'reproduction:test_repro_subtraction.py/9', phase: 'reproduction', expected: 3, comparator: { kind: 'exact' } }] }
    );
    // (b) The incident: a helper's assertEqual(rule, target) sealed (by an older seal) as an observation
    // of rule, the value the test itself passes in; record would store it as its own expectation.
    const vacuous = await packWithReproduction(
      'vacuous-site',
      sealedTest(
        'from calculator import evaluate',
        [
          '    def check(self, rule, target):',
          '        evaluate(rule)',
          '        observe("reproduction:test_repro_subtraction.py/11", lambda: (rule))',
          '',
          '    def test_subtractions_are_applied_left_to_right(self):',
          '        self.check("10 - 4 - 3", 3)'
        ].join('\n')
      ),
      {
        cases: [],
        pending: [
          {
            phase: 'reproduction',
            site: 'reproduction:test_repro_subtraction.py/11',
            file: REPRO,
            line: 11,
            text: 'self.assertEqual(rule, target)',
            comparator: { kind: 'exact' }
          }
        ]
      }
    );
    const [a, b] = await Promise.all([record(passing.pack, py.candidate('fix')), record(vacuous.pack, py.candidate('fix'))]);
    for (const [result, pack] of [
      [a, passing],
      [b, vacuous]
    ] as const) {
      expect(result.status).toBe(2);
      expect(result.stderr.trim().split('\n').at(-1)).toMatch(REFUSAL_LINE);
      expect(await readFile(join(pack.pack, 'oracle', 'expected.json'), 'utf8')).toBe(pack.text);
    }
    expect(a.stderr).toMatch(
      /witness record refused; nothing was written: the reproduction does not fail on the base: oracle > reproduction:test_repro_subtraction\.py\/9 hold\(s\) there/
    );
    expect(b.stderr).toMatch(
      /no sealed site of the reproduction tells the base from the reference fix \(reproduction:test_repro_subtraction\.py\/11 observed on the base what the reference observed\); such an oracle holds for any implementation/
    );
  }, 400_000);

  it('refuses a reproduction that fails with the reference fix because a module is not found', async () => {
    gate.requireDocker();
    const missing = await packWithReproduction(
      'module-not-found',
      sealedTest(
        'from calculatr import evaluate',
        '    def test_subtractions_are_applied_left_to_right(self):\n        observe("reproduction:test_repro_subtraction.py/9", lambda: (evaluate("10 - 4 - 3")))'
      ),
      { cases: [{ id: 'reproduction:test_repro_subtraction.py/9', phase: 'reproduction', expected: 3, comparator: { kind: 'exact' } }] }
    );
    const result = await record(missing.pack, py.candidate('fix'));
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /witness record refused; nothing was written: reproduction: \S+ fails with the reference fix for a reason that has nothing to do with the bug \(import_error\)/
    );
    expect(result.stderr).toMatch(/calculatr/);
    expect(await readFile(join(missing.pack, 'oracle', 'expected.json'), 'utf8')).toBe(missing.text);
  }, 300_000);
});
