"""Seat tokens: HMAC-signed bearer tokens that open exactly one seat of one game.

A token is `<game_id>.<seat>[.<kid>].<signature>` where the signature is the URL-safe
base64 of HMAC-SHA256(secret, "tablero-seat:<game_id>:<seat>"). Any replica with
the same secrets verifies it without a lookup.
"""

from __future__ import annotations

import base64
import hmac

from tablero.server.errors import PermissionDenied, Unauthenticated
from tablero.server.portal.tokens import SeatTokens, TokenError, WrongGame, parse_secrets


class TokenSigner:
    """Seat tokens signed with `TABLERO_SECRET` (one secret, or `kid:secret,...` pairs so the
    secret can rotate; see server.portal.tokens)."""

    def __init__(self, secret: str) -> None:
        if not secret:
            raise ValueError("an empty secret signs nothing")
        self._tokens = SeatTokens(secret)
        # Page tokens' keys (server.app.paging.PageTokens): one per listed secret, the signing
        # one first, derived as derived_key() derives its keys; by key id, so a page token
        # signed before a rotation verifies while its secret stays listed.
        self._page_keys = tuple((kid, hmac.digest(key, b"tablero-page-token", "sha256"))
                                for kid, key in parse_secrets(secret).items())

    def issue(self, game_id: str, seat: int, claim: str | None = None) -> str:
        return self._tokens.issue(game_id, seat, claim)

    def verify(self, token: str, game_id: str) -> int:
        """The seat the token opens in `game_id`; raises Unauthenticated for a token
        that is malformed or not ours, PermissionDenied for another game's token."""
        return self.verify_claim(token, game_id)[0]

    def claim_id(self, game_id: str, request_id: str) -> str:
        """The claim id of an anonymous join with this request id (server.app.service): the same
        on every replica, and nobody without the signing secret can make it (it is no guess of
        anyone's seat token)."""
        key = self._tokens.derived_key(b"tablero-join-claim")
        mac = hmac.digest(key, f"{game_id}\0{request_id}".encode(), "sha256")
        return base64.urlsafe_b64encode(mac[:9]).decode()

    def request_game_id(self, user_id: str, request_id: str) -> str:
        """The id of the game a CreateGame with this requestId makes for this caller (a portal
        user's id, "" for an anonymous caller): the same on every replica, so a retry whose
        first answer was lost finds the game that attempt made (server.app.service). 12
        URL-safe characters like any game id, never starting with '-', '_' or `eyJ`."""
        key = self._tokens.derived_key(b"tablero-create-request")
        mac = hmac.digest(key, f"{user_id}\0{request_id}".encode(), "sha256")
        gid = base64.urlsafe_b64encode(mac[:9]).decode()
        return "g" + gid[1:] if gid[0] in "-_" or gid.startswith("eyJ") else gid

    def page_keys(self) -> tuple[tuple[str, bytes], ...]:
        """(key id, key) of the page tokens (server.app.paging), from every secret
        TABLERO_SECRET lists, the signing one first: every replica with the same secrets signs
        and verifies the same tokens."""
        return self._page_keys

    def event_hash_key(self) -> bytes:
        """The key of the event hashes clients are shown (server.app.replies.public_hash),
        derived from the signing secret: every replica that verifies the same tokens shows the
        same hashes."""
        return self._tokens.derived_key(b"tablero-event-hash")

    def verify_claim(self, token: str, game_id: str) -> tuple[int, str | None]:
        """(seat, the claim id a joined seat's token names, else None); errors as verify()."""
        try:
            return self._tokens.verify_claim(token, game_id)
        except TokenError as e:
            raise Unauthenticated(str(e), "TOKEN_INVALID") from None
        except WrongGame as e:
            raise PermissionDenied(f"this token opens a seat of game {e.game_id}, not {game_id}", "WRONG_GAME") from None


def bearer(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header (None when absent)."""
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthenticated("Authorization must be 'Bearer <token>'", "TOKEN_INVALID")
    return token.strip()
