"""CVE-2026-32597: PyJWT before 2.12.0 does not check the JWS "crit" (critical) header parameter.
RFC 7515 section 4.1.11: a recipient that does not understand an extension listed in "crit" MUST
refuse the token; PyJWT 2.10.1 accepts it and returns its claims.
Written for PatchProof from the advisory's description, not taken from upstream's tests.
"""

from patchproof_oracle import observe, observe_raises  # sealed by patchproof witness seal
import jwt
import pytest

KEY = "a-shared-secret-of-thirty-two-bytes!"


def test_token_with_an_unknown_critical_extension_is_refused():
    token = jwt.encode({"sub": "alice"}, KEY, algorithm="HS256", headers={"crit": ["x-policy"], "x-policy": "strict"})
    observe_raises("reproduction:test_repro_unknown_crit.py/15", lambda: (jwt.decode(token, KEY, algorithms=["HS256"])))
