import test_common


class TwoCase(test_common.CommonCase):
    flavour = "two"
