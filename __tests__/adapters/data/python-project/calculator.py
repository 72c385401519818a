"""A tiny module under test. The bug: dividing by zero raises TypeError instead of ZeroDivisionError."""


def divide(a, b):
    if b == 0:
        return None + 1
    return a / b


def mean(values):
    return divide(sum(values), len(values))
