"""CVE-2026-23490: pyasn1 before 0.6.2 decodes an OBJECT IDENTIFIER arc of any number of
continuation octets, so a few kilobytes of 0xFF octets make one huge integer (memory and CPU
exhaustion on untrusted BER/DER). The fix refuses an arc of more than 20 continuation octets.
Written for PatchProof from the advisory's description, not taken from upstream's tests.
"""

from patchproof_oracle import observe, observe_raises  # sealed by patchproof witness seal
import unittest

from pyasn1 import error
from pyasn1.codec.ber import decoder


def tlv(tag, body):
    """One BER tag-length-value, definite length (short or long form)."""
    size = len(body)
    if size < 128:
        length = bytes([size])
    elif size < 256:
        length = bytes([0x81, size])
    else:
        length = bytes([0x82, size >> 8, size & 0xFF])
    return bytes([tag]) + length + body


class OversizedArcRefused(unittest.TestCase):
    def test_oid_arc_of_a_thousand_continuation_octets_is_refused(self):
        substrate = tlv(0x06, b"\x2b" + b"\xff" * 1000 + b"\x7f")
        observe_raises("reproduction:test_repro_oid_arc_octets.py/28", lambda: (decoder.decode(substrate)))


if __name__ == "__main__":
    unittest.main()
