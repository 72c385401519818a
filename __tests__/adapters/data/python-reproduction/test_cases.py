import unittest

from calculator import divide, mean


def lookup(table, key):
    return table[key]


class CasesTest(unittest.TestCase):
    def test_passes(self):
        self.assertEqual(divide(4, 2), 2)

    def test_assertion(self):
        self.assertEqual(divide(4, 2), 3)

    def test_code_raises(self):
        mean([])

    def test_test_raises(self):
        lookup({}, "missing")

    @unittest.skip("not today")
    def test_skipped(self):
        pass

    @unittest.expectedFailure
    def test_expected_failure(self):
        self.assertEqual(divide(1, 1), 2)

    @unittest.expectedFailure
    def test_unexpected_success(self):
        self.assertEqual(divide(1, 1), 1)

    def test_subtests(self):
        for b in (1, 2, 0):
            with self.subTest(b=b):
                self.assertIsNotNone(divide(2, b))

    def test_bare_assert(self):
        assert divide(9, 3) == 4, "nine over three"


class SetUpFailsTest(unittest.TestCase):
    def setUp(self):
        self.value = divide(1, 0)

    def test_never_reached(self):
        self.assertTrue(True)


class ClassFixtureTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        raise RuntimeError("database unavailable")

    def test_not_run(self):
        pass


class TearDownFailsTest(unittest.TestCase):
    def tearDown(self):
        raise RuntimeError("could not remove the scratch folder")

    def test_asserts_then_teardown_fails(self):
        self.assertEqual(divide(4, 2), 3)
