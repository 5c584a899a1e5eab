"""Page tokens and pages: ListEvents' (where the next page starts) and ListLegalActions'
(an offset that holds only at the version, and for the seat and type filter, of the page that
gave it, and its pages by action type); the signing of every page token (`PageTokens`: also
ListGames' and the notification list's).

A page token is `<body>.<kid>.<mac>`: the base64url JSON of what it continues (the list, what
the list is of - game, seat, filters - and where the next page starts), the id of the secret
that signed it, and an HMAC-SHA256 of the body with a key derived from that secret
(TokenSigner.page_keys). Any replica with the same TABLERO_SECRET verifies it, also after a
rotation while the old secret stays listed; a token the server did not sign (forged, edited,
unsigned from before), or signed for another game, seat or filters, is 400 PAGE_TOKEN_INVALID."""

from __future__ import annotations

import base64
import binascii
import dataclasses
import functools
import hashlib
import hmac
import json
from collections.abc import Sequence
from typing import Any

from tablero.engines.core import Engine
from tablero.server.errors import InvalidArgument
from tablero.server.pagesize import page_size

from . import commands as cmd

MAX_LEGAL_PAGE_SIZE = 10_000
DEFAULT_GROUP_PAGE_SIZE = 20  # ListLegalActions with group="type": each group's first page
LEGAL_GROUPINGS = ("", "type")
DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = 1000


def check_legal_request(c: cmd.ListLegalActions) -> cmd.ListLegalActions:
    """ListLegalActions' paging fields, checked before the game is read: the request with its
    pageSize clamped to MAX_LEGAL_PAGE_SIZE."""
    if c.group not in LEGAL_GROUPINGS:
        raise InvalidArgument(f'group must be "type" or empty, not {c.group!r}')
    if c.group and c.page_token:
        raise InvalidArgument("pageToken continues one group: ask again without group, with type = the "
                              "group's type", "PAGE_TOKEN_INVALID")
    if not c.page_size:  # absent or 0: every action in one answer (grouped: DEFAULT_GROUP_PAGE_SIZE)
        return c
    return dataclasses.replace(c, page_size=page_size(c.page_size, 0, MAX_LEGAL_PAGE_SIZE))


def legal_reply(c: cmd.ListLegalActions, engine: Engine, version: int, actions: list[Any],
                pages: PageTokens) -> dict[str, Any]:
    """ListLegalActions' answer from every legal action of the seat at `version`: filtered
    by type, grouped by type, or one page of them, as the request asks (`pages` signs and
    checks its page tokens)."""
    if c.type:
        known = action_types(engine)
        if known and c.type not in known:
            raise InvalidArgument(f"{engine.name} has no action type {c.type!r}; its types: {', '.join(known)}")
        actions = [a for a in actions if type_of(a) == c.type]
    reply: dict[str, Any] = {"actions": actions, "version": version, "seat": c.seat, "nextPageToken": "",
                             "groups": []}
    if c.group:
        by_type: dict[str, list[Any]] = {}
        for a in actions:
            by_type.setdefault(type_of(a), []).append(a)
        size = c.page_size or DEFAULT_GROUP_PAGE_SIZE
        reply["actions"] = []
        reply["groups"] = [
            {"type": kind, "count": len(group), "actions": group[:size],
             "nextPageToken": legal_token(pages, c, version, kind, size) if size < len(group) else ""}
            for kind, group in by_type.items()
        ]
        return reply
    if not (c.page_size or c.page_token):
        return reply
    size = c.page_size or MAX_LEGAL_PAGE_SIZE
    start = decode_legal_token(pages, c, version) if c.page_token else 0
    end = start + size
    reply["actions"] = actions[start:end]
    if end < len(actions):
        reply["nextPageToken"] = legal_token(pages, c, version, c.type, end)
    return reply


@functools.cache
def action_types(engine: Engine) -> tuple[str, ...]:
    """The action types the engine's action schema names (empty when it names none)."""
    schema = engine.action_schema or {}
    types = [((o.get("properties") or {}).get("type") or {}).get("const") for o in schema.get("oneOf", ())]
    return tuple(t for t in types if isinstance(t, str))


def type_of(action: Any) -> str:
    kind = action.get("type") if isinstance(action, dict) else None
    return kind if isinstance(kind, str) else ""


UNSIGNED = "not one this server signed"


class BadPageToken(ValueError):
    """A page token this server did not sign (the message says why)."""


class PageTokens:
    """Signs page tokens and checks them. `keys`: (key id, key), the signing one first
    (TokenSigner.page_keys)."""

    MAC_BYTES = 18  # 144 bits of HMAC-SHA256: 24 characters

    def __init__(self, keys: Sequence[tuple[str, bytes]]) -> None:
        if not keys:
            raise ValueError("page tokens need a key")
        self._keys = dict(keys)
        self._kid, self._key = keys[0]

    def _mac(self, key: bytes, body: str) -> str:
        mac = hmac.digest(key, b"tablero-page:" + body.encode(), "sha256")[:self.MAC_BYTES]
        return base64.urlsafe_b64encode(mac).decode()

    def seal(self, doc: list[Any]) -> str:
        """The token of `doc` (JSON): what the list is of and where its next page starts."""
        body = base64.urlsafe_b64encode(json.dumps(doc, separators=(",", ":")).encode()).decode().rstrip("=")
        return f"{body}.{self._kid}.{self._mac(self._key, body)}"

    def open(self, token: str) -> list[Any]:
        """The doc of a token this server signed, else BadPageToken (saying why not)."""
        parts = token.split(".") if isinstance(token, str) and token.isascii() else []
        if len(parts) != 3:
            raise BadPageToken(UNSIGNED)
        body, kid, mac = parts
        if kid in self._keys:
            keys = [self._keys[kid]]
        elif kid == "0":  # signed while TABLERO_SECRET was one unnamed secret (see server.portal.tokens)
            keys = list(self._keys.values())
        else:
            raise BadPageToken(f"signed with key id {kid[:40]!r}, which TABLERO_SECRET no longer lists: "
                               "ask for the first page again")
        if not any(hmac.compare_digest(mac.encode(), self._mac(k, body).encode()) for k in keys):
            raise BadPageToken("its signature does not match: forged or altered")
        try:
            doc = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        except (ValueError, binascii.Error, RecursionError):
            doc = None
        if not isinstance(doc, list) or not doc:
            raise BadPageToken(UNSIGNED)
        return doc

    def bound(self, token: str, list_name: str, of: list[Any], other: str) -> Any:
        """Where the next page starts, from a token of `list_name` signed for `of` (what the
        list is of: its filters, its user); BadPageToken says why not (`other`: for a token
        this server signed for another `of`)."""
        doc = self.open(token)
        if len(doc) != 3 or doc[0] != list_name:
            raise BadPageToken(f"a token of another list, not of {list_name}")
        if doc[1] != fingerprint(of):
            raise BadPageToken(other)
        return doc[2]

    def bind(self, list_name: str, of: list[Any], start: Any) -> str:
        return self.seal([list_name, fingerprint(of), start])


def fingerprint(of: list[Any]) -> str:
    """What a list is of (filters, a user), short and not shown as such in the token."""
    raw = json.dumps(of, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(hashlib.sha256(raw).digest()[:12]).decode()


def legal_token(pages: PageTokens, c: cmd.ListLegalActions, version: int, kind: str, start: int) -> str:
    return pages.seal(["ListLegalActions", c.game_id, c.seat, version, kind, start])


def decode_legal_token(pages: PageTokens, c: cmd.ListLegalActions, version: int) -> int:
    """The offset a ListLegalActions page token names; it holds only for the game, seat and
    type filter, and at the version, of the page that gave it."""
    bad = "pageToken is not a token this game's ListLegalActions returned (for this seat, with the same type filter)"
    try:
        name, gid, seat, at, kind, start = pages.open(c.page_token)
        if name != "ListLegalActions" or not all(type(n) is int and n >= 0 for n in (seat, at, start)):
            raise ValueError
    except BadPageToken as e:
        raise InvalidArgument(f"{bad}: {e}", "PAGE_TOKEN_INVALID") from None
    except (ValueError, TypeError):
        raise InvalidArgument(bad, "PAGE_TOKEN_INVALID") from None
    if gid != c.game_id:
        raise InvalidArgument(f"{bad}: it is a token of another game", "PAGE_TOKEN_INVALID")
    if seat != c.seat:
        raise InvalidArgument(f"pageToken was handed out for seat {seat}'s legal actions, not seat {c.seat}'s: "
                              "ask for this seat's first page", "PAGE_TOKEN_INVALID")
    if kind != c.type:
        raise InvalidArgument(f"{bad}: it was handed out for type {kind!r}, not {c.type!r}", "PAGE_TOKEN_INVALID")
    if int(at) != version:
        raise InvalidArgument(f"pageToken was for version {at}; the game is now at version {version}: "
                              "list the legal actions again from the first page", "PAGE_TOKEN_INVALID")
    return int(start)


def encode_page_token(pages: PageTokens, game_id: str, after: int) -> str:
    return pages.seal(["ListEvents", game_id, after])


def decode_page_token(pages: PageTokens, game_id: str, token: str) -> int:
    bad = "pageToken is not a token this game's ListEvents returned"
    try:
        name, gid, after = pages.open(token)
        if name != "ListEvents" or type(after) is not int or after < 0:
            raise ValueError
    except BadPageToken as e:
        raise InvalidArgument(f"{bad}: {e}", "PAGE_TOKEN_INVALID") from None
    except (ValueError, TypeError):
        raise InvalidArgument(bad, "PAGE_TOKEN_INVALID") from None
    if gid != game_id:
        raise InvalidArgument(f"{bad}: it is a token of another game's events", "PAGE_TOKEN_INVALID")
    return after
