"""CVE-2025-9375: unparse() writes element names as they are, so a key holding '<' or '>' breaks
out of the tag and injects markup. Written for PatchProof from the advisory; shares no code with
upstream's tests."""

import pytest

from xmltodict import unparse


def test_root_element_name_with_markup_is_refused():
    with pytest.raises(ValueError):
        unparse({'item><injected>evil</injected><item': 'x'})


def test_child_element_name_with_markup_is_refused():
    with pytest.raises(ValueError):
        unparse({'root': {'ok': '1', 'child/><script>alert(1)</script><x': '2'}})
