from calc import multiply


def test_never_collected():
    assert multiply(2, 3) == 6
