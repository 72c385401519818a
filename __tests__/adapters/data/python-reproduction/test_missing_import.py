import unittest

from calculator import multiply


class MultiplyTest(unittest.TestCase):
    def test_multiplies(self):
        self.assertEqual(multiply(2, 3), 6)
