"""Replies in the protobuf JSON mapping (lowerCamelCase, enums by name): REST sends them
as they are, gRPC parses them into the response messages."""

from __future__ import annotations

import datetime
import hashlib
from typing import Any

from tablero.engines.core import Engine
from tablero.server.portal import table
from tablero.server.portal.table import is_platform

from .repository import LoadedGame


def rfc3339(seconds: float) -> str:
    """Seconds since the epoch as RFC 3339 in UTC (google.protobuf.Timestamp's JSON form), to
    the millisecond, e.g. 2026-12-05T13:10:00.250Z: the Timestamp fields beside the float ones."""
    t = datetime.datetime.fromtimestamp(seconds, datetime.UTC)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


SEAT_KINDS = {"human": "SEAT_KIND_HUMAN", "open": "SEAT_KIND_OPEN", "bot": "SEAT_KIND_BOT"}


def engine_reply(e: Engine) -> dict[str, Any]:
    # An engine that publishes no schema yet answers the one every JSON object satisfies.
    anything = {"type": "object"}
    return {
        "name": e.name, "title": e.title, "minSeats": e.min_seats, "maxSeats": e.max_seats,
        "optionsSchema": e.options_schema, "version": e.version,
        "actionSchema": e.action_schema or anything,
        "viewSchema": e.view_schema or anything,
        "eventSchema": e.event_schema or anything,
        "outcomeSchema": table.outcome_schema(e),
    }


def game_reply(game: LoadedGame, seat: int | None) -> dict[str, Any]:
    engine, meta, outcome = game.engine, game.meta, game.outcome
    claimed = set(meta.get("claimed", []))
    out: dict[str, Any] = {
        "id": game.id,
        "name": f"games/{game.id}",
        "engine": engine.name,
        "engineVersion": meta.get("engine_version", engine.version),
        "version": game.version,
        "players": meta["players"],
        "seats": [
            {"seat": s, "kind": SEAT_KINDS[_kind_now(game, s, k)], "claimed": k != "open" or s in claimed}
            for s, k in enumerate(meta["seats"])
        ],
        "toAct": sorted(game.to_act),
        "view": engine.view(game.state, seat),
        "status": "GAME_STATUS_FINISHED" if outcome is not None else "GAME_STATUS_RUNNING",
    }
    for s, level in enumerate(game.levels):
        if level is not None:
            out["seats"][s]["botLevel"] = level
    if outcome is not None:
        out["outcome"] = outcome
    if seat is not None:
        out["yourSeat"] = seat
    return out


def _kind_now(game: LoadedGame, seat: int, kind: str) -> str:
    """A seat whose player left with `onLeave: "bot"` is played by a bot now: say so."""
    if kind in ("human", "open"):  # an open seat someone joined and then left
        table = game.table
        if seat in table.bots and seat not in table.forfeited:
            return "bot"
    return kind


def event_view(engine: Engine, event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The event as `seat` may see it; platform events (`tablero.*`) are public and the engine's
    redaction never sees them."""
    return dict(event) if is_platform(event) else engine.event_view(event, seat)


# Engine classes whose event_view is the core's convention (server.app: public_event).
_CONVENTIONAL: dict[type, bool] = {}


def public_event(engine: Engine, event: dict[str, Any]) -> bool:
    """Whether every seat sees `event` as a spectator does: a platform event, or an event
    without "secret" and "private" parts of an engine that redacts by the core's convention
    (`Engine.event_view`; an engine with its own redaction is never assumed to show all)."""
    if is_platform(event):
        return True
    cls = type(engine)
    conventional = _CONVENTIONAL.get(cls)
    if conventional is None:
        conventional = _CONVENTIONAL[cls] = cls.event_view is Engine.event_view
    return conventional and "secret" not in event and "private" not in event


def public_hash(key: bytes, hash_: str) -> str:
    """What a client is shown of a log entry's chain hash: a keyed one-way function of it (16
    hex digits, as the chain's own). The chain hash covers the whole event, its hidden parts
    too, and chains from the previous entry's hash: shown as it is, a seat that sees the hash
    before an event and the event's redacted form could try the few values a hidden part may
    take (a sealed bid, a card) until one gives the shown hash. Keyed, it tells nothing but
    whether two histories are the same, which is all a client uses it for (afterHash)."""
    return hashlib.blake2b(hash_.encode(), key=key, digest_size=8).hexdigest() if hash_ else ""


def event_reply(game_id: str, version: int, event: dict[str, Any], hash_: str = "") -> dict[str, Any]:
    """A GameEvent / WatchGameResponse (with the hash a client is shown of the log's chain at
    the event, `public_hash`, when known)."""
    if hash_:
        return {"gameId": game_id, "version": version, "event": event, "hash": hash_}
    return {"gameId": game_id, "version": version, "event": event}
