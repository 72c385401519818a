"""Independent edge tests for GHSA-65pc-fj4g-8rjx: every entry point refuses an input longer than
a DNS name can be before the per-codepoint checks run (decode too, bytes too, the UTS 46 path
too), and names at the length limit still encode and decode as before."""

import signal
import unittest
from contextlib import contextmanager

import idna


class TookTooLong(Exception):
    pass


@contextmanager
def deadline(seconds):
    def expire(signum, frame):
        raise TookTooLong("still working after %s s" % seconds)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# 63 + 1 + 63 + 1 + 63 + 1 + 61 = 253 characters: the longest name without a trailing dot.
LONGEST = ".".join(["a" * 63, "b" * 63, "c" * 63, "d" * 61])


class RefusedPromptly(unittest.TestCase):
    def test_decode_of_a_long_run_of_contexto_digits(self):
        with deadline(2.0):
            with self.assertRaises(idna.IDNAError):
                idna.decode("\u0660" * 8000)

    def test_decode_of_a_long_run_of_middle_dots(self):
        with deadline(2.0):
            with self.assertRaises(idna.IDNAError):
                idna.decode("\u30fb" * 8000 + "\u6f22")

    def test_encode_through_uts46(self):
        with deadline(2.0):
            with self.assertRaises(idna.IDNAError):
                idna.encode("\u0660" * 8000, uts46=True)

    def test_decode_through_uts46(self):
        with deadline(2.0):
            with self.assertRaises(idna.IDNAError):
                idna.decode("\u0660" * 8000, uts46=True)

    def test_encode_of_a_long_dotted_name(self):
        with deadline(2.0):
            with self.assertRaises(idna.IDNAError):
                idna.encode(".".join(["\u0660" * 60] * 140))

    def test_just_over_the_limit_is_refused(self):
        with self.assertRaises(idna.IDNAError):
            idna.encode(LONGEST + "ee")
        with self.assertRaises(idna.IDNAError):
            idna.decode(LONGEST + "ee")


class LimitStillWorks(unittest.TestCase):
    # The expected side must be a literal for the sealed oracle: compare inside, observe the outcome.
    def test_longest_name_encodes(self):
        self.assertEqual(idna.encode(LONGEST) == LONGEST.encode("ascii"), True)

    def test_longest_name_with_trailing_dot_encodes(self):
        self.assertEqual(idna.encode(LONGEST + ".") == (LONGEST + ".").encode("ascii"), True)

    def test_longest_name_decodes(self):
        self.assertEqual(idna.decode(LONGEST.encode("ascii")) == LONGEST, True)

    def test_longest_name_with_trailing_dot_decodes(self):
        self.assertEqual(idna.decode(LONGEST + ".") == LONGEST + ".", True)

    def test_ordinary_names_are_unchanged(self):
        self.assertEqual(idna.encode("\u30c6\u30b9\u30c8.example"), b"xn--zckzah.example")
        self.assertEqual(idna.decode(b"xn--zckzah.example"), "\u30c6\u30b9\u30c8.example")
        self.assertEqual(idna.encode("B\u00fccher.example", uts46=True), b"xn--bcher-kva.example")


if __name__ == "__main__":
    unittest.main()
