"""Reported bug: "10 - 4 - 3" evaluates to 9 instead of 3.

Chained subtraction is grouped from the right: 10 - (4 - 3).
"""

import unittest

from calculator import evaluate


class ChainedSubtractionTest(unittest.TestCase):
    def test_subtractions_are_applied_left_to_right(self):
        self.assertEqual(evaluate("10 - 4 - 3"), 3)

    def test_minus_then_plus_in_a_divisor(self):
        # Grouped from the right, (2 - 1 + 1) becomes 2 - (1 + 1) = 0 and the division fails.
        self.assertEqual(evaluate("6 / (2 - 1 + 1)"), 3)


if __name__ == "__main__":
    unittest.main()
