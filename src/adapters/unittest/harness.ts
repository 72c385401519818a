/**
 * The Python harness the unittest adapter stages as `.patchproof/harness/patchproof_unittest.py`.
 *
 * unittest has no structured output, so the harness runs discovery itself (as `python -m unittest
 * discover` would from the repository root, or over the staged external tests with `--start`)
 * with a TestResult that records, per test: its id, status (passed, failed, errored, skipped,
 * expected_failure, unexpected_success), the exception's type, whether it is the test's
 * failureException, its traceback frames, and whether a setUp/tearDown or cleanup raised it.
 * Subtests fold into their test (the first failure stands). Import failures of test modules
 * (unittest.loader._FailedTest) are recorded with the original exception read back from
 * unittest's message; class and module fixture errors (suite._ErrorHolder) with their fixture.
 * With `--seed <nonce>` (the canary nonce, under a flag that says nothing) the harness appends, after discovery has imported every test module
 * (and so the code under test), a generated TestCase class with the two grader canaries (see
 * canary.ts for their names and order) to the end of the suite: one asserts 1 == 1, the other
 * 1 == 2, both through `self.assertEqual` looked up when they run, so a replacement made at
 * import time is the one they call.
 * The JSON is written atomically at the end, with unittest's own tallies of the tests other than
 * the canaries under `claimed`.
 */

import { FRAME_MARK, pythonFrameWriter } from '../shared/results-channel.js';
import { pythonTripwireCheck, pythonTripwireSource } from '../shared/tripwire.js';

/** Name of the staged harness; it must not match unittest's `test*.py` discovery pattern. */
export const UNITTEST_HARNESS_FILE = 'patchproof_unittest.py';

/** The `format` tag of the harness's JSON. */
export const UNITTEST_REPORT_FORMAT = 'patchproof-unittest/1';

/** The mark that starts every frame of the unittest harness's results channel (every adapter's). */
export const UNITTEST_FRAME_MARK = FRAME_MARK;

/** Source of the harness (Python 3, standard library only). */
export const UNITTEST_HARNESS_SOURCE = String.raw`"""PatchProof unittest harness: runs unittest discovery and writes one JSON result per test.

Generated from src/adapters/unittest/harness.ts and staged by PatchProof into a disposable
repository copy. Standard library only; tested on Python 3.11, 3.12 and 3.13.
Exit status: 0 when tests ran and all passed, 1 when any failed, 2 on a harness error,
5 when no test was found (as unittest does from 3.12 on).
"""
import argparse
import hashlib
import inspect
import json
import os
import re
import sys
import time
import traceback
import unittest

FORMAT = "${UNITTEST_REPORT_FORMAT}"
# The results channel: one framed line per finished test on a copy of the original stdout, which
# the host reads (and timestamps) as the run goes; the final frame seals the results file's digest.
CHANNEL = None
NONCE = None


${pythonFrameWriter('frame', 'CHANNEL', 'NONCE')}
MAX_TEXT = 2000
MAX_FRAMES = 64
FIXTURE_METHODS = ("setUp", "tearDown", "asyncSetUp", "asyncTearDown")
RANK = {None: -1, "passed": 0, "skipped": 1, "expected_failure": 1, "unexpected_success": 2, "failed": 2, "errored": 3}
CLEANUP_FUNCTIONS = ("doCleanups", "_callCleanup", "doClassCleanups", "doModuleCleanups")
FILE_LINE = re.compile(r'^\s*File "(.+)", line (\d+)')
EXCEPTION_LINE = re.compile(r"^([A-Za-z_][\w.]*)(?::|$)")


def clip(text):
    text = str(text)
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT]


def frames_of(tb):
    return [{"file": os.path.abspath(f.filename), "line": f.lineno, "function": f.name}
            for f in traceback.extract_tb(tb)][-MAX_FRAMES:]


def import_failure(message):
    """unittest wraps every import failure in an ImportError whose message is the traceback text."""
    lines = [line for line in message.splitlines() if line.strip()]
    frames = []
    for line in lines:
        match = FILE_LINE.match(line)
        if match:
            frames.append({"file": os.path.abspath(match.group(1)), "line": int(match.group(2)), "function": None})
    last = lines[-1] if lines else "ImportError"
    match = EXCEPTION_LINE.match(last)
    type_name = match.group(1).rsplit(".", 1)[-1] if match else "ImportError"
    return {"type": type_name, "failure_exception": False, "message": clip(last), "frames": frames[-MAX_FRAMES:]}


def describe_exception(test, err):
    exc_type, exc_value, tb = err
    failure_exception = getattr(test, "failureException", AssertionError)
    parts = traceback.format_exception_only(exc_type, exc_value)
    # A SyntaxError's "Type: message" line comes after its source lines; other types start with it.
    message = (parts[-1] if issubclass(exc_type, SyntaxError) else parts[0]).strip()
    return {
        "type": exc_type.__name__,
        "failure_exception": isinstance(failure_exception, type) and issubclass(exc_type, failure_exception),
        "message": clip(message),
        "frames": frames_of(tb),
    }


def fixture_phase(test, tb):
    """Which part of a test raised: a setUp/tearDown method, a cleanup, or the test itself."""
    codes = {}
    for name in FIXTURE_METHODS:
        function = getattr(type(test), name, None)
        code = getattr(function, "__code__", None)
        if code is not None and not code.co_filename.startswith(os.path.dirname(unittest.__file__)):
            codes[code] = name
    for frame, _ in traceback.walk_tb(tb):
        if frame.f_code in codes:
            return codes[frame.f_code]
        if frame.f_code.co_name in CLEANUP_FUNCTIONS and frame.f_code.co_filename.startswith(
                os.path.dirname(unittest.__file__)):
            return "cleanup"
    return None


def test_source(test):
    """The file and first line of a test method, where Python can tell."""
    try:
        method = inspect.unwrap(getattr(type(test), test._testMethodName))
        code = method.__code__
        return os.path.abspath(code.co_filename), code.co_firstlineno
    except Exception:
        pass
    try:
        return os.path.abspath(inspect.getfile(type(test))), None
    except Exception:
        return None, None


class RecordingResult(unittest.TextTestResult):
    """A TextTestResult that also keeps one record per test (subtests fold into their test)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.records = []
        self.open = {}
        # Started tests by id(); holding them keeps ids unique (TestSuite drops tests once run,
        # and a freed test's id() can come back as another object's).
        self.started = {}

    def record(self, test):
        key = id(test)
        if key not in self.open:
            entry = {"id": test.id(), "origin": "test", "status": None, "exception": None,
                     "skip_reason": None, "file": None, "line": None, "phase": None, "subtests_failed": 0}
            if isinstance(test, unittest.loader._FailedTest):
                entry["id"] = test._testMethodName
                entry["origin"] = "load_failure"
            elif isinstance(test, unittest.suite._ErrorHolder):
                entry["origin"] = "fixture"
                entry["phase"] = test.description.split(" ", 1)[0]
            else:
                entry["file"], entry["line"] = test_source(test)
                if STAGED is not None and key not in CANARY_IDS:
                    foreign = staged_mismatch(test, entry["file"])
                    if foreign is not None:
                        entry["foreign"] = foreign
            if STAGED_PREFIX is not None:
                # Fixture errors name their class too ("setUpClass (<module>.<Class>)").
                entry["id"] = entry["id"].replace(STAGED_PREFIX + ".", "")
            self.open[key] = entry
        return self.open[key]

    def finish(self, test):
        entry = self.open.pop(id(test), None)
        if entry is None:
            return
        foreign = entry.pop("foreign", None)
        if foreign is not None:
            # Whatever it claimed: a test that is not the staged file's own is never a pass.
            entry["status"] = "errored"
            entry["exception"] = {"type": "ForeignTest", "failure_exception": False, "message": clip(foreign), "frames": []}
        if entry["status"] is None:
            entry["status"] = "errored"
            entry["exception"] = {"type": "NoOutcome", "failure_exception": False,
                                  "message": "the test reported no outcome", "frames": []}
        self.records.append(entry)
        frame("test", {"id": entry["id"], "status": entry["status"]})

    def settle(self, test, status, err=None, skip_reason=None):
        subtest = None
        if isinstance(test, unittest.case._SubTest):
            subtest, test = test, test.test_case
        entry = self.record(test)
        # The worst outcome stands (an error over a failure, as unittest's own tallies count it);
        # between equals, the first.
        if RANK[status] > RANK[entry["status"]]:
            entry["status"] = status
            entry["skip_reason"] = skip_reason
            entry["exception"] = None
            if err is not None:
                if entry["origin"] == "load_failure" and isinstance(err[1], ImportError) \
                        and str(err[1]).startswith("Failed to import test module:"):
                    entry["exception"] = import_failure(str(err[1]))
                else:
                    entry["exception"] = describe_exception(test, err)
                    if subtest is not None:
                        entry["exception"]["message"] = clip(
                            "%s: %s" % (subtest._subDescription(), entry["exception"]["message"]))
                    if entry["origin"] == "test":
                        entry["phase"] = fixture_phase(test, err[2])
        # Fixture errors, and tests skipped by decorator on 3.12, never pass through startTest/stopTest.
        if entry["origin"] == "fixture" or id(test) not in self.started:
            self.finish(test)

    def startTest(self, test):
        super().startTest(test)
        self.started[id(test)] = test
        self.record(test)

    def stopTest(self, test):
        super().stopTest(test)
        self.finish(test)

    def addSuccess(self, test):
        super().addSuccess(test)
        self.settle(test, "passed")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.settle(test, "failed", err)

    def addError(self, test, err):
        super().addError(test, err)
        self.settle(test, "errored", err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self.settle(test, "skipped", skip_reason=str(reason))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self.settle(test, "expected_failure", skip_reason="expected_failure")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self.settle(test, "unexpected_success")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self.settle(subtest, "failed" if issubclass(err[0], test.failureException) else "errored", err)
            self.record(test)["subtests_failed"] += 1

    def native_counts(self, excluded):
        """unittest's own tallies, folded per test (a subtest counts for its test), for reconciliation.

        Tests whose id() is in excluded (the canaries) are left out."""
        def key(test):
            return id(test.test_case if isinstance(test, unittest.case._SubTest) else test)
        errored = {key(test) for test, _ in self.errors} - excluded
        failed = {key(test) for test, _ in self.failures} | {key(test) for test in self.unexpectedSuccesses}
        failed -= errored | excluded
        skipped = {key(test) for test, _ in self.skipped} | {key(test) for test, _ in self.expectedFailures}
        skipped -= errored | failed | excluded
        # testsRun counts started tests only (3.12 does not start tests skipped by decorator).
        started = self.started.keys() - excluded
        run = self.testsRun - len(self.started.keys() & excluded)
        not_passed_run = len((errored | failed | skipped) & started)
        return {"passed": run - not_passed_run, "failed": len(failed),
                "errored": len(errored), "skipped": len(skipped)}


${pythonTripwireSource('held_take', 'held_changes')}


# The classes as this harness found them, before any test module (or code under test) was imported.
HELD_CLASSES = [(name, getattr(unittest, name, None)) for name in (
    "TestCase", "TestResult", "TextTestResult", "TestSuite", "TestLoader", "TextTestRunner")]
HELD_CASE = sys.modules.get("unittest.case")
HELD_CLASSES += [(name, getattr(HELD_CASE, name, None)) for name in ("_Outcome", "_AssertRaisesContext", "_AssertWarnsContext")]
HELD = None


def held_groups():
    """What the tripwire compares (tripwire.ts): the unittest names, and every entry of its classes."""
    groups = [
        ("unittest", unittest, ("TestCase", "TestResult", "TextTestResult", "TestSuite", "TestLoader",
                                "TextTestRunner", "defaultTestLoader", "main", "skip", "expectedFailure")),
        ("unittest.case", HELD_CASE, ("TestCase", "_Outcome", "_AssertRaisesContext")),
        ("builtins", sys.modules.get("builtins"), ("AssertionError",)),
        ("RecordingResult", RecordingResult, None),
    ]
    return groups + [("unittest." + name, cls, None) for name, cls in HELD_CLASSES]


def canary_tests(nonce):
    """The two grader canaries, in the order they run (names and order as in canary.ts). The
    must-pass one first compares the tripwire's identities, taken before discovery, with now."""
    must_pass, must_fail = "c" + nonce[0:16], "c" + nonce[16:32]

    def asserts_equal(self):
${pythonTripwireCheck('        ', 'held_take', 'held_changes', 'HELD', 'held_groups')}
        self.assertEqual(1, 1)

    def asserts_unequal(self):
        self.assertEqual(1, 2)

    checks = type("Checks", (unittest.TestCase,), {
        "__module__": "patchproof", must_pass: asserts_equal, must_fail: asserts_unequal})
    order = [must_pass, must_fail] if int(nonce[-1], 16) % 2 == 0 else [must_fail, must_pass]
    return [checks(name) for name in order]


def write_results(path, payload):
    directory = os.path.dirname(path) or "."
    temporary = os.path.join(directory, ".%s.partial" % os.path.basename(path))
    data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    with open(temporary, "wb") as handle:
        handle.write(data)
    os.replace(temporary, path)
    frame("end", {"tests": len(payload["tests"]), "sha256": hashlib.sha256(data).hexdigest()})


# --- Staged tests by file path, under unique module names --------------------------------------------
# Set by load_staged: the random package every staged module is loaded under, and the staged
# modules' files by their (unique) names. Test ids drop the prefix, so they are the ids discovery
# gives (pinned in packs and receipts); each test's class and method must come from its staged file.
STAGED = None
STAGED_PREFIX = None
# The harness's own tests (canaries, module-skip placeholders), which no staged file defines.
CANARY_IDS = set()
REPO = None


def staged_id(test_id):
    """A test id without the unique package prefix: the id discovery gives, pinned in packs."""
    lead = STAGED_PREFIX + "."
    return test_id[len(lead):] if test_id.startswith(lead) else test_id


def staged_mismatch(test, source_file):
    """Why a test of a staged run is not the staged files' own (None when it is).

    Its class must be defined by a staged module, and its method must not come from a file of the
    repository copy other than the staged ones (the code under test lives there); a method from the
    standard library or an installed package (a decorator's wrapper) is allowed."""
    module_name = getattr(type(test), "__module__", None)
    if STAGED.get(module_name) is None:
        return "test %s is not defined by a staged test module" % staged_id(test.id())
    if source_file is None:
        return "test %s has no source file" % staged_id(test.id())
    real = os.path.realpath(source_file)
    staged = {os.path.realpath(path) for path in STAGED.values()}
    if real not in staged and (real == REPO or real.startswith(REPO + os.sep)):
        return "test %s is defined in %s, not in a staged file" % (staged_id(test.id()), os.path.relpath(real, REPO))
    return None


def load_staged(start, top, pattern):
    """Load the staged external tests by file path, under unique module names.

    Discovery imports each test module by name, so a module of the repository that comes first on
    sys.path and has a staged test's name would be imported instead. Here every module (and the
    packages above it inside the staged folder) is loaded from its own file with importlib, under a
    random package (so no module of the repository, and no code written in advance, can take or
    predict its name), and afterwards checked to still be the module loaded from that file. Test
    ids drop the package (staged_id): they stay the ones discovery gives. Import failures and
    SkipTest become the same tests discovery makes, under discovery's names.
    """
    import fnmatch
    import importlib.util
    import types
    global STAGED, STAGED_PREFIX

    loader = unittest.defaultTestLoader
    suite = loader.suiteClass()
    STAGED_PREFIX = "_t" + os.urandom(8).hex()
    STAGED = {}
    root = types.ModuleType(STAGED_PREFIX)
    root.__path__ = []
    sys.modules[STAGED_PREFIX] = root

    def load(name, path, package_dir=None):
        unique = STAGED_PREFIX + "." + name
        spec = importlib.util.spec_from_file_location(
            unique, path, submodule_search_locations=[package_dir] if package_dir else None)
        module = importlib.util.module_from_spec(spec)
        sys.modules[unique] = module
        STAGED[unique] = path
        spec.loader.exec_module(module)
        return module

    def check(name, module, path):
        loaded = sys.modules.get(STAGED_PREFIX + "." + name)
        where = getattr(loaded, "__file__", None)
        if loaded is not module or where is None or os.path.realpath(where) != os.path.realpath(path):
            raise RuntimeError("staged test module %s is not the staged file %s" % (name, path))

    if not os.path.isdir(start):
        raise ImportError("Start directory is not importable: %r" % start)
    loaded_packages = {}
    for folder, dirs, files in os.walk(start):
        dirs[:] = sorted(d for d in dirs if os.path.isfile(os.path.join(folder, d, "__init__.py")))
        rel_folder = os.path.relpath(folder, top)
        parts = [] if rel_folder == os.curdir else rel_folder.split(os.sep)
        for index in range(len(parts)):
            package = ".".join(parts[: index + 1])
            if package not in loaded_packages:
                package_dir = os.path.join(top, *parts[: index + 1])
                init = os.path.join(package_dir, "__init__.py")
                loaded_packages[package] = (load(package, init, package_dir), init)
        for file_name in sorted(files):
            stem, extension = os.path.splitext(file_name)
            if extension != ".py" or not stem.isidentifier() or not fnmatch.fnmatch(file_name, pattern):
                continue
            path = os.path.join(folder, file_name)
            name = ".".join(parts + [stem])
            try:
                module = load(name, path)
            except unittest.SkipTest as error:
                skipped = unittest.loader._make_skipped_test(name, error, loader.suiteClass)
                CANARY_IDS.update(id(test) for test in skipped)
                suite.addTest(skipped)
                continue
            except BaseException:  # as discovery does: SystemExit at import is a load failure too
                error_case, message = unittest.loader._make_failed_import_test(name, loader.suiteClass)
                loader.errors.append(message)
                suite.addTest(error_case)
                continue
            check(name, module, path)
            suite.addTest(loader.loadTestsFromModule(module, pattern=pattern))
    for package, (module, init) in loaded_packages.items():
        check(package, module, init)
    return suite
# --- end of staged tests by file path ---------------------------------------------------------------


def main(argv):
    parser = argparse.ArgumentParser(prog="patchproof_unittest")
    parser.add_argument("--repo", required=True)
    parser.add_argument("--results", required=True)
    parser.add_argument("--start")
    parser.add_argument("--top")
    parser.add_argument("--pattern", default="test*.py")
    parser.add_argument("--seed")
    args = parser.parse_args(argv)
    if args.seed is not None and not re.fullmatch(r"[0-9a-f]{32,}", args.seed):
        parser.error("--seed takes at least 32 lowercase hex digits")
    global CHANNEL, NONCE, REPO, HELD
    if args.seed is not None:
        CHANNEL, NONCE = os.dup(1), args.seed

    repo = os.path.abspath(args.repo)
    REPO = os.path.realpath(repo)
    start = os.path.abspath(args.start) if args.start else repo
    top = os.path.abspath(args.top) if args.top else start
    os.chdir(repo)
    # sys.path[0] is this harness's folder; the repository root takes its place, as with
    # 'python -m unittest' run from the root. The test folder follows it, so a staged test
    # imports the repository's modules and not a same-named file of its own folder.
    sys.path[0:1] = [repo] if top == repo else [repo, top]

    payload = {"format": FORMAT, "python": sys.version.split()[0], "complete": False, "fatal": None,
               "tests": [], "testsRun": 0, "failures": 0, "errors": 0, "skipped": 0,
               "expectedFailures": 0, "unexpectedSuccesses": 0}
    started = time.monotonic()
    HELD = held_take(held_groups())
    try:
        if args.start:
            suite = load_staged(start, top, args.pattern)
        else:
            suite = unittest.defaultTestLoader.discover(start, pattern=args.pattern, top_level_dir=top)
    except Exception as error:
        payload["fatal"] = clip("discovery failed: %s: %s" % (type(error).__name__, error))
        write_results(args.results, payload)
        return 2
    # Appended after discovery imported every test module, so the canaries run last, after any
    # import-time change the code under test made.
    canaries = canary_tests(args.seed) if args.seed is not None else []
    CANARY_IDS.update(id(test) for test in canaries)
    suite.addTests(canaries)

    runner = unittest.TextTestRunner(stream=sys.stderr, verbosity=2, resultclass=RecordingResult)
    result = runner.run(suite)
    payload.update({
        "complete": True,
        "tests": result.records,
        "testsRun": result.testsRun,
        "failures": len(result.failures),
        "errors": len(result.errors),
        "skipped": len(result.skipped),
        "expectedFailures": len(result.expectedFailures),
        "unexpectedSuccesses": len(result.unexpectedSuccesses),
        "claimed": result.native_counts({id(test) for test in canaries}),
        "duration_s": round(time.monotonic() - started, 3),
    })
    write_results(args.results, payload)
    if not result.wasSuccessful():
        return 1
    return 0 if result.records else 5


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
`;
