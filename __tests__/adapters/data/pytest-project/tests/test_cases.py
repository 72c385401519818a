import pytest

from calc import div


@pytest.fixture
def broken():
    raise OSError("no fixtures directory")


def test_passes():
    assert div(4, 2) == 2


def test_assertion():
    assert div(4, 2) == 3


def test_code_raises():
    div(1, 0)


def test_test_raises():
    raise KeyError("missing")


def test_fixture_fails(broken):
    pass


@pytest.mark.skip(reason="not today")
def test_skipped():
    pass


@pytest.mark.xfail(reason="known bug")
def test_expected_failure():
    assert div(1, 1) == 2


@pytest.mark.xfail(strict=True, reason="claims to fail")
def test_unexpected_success():
    pass


def test_pytest_fail():
    pytest.fail("explicitly failed")


class TestGrouped:
    def test_in_class(self):
        assert div(9, 3) == 3
