import { appendFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { unittestAdapter } from '../../src/adapters/unittest.js';
import { removeCopy, runAdapter, stageCopy, type StagedCopy } from './data/run-adapter.js';

/**
 * The second defence against a repository module named like a staged test (the first is the
 * `shadow` surface finding, which removes it): the unittest harness imports staged tests by file
 * path, not by a name looked up on `sys.path` (where the repository root comes first), and checks
 * afterwards that each loaded module is still the one made from the staged file. Real python3 runs
 * of the harness on python-project with the reproduction's test_cases.py staged.
 */

const ROOT = '.patchproof/reproduction';

describe('unittest harness: staged tests by file path', () => {
  let copy: StagedCopy | undefined;

  afterEach(async () => {
    await removeCopy(copy);
    copy = undefined;
  });

  async function run(): Promise<Awaited<ReturnType<typeof runAdapter>>> {
    return runAdapter(unittestAdapter, copy!, { files: [`${ROOT}/test_cases.py`], suite: false, testRoots: [ROOT] });
  }

  it('runs the staged module, not a same-named module at the repository root', async () => {
    copy = await stageCopy(unittestAdapter, 'python-project', { from: 'python-reproduction', files: ['test_cases.py'], placement: ROOT });
    // Discovery by name would import this one (the repository root is first on sys.path).
    await writeFile(
      path.join(copy.workdir, 'test_cases.py'),
      'import unittest\n\n\nclass CasesTest(unittest.TestCase):\n    def test_passes(self):\n        pass\n\n    def test_shadow_only(self):\n        pass\n'
    );
    const result = await run();
    const ids = result.parsed.tests.map((t) => t.id);
    expect(ids).toContain('test_cases.CasesTest.test_assertion');
    expect(ids).not.toContain('test_cases.CasesTest.test_shadow_only');
    expect(result.parsed.tests.find((t) => t.id === 'test_cases.CasesTest.test_assertion')?.status).toBe('failed');
    expect(result.parsed.tests.find((t) => t.id === 'test_cases.CasesTest.test_passes')?.location).toBe(`${ROOT}/test_cases.py:11`);
    expect(result.exitCode).toBe(1);
  }, 60_000);

  it('refuses a staged module that the code under test replaced while it was imported', async () => {
    copy = await stageCopy(unittestAdapter, 'python-project', { from: 'python-reproduction', files: ['test_cases.py'], placement: ROOT });
    // The code under test, imported by the staged test, swaps the module being loaded for its own.
    await appendFile(
      path.join(copy.workdir, 'calculator.py'),
      '\nimport sys as _sys, types as _types\n_fake = _types.ModuleType("test_cases")\n_fake.__file__ = __file__\n_sys.modules["test_cases"] = _fake\n'
    );
    const result = await run();
    expect(result.parsed.tests).toEqual([]);
    expect(result.parsed.problems).toEqual([expect.stringMatching(/^unittest harness: discovery failed: RuntimeError: staged test module test_cases is not the staged file /)]);
    expect(result.exitCode).toBe(2);
  }, 60_000);
});
