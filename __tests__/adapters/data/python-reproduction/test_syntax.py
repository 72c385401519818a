import unittest


class BrokenTest(unittest.TestCase):
    def test_broken(self:
        pass
