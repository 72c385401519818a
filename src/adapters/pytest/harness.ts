/**
 * The pytest plugin the pytest adapter stages as `.patchproof/harness/patchproof_canary.py` and
 * loads with `-p patchproof_canary` (the harness folder is on PYTHONPATH).
 *
 * Its `pytest_collection_modifyitems` hook runs last (trylast) and appends the two grader canaries
 * (see canary.ts for their names and order, passed in PATCHPROOF_CANARY_ORDER as `name=pass` /
 * `name=fail` pairs) at the END of the collected items, so they run after every test module, and
 * so the code under test, was imported, and under every hook a repository's conftest.py installs.
 * Each canary is a `pytest.Function` of this file; one asserts 1 == 1, the other 1 == 2. The
 * must-pass one first compares the tripwire's identities (tripwire.ts), taken when `-p` imported
 * the plugin (before conftest.py and the test modules), with now.
 *
 * The results channel (results-channel.ts): with the nonce in PATCHPROOF_CHANNEL, the plugin
 * writes, to a duplicate of the stdout pytest started with (taken when `-p` imports it, before
 * pytest's capture replaces fd 1), one frame per finished test (at its teardown report; a module
 * that did not collect, or was skipped at collection, at its collect report) keyed as pytest's
 * JUnit XML names it, with a coarse outcome (passed, skipped, failed). A hook wrapper around
 * `pytest_sessionfinish` runs after the junitxml plugin wrote its file: it reads the file back and
 * writes the final frame with its SHA-256. An `atexit` or `pytest_unconfigure` rewrite comes later
 * and disagrees.
 *
 * Staged runs (PYTEST_STAGED_ENV): each staged test file is imported by file path by this
 * plugin's own Module collector: a top-level module (its folder has no `__init__.py`) under a
 * unique module name (`_t<random>.<stem>`, one random package per file), a file in a package under
 * its dotted name (its relative imports need it; the identity check below is what holds), through pytest's assertion
 * rewriter as taken when `-p` imported this plugin (before any code under test ran). The module
 * object is the one this plugin made and executed: if `sys.modules` holds anything else under its
 * name once its code has run (the code under test, imported by the file, can plant a forged module
 * there, whose `__file__` and `co_filename` name the staged file; the import system hands back
 * whatever `sys.modules` then holds, and pytest's own check compares only `__file__`), the file is
 * a collection error, `ForeignTest`. Then a hook wrapper around `pytest_runtest_makereport`
 * checks, when each test's call is reported, that the module the test was collected from is that
 * very module object (by identity), that the test function (unwrapped) is defined there (for a module
 * of this plugin's: its globals are that module's namespace, not only its `co_filename`), or
 * outside the repository copy (a decorator of an installed package). A test the code under test
 * replaced or forged is failed, whatever it reported. pytest's own ids are path-based (nodeids), so
 * they do not depend on the module names the files are imported under.
 */

import { CHANNEL_ENV, pythonFrameWriter } from '../shared/results-channel.js';
import { pythonTripwireCheck, pythonTripwireSource } from '../shared/tripwire.js';

/** Module name of the plugin, as given to `-p`; it must not match pytest's `test_*.py` pattern. */
export const PYTEST_PLUGIN_MODULE = 'patchproof_canary';

/** File name of the staged plugin. */
export const PYTEST_PLUGIN_FILE = `${PYTEST_PLUGIN_MODULE}.py`;

/** Environment variable carrying the canaries in run order: `name=pass,name=fail` (or reversed). */
export const PYTEST_CANARY_ENV = 'PATCHPROOF_CANARY_ORDER';

/**
 * Environment variable with the staged test folders of a run (absolute, `:`-separated; unset for
 * the suite). In those runs every test's module must be its staged file, and its function must not
 * come from another file of the repository copy; otherwise its call is reported failed (ForeignTest).
 */
export const PYTEST_STAGED_ENV = 'PATCHPROOF_STAGED_ROOTS';

/** Source of the plugin (Python 3, pytest 7 or later). */
export const PYTEST_PLUGIN_SOURCE = String.raw`"""PatchProof grader canaries for pytest.

Generated from src/adapters/pytest/harness.ts and staged by PatchProof into a disposable
repository copy. Appends two generated tests to the end of the collected items: one must pass,
one must fail with an assertion.
"""
import hashlib
import importlib.util
import inspect
import json
import os
import re
import sys
import types
from pathlib import Path

import pytest
import _pytest.python as _pytest_python

NAME = re.compile(r"^c[0-9a-f]{16}$")

# The results channel: a duplicate of the stdout pytest started with, taken at import (-p loads
# this module before pytest's capture replaces fd 1).
_NONCE = os.environ.get("${CHANNEL_ENV}", "")
_CHANNEL = os.dup(1) if re.fullmatch(r"[0-9a-f]{64}", _NONCE) else None
_STATUS = {}
_FRAMED = [0]


${pythonFrameWriter('_frame', '_CHANNEL', '_NONCE')}


def _junit_id(report):
    """The id pytest-results.ts gives this report's <testcase> (junitxml's names, xunit1 file)."""
    path, bracket, params = report.nodeid.partition("[")
    names = path.split("::")
    names[0] = re.sub(r"\.py$", "", names[0].replace("/", "."))
    names[-1] += bracket + params
    classname, name = ".".join(names[:-1]), names[-1]
    file = report.location[0] if report.location else ""
    if file:
        module = re.sub(r"\.py$", "", file).replace("/", ".")
        if classname not in ("", module) and not classname.startswith(module + "."):
            return "%s::%s" % (classname, name)
        inner = classname[len(module) + 1:] if classname.startswith(module + ".") else ""
        return "%s::%s" % (file, name) if inner == "" else "%s::%s::%s" % (file, inner.replace(".", "::"), name)
    return name if classname == "" else "%s::%s" % (classname, name)


def _emit(test_id, status):
    _FRAMED[0] += 1
    _frame("test", {"id": test_id, "status": status})


def pytest_runtest_logreport(report):
    key = report.nodeid
    before = _STATUS.get(key)
    if report.failed:
        _STATUS[key] = "failed"
    elif report.skipped and before != "failed":
        _STATUS[key] = "skipped"
    elif before is None and report.when == "call":
        _STATUS[key] = "passed"
    if report.when == "teardown":
        status = _STATUS.pop(key, None)
        _emit(_junit_id(report), status if status is not None else "skipped")


def pytest_collectreport(report):
    if report.failed:
        # pytest-results.ts names a module that did not collect by its file.
        _emit(report.location[0] if report.location else report.nodeid, "failed")
    elif report.skipped:
        _emit(_junit_id(report), "skipped")


@pytest.hookimpl(hookwrapper=True)
def pytest_sessionfinish(session, exitstatus):
    yield
    # Every other sessionfinish has run: the junitxml plugin has written its file.
    path = getattr(session.config.option, "xmlpath", None)
    digest = None
    if path:
        try:
            with open(path, "rb") as handle:
                digest = hashlib.sha256(handle.read()).hexdigest()
        except OSError:
            digest = None
    _frame("end", {"tests": _FRAMED[0], "sha256": digest})


_STAGED_ROOTS = [os.path.realpath(p) for p in os.environ.get("${PYTEST_STAGED_ENV}", "").split(os.pathsep) if p]


def _inside(path, root):
    return path == root or path.startswith(root + os.sep)


# --- Staged test files by file path, under unique module names ---------------------------------
# pytest's assertion rewriter, taken now: -p imports this plugin after pytest installed the
# rewriter and before any conftest, so before any code under test can have replaced it.
_REWRITER = next((f for f in sys.meta_path if type(f).__name__ == "AssertionRewritingHook"), None)
# The staged files this plugin imported: real path -> (unique module name, the module it made).
_LOADED = {}


def _staged_file(path):
    real = os.path.realpath(str(path))
    return real != os.path.realpath(__file__) and any(_inside(real, root) for root in _STAGED_ROOTS)


def _import_staged(path, *args, **kwargs):
    """pytest's import_path for a staged file: by file path, under a name nobody can predict."""
    path = Path(path)
    folder = str(path.parent)
    if os.path.isfile(os.path.join(folder, "__init__.py")):
        # A file in a package keeps its dotted name, as pytest's prepend mode gives it (its relative
        # imports need it): the package's folders up to the first without an __init__.py. That name
        # is predictable, so what holds is the identity check below, as for top-level files.
        parts = [path.stem]
        root = folder
        while os.path.isfile(os.path.join(root, "__init__.py")):
            parts.insert(0, os.path.basename(root))
            root = os.path.dirname(root)
        if root not in sys.path:
            sys.path.insert(0, root)
        importlib.import_module(".".join(parts[:-1]))
        unique = ".".join(parts)
    else:
        package = "_t" + os.urandom(8).hex()
        holder = types.ModuleType(package)
        holder.__path__ = []
        sys.modules[package] = holder
        unique = package + "." + path.stem
    spec = None
    if _REWRITER is not None:
        try:
            spec = _REWRITER.find_spec(unique, [folder])
        except Exception:
            spec = None
    if spec is None or spec.origin is None or os.path.realpath(spec.origin) != os.path.realpath(str(path)):
        spec = importlib.util.spec_from_file_location(unique, str(path))
    # As pytest's prepend mode: the file's folder first on sys.path, for its sibling helpers.
    if folder not in sys.path:
        sys.path.insert(0, folder)
    module = importlib.util.module_from_spec(spec)
    sys.modules[unique] = module
    _LOADED[os.path.realpath(str(path))] = (unique, module)
    spec.loader.exec_module(module)
    if sys.modules.get(unique) is not module:
        raise pytest.Collector.CollectError(
            "ForeignTest: staged test module %s was replaced while it was imported" % path.name)
    return module


_ORIGINAL_IMPORT_PATH = _pytest_python.import_path


class _StagedModule(pytest.Module):
    """A staged test file, imported by _import_staged instead of pytest's import_path (pytest's
    own error handling around the import stays as it is)."""

    def _getobj(self):
        _pytest_python.import_path = _import_staged
        try:
            return super()._getobj()
        finally:
            _pytest_python.import_path = _ORIGINAL_IMPORT_PATH


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path, parent):
    if _STAGED_ROOTS and module_path.name != "__init__.py" and _staged_file(module_path):
        return _StagedModule.from_parent(parent, path=module_path)
    return None


def _foreign(item):
    """Why a test of a staged run is not its staged file's own (None when it is)."""
    path = os.path.realpath(str(getattr(item, "path", "") or getattr(item, "fspath", "")))
    if path == os.path.realpath(__file__) or not any(_inside(path, root) for root in _STAGED_ROOTS):
        return None
    module = getattr(item, "module", None)
    loaded = _LOADED.get(path)
    if loaded is not None:
        unique, made = loaded
        if module is not made or sys.modules.get(unique) is not made:
            return "test %s was not collected from its staged file" % item.nodeid
    else:
        # Every staged file is imported by _import_staged.
        return "test %s was not collected from its staged file" % item.nodeid
    where = getattr(module, "__file__", None)
    if where is None or os.path.realpath(where) != path:
        return "test %s was not collected from its staged file" % item.nodeid
    function = getattr(item, "function", None)
    if function is None:
        return None
    try:
        inner = inspect.unwrap(function)
        code = inner.__code__
    except Exception:
        return None
    real = os.path.realpath(code.co_filename)
    repo = os.path.realpath(str(item.config.rootpath))
    if real == path and loaded is not None and getattr(inner, "__globals__", None) is not loaded[1].__dict__:
        # Compiled under the staged file's name, but run in another namespace: not the file's own.
        return "test %s was not defined by its staged file's module" % item.nodeid
    if real != path and _inside(real, repo) and not any(_inside(real, root) for root in _STAGED_ROOTS):
        return "test %s is defined in %s, not in a staged file" % (item.nodeid, os.path.relpath(real, repo))
    return None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if not _STAGED_ROOTS or call.when != "call":
        return
    reason = _foreign(item)
    if reason is not None:
        report = outcome.get_result()
        report.outcome = "failed"
        report.longrepr = "ForeignTest: " + reason


${pythonTripwireSource('_held_take', '_held_changes')}


def _module(name):
    return sys.modules.get(name)


def _rewrite_hook():
    for finder in sys.meta_path:
        if type(finder).__name__ == "AssertionRewritingHook":
            return finder
    return None


_REWRITE = _module("_pytest.assertion.rewrite")
_HELD_CLASSES = [
    ("AssertionRewritingHook", getattr(_REWRITE, "AssertionRewritingHook", None)),
    ("AssertionRewriter", getattr(_REWRITE, "AssertionRewriter", None)),
    ("TestReport", getattr(_module("_pytest.reports"), "TestReport", None)),
    ("CallInfo", getattr(_module("_pytest.runner"), "CallInfo", None)),
    ("RaisesContext", getattr(_module("_pytest.python_api"), "RaisesContext", None)),
    ("ApproxBase", getattr(_module("_pytest.python_api"), "ApproxBase", None)),
]


def _held_groups():
    """What the tripwire compares (tripwire.ts): pytest's assertion API, the assertion rewriting
    hook and its reporting helpers, and how a test's outcome becomes a report."""
    now = types.SimpleNamespace(assertion_rewrite_hook=_rewrite_hook())
    return [
        ("pytest", pytest, ("raises", "approx", "fail", "skip", "xfail", "warns", "importorskip", "Function", "TestReport")),
        ("_pytest.python_api", _module("_pytest.python_api"), ("raises", "approx")),
        ("_pytest.raises", _module("_pytest.raises"), ("raises", "RaisesExc")),
        ("_pytest.outcomes", _module("_pytest.outcomes"), ("fail", "skip", "xfail", "Failed")),
        ("_pytest.assertion.rewrite", _REWRITE, (
            "AssertionRewritingHook", "AssertionRewriter", "rewrite_asserts", "_call_reprcompare", "_format_assertmsg",
            "_format_explanation", "_saferepr", "_should_repr_global_name", "_format_boolop", "_call_assertion_pass",
            "_check_if_assertion_pass_impl")),
        ("_pytest.assertion.util", _module("_pytest.assertion.util"), ("assertrepr_compare", "format_explanation")),
        ("_pytest.assertion", _module("_pytest.assertion"), ("pytest_runtest_protocol", "pytest_assertrepr_compare")),
        ("_pytest.runner", _module("_pytest.runner"), ("pytest_runtest_makereport", "call_and_report", "runtestprotocol")),
        ("_pytest.python", _pytest_python, ("Function", "pytest_pyfunc_call")),
        ("pytest.Function", getattr(_pytest_python, "Function", None), ("runtest", "setup")),
        ("sys.meta_path", now, ("assertion_rewrite_hook",)),
    ] + [(name, cls, None) for name, cls in _HELD_CLASSES]


# Taken when -p loads this plugin: before conftest.py files and test modules are imported.
_HELD = _held_take(_held_groups())


def _make(expected):
    def canary():
        if expected == 1:
${pythonTripwireCheck('            ', '_held_take', '_held_changes', '_HELD', '_held_groups')}
        assert 1 == expected

    return canary


def _canaries():
    pairs = []
    for part in os.environ.get("${PYTEST_CANARY_ENV}", "").split(","):
        name, _, role = part.partition("=")
        if NAME.match(name) and role in ("pass", "fail"):
            pairs.append((name, 1 if role == "pass" else 2))
    return pairs


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    pairs = _canaries()
    if not pairs:
        return
    module = pytest.Module.from_parent(session, path=Path(__file__))
    for name, expected in pairs:
        items.append(pytest.Function.from_parent(module, name=name, callobj=_make(expected)))
`;
