import { readFileSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { nodeTestAdapter } from '../../src/adapters/node-test/index.js';
import { twinBehaved } from '../../src/core/twins.js';
import { runAnomalies } from '../../src/core/verdict.js';
import { ROOT } from '../helpers/cli.js';
import { freshCanary, removeCopy, runAdapter, stageCopy, type StagedCopy } from './data/run-adapter.js';

/**
 * Why zod's `to-json-schema.test.ts` stays out of its corpus pack (docs/security.md, "Canaries and
 * mutant twins", still possible; integrations/README.md, "Found by the zod case"): a test that takes
 * an id in a module-global registry cannot run twice in one process, so a twin copy of it and its
 * original cannot both pass, and the run is judged grader_compromised with honest code. Proven here
 * on a real node:test run of a small suite built like zod's (data/js-twins-registry), and the
 * exclusion itself is pinned: the zod pack's regression globs do not reach that file.
 */

describe('twins of tests that register ids in a global registry', () => {
  let copy: StagedCopy | undefined;
  afterEach(async () => {
    await removeCopy(copy);
  });

  it('misfire on honest code: a twin disagrees with its original, the run is grader_compromised', async () => {
    copy = await stageCopy(nodeTestAdapter, 'js-twins-registry');
    const run = await runAdapter(nodeTestAdapter, copy, { files: ['test/registry.test.js'], suite: true, testRoots: [] }, freshCanary(), true);
    const twins = run.twins.filter((t) => t.kind === 'twin');
    expect(twins).toHaveLength(2);
    // Nothing can run before the file's first test, so its twin always runs after it and finds the id taken.
    expect(twins.some((t) => !twinBehaved(t))).toBe(true);
    const evidence = {
      label: 'regression_after' as const,
      attempt: 1,
      exitCode: run.exitCode,
      timedOut: false,
      outputTruncated: false,
      parsed: run.parsed,
      canary: { ...run.parsed.canary, twins: run.twins }
    };
    expect(runAnomalies(evidence)).toContain('grader_compromised');
  }, 60_000);

  it('without twins the same suite passes: the registry, not the code, is what the twins trip on', async () => {
    copy = await stageCopy(nodeTestAdapter, 'js-twins-registry');
    const run = await runAdapter(nodeTestAdapter, copy, { files: ['test/registry.test.js'], suite: true, testRoots: [] }, freshCanary(), false);
    expect(run.parsed.tests.map((t) => t.status)).toEqual(['passed', 'passed']);
  }, 60_000);

  it('the zod corpus pack leaves to-json-schema.test.ts out of its regression phase', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'integrations', 'zod-registry-remove-id', 'witness-pack', 'witness.json'), 'utf8')) as {
      regression: { include: string[]; exclude?: string[] };
    };
    const included = picomatch(manifest.regression.include);
    const excluded = picomatch(manifest.regression.exclude ?? []);
    const inPhase = (file: string): boolean => included(file) && !excluded(file);
    expect(inPhase('src/v4/classic/tests/to-json-schema.test.ts')).toBe(false);
    expect(inPhase('src/v4/classic/tests/registries.test.ts')).toBe(true);
  });
});
