import pytest

from calc import add, divide, greet


def test_adds_negative_numbers():
    assert add(-2, -3) == -5


def test_greets_the_world():
    assert greet("world") == "hello world"


class TestDivide:
    def test_halves(self):
        assert divide(1, 2) == 0.5

    def test_refuses_zero(self):
        with pytest.raises(ZeroDivisionError, match="by zero"):
            divide(3, 0)

    def test_result_is_positive(self):
        assert divide(9, 3) > 0
