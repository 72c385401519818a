"""Independent edge tests for GHSA-65pc-fj4g-8rjx: every entry point refuses an input longer than
a DNS name can be before the per-codepoint checks run (decode too, bytes too, the UTS 46 path
too), and names at the length limit still encode and decode as before."""

from patchproof_oracle import observe, observe_raises  # sealed by patchproof witness seal
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
            observe_raises("hidden:test_hidden_domain_length.py/37", lambda: (idna.decode("\u0660" * 8000)))

    def test_decode_of_a_long_run_of_middle_dots(self):
        with deadline(2.0):
            observe_raises("hidden:test_hidden_domain_length.py/42", lambda: (idna.decode("\u30fb" * 8000 + "\u6f22")))

    def test_encode_through_uts46(self):
        with deadline(2.0):
            observe_raises("hidden:test_hidden_domain_length.py/47", lambda: (idna.encode("\u0660" * 8000, uts46=True)))

    def test_decode_through_uts46(self):
        with deadline(2.0):
            observe_raises("hidden:test_hidden_domain_length.py/52", lambda: (idna.decode("\u0660" * 8000, uts46=True)))

    def test_encode_of_a_long_dotted_name(self):
        with deadline(2.0):
            observe_raises("hidden:test_hidden_domain_length.py/57", lambda: (idna.encode(".".join(["\u0660" * 60] * 140))))

    def test_just_over_the_limit_is_refused(self):
        observe_raises("hidden:test_hidden_domain_length.py/61", lambda: (idna.encode(LONGEST + "ee")))
        observe_raises("hidden:test_hidden_domain_length.py/63", lambda: (idna.decode(LONGEST + "ee")))


class LimitStillWorks(unittest.TestCase):
    # The expected side must be a literal for the sealed oracle: compare inside, observe the outcome.
    def test_longest_name_encodes(self):
        observe("hidden:test_hidden_domain_length.py/70", lambda: (idna.encode(LONGEST) == LONGEST.encode("ascii")))

    def test_longest_name_with_trailing_dot_encodes(self):
        observe("hidden:test_hidden_domain_length.py/73", lambda: (idna.encode(LONGEST + ".") == (LONGEST + ".").encode("ascii")))

    def test_longest_name_decodes(self):
        observe("hidden:test_hidden_domain_length.py/76", lambda: (idna.decode(LONGEST.encode("ascii")) == LONGEST))

    def test_longest_name_with_trailing_dot_decodes(self):
        observe("hidden:test_hidden_domain_length.py/79", lambda: (idna.decode(LONGEST + ".") == LONGEST + "."))

    def test_ordinary_names_are_unchanged(self):
        observe("hidden:test_hidden_domain_length.py/82", lambda: (idna.encode("\u30c6\u30b9\u30c8.example")))
        observe("hidden:test_hidden_domain_length.py/83", lambda: (idna.decode(b"xn--zckzah.example")))
        observe("hidden:test_hidden_domain_length.py/84", lambda: (idna.encode("B\u00fccher.example", uts46=True)))


if __name__ == "__main__":
    unittest.main()
