"""Independent edge tests for CVE-2025-9375: names that could break out of a tag are refused
wherever unparse() writes a name (elements at any depth and in lists, attributes, xmlns
prefixes), while values keep being escaped and ordinary documents come out as before."""

from patchproof_oracle import observe, observe_raises  # sealed by patchproof witness seal
import pytest

from xmltodict import parse, unparse


# One assertion per line, no parametrize: each becomes its own sealed observation.
def test_element_names_with_angle_brackets_are_refused():
    observe_raises("hidden:test_hidden_xml_names.py/12", lambda: (unparse({'a<b': 'v'})))
    observe_raises("hidden:test_hidden_xml_names.py/14", lambda: (unparse({'a>b': 'v'})))
    observe_raises("hidden:test_hidden_xml_names.py/16", lambda: (unparse({'<': 'v'})))
    observe_raises("hidden:test_hidden_xml_names.py/18", lambda: (unparse({'x><y': 'v'})))


def test_element_name_inside_a_list_is_refused():
    observe_raises("hidden:test_hidden_xml_names.py/23", lambda: (unparse({'root': {'items': [{'ok': '1'}, {'bad>name': '2'}]}})))


def test_deeply_nested_element_name_is_refused():
    observe_raises("hidden:test_hidden_xml_names.py/28", lambda: (unparse({'a': {'b': {'c': {'d<e': None}}}})))


def test_attribute_names_with_angle_brackets_are_refused():
    observe_raises("hidden:test_hidden_xml_names.py/33", lambda: (unparse({'root': {'@on<load': 'v'}})))
    observe_raises("hidden:test_hidden_xml_names.py/35", lambda: (unparse({'root': {'@x>y': 'v'}})))
    observe_raises("hidden:test_hidden_xml_names.py/37", lambda: (unparse({'root': {'@a"><script>x</script><b c="': 'v'}})))


def test_xmlns_prefix_with_angle_brackets_is_refused():
    observe_raises("hidden:test_hidden_xml_names.py/42", lambda: (unparse({'root': {'@xmlns': {'p><evil/><q': 'http://example.com/'}}})))


def test_attribute_values_are_still_escaped():
    out = unparse({'root': {'@title': '<b>&"x"'}}, full_document=False)
    observe("hidden:test_hidden_xml_names.py/48", lambda: (out))


def test_text_is_still_escaped():
    out = unparse({'root': '</root><injected/>'}, full_document=False)
    observe("hidden:test_hidden_xml_names.py/53", lambda: (out))


def test_ordinary_document_is_unchanged():
    doc = {'feed': {'@xmlns': {'': 'http://www.w3.org/2005/Atom', 'dc': 'http://purl.org/dc/elements/1.1/'},
                    'entry': [{'title': 'one', 'dc:creator': 'ann'}, {'title': 'two', '@id': '2'}]}}
    out = unparse(doc, full_document=False)
    observe("hidden:test_hidden_xml_names.py/60", lambda: (out))


def test_round_trip_of_names_with_dashes_dots_and_digits():
    doc = {'a-b.c': {'d_1': '1', '@e.f-g': 'h'}}
    observe("hidden:test_hidden_xml_names.py/67", lambda: (parse(unparse(doc))))
