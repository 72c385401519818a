"""Tests written once and inherited by a class in each of two other modules (as tornado's httpclient_test.py is)."""
import unittest


class CommonCase(unittest.TestCase):
    flavour = "plain"

    def test_shared(self):
        self.assertIn(self.flavour, ("plain", "one", "two"))

    def test_fails_for_two(self):
        self.assertNotEqual(self.flavour, "two")
