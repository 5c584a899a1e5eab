"""Portal identity: a portal signs a short-lived JWT for each of its users, and every
replica verifies it with the portal's keys (`TABLERO_PORTAL_KEYS`).

`TABLERO_PORTAL_KEYS` is a JSON object: key id → HS256 secret (a string) or a PEM
public key (RS256 for RSA keys, ES256 for P-256 EC keys). Several keys may be listed
at once, so a portal rotates by adding the new key, signing with it, and removing
the old one once no token signed with it is still alive. A token names its key in
the `kid` header and carries `sub` (the user id), `exp` and optionally `name`.

Audience and issuer (RFC 7519 4.1.1, 4.1.3): with `TABLERO_PORTAL_AUDIENCE` (one value or
several, comma-separated) a token must carry an `aud` naming one of them; without it, a token
that carries an `aud` at all is refused, as RFC 7519 asks of a server that is not named there
(so an identity provider's token meant for another application is never taken for this one).
With `TABLERO_PORTAL_ISSUER` a token must carry that `iss`.

Lifetime: a token is short-lived. One that lives longer than `TABLERO_PORTAL_MAX_TOKEN_LIFETIME`
(24 h unless set; 0: no cap) is refused, 401 `TOKEN_INVALID`: its `exp` minus its `iat`, or, without
`iat`, its `exp` minus now (with the clock-skew leeway), so a leaked token cannot open the user's
games for a year.
"""

from __future__ import annotations

import json
import re
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import load_pem_public_key

# Leeway for clock skew between the portal and the server, in seconds.
LEEWAY = 30
MAX_USER_ID = 128
MAX_NAME = 64
# The longest a portal JWT may live (exp - iat, or exp - now without iat), in seconds, unless
# TABLERO_PORTAL_MAX_TOKEN_LIFETIME says otherwise (0: no cap).
MAX_LIFETIME = 24 * 3600


class IdentityError(Exception):
    """A JWT that cannot be accepted; the message says why (shown to the client as 401)."""


class Expired(IdentityError):
    """A JWT past its `exp` (the portal should issue a fresh one: reason TOKEN_EXPIRED)."""


@dataclass(frozen=True)
class User:
    id: str
    name: str | None = None


def has_control(text: str) -> bool:
    """Whether `text` (a user id or name, shown to other players) has a control character,
    or a lone UTF-16 surrogate (a JSON escape such as \\ud800, which no answer can encode)."""
    return _CONTROL.search(text) is not None


# (One regular expression: a character-by-character test cost 3-5 µs on every request id.)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


@dataclass(frozen=True)
class _Key:
    algorithm: str
    key: Any


def _parse_key(kid: str, value: Any) -> _Key:
    if not isinstance(value, str) or not value:
        raise ValueError(f"TABLERO_PORTAL_KEYS[{kid!r}] must be a non-empty string (HS256 secret or PEM public key)")
    if "-----BEGIN" not in value:
        if len(value.encode()) < 32:
            raise ValueError(f"TABLERO_PORTAL_KEYS[{kid!r}]: an HS256 secret needs at least 32 bytes (RFC 7518 §3.2)")
        return _Key("HS256", value.encode())
    try:
        public = load_pem_public_key(value.encode())
    except ValueError as e:
        raise ValueError(f"TABLERO_PORTAL_KEYS[{kid!r}] is not a PEM public key: {e}") from None
    if isinstance(public, rsa.RSAPublicKey):
        return _Key("RS256", public)
    if isinstance(public, ec.EllipticCurvePublicKey) and isinstance(public.curve, ec.SECP256R1):
        return _Key("ES256", public)
    raise ValueError(f"TABLERO_PORTAL_KEYS[{kid!r}]: only RSA (RS256) and P-256 EC (ES256) public keys are accepted")


def audiences(text: str | None) -> list[str]:
    """`TABLERO_PORTAL_AUDIENCE`: one audience or several, comma-separated; ValueError on an
    empty item."""
    if text is None or not text.strip():
        return []
    items = [x.strip() for x in text.split(",")]
    if not all(items):
        raise ValueError("an empty audience in the list (comma-separated values, none of them blank)")
    return items


class PortalKeys:
    """The portal's verification keys by key id, and the audience and issuer its tokens must name."""

    def __init__(self, keys: dict[str, _Key], audience: list[str] | None = None, issuer: str | None = None,
                 max_lifetime: float = MAX_LIFETIME) -> None:
        self._keys = keys
        self.audience = list(audience or [])
        self.issuer = issuer or None
        self.max_lifetime = max_lifetime  # seconds; 0: no cap

    @classmethod
    def from_json(cls, text: str | None, audience: str | None = None, issuer: str | None = None,
                  max_lifetime: float = MAX_LIFETIME) -> PortalKeys:
        """Parse `TABLERO_PORTAL_KEYS` (with `TABLERO_PORTAL_AUDIENCE`, `TABLERO_PORTAL_ISSUER` and
        `TABLERO_PORTAL_MAX_TOKEN_LIFETIME`); empty/None means no portal is configured. Raises
        ValueError naming what is wrong."""
        aud = audiences(audience)
        if issuer is not None and issuer != issuer.strip():
            raise ValueError("TABLERO_PORTAL_ISSUER must not start or end with whitespace")
        if not text or not text.strip():
            return cls({}, aud, issuer, max_lifetime)
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"TABLERO_PORTAL_KEYS is not JSON: {e.msg} at position {e.pos}") from None
        if not isinstance(raw, dict):
            raise ValueError("TABLERO_PORTAL_KEYS must be a JSON object: key id → secret or PEM public key")
        if "" in raw:  # a JWT's "kid" is never empty (verify refuses one): such a key would verify nothing
            raise ValueError("TABLERO_PORTAL_KEYS: a key id must not be empty (it is the JWTs' \"kid\" header)")
        return cls({str(kid): _parse_key(str(kid), v) for kid, v in raw.items()}, aud, issuer, max_lifetime)

    @property
    def configured(self) -> bool:
        return bool(self._keys)

    @property
    def key_ids(self) -> list[str]:
        return sorted(self._keys)

    def verify(self, token: str) -> User:
        """The user a portal JWT names; IdentityError with the reason otherwise."""
        if not self._keys:
            raise IdentityError("this server accepts no portal tokens (TABLERO_PORTAL_KEYS is not set)")
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError as e:
            raise IdentityError(f"malformed JWT: {e}") from None
        kid = header.get("kid")
        if not isinstance(kid, str) or not kid:
            raise IdentityError('the JWT has no "kid" header naming the portal key')
        key = self._keys.get(kid)
        if key is None:
            raise IdentityError(f"unknown key id {kid!r}")
        if header.get("alg") != key.algorithm:
            raise IdentityError(f"key {kid!r} signs with {key.algorithm}, not {header.get('alg')!r}")
        required = ["sub", "exp"] + ["aud"] * bool(self.audience) + ["iss"] * bool(self.issuer)
        try:
            claims = jwt.decode(
                token, key.key, algorithms=[key.algorithm], leeway=LEEWAY, audience=self.audience or None,
                issuer=self.issuer, options={"require": required, "verify_aud": True, "verify_iss": True},
            )
        except jwt.ExpiredSignatureError:
            raise Expired("the JWT has expired") from None
        except jwt.MissingRequiredClaimError as e:
            raise IdentityError(f'the JWT lacks the "{e.claim}" claim') from None
        except jwt.InvalidSignatureError:
            raise IdentityError("the JWT's signature does not verify") from None
        except jwt.InvalidAudienceError:
            if not self.audience:
                raise IdentityError('the JWT names an audience ("aud") and this server is given none '
                                    "(TABLERO_PORTAL_AUDIENCE): a token meant for another application is "
                                    "not taken") from None
            raise IdentityError(f'the JWT\'s audience ("aud") is not this server\'s ({", ".join(self.audience)})') \
                from None
        except jwt.InvalidIssuerError:
            raise IdentityError(f'the JWT\'s issuer ("iss") is not {self.issuer!r}') from None
        except jwt.PyJWTError as e:
            raise IdentityError(f"invalid JWT: {e}") from None
        for claim in ("exp", "nbf", "iat"):  # NumericDate (RFC 7519 2): a JSON number, not "1767225600"
            value = claims.get(claim)
            if claim in claims and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise IdentityError(f'"{claim}" must be a NumericDate (a JSON number of seconds since the epoch), '
                                    f"not {type(value).__name__}")
        self._check_lifetime(claims)
        sub = claims["sub"]
        if not isinstance(sub, str) or not sub or len(sub) > MAX_USER_ID or has_control(sub):
            raise IdentityError(f'"sub" must be a user id of 1-{MAX_USER_ID} characters, none of them a control character '
                                'or a lone surrogate')
        name = claims.get("name")
        if name is not None and (not isinstance(name, str) or has_control(name)):
            raise IdentityError('"name" must be a string, none of its characters a control character or a lone '
                                'surrogate')
        return User(sub, display_name(name) if name else None)

    def _check_lifetime(self, claims: dict[str, Any]) -> None:
        """IdentityError for a token that lives longer than `max_lifetime`: exp - iat (the
        portal's own clock), else exp - now, which allows the clock-skew leeway."""
        if not self.max_lifetime:
            return
        iat = claims.get("iat")
        lifetime = claims["exp"] - (iat if iat is not None else time.time())
        if lifetime > self.max_lifetime + (0 if iat is not None else LEEWAY):
            since = '"exp" - "iat"' if iat is not None else '"exp" - now'
            raise IdentityError(f"the JWT lives {_span(lifetime)} ({since}), longer than this server accepts "
                                f"(at most {_span(self.max_lifetime)}: TABLERO_PORTAL_MAX_TOKEN_LIFETIME); "
                                "the portal must sign short-lived tokens")


def display_name(name: str) -> str:
    """A JWT's `name` as players are shown it: NFC (a name a Mac sends decomposed counts its
    letters, not its accents), and at most MAX_NAME characters, a longer one cut to
    MAX_NAME - 1 and an ellipsis. The portal signs whatever its user chose as a display name:
    a long one shortened beats refusing every call the user makes (it was 401 TOKEN_INVALID)."""
    name = unicodedata.normalize("NFC", name)
    return name if len(name) <= MAX_NAME else name[:MAX_NAME - 1].rstrip() + "\u2026"


def _span(seconds: float) -> str:
    """A lifetime in words: "365 days", "25 h", "90 min", "45 s"."""
    for unit, size in (("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= 2 * size or (unit != "days" and seconds >= size and seconds % size == 0):
            return f"{seconds / size:.6g} {unit}"
    return f"{seconds:.6g} s"


def looks_like_jwt(token: str) -> bool:
    """Seat tokens have the form `<game>.<seat>.<sig>` with a numeric seat; JWTs have
    three base64url parts whose header starts with `eyJ` ('{"') and whose payload (a JSON
    object, so `eyJ…` too) is never a number. (A game id may begin with `eyJ`: an older one
    can, and its seat tokens are still seat tokens.)"""
    if not token.startswith("eyJ") or token.count(".") != 2:
        return False
    return not token.split(".", 2)[1].isdigit()
