import pytest

from calc import divide


# Three rows under one explicit id, and three rows whose generated ids are the same: pytest itself
# numbers such ids (same0, same1, ...; 2_0, 2_1, ...), so every copy has an id of its own.
@pytest.mark.parametrize("a,b,quotient", [(6, 3, 2), (8, 4, 2), (9, 3, 3)], ids=["same", "same", "same"])
def test_divides(a, b, quotient):
    assert divide(a, b) == quotient


@pytest.mark.parametrize("quotient", [2, 2, 2])
def test_halves(quotient):
    assert divide(quotient * 2, 2) == quotient
