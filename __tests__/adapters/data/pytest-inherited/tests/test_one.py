import test_common


class OneCase(test_common.CommonCase):
    flavour = "one"
