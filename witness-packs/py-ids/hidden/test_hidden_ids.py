import unittest

from ids import next_id


class HiddenIdsTest(unittest.TestCase):
    def test_small(self):
        self.assertEqual(next_id(7), 8)

    def test_2_60(self):
        self.assertEqual(next_id(2**60), 2**60 + 1)


if __name__ == "__main__":
    unittest.main()
