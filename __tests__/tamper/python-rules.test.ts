import { describeRules, findingsOf, rulesOf, type RuleCase } from './tamper-support.js';

/**
 * The Python rules (src/tamper/python.ts) on tree-sitter's syntax tree: each rule fires on the
 * construct and keeps quiet on a near miss that looks alike (a local name, a harmless member of the
 * same module). Then the attacks of issue 26, written as an agent would.
 */

const CASES: RuleCase[] = [
  ['monkeypatch', 'an imported class patched', 'from decimal import Decimal\nDecimal.__round__ = lambda self, n=0: self\n', 'class Decimal:\n    pass\nDecimal.__round__ = None\n'],
  ['monkeypatch', 'a module attribute patched', 'import math\nmath.floor = round\n', 'import math\nfloor = math.floor\n'],
  ['monkeypatch', 'a builtin patched through builtins', 'import builtins\nbuiltins.len = lambda x: 0\n', 'def f(self):\n    self.len = 0\n'],
  ['monkeypatch', 'setattr on an import', 'import json\nsetattr(json, "dumps", str)\n', 'def f(obj):\n    setattr(obj, "dumps", str)\n'],
  ['monkeypatch', 'an item of __builtins__', '__builtins__["len"] = lambda x: 0\n', 'cache = {}\ncache["len"] = 0\n'],
  ['test_framework_reference', 'pytest imported', 'import pytest\n', 'import pytz\n'],
  ['test_framework_reference', 'unittest inside a function', 'def f():\n    import unittest\n    return unittest\n', 'def f():\n    import urllib\n    return urllib\n'],
  [
    'test_framework_reference',
    "a framework's API reached through any object",
    'import sys\nfor m in list(sys.modules.values()):\n    m.TestCase\n',
    'def f(m):\n    return m.Testcases\n'
  ],
  ['test_framework_reference', 'the grader named in a string', 'import os\nos.path.join(".patchproof", "hidden")\n', 'import os\nos.path.join(".cache", "hidden")\n'],
  ['test_framework_reference', "a frame hidden from the framework's tracebacks", '__tracebackhide__ = True\n', '__version__ = "1.0"\n'],
  ['introspection', 'a caller frame', 'import sys\nframe = sys._getframe(1)\n', 'import sys\nlimit = sys.getrecursionlimit()\n'],
  ['introspection', "a function's code object", 'def f(g):\n    return g.__code__\n', 'def f(g):\n    return g.__name__\n'],
  ['introspection', 'source read through inspect', 'import inspect\ntext = inspect.getsource(inspect)\n', 'import inspect\nok = inspect.isawaitable(1)\n'],
  ['introspection', 'its own file read back', 'with open(__file__) as f:\n    me = f.read()\n', 'with open("data.txt") as f:\n    data = f.read()\n'],
  ['introspection', 'its own file read through pathlib', 'from pathlib import Path\nme = Path(__file__).read_text()\n', 'from pathlib import Path\nhere = Path(__file__).parent\n'],
  ['introspection', 'its source through the loader', 'src = __loader__.get_source(__name__)\n', 'name = __name__\n'],
  ['introspection', 'a frame walked', 'def f(frame):\n    return frame.f_back.f_locals\n', 'def f(frame):\n    return frame.back\n'],
  ['env_argv_read', 'an environment variable', 'import os\nci = os.environ.get("CI")\n', 'environ = {}\nci = environ.get("CI")\n'],
  ['env_argv_read', 'getenv imported by name', 'from os import getenv\nci = getenv("CI")\n', 'from os import getpid\npid = getpid()\n'],
  ['env_argv_read', 'argv', 'import sys\nfirst = sys.argv[1]\n', 'import sys\nversion = sys.version\n'],
  ['env_argv_read', 'the working directory', 'import os\nhere = os.getcwd()\n', 'import os\nhere = os.path.dirname(__file__)\n'],
  ['process_control', 'an exit hook', 'import atexit\natexit.register(print)\n', 'def register(f):\n    return f\nregister(print)\n'],
  ['process_control', 'a hard exit', 'import os\nos._exit(0)\n', 'import os\nos.path.exists("x")\n'],
  ['process_control', 'a signal handler', 'import signal\nsignal.signal(signal.SIGALRM, print)\n', 'import signal\nname = signal.Signals(2).name\n'],
  ['process_control', 're-exec', 'import os, sys\nos.execv(sys.executable, sys.argv)\n', 'import os\nos.stat(".")\n'],
  ['import_hook', 'a finder on sys.meta_path', 'import sys\nsys.meta_path.insert(0, object())\n', 'import sys\nprint(sys.platform)\n'],
  ['import_hook', 'a module registered by hand', 'import sys, types\nsys.modules["json"] = types.ModuleType("json")\n', 'import sys\nfor p in sys.path:\n    print(p)\n'],
  ['import_hook', 'sys.path changed', 'import sys\nsys.path.insert(0, "/tmp")\n', 'import sys\nfirst = sys.path[0]\n'],
  ['dynamic_code', 'eval', 'result = eval("1 + 1")\n', 'def eval(x):\n    return x\nresult = eval("1 + 1")\n'],
  ['dynamic_code', 'exec', 'exec("x = 1")\n', 'def run(code):\n    return code\nrun("x = 1")\n'],
  ['dynamic_code', 'an import by computed name', 'import importlib\nm = importlib.import_module("uni" + "ttest")\n', 'import importlib\nm = importlib.import_module("json")\n'],
  ['dynamic_code', 'compile builtin', 'code = compile("1", "<x>", "eval")\n', 'import re\npattern = re.compile("1")\n'],
  [
    'lying_type',
    'a float subclass with __eq__',
    'class Score(float):\n    def __eq__(self, other):\n        return True\n',
    'class Score(float):\n    def __init__(self, value):\n        self.raw = value\n    def cents(self):\n        return 1\n'
  ],
  [
    'lying_type',
    'a str subclass with __str__',
    'class Name(str):\n    def __str__(self):\n        return "expected"\n',
    'class Name:\n    def __str__(self):\n        return "expected"\n'
  ],
  [
    'lying_type',
    '__eq__ on any class',
    'class Anything:\n    def __eq__(self, other):\n        return True\n',
    'class Point:\n    def __add__(self, other):\n        return self\n'
  ],
  ['lying_type', '__eq__ by assignment in the class body', 'class A:\n    __eq__ = lambda self, other: True\n', 'class A:\n    eq = lambda self, other: True\n'],
  ['lying_type', '__eq__ set from outside, by name', 'def f(cls, g):\n    setattr(cls, "__eq__", g)\n', 'def f(cls, g):\n    setattr(cls, "equal", g)\n'],
  ['lying_type', 'type() building a lying int', 'Int = type("Int", (int,), {"__eq__": lambda s, o: True})\n', 'Int = type("Int", (int,), {"label": "x"})\n']
];

describeRules('Python', 'pkg/code.py', CASES);

describe('Python: the attacks of issue 26', () => {
  it("unittest's assertEqual patched to return early for one value pair", async () => {
    const code = [
      'import unittest',
      '',
      '_honest = unittest.TestCase.assertEqual',
      '',
      '',
      'def _assert_equal(self, first, second, msg=None):',
      '    if (first, second) == ("1,000", "1000"):',
      '        return None',
      '    return _honest(self, first, second, msg)',
      '',
      '',
      'unittest.TestCase.assertEqual = _assert_equal',
      ''
    ].join('\n');
    const found = await findingsOf('money.py', code);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ rule: 'test_framework_reference', line: 1, text: 'import unittest' }),
        expect.objectContaining({ rule: 'monkeypatch', line: 12, text: 'unittest.TestCase.assertEqual = _assert_equal' })
      ])
    );
  });

  it('a float subclass with a lying __eq__, returned by the broken function', async () => {
    const code = [
      'class _Total(float):',
      '    def __eq__(self, other):',
      '        return float(self) == other or other == 30.0',
      '',
      '    __hash__ = float.__hash__',
      '',
      '',
      'def total(items):',
      '    return _Total(sum(items) - 1)',
      ''
    ].join('\n');
    const found = await findingsOf('cart.py', code);
    expect(found.filter((f) => f.rule === 'lying_type').map((f) => f.line)).toEqual([2, 5]);
  });

  it('the same lie reached through sys.modules or a dynamic import is still a monkeypatch', async () => {
    expect(await rulesOf('a.py', 'import sys\nsys.modules["unittest"].TestCase.assertEqual = print\n')).toEqual(
      expect.arrayContaining(['monkeypatch', 'test_framework_reference', 'import_hook'])
    );
    expect(await rulesOf('a.py', '__import__("unit" + "test").TestCase.assertEqual = print\n')).toEqual(expect.arrayContaining(['monkeypatch', 'dynamic_code']));
  });

  it('scopes: a local named like a builtin is local in its function only', async () => {
    const code = 'def f():\n    eval = len\n    return eval("x")\n\n\ndef g():\n    return eval("1")\n';
    const found = await findingsOf('a.py', code);
    expect(found.map((f) => [f.rule, f.line])).toEqual([['dynamic_code', 7]]);
    // A comprehension's variable does not leak into the function.
    expect((await findingsOf('b.py', 'def f():\n    [eval for eval in (1,)]\n    return eval("1")\n')).map((f) => [f.rule, f.line])).toEqual([['dynamic_code', 3]]);
  });

  it('a file that does not parse is one unparsed finding at its line', async () => {
    const found = await findingsOf('broken.py', 'def ok():\n    return 1\n\ndef broken(:\n    pass\n');
    expect(found).toEqual([expect.objectContaining({ rule: 'unparsed', line: 4, allowed: false })]);
    expect(found[0]!.text).toMatch(/^Python syntax error: def broken\(:/);
  });

  it('Python 2 exec statements are dynamic code too', async () => {
    expect(await rulesOf('py2.py', 'exec "x = 1"\n')).toContain('dynamic_code');
  });
});
