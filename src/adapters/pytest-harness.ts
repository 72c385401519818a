/**
 * The pytest plugin the pytest adapter stages as `.patchproof/harness/patchproof_canary.py` and
 * loads with `-p patchproof_canary` (the harness folder is on PYTHONPATH).
 *
 * Its `pytest_collection_modifyitems` hook runs last (trylast) and appends the two grader canaries
 * (see canary.ts for their names and order, passed in PATCHPROOF_CANARY_ORDER as `name=pass` /
 * `name=fail` pairs) at the END of the collected items, so they run after every test module, and
 * so the code under test, was imported, and under every hook a repository's conftest.py installs.
 * Each canary is a `pytest.Function` of this file; one asserts 1 == 1, the other 1 == 2.
 */

/** Module name of the plugin, as given to `-p`; it must not match pytest's `test_*.py` pattern. */
export const PYTEST_PLUGIN_MODULE = 'patchproof_canary';

/** File name of the staged plugin. */
export const PYTEST_PLUGIN_FILE = `${PYTEST_PLUGIN_MODULE}.py`;

/** Environment variable carrying the canaries in run order: `name=pass,name=fail` (or reversed). */
export const PYTEST_CANARY_ENV = 'PATCHPROOF_CANARY_ORDER';

/** Source of the plugin (Python 3, pytest 7 or later). */
export const PYTEST_PLUGIN_SOURCE = String.raw`"""PatchProof grader canaries for pytest.

Generated from src/adapters/pytest-harness.ts and staged by PatchProof into a disposable
repository copy. Appends two generated tests to the end of the collected items: one must pass,
one must fail with an assertion.
"""
import os
import re
from pathlib import Path

import pytest

NAME = re.compile(r"^c[0-9a-f]{16}$")


def _make(expected):
    def canary():
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
