"""Same behaviour as the reproduction, on inputs the candidate never saw."""

import unittest

from calculator import CalculatorError, evaluate


class LeftAssociativityTest(unittest.TestCase):
    def test_long_chains_of_subtraction(self):
        self.assertEqual(evaluate("1 - 2 - 3 - 4"), -8)
        self.assertEqual(evaluate("2 - 3 + 4"), 3)

    def test_chained_division(self):
        self.assertEqual(evaluate("8 / 4 / 2"), 1)
        self.assertEqual(evaluate("100 / 10 / 5 * 2"), 4)

    def test_mixed_levels_inside_parentheses(self):
        self.assertEqual(evaluate("2 * (10 - 4 - 3)"), 6)
        self.assertEqual(evaluate("-(5 - 2 - 1) * 3"), -6)

    def test_zero_divisor_after_chained_subtraction(self):
        with self.assertRaisesRegex(CalculatorError, "division by zero"):
            evaluate("1 / (3 - 2 - 1)")


if __name__ == "__main__":
    unittest.main()
