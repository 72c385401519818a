"""Independent edge tests for CVE-2025-9375: names that could break out of a tag are refused
wherever unparse() writes a name (elements at any depth and in lists, attributes, xmlns
prefixes), while values keep being escaped and ordinary documents come out as before."""

import pytest

from xmltodict import parse, unparse


# One assertion per line, no parametrize: each becomes its own sealed observation.
def test_element_names_with_angle_brackets_are_refused():
    with pytest.raises(ValueError):
        unparse({'a<b': 'v'})
    with pytest.raises(ValueError):
        unparse({'a>b': 'v'})
    with pytest.raises(ValueError):
        unparse({'<': 'v'})
    with pytest.raises(ValueError):
        unparse({'x><y': 'v'})


def test_element_name_inside_a_list_is_refused():
    with pytest.raises(ValueError):
        unparse({'root': {'items': [{'ok': '1'}, {'bad>name': '2'}]}})


def test_deeply_nested_element_name_is_refused():
    with pytest.raises(ValueError):
        unparse({'a': {'b': {'c': {'d<e': None}}}})


def test_attribute_names_with_angle_brackets_are_refused():
    with pytest.raises(ValueError):
        unparse({'root': {'@on<load': 'v'}})
    with pytest.raises(ValueError):
        unparse({'root': {'@x>y': 'v'}})
    with pytest.raises(ValueError):
        unparse({'root': {'@a"><script>x</script><b c="': 'v'}})


def test_xmlns_prefix_with_angle_brackets_is_refused():
    with pytest.raises(ValueError):
        unparse({'root': {'@xmlns': {'p><evil/><q': 'http://example.com/'}}})


def test_attribute_values_are_still_escaped():
    out = unparse({'root': {'@title': '<b>&"x"'}}, full_document=False)
    assert out == '<root title=\'&lt;b&gt;&amp;"x"\'></root>'


def test_text_is_still_escaped():
    out = unparse({'root': '</root><injected/>'}, full_document=False)
    assert out == '<root>&lt;/root&gt;&lt;injected/&gt;</root>'


def test_ordinary_document_is_unchanged():
    doc = {'feed': {'@xmlns': {'': 'http://www.w3.org/2005/Atom', 'dc': 'http://purl.org/dc/elements/1.1/'},
                    'entry': [{'title': 'one', 'dc:creator': 'ann'}, {'title': 'two', '@id': '2'}]}}
    out = unparse(doc, full_document=False)
    assert out == ('<feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">'
                   '<entry><title>one</title><dc:creator>ann</dc:creator></entry>'
                   '<entry id="2"><title>two</title></entry></feed>')


def test_round_trip_of_names_with_dashes_dots_and_digits():
    doc = {'a-b.c': {'d_1': '1', '@e.f-g': 'h'}}
    assert parse(unparse(doc)) == {'a-b.c': {'@e.f-g': 'h', 'd_1': '1'}}
