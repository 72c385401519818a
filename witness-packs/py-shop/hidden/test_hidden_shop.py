import unittest

from shop.cart import total
from shop.pricing import clamp


class HiddenShopTest(unittest.TestCase):
    def test_clamp(self):
        self.assertEqual(clamp(-5, 0, 3), 0)
        self.assertEqual(clamp(7, 7, 7), 7)

    def test_total(self):
        self.assertEqual(total([5]), 5)
        self.assertEqual(total([1, 2, 3, 4]), 10)


if __name__ == "__main__":
    unittest.main()
