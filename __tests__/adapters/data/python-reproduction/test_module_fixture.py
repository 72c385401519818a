import unittest


def setUpModule():
    raise OSError("no fixtures directory")


class ModuleFixtureTest(unittest.TestCase):
    def test_not_run(self):
        pass
