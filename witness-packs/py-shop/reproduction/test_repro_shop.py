import unittest

from shop.cart import total
from shop.pricing import clamp


class ReproTest(unittest.TestCase):
    def test_minimum_order(self):
        self.assertEqual(clamp(0, 2, 10), 2)

    def test_first_price_counts(self):
        self.assertEqual(total([3, 4]), 7)


if __name__ == "__main__":
    unittest.main()
