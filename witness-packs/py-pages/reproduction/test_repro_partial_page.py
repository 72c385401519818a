import unittest

from pages import page_count


class PartialPageTest(unittest.TestCase):
    def test_partial_last_page_counts(self):
        self.assertEqual(page_count(7, 3), 3)


if __name__ == "__main__":
    unittest.main()
