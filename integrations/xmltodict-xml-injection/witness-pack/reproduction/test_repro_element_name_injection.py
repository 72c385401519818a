"""CVE-2025-9375: unparse() writes element names as they are, so a key holding '<' or '>' breaks
out of the tag and injects markup. Written for PatchProof from the advisory; shares no code with
upstream's tests."""

from patchproof_oracle import observe, observe_raises  # sealed by patchproof witness seal
import pytest

from xmltodict import unparse


def test_root_element_name_with_markup_is_refused():
    observe_raises("reproduction:test_repro_element_name_injection.py/11", lambda: (unparse({'item><injected>evil</injected><item': 'x'})))


def test_child_element_name_with_markup_is_refused():
    observe_raises("reproduction:test_repro_element_name_injection.py/16", lambda: (unparse({'root': {'ok': '1', 'child/><script>alert(1)</script><x': '2'}})))
