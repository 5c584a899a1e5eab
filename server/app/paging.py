"""Page tokens and pages: ListEvents' (where the next page starts) and ListLegalActions'
(an offset that holds only at the version, and for the type filter, of the page that gave it,
and its pages by action type)."""

from __future__ import annotations

import base64
import dataclasses
import functools
import json
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


def legal_reply(c: cmd.ListLegalActions, engine: Engine, version: int, actions: list[Any]) -> dict[str, Any]:
    """ListLegalActions' answer from every legal action of the seat at `version`: filtered
    by type, grouped by type, or one page of them, as the request asks."""
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
             "nextPageToken": legal_token(c.game_id, version, kind, size) if size < len(group) else ""}
            for kind, group in by_type.items()
        ]
        return reply
    if not (c.page_size or c.page_token):
        return reply
    size = c.page_size or MAX_LEGAL_PAGE_SIZE
    start = decode_legal_token(c, version) if c.page_token else 0
    end = start + size
    reply["actions"] = actions[start:end]
    if end < len(actions):
        reply["nextPageToken"] = legal_token(c.game_id, version, c.type, end)
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


def legal_token(game_id: str, version: int, kind: str, start: int) -> str:
    token = json.dumps([game_id, version, kind, start], separators=(",", ":"))
    return base64.urlsafe_b64encode(token.encode()).decode().rstrip("=")


def decode_legal_token(c: cmd.ListLegalActions, version: int) -> int:
    """The offset a ListLegalActions page token names; it holds only at the version (and
    for the type filter) of the page that gave it."""
    try:
        raw = base64.urlsafe_b64decode(c.page_token + "=" * (-len(c.page_token) % 4)).decode()
        gid, at, kind, start = json.loads(raw)
        if gid != c.game_id or kind != c.type or not all(type(n) is int and n >= 0 for n in (at, start)):
            raise ValueError
    except (ValueError, TypeError, UnicodeDecodeError, RecursionError):
        raise InvalidArgument("pageToken is not a token this game's ListLegalActions returned "
                              "(with the same type filter)", "PAGE_TOKEN_INVALID") from None
    if int(at) != version:
        raise InvalidArgument(f"pageToken was for version {at}; the game is now at version {version}: "
                              "list the legal actions again from the first page", "PAGE_TOKEN_INVALID")
    return int(start)


def encode_page_token(game_id: str, after: int) -> str:
    return base64.urlsafe_b64encode(f"{game_id}:{after}".encode()).decode().rstrip("=")


def decode_page_token(game_id: str, token: str) -> int:
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
        gid, after = raw.rsplit(":", 1)
        if gid != game_id or not after.isdigit():
            raise ValueError
        return int(after)
    except (ValueError, UnicodeDecodeError):
        raise InvalidArgument("pageToken is not a token this game's ListEvents returned", "PAGE_TOKEN_INVALID") from None
