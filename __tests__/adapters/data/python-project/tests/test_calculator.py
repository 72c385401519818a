import unittest

from calculator import divide, mean


class DivideTest(unittest.TestCase):
    def test_divides(self):
        self.assertEqual(divide(6, 3), 2)

    def test_mean(self):
        self.assertEqual(mean([1, 2, 3]), 2)
