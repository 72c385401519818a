"""Edge cases of the "crit" check that a fix of CVE-2026-32597 must also get right (hidden from the
candidate): "crit" must be a non-empty list of strings, each an extension PyJWT understands (only
"b64") and present in the header; the check holds for the JWS and the JWT API and does not depend
on the signature key; tokens without "crit", or with a well-formed one, decode as before.
Written for PatchProof, independent of upstream's tests.
"""

from patchproof_oracle import observe, observe_raises  # sealed by patchproof witness seal
import base64
import hashlib
import hmac
import json

import jwt
import pytest
from jwt import api_jws

KEY = "a-shared-secret-of-thirty-two-bytes!"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def signed(header, payload):
    """An HS256 token with exactly this header (PyJWT's encoder would add or check fields)."""
    signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(payload).encode())
    signature = hmac.new(KEY.encode(), signing_input.encode(), hashlib.sha256).digest()
    return signing_input + "." + b64url(signature)


@pytest.mark.parametrize(
    "crit",
    [[], "x-policy", [1], ["b64", "x-policy"], ["x-policy"]],
    ids=["empty-list", "a-string", "a-number", "known-and-unknown", "unknown-present"],
)
def test_malformed_or_unknown_crit_is_refused(crit):
    token = signed({"alg": "HS256", "typ": "JWT", "crit": crit, "x-policy": 1, "b64": True}, {"sub": "alice"})
    observe_raises("hidden:test_hidden_crit_header.py/38", lambda: (jwt.decode(token, KEY, algorithms=["HS256"])))


def test_listed_extension_missing_from_the_header_is_refused():
    token = signed({"alg": "HS256", "typ": "JWT", "crit": ["b64"]}, {"sub": "alice"})
    observe_raises("hidden:test_hidden_crit_header.py/44", lambda: (jwt.decode(token, KEY, algorithms=["HS256"])))


def test_the_jws_api_refuses_it_too():
    token = signed({"alg": "HS256", "crit": ["x-policy"], "x-policy": 1}, {"sub": "alice"})
    observe_raises("hidden:test_hidden_crit_header.py/50", lambda: (api_jws.decode_complete(token, KEY, algorithms=["HS256"])))


def test_refused_without_signature_verification_as_well():
    token = signed({"alg": "HS256", "crit": ["x-policy"], "x-policy": 1}, {"sub": "alice"})
    observe_raises("hidden:test_hidden_crit_header.py/56", lambda: (jwt.decode(token, options={"verify_signature": False})))


def test_well_formed_crit_of_b64_still_decodes():
    token = signed({"alg": "HS256", "typ": "JWT", "crit": ["b64"], "b64": True}, {"sub": "alice"})
    observe("hidden:test_hidden_crit_header.py/62", lambda: (jwt.decode(token, KEY, algorithms=["HS256"])))


def test_token_without_crit_still_decodes():
    token = jwt.encode({"sub": "bob", "n": 7}, KEY, algorithm="HS256")
    observe("hidden:test_hidden_crit_header.py/67", lambda: (jwt.decode(token, KEY, algorithms=["HS256"])))


def test_encoding_a_crit_header_is_left_to_the_caller():
    token = jwt.encode({"sub": "carol"}, KEY, algorithm="HS256", headers={"crit": ["x-policy"], "x-policy": 1})
    segment = token.split(".")[0]
    header = json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))
    observe("hidden:test_hidden_crit_header.py/74", lambda: (header["crit"]))
