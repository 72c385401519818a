"""A tiny module under test for the twin canaries' adapter tests."""


def add(a, b):
    return a + b


def greet(name):
    return "hello " + name


def divide(a, b):
    if b == 0:
        raise ZeroDivisionError("cannot divide by zero")
    return a / b
