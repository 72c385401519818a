"""Same behaviour as the reproduction, on inputs the candidate never saw."""

from patchproof_oracle import observe, observe_raises  # sealed by patchproof witness seal
import unittest

from calculator import CalculatorError, evaluate


class LeftAssociativityTest(unittest.TestCase):
    def test_long_chains_of_subtraction(self):
        observe("hidden:test_hidden_associativity.py/10", lambda: (evaluate("1 - 2 - 3 - 4")))
        observe("hidden:test_hidden_associativity.py/11", lambda: (evaluate("2 - 3 + 4")))

    def test_chained_division(self):
        observe("hidden:test_hidden_associativity.py/14", lambda: (evaluate("8 / 4 / 2")))
        observe("hidden:test_hidden_associativity.py/15", lambda: (evaluate("100 / 10 / 5 * 2")))

    def test_mixed_levels_inside_parentheses(self):
        observe("hidden:test_hidden_associativity.py/18", lambda: (evaluate("2 * (10 - 4 - 3)")))
        observe("hidden:test_hidden_associativity.py/19", lambda: (evaluate("-(5 - 2 - 1) * 3")))

    def test_zero_divisor_after_chained_subtraction(self):
        observe_raises("hidden:test_hidden_associativity.py/22", lambda: (evaluate("1 / (3 - 2 - 1)")))


if __name__ == "__main__":
    unittest.main()
