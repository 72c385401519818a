"""Edge cases of the OID arc limit that a fix of CVE-2026-23490 must also get right (hidden from
the candidate): the limit is 20 continuation octets, inclusive; it holds for RELATIVE-OID as well
as OBJECT IDENTIFIER, for every arc (not only the first), and through the CER and DER decoders;
ordinary and long-but-allowed identifiers still decode to the same values.
Written for PatchProof, independent of upstream's tests.
"""

from patchproof_oracle import observe, observe_raises  # sealed by patchproof witness seal
import unittest

from pyasn1 import error
from pyasn1.codec.ber import decoder as ber
from pyasn1.codec.cer import decoder as cer
from pyasn1.codec.der import decoder as der


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


def arc(continuation):
    """An arc of `continuation` continuation octets (0xFF) and its last octet 0x7F: 2**(7n+7) - 1."""
    return b"\xff" * continuation + b"\x7f"


OID = 0x06
RELATIVE_OID = 0x0D


class LimitIsTwentyOctets(unittest.TestCase):
    def test_oid_arc_of_twenty_continuation_octets_still_decodes(self):
        value, rest = ber.decode(tlv(OID, b"\x2b" + arc(20)))
        observe("hidden:test_hidden_arc_limit.py/40", lambda: (str(value)))
        observe("hidden:test_hidden_arc_limit.py/41", lambda: (rest))

    def test_oid_arc_of_twenty_one_continuation_octets_is_refused(self):
        observe_raises("hidden:test_hidden_arc_limit.py/44", lambda: (ber.decode(tlv(OID, b"\x2b" + arc(21)))))

    def test_oversized_arc_after_ordinary_arcs_is_refused(self):
        observe_raises("hidden:test_hidden_arc_limit.py/48", lambda: (ber.decode(tlv(OID, b"\x2b\x06\x01\x04\x01" + arc(40)))))


class RelativeOidToo(unittest.TestCase):
    def test_relative_oid_arc_of_twenty_continuation_octets_still_decodes(self):
        value, rest = ber.decode(tlv(RELATIVE_OID, b"\x01" + arc(20)))
        observe("hidden:test_hidden_arc_limit.py/55", lambda: (str(value)))
        observe("hidden:test_hidden_arc_limit.py/56", lambda: (rest))

    def test_relative_oid_arc_of_twenty_one_continuation_octets_is_refused(self):
        observe_raises("hidden:test_hidden_arc_limit.py/59", lambda: (ber.decode(tlv(RELATIVE_OID, b"\x01" + arc(21)))))

    def test_relative_oid_arc_of_a_thousand_continuation_octets_is_refused(self):
        observe_raises("hidden:test_hidden_arc_limit.py/63", lambda: (ber.decode(tlv(RELATIVE_OID, arc(1000)))))


class EveryDecoder(unittest.TestCase):
    def test_der_refuses_an_oversized_oid_arc(self):
        observe_raises("hidden:test_hidden_arc_limit.py/69", lambda: (der.decode(tlv(OID, b"\x2b" + arc(500)))))

    def test_cer_refuses_an_oversized_oid_arc(self):
        observe_raises("hidden:test_hidden_arc_limit.py/73", lambda: (cer.decode(tlv(OID, b"\x2b" + arc(500)))))


class OrdinaryIdentifiersUnchanged(unittest.TestCase):
    def test_server_auth_oid(self):
        value, rest = der.decode(bytes.fromhex("06082b06010505070301"))
        observe("hidden:test_hidden_arc_limit.py/80", lambda: (str(value)))
        observe("hidden:test_hidden_arc_limit.py/81", lambda: (rest))

    def test_uuid_based_oid_under_2_25(self):
        # 2.25.<the UUID f81d4fae-7dec-11d0-a765-00a0c91e6bf6 as an integer> (RFC 4122's example):
        # an arc of 18 continuation octets, within the limit.
        value, rest = der.decode(bytes.fromhex("06146983f09da7ebcfdee0c7a1a7b2c0948cc8f9d776"))
        observe("hidden:test_hidden_arc_limit.py/87", lambda: (str(value)))
        observe("hidden:test_hidden_arc_limit.py/88", lambda: (rest))

if __name__ == "__main__":
    unittest.main()
