import unittest

from calc import add, divide, greet


class CalcTest(unittest.TestCase):
    def test_adds_small_numbers(self):
        self.assertEqual(add(2, 3), 5)

    def test_greets_by_name(self):
        self.assertEqual(greet("ada"), "hello ada")

    def test_positive_sum_is_truthy(self):
        self.assertTrue(add(1, 1) > 0)

    def test_divides_evenly(self):
        self.assertAlmostEqual(divide(7, 2), 3.5)

    def test_zero_divisor_is_refused(self):
        with self.assertRaisesRegex(ZeroDivisionError, "divide by zero"):
            divide(1, 0)

    def test_lists_compare(self):
        self.assertEqual([add(1, 1), add(2, 2)], [2, 4])


if __name__ == "__main__":
    unittest.main()
