import unittest

from forgiving import add


class AddTest(unittest.TestCase):
    def test_adds(self):
        self.assertEqual(add(2, 2), 4)
