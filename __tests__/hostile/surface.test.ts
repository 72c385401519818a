import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PHASES, area, dockerGate, ensureCli, hostileDiff, validateCandidate, type Area, type Validation } from './hostile-support.js';

/**
 * Candidates that change how the staged tests run without touching a test file, end to end in
 * Docker on the py-calculator fixture with an overfit fix (right for the reproduction only):
 *  - a root module named like the hidden test module, with tests that always pass;
 *  - a root `*.dist-info` whose entry point autoloads a pytest plugin turning failures into passes
 *    (sparing tests whose names appear in the environment, as the canaries' did).
 * Both are test surface: removed before the run, and `grader_tampered`.
 */

const gate = await dockerGate('hostile surface tests');

interface SurfaceView {
  surface: { findings: { path: string; categories: string[] }[]; removed: string[] };
}

gate.describeDocker('importable files and shadowing modules', () => {
  let where: Area;

  beforeAll(async () => {
    gate.requireDocker();
    await ensureCli();
  }, 180_000);

  beforeEach(async () => {
    where = await area('hostile-surface');
  });

  afterEach(async () => {
    await where.dispose();
  });

  function expectTamperedAndFailed(result: Validation): SurfaceView {
    expect(result.receipt).not.toBeNull();
    expect(result.verify?.status).toBe(0);
    expect(result.validation.status).toBe(1);
    expect(result.receipt!.verdict).toBe('failed');
    expect(result.receipt!.reasons).toContain('grader_tampered');
    expect(result.receipt!.phases.map((p) => p.name)).toEqual(PHASES);
    // The overfit fix is what it is once the candidate's grader is gone: the hidden tests fail.
    expect(result.receipt!.phases.find((p) => p.name === 'hidden')!.status).toBe('failed');
    expect(result.containersLeft).toEqual([]);
    return JSON.parse(readFileSync(join(where.dir, 'out', 'receipt.json'), 'utf8')) as SurfaceView;
  }

  it('unittest: a root module shadowing the hidden test module is removed, reported under its own path', async () => {
    const result = await validateCandidate(where, { diff: hostileDiff('py-shadow-hidden'), runner: 'docker', imageId: gate.imageId, timeoutSeconds: 60, fixture: 'py-calculator' });
    const receipt = expectTamperedAndFailed(result);
    expect(receipt.surface.findings).toContainEqual(expect.objectContaining({ path: 'test_hidden_associativity.py', categories: ['test', 'shadow'] }));
    expect(receipt.surface.removed).toContain('test_hidden_associativity.py');
  }, 120_000);

  it('pytest: a dist-info that autoloads a plugin is removed and autoload is off', async () => {
    const result = await validateCandidate(where, {
      diff: hostileDiff('py-dist-info-plugin'),
      runner: 'docker',
      imageId: gate.imageId,
      timeoutSeconds: 60,
      fixture: 'py-calculator',
      adapter: 'pytest'
    });
    const receipt = expectTamperedAndFailed(result);
    expect(receipt.surface.findings).toContainEqual({ path: 'evil_grader-1.0.dist-info/entry_points.txt', change: 'add', categories: ['config'], skip_markers: [] });
    expect(receipt.surface.removed).toEqual(expect.arrayContaining(['evil_grader-1.0.dist-info/METADATA', 'evil_grader-1.0.dist-info/entry_points.txt']));
  }, 120_000);
});
