import { appendFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { unittestAdapter } from '../../src/adapters/unittest/index.js';
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

  it('loads staged modules under a unique name: a swap of the discovery name reaches nothing, a swap of the real one is refused', async () => {
    copy = await stageCopy(unittestAdapter, 'python-project', { from: 'python-reproduction', files: ['test_cases.py'], placement: ROOT });
    // Written in advance, the code under test can only know the discovery name: swapping it no
    // longer touches the staged module (with discovery names, this replaced it; the check refused it).
    await appendFile(
      path.join(copy.workdir, 'calculator.py'),
      '\nimport sys as _sys, types as _types\n_fake = _types.ModuleType("test_cases")\n_fake.__file__ = __file__\n_sys.modules["test_cases"] = _fake\n'
    );
    const byName = await run();
    expect(byName.parsed.tests.find((t) => t.id === 'test_cases.CasesTest.test_assertion')?.status).toBe('failed');
    expect(byName.parsed.tests.every((t) => !t.id.startsWith('_t'))).toBe(true);
    // The importer's real (unique) name, read from the stack while it imports: still refused.
    await appendFile(
      path.join(copy.workdir, 'calculator.py'),
      '\n_f = _sys._getframe(0)\nwhile _f is not None:\n    _name = _f.f_globals.get("__name__", "")\n    if _name.endswith(".test_cases"):\n        _fake2 = _types.ModuleType(_name)\n        _fake2.__file__ = __file__\n        _sys.modules[_name] = _fake2\n        break\n    _f = _f.f_back\n'
    );
    const byStack = await run();
    expect(byStack.parsed.tests).toEqual([]);
    expect(byStack.parsed.problems).toEqual([expect.stringMatching(/^unittest harness: discovery failed: RuntimeError: staged test module test_cases is not the staged file /)]);
    expect(byStack.exitCode).toBe(2);
  }, 120_000);

  it("errors every test whose method or class is not the staged file's own, whatever it reports", async () => {
    copy = await stageCopy(unittestAdapter, 'python-project', { from: 'python-reproduction', files: ['test_cases.py'], placement: ROOT });
    // The code under test patches the loader: after a staged module loads, each of its test methods
    // is replaced by a passing one of its own, and a forged class claims a test of the same module.
    await appendFile(
      path.join(copy.workdir, 'calculator.py'),
      [
        '',
        'import unittest as _u',
        '_orig = _u.TestLoader.loadTestsFromModule',
        'def _passes(self):',
        '    pass',
        'def _forge(self, module, *args, **kwargs):',
        '    for _value in list(vars(module).values()):',
        '        if isinstance(_value, type) and issubclass(_value, _u.TestCase) and _value.__module__ == module.__name__:',
        '            for _attr in list(vars(_value)):',
        '                if _attr.startswith("test"):',
        '                    setattr(_value, _attr, _passes)',
        '    _forged = type("CasesTest", (_u.TestCase,), {"__module__": module.__name__, "test_forged": _passes})',
        '    setattr(module, "ForgedCasesTest", _forged)',
        '    return _orig(self, module, *args, **kwargs)',
        '_u.TestLoader.loadTestsFromModule = _forge',
        ''
      ].join('\n')
    );
    const result = await run();
    const tests = result.parsed.tests;
    expect(tests.length).toBeGreaterThan(3);
    const assertion = tests.find((t) => t.id === 'test_cases.CasesTest.test_assertion');
    expect(assertion?.status).toBe('errored');
    expect(assertion?.message).toMatch(/^test test_cases\.CasesTest\.test_assertion is defined in calculator\.py, not in a staged file/);
    // The forged class has the staged module's name but not its file: errored as well.
    expect(tests.find((t) => t.id === 'test_cases.CasesTest.test_forged')?.status).toBe('errored');
    // Nothing of the staged module passes: every test of it was replaced.
    expect(tests.filter((t) => t.status === 'passed')).toEqual([]);
    expect(result.exitCode).toBe(1);
  }, 60_000);
});
