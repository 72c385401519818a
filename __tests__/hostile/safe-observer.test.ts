import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { ROOT, ensureCli, runCli } from '../helpers/cli.js';
import { packDigest, stageFixture, validateInDocker, type StagedFixture } from '../helpers/docker-fixture.js';
import { mayBeUnset } from '../helpers/lifecycle.js';
import { dockerGate, hostileDiff } from './hostile-support.js';

/**
 * Issue 26 item 1 / issue 28 items 2 and 10, end to end in the Docker runner through the bundled
 * CLI: a vitest candidate (`vitest-lying-array.diff`) fixes the bug and breaks `pairs`, whose result
 * array carries an `asymmetricMatch` that vitest's matchers consult first and that accepts the
 * expected `[[1, 2], [2, 3]]`. Here the check on `pairs` is a hidden test the pack author wrote
 * with `toMatchObject`, sealed by `witness seal`, and the pack allows the tamper screen's rule
 * (`tamper_allow: lying_type` for src/chunk.ts), so the screen's finding does not count: only the
 * safe observer stands between the lie and a pass. The sealed site observes `pairs(…)` through
 * intrinsics, never consulting `asymmetricMatch`, and the host applies toMatchObject's predicate:
 * the hidden phase fails, and so does the verdict.
 *
 * Without this change (the bundle of wip/land2 at abace7e) `seal` left the `toMatchObject` line
 * unsealed, the hidden phase ran in-process, vitest consulted the lie and the verdict was `passed`
 * (run by hand with that bundle, see the report of branch wip/sealjs).
 */

const gate = await dockerGate('safe-observer test');

const REPRO = `import { expect, it } from 'vitest';
import { chunk } from '../../src/chunk';

it('puts the last item in a group of its own', () => {
  expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
});
`;

const HIDDEN = `import { expect, it } from 'vitest';
import { pairs } from '../../src/chunk';

it('pairs neighbours', () => {
  expect(pairs([1, 2, 3])).toMatchObject([[1, 2], [2, 3]]);
});
`;

interface Receipt {
  verdict: string;
  proof_grade: boolean;
  phases: { name: string; status: string; grading?: string }[];
  tamper_screen?: { findings: { rule: string; path: string; allowed: boolean }[] };
}

gate.describeDocker('a lying array in a sealed vitest hidden test, tamper rule allowed, in the Docker runner', () => {
  let fixture: StagedFixture;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
    const staged = await stageFixture('safe-observer', { repo: join(ROOT, 'fixtures', 'vitest-chunk', 'repo'), pack: join(ROOT, 'witness-packs', 'vitest-chunk'), unsealed: true });
    const { pack } = staged;
    for (const phase of ['reproduction', 'hidden']) await rm(join(pack, phase), { recursive: true, force: true });
    await mkdir(join(pack, 'reproduction'), { recursive: true });
    await mkdir(join(pack, 'hidden'), { recursive: true });
    await writeFile(join(pack, 'reproduction', 'chunk-repro.test.ts'), REPRO);
    await writeFile(join(pack, 'hidden', 'pairs-hidden.test.ts'), HIDDEN);
    const manifest = JSON.parse(await readFile(join(pack, 'witness.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(join(pack, 'witness.json'), JSON.stringify({ ...manifest, tamper_allow: [{ rule: 'lying_type', paths: ['src/chunk.ts'] }] }, null, 2));
    const seal = await runCli(['witness', 'seal', pack], { tmp: staged.tmp });
    expect([seal.status, seal.stdout]).toEqual([0, expect.stringMatching(/reproduction: sealed\nhidden: sealed/)]);
    expect(await readFile(join(pack, 'hidden', 'pairs-hidden.test.ts'), 'utf8')).not.toContain('toMatchObject');
    fixture = { ...staged, digest: await packDigest(pack, staged.tmp) };
  }, 600_000);

  afterAll(async () => {
    if (mayBeUnset(fixture) !== undefined) await rm(fixture.tmp, { recursive: true, force: true });
  });

  it('the hidden phase fails on the host: the lie is observed, never consulted', async () => {
    const { receipt } = await validateInDocker<Receipt>(fixture, {
      diff: hostileDiff('vitest-lying-array'),
      label: 'safe-observer-lying-array',
      imageId: gate.imageId,
      timeoutMs: 900_000,
      setupCache: join(fixture.tmp, 'setup-cache')
    });
    const hidden = receipt.phases.find((p) => p.name === 'hidden');
    const allowed = (receipt.tamper_screen?.findings ?? []).filter((f) => f.rule === 'lying_type' && f.path === 'src/chunk.ts').map((f) => f.allowed);
    expect({ verdict: receipt.verdict, hidden: hidden?.status, grading: hidden?.grading, allowed }).toEqual({
      verdict: 'failed',
      hidden: 'failed',
      grading: 'sealed',
      allowed: [true]
    });
  }, 900_000);
});
