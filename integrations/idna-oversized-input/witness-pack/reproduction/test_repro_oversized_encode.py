"""GHSA-65pc-fj4g-8rjx: idna.encode() checks a label's CONTEXTO rules codepoint by codepoint, each
check scanning the whole label, so a long run of such codepoints takes quadratic time before the
input is refused (seconds for a few thousand characters). Written for PatchProof from the advisory;
shares no code with upstream's tests."""

from patchproof_oracle import observe, observe_raises  # sealed by patchproof witness seal
import signal
import unittest
from contextlib import contextmanager

import idna


class TookTooLong(Exception):
    pass


@contextmanager
def deadline(seconds):
    """Interrupt the code under test once `seconds` of wall time have passed."""

    def expire(signum, frame):
        raise TookTooLong("still working after %s s" % seconds)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class OversizedEncodeTest(unittest.TestCase):
    def test_long_run_of_arabic_indic_digits_is_refused_promptly(self):
        with deadline(2.0):
            observe_raises("reproduction:test_repro_oversized_encode.py/36", lambda: (idna.encode("\u0660" * 8000)))

    def test_long_run_of_katakana_middle_dots_is_refused_promptly(self):
        with deadline(2.0):
            observe_raises("reproduction:test_repro_oversized_encode.py/41", lambda: (idna.encode("\u30fb" * 8000 + "\u6f22")))


if __name__ == "__main__":
    unittest.main()
