"""Who controls each seat, recorded in the game's own log.

Leaving and stalling are facts of a game, so they are events in its stream, beside
the engine's: a replica that rebuilds the game sees them, watchers are told, and a
timeout appended with the version it was decided at (compare-and-set) is applied
exactly once, whichever replica gets there first. The engine never sees them:
`fold` hands the engine only its own events.

- `tablero.seat_left` {"seat", "reason": "resigned" | "timeout" | "abandoned", "then": "bot" | "forfeit"}:
  with `then: bot` a bot plays the seat from now on; with `then: forfeit` the seat has
  lost — the game ends when fewer than two seats are still in it (an abandoned game
  ends for everyone), else a bot plays the forfeited seat to the end so the others
  can finish, and the forfeited seat ranks last.
  A leave while open seats are still unclaimed names them (`"open": [seats]`; left out
  when every seat is taken): a forfeit that leaves nobody who took a seat playing (only
  seats nobody took, or bots) ends the game with no winner, `endedBy` "abandoned" (the
  creator resigning before anyone joined); a game that ends by forfeit is won by those
  left who took their seats (with every seat taken, bots included: resigning against a bot
  gives the bot the win). (Games whose events never name `open`, written before it,
  replay as they always did.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PREFIX = "tablero."
SEAT_LEFT = "tablero.seat_left"
TURN_TIMED_OUT = "tablero.turn_timed_out"
REASONS = ("resigned", "timeout", "abandoned")

_SEAT = {"type": "integer", "minimum": 0}
# The platform's own events as JSON Schemas (the OpenAPI document's PlatformEvent, beside the
# engines' event schemas): what a log or a watch may carry besides the engine's events.
EVENT_SCHEMAS: dict[str, dict[str, Any]] = {
    SEAT_LEFT: {
        "title": SEAT_LEFT, "type": "object",
        "description": "A seat left: with then=bot a bot plays it on; with then=forfeit it lost "
                       "(see endedBy in the outcome). `open`: the seats nobody had taken then.",
        "properties": {"type": {"const": SEAT_LEFT}, "seat": _SEAT, "reason": {"enum": list(REASONS)},
                       "then": {"enum": ["bot", "forfeit"]}, "open": {"type": "array", "items": _SEAT}},
        "required": ["type", "seat", "reason", "then"], "additionalProperties": False,
    },
    TURN_TIMED_OUT: {
        "title": TURN_TIMED_OUT, "type": "object",
        "description": "A seat's turn clock ran out: a bot's move for it follows in the same write.",
        "properties": {"type": {"const": TURN_TIMED_OUT}, "seat": _SEAT, "then": {"const": "bot"}},
        "required": ["type", "seat", "then"], "additionalProperties": False,
    },
}


_ENDED_BY = ("forfeit", "abandoned")
_FORFEITED = {"enum": list(REASONS), "description": "this seat forfeited (why it left)"}
# The outcome of a game the platform ended early (Table.outcome): too few seats left to play on.
ENDED_EARLY_SCHEMA: dict[str, Any] = {
    "title": "ended early", "type": "object",
    "description": "The game ended before the engine's end: with `forfeit` those still in it win, with "
                   "`abandoned` nobody does.",
    "properties": {
        "scores": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 1}},
        "winners": {"type": "array", "items": _SEAT},
        "details": {"type": "array", "items": {
            "type": "object", "properties": {"seat": _SEAT, "forfeited": _FORFEITED},
            "required": ["seat"], "additionalProperties": False}},
        "endedBy": {"enum": list(_ENDED_BY)},
    },
    "required": ["scores", "winners", "details", "endedBy"], "additionalProperties": False,
}


def finished_schema(engine_schema: dict[str, Any] | None) -> dict[str, Any]:
    """The engine's outcome schema as the API answers it (Table.outcome): each `details` entry
    may also name the seat's forfeit. Without a declared schema: any object."""
    if not engine_schema:
        return {"type": "object"}
    out = {k: v for k, v in engine_schema.items() if k != "$schema"}
    details = (out.get("properties") or {}).get("details")
    items = (details or {}).get("items")
    if isinstance(items, dict) and "properties" in items:
        out["properties"] = {**out["properties"], "details": {
            **details, "items": {**items, "properties": {**items["properties"], "forfeited": _FORFEITED}}}}
    return out


def outcome_schema(engine: Any) -> dict[str, Any]:
    """The JSON Schema of a game's `outcome` (GET /v1/engines/{name}, outcomeSchema): the engine's
    own (Engine.outcome_schema) or, for a game ended early, ENDED_EARLY_SCHEMA."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": f"{engine.name} outcome",
            "anyOf": [finished_schema(engine.outcome_schema), ENDED_EARLY_SCHEMA]}


def is_platform(event: dict[str, Any]) -> bool:
    return str(event.get("type", "")).startswith(PREFIX)


@dataclass
class Table:
    """The seat-control facts of one game, folded from its platform events."""

    players: int
    bots: set[int] = field(default_factory=set)  # seats a bot plays (bot seats from creation included)
    forfeited: dict[int, str] = field(default_factory=dict)  # seat → reason
    ended: str | None = None  # why the game ended early ("forfeit", "abandoned"), or None
    unclaimed: set[int] = field(default_factory=set)  # open seats nobody had taken at the last leave

    @classmethod
    def new(cls, players: int, seat_kinds: list[str]) -> Table:
        return cls(players, bots={s for s, k in enumerate(seat_kinds) if k == "bot"})

    def copy(self) -> Table:
        return Table(self.players, set(self.bots), dict(self.forfeited), self.ended, set(self.unclaimed))

    def apply(self, event: dict[str, Any]) -> None:
        if event["type"] != SEAT_LEFT:
            return
        seat = event["seat"]
        self.bots.add(seat)
        if "open" in event:
            self.unclaimed = set(event["open"])
        elif self.unclaimed:
            self.unclaimed = set()  # written when every seat was taken (the list is left out then)
        if event["then"] == "forfeit":
            self.forfeited[seat] = event["reason"]
            left_in = [s for s in range(self.players) if s not in self.forfeited]
            if event["reason"] == "abandoned":
                self.ended = "abandoned"
            elif self.unclaimed and all(s in self.unclaimed or s in self.bots for s in left_in):
                # Nobody who took a seat is left playing (only seats nobody took, or bots): the
                # game ends with no winner.
                self.ended = "abandoned"
            elif self.players - len(self.forfeited) < 2:
                self.ended = "forfeit"

    def leave(self, seat: int, reason: str, then: str, unclaimed: list[int] | None = None) -> dict[str, Any]:
        """The event that records `seat` leaving (`unclaimed`: the open seats nobody has taken)."""
        if reason not in REASONS or then not in ("bot", "forfeit"):
            raise ValueError(f"bad leave: {reason}/{then}")
        event = {"type": SEAT_LEFT, "seat": seat, "reason": reason, "then": then}
        if unclaimed:
            event["open"] = sorted(unclaimed)
        return event

    def outcome(self, engine_outcome: dict[str, Any] | None) -> dict[str, Any] | None:
        """The game's outcome: the engine's, with forfeits recorded; or, for a game
        ended early, who is left wins."""
        if self.ended is not None:
            left_in = [s for s in range(self.players) if s not in self.forfeited and s not in self.unclaimed]
            winners = left_in if self.ended == "forfeit" else []
            return {
                "scores": [1 if s in winners else 0 for s in range(self.players)],
                "winners": winners,
                "details": [self._detail(s, {}) for s in range(self.players)],
                "endedBy": self.ended,
            }
        if engine_outcome is None or not self.forfeited:
            return engine_outcome
        out = dict(engine_outcome)
        winners = [w for w in out.get("winners", []) if w not in self.forfeited]
        if not winners:  # every winner forfeited: the best-scoring seats still in the game win
            scores = out.get("scores", [])
            still = [s for s in range(self.players) if s not in self.forfeited]
            best = max((scores[s] for s in still), default=None)
            winners = [s for s in still if scores[s] == best]
        out["winners"] = winners
        details = out.get("details") or [{} for _ in range(self.players)]
        out["details"] = [self._detail(s, d if isinstance(d, dict) else {"value": d}) for s, d in enumerate(details)]
        return out

    def _detail(self, seat: int, detail: dict[str, Any]) -> dict[str, Any]:
        d = {"seat": seat, **detail}
        if seat in self.forfeited:
            d["forfeited"] = self.forfeited[seat]
        return d

    def to_act(self, engine_to_act: set[int]) -> set[int]:
        return set() if self.ended is not None else set(engine_to_act)
