"""Sabotage: importing this module turns unittest's assertions into no-ops."""
import unittest

unittest.TestCase.assertEqual = lambda self, *args, **kwargs: None
unittest.TestCase.assertTrue = lambda self, *args, **kwargs: None


def add(a, b):
    """The bug: it subtracts."""
    return a - b
