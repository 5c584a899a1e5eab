"""Seat tokens: HMAC-signed bearer tokens that open exactly one seat of one game.

A token is `<game_id>.<seat>.<signature>` where the signature is the URL-safe
base64 of HMAC-SHA256(secret, "tablero-seat:<game_id>:<seat>"). Any replica with
the same secret verifies it without a lookup.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from server.errors import PermissionDenied, Unauthenticated


class TokenSigner:
    def __init__(self, secret: str) -> None:
        if not secret:
            raise ValueError("an empty secret signs nothing")
        self._key = secret.encode()

    def _sig(self, game_id: str, seat: int) -> str:
        mac = hmac.new(self._key, f"tablero-seat:{game_id}:{seat}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()

    def issue(self, game_id: str, seat: int) -> str:
        return f"{game_id}.{seat}.{self._sig(game_id, seat)}"

    def verify(self, token: str, game_id: str) -> int:
        """The seat the token opens in `game_id`; raises Unauthenticated for a token
        that is malformed or not ours, PermissionDenied for another game's token."""
        parts = token.split(".")
        if len(parts) != 3 or not parts[1].isdigit() or parts[1] != str(int(parts[1])) or len(parts[1]) > 4:
            raise Unauthenticated("malformed seat token")
        gid, seat_s, sig = parts
        seat = int(seat_s)
        if not hmac.compare_digest(sig, self._sig(gid, seat)):
            raise Unauthenticated("invalid seat token")
        if gid != game_id:
            raise PermissionDenied(f"this token opens a seat of game {gid}, not {game_id}")
        return seat


def bearer(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header (None when absent)."""
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthenticated("Authorization must be 'Bearer <token>'")
    return token.strip()
