import unittest

from ids import next_id


class PastTwoToTheFiftyThreeTest(unittest.TestCase):
    def test_ids_keep_counting_past_2_53(self):
        self.assertEqual(next_id(2**53), 2**53 + 1)


if __name__ == "__main__":
    unittest.main()
