import unittest

from pages import page_count


class HiddenPagesTest(unittest.TestCase):
    def test_one_item(self):
        self.assertEqual(page_count(1, 10), 1)

    def test_large(self):
        self.assertEqual(page_count(1001, 100), 11)


if __name__ == "__main__":
    unittest.main()
