"""Portal JWTs: keys by id, rotation, and every refusal with its reason."""

import json
import time

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from tablero.server.portal.identity import IdentityError, PortalKeys

SECRET = "portal-secret-0123456789abcdef-0123456789"


def _pem(private) -> str:
    return private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode()


def _token(key, kid, alg="HS256", **claims):
    body = {"sub": "ana", "exp": int(time.time()) + 300, **claims}
    body = {k: v for k, v in body.items() if v is not None}
    return jwt.encode(body, key, algorithm=alg, headers={"kid": kid} if kid else None)


def test_hs256_token_names_its_user():
    keys = PortalKeys.from_json(json.dumps({"k1": SECRET}))
    user = keys.verify(_token(SECRET, "k1", name="Ana"))
    assert (user.id, user.name) == ("ana", "Ana")


def test_rs256_and_es256_public_keys():
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    ec_key = ec.generate_private_key(ec.SECP256R1())
    keys = PortalKeys.from_json(json.dumps({"r": _pem(rsa_key), "e": _pem(ec_key)}))
    assert keys.verify(_token(rsa_key, "r", "RS256", sub="u1")).id == "u1"
    assert keys.verify(_token(ec_key, "e", "ES256", sub="u2")).id == "u2"
    # An RS256 key cannot be used with HS256 (algorithm confusion).
    with pytest.raises(IdentityError, match="signs with RS256"):
        keys.verify(_token(SECRET, "r", "HS256"))


def test_rotation_accepts_old_and_new_keys_until_the_old_is_removed():
    old, new = SECRET, "portal-secret-NEW-0123456789-0123456789"
    both = PortalKeys.from_json(json.dumps({"2026-10": old, "2026-11": new}))
    assert both.verify(_token(old, "2026-10")).id == "ana"
    assert both.verify(_token(new, "2026-11")).id == "ana"
    only_new = PortalKeys.from_json(json.dumps({"2026-11": new}))
    with pytest.raises(IdentityError, match="unknown key id '2026-10'"):
        only_new.verify(_token(old, "2026-10"))


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        (lambda: _token(SECRET, "k1", exp=int(time.time()) - 120), "expired"),
        (lambda: _token("another-secret-0123456789-0123456789abc", "k1"), "signature"),
        (lambda: _token(SECRET, None), "kid"),
        (lambda: _token(SECRET, "k9"), "unknown key id"),
        (lambda: _token(SECRET, "k1", sub=None), '"sub"'),
        (lambda: _token(SECRET, "k1", exp=None), '"exp"'),
        (lambda: "not-a-jwt", "malformed"),
        (lambda: _token(SECRET, "k1", sub="x" * 500), "user id"),
        (lambda: _token(SECRET, "k1", sub="ev\nil"), "control character"),  # shown to other players
        (lambda: _token(SECRET, "k1", name="B\u0000ob"), "control character"),
        (lambda: _token(SECRET, "k1", name="Ana \ud83d"), "lone surrogate"),  # an emoji cut in half
        (lambda: _token(SECRET, "k1", sub="a\ud800"), "lone surrogate"),
        # NumericDate is a JSON number (RFC 7519 2): PyJWT itself reads "exp": "…" as int("…")
        (lambda: _token(SECRET, "k1", exp=str(int(time.time()) + 300)), '"exp" must be a NumericDate'),
        (lambda: _token(SECRET, "k1", nbf=str(int(time.time()) - 10)), '"nbf" must be a NumericDate'),
    ],
)
def test_bad_tokens_are_refused_with_the_reason(token, reason):
    keys = PortalKeys.from_json(json.dumps({"k1": SECRET}))
    with pytest.raises(IdentityError, match=reason):
        keys.verify(token())


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{", "not JSON"),
        ("[1]", "JSON object"),
        ('{"k": ""}', "non-empty"),
        ('{"k": "short"}', "32 bytes"),
        # An empty key id (a templated '{"$KID": ...}' whose variable was unset): no JWT names it.
        ('{"": "' + SECRET + '"}', "key id must not be empty"),
        ('{"k": "-----BEGIN PUBLIC KEY-----\\nxx\\n-----END PUBLIC KEY-----"}', "not a PEM"),
    ],
)
def test_bad_key_settings_are_refused_with_their_name(text, reason):
    with pytest.raises(ValueError, match=reason):
        PortalKeys.from_json(text)


def test_no_keys_means_no_portal():
    keys = PortalKeys.from_json("")
    assert not keys.configured
    with pytest.raises(IdentityError, match="TABLERO_PORTAL_KEYS"):
        keys.verify(_token(SECRET, "k1"))


def test_a_token_for_another_audience_or_issuer_is_refused():
    """RFC 7519 4.1.3: a server not named in a token's `aud` refuses it; with an audience set,
    `aud` must name it; with an issuer set, `iss` must be it (an identity provider's key signs
    tokens for every application it serves)."""
    plain = PortalKeys.from_json(json.dumps({"k1": SECRET}))
    assert plain.verify(_token(SECRET, "k1")).id == "ana"  # no aud: as before
    with pytest.raises(IdentityError, match="TABLERO_PORTAL_AUDIENCE"):
        plain.verify(_token(SECRET, "k1", aud="some-other-api"))
    keys = PortalKeys.from_json(json.dumps({"k1": SECRET}), audience="tablero, games-api",
                                issuer="https://id.example/")
    ok = {"aud": "games-api", "iss": "https://id.example/"}
    assert keys.verify(_token(SECRET, "k1", **ok)).id == "ana"
    assert keys.verify(_token(SECRET, "k1", **{**ok, "aud": ["x", "tablero"]})).id == "ana"
    for claims, reason in (({**ok, "aud": "some-other-api"}, "audience"), ({**ok, "aud": None}, '"aud"'),
                           ({**ok, "iss": "https://evil.example/"}, "issuer"), ({**ok, "iss": None}, '"iss"')):
        with pytest.raises(IdentityError, match=reason):
            keys.verify(_token(SECRET, "k1", **claims))


@pytest.mark.parametrize(("audience", "issuer", "reason"), [("a,,b", None, "empty audience"),
                                                           (None, " https://id.example/", "whitespace")])
def test_bad_audience_and_issuer_settings_are_refused(audience, issuer, reason):
    with pytest.raises(ValueError, match=reason):
        PortalKeys.from_json(json.dumps({"k1": SECRET}), audience=audience, issuer=issuer)
