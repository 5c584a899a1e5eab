"""Seat tokens with key ids, so `TABLERO_SECRET` can rotate without breaking live games.

`TABLERO_SECRET` holds one secret (today's form) or several as `kid:secret` pairs
separated by commas, the first one signing: `2026-11:s3cr3t…,2026-10:0ld…`. A token
is `<game_id>.<seat>.<kid>.<signature>`; the kid picks the secret that verifies it.
Tokens of the old form `<game_id>.<seat>.<signature>` (no kid), and those with kid `0`,
were signed by a single, unnamed secret (its id is `0`): they verify against the secret
listed as `0` if there is one, else against every listed secret — so the rotation recipe
`new:<new secret>,old:<old secret>` keeps the tokens issued before it working for as long
as the old secret stays listed, whatever name it is given. A token whose kid is not listed
is refused with a message naming its kid and the listed ones (kids are not secret: every
token shows one).

A seat token opens its seat for as long as the game exists: it "expires with the
game" (the retention policy deletes finished and abandoned games, and a token of a
deleted game opens nothing).

A seat taken by a join carries its claim's id: `<game_id>.<seat>.<kid>.<claim>.<signature>`
(the claim signed too). The server checks it against the claim the store holds for the seat
(server/app/service.py, `check_claim`): a join the store lost, whose seat another player then
took, leaves a token that no longer opens anything.
"""

from __future__ import annotations

import base64
import hmac
import re

LEGACY_KID = "0"
_KID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_CLAIM = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


class TokenError(Exception):
    """A malformed token, or one that no listed secret signed."""


class WrongGame(Exception):
    """A valid token of another game."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"this token opens a seat of game {game_id}")
        self.game_id = game_id


def parse_secrets(text: str) -> dict[str, bytes]:
    """`secret` or `kid:secret,kid:secret` (first signs) → ordered {kid: key}. ValueError names the problem."""
    text = (text or "").strip()
    if not text:
        raise ValueError("TABLERO_SECRET is empty")
    if ":" not in text:
        return {LEGACY_KID: text.encode()}
    out: dict[str, bytes] = {}
    for part in text.split(","):
        kid, sep, secret = part.strip().partition(":")
        if not sep or not secret:
            raise ValueError(f"TABLERO_SECRET: {part.strip()[:20]!r} is not kid:secret")
        if not _KID.match(kid):
            raise ValueError(f"TABLERO_SECRET: key id {kid!r} must be 1-32 letters, digits, '-' or '_'")
        if kid in out:
            raise ValueError(f"TABLERO_SECRET: key id {kid!r} is listed twice")
        out[kid] = secret.encode()
    return out


class SeatTokens:
    # Tokens that verified, with what they open: a live game's seats send the same token with
    # every request, and its HMAC need not be computed again (the keys are fixed for the
    # process's life). Bounded: the oldest half is dropped when full.
    VERIFIED_MAX = 50_000

    def __init__(self, secret_setting: str) -> None:
        self._keys = parse_secrets(secret_setting)
        self._signing = next(iter(self._keys))
        self._verified: dict[str, tuple[str, int, str | None]] = {}
        self._derived: dict[bytes, bytes] = {}

    @staticmethod
    def _sig(key: bytes, game_id: str, seat: int, claim: str | None = None) -> str:
        text = f"tablero-seat:{game_id}:{seat}" if claim is None else f"tablero-seat:{game_id}:{seat}:{claim}"
        mac = hmac.digest(key, text.encode(), "sha256")  # one-shot, in C
        return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()

    def derived_key(self, purpose: bytes) -> bytes:
        """A key for `purpose`, derived from the signing secret (HMAC-SHA256); made once per
        purpose (the secret is the process's for its whole life)."""
        key = self._derived.get(purpose)
        if key is None:
            key = self._derived[purpose] = hmac.digest(self._keys[self._signing], purpose, "sha256")
        return key

    def issue(self, game_id: str, seat: int, claim: str | None = None) -> str:
        """A token of `seat`; with `claim`, of that claim of the seat only."""
        key = self._keys[self._signing]
        if claim is not None:
            if not _CLAIM.match(claim):
                raise ValueError(f"a claim id is 1-32 letters, digits, '-' or '_', not {claim!r}")
            token = f"{game_id}.{seat}.{self._signing}.{claim}.{self._sig(key, game_id, seat, claim)}"
        elif self._signing == LEGACY_KID:
            token = f"{game_id}.{seat}.{self._sig(key, game_id, seat)}"
        else:
            token = f"{game_id}.{seat}.{self._signing}.{self._sig(key, game_id, seat)}"
        self._remember(token, game_id, seat, claim)  # its first use here needs no HMAC either
        return token

    def _remember(self, token: str, game_id: str, seat: int, claim: str | None = None) -> None:
        if len(self._verified) >= self.VERIFIED_MAX:
            for old in list(self._verified)[: self.VERIFIED_MAX // 2]:
                del self._verified[old]
        self._verified[token] = (game_id, seat, claim)

    def verify(self, token: str, game_id: str) -> int:
        """The seat `token` opens in `game_id`; TokenError or WrongGame otherwise."""
        return self.verify_claim(token, game_id)[0]

    def verify_claim(self, token: str, game_id: str) -> tuple[int, str | None]:
        """(seat, claim id or None) of `token` in `game_id`; TokenError or WrongGame otherwise."""
        known = self._verified.get(token)
        if known is not None:
            if known[0] != game_id:
                raise WrongGame(known[0])
            return known[1], known[2]
        if not token.isascii():
            raise TokenError("malformed seat token")
        parts = token.split(".")
        claim = None
        if len(parts) == 3:
            gid, seat_s, sig = parts
            kid = LEGACY_KID
        elif len(parts) == 4:
            gid, seat_s, kid, sig = parts
        elif len(parts) == 5:
            gid, seat_s, kid, claim, sig = parts
            if not _CLAIM.match(claim):
                raise TokenError("malformed seat token")
        else:
            raise TokenError("malformed seat token")
        if not seat_s.isdigit() or seat_s != str(int(seat_s)) or len(seat_s) > 4:
            raise TokenError("malformed seat token")
        seat = int(seat_s)
        key = self._keys.get(kid)
        if key is not None:
            keys: tuple[bytes, ...] = (key,)
        elif kid == LEGACY_KID:
            # Issued while TABLERO_SECRET was one unnamed secret, which the rotation recipe
            # (`new:<secret>,old:<secret>`) lists under a name of the operator's choosing: any
            # listed secret may have signed it (a handful of HMACs, only for a token not seen yet).
            keys = tuple(self._keys.values())
        else:
            raise TokenError(f"invalid seat token: signed with key id {kid!r}, which this server does not "
                             f"verify (TABLERO_SECRET lists {', '.join(map(repr, self._keys))})")
        want = sig.encode()
        if not any(hmac.compare_digest(want, self._sig(k, gid, seat, claim).encode()) for k in keys):
            raise TokenError("invalid seat token")
        self._remember(token, gid, seat, claim)
        if gid != game_id:
            raise WrongGame(gid)
        return seat, claim
