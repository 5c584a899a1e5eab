"""Turn clocks: every seat that must act has a deadline; when it passes, a timeout is
applied once, by whichever replica gets there first.

A clock is set at creation: `"clock": {"moveSeconds": N, "onTimeout": "bot" | "forfeit"}`.
A seat's deadline is the time it started waiting plus `moveSeconds`. What the store
keeps per clocked game is a `ClockRecord`: the version it describes and, for each
seat in `to_act` at that version, when it started waiting. The request path updates
it after each accepted action; a replica that finds the record behind the game's
version (its writer died between the append and the update) starts the newly waiting
seats' clocks at that moment — they get a little longer, never less.

The timeout itself goes through the ordinary write path as the waiting seat's
action (a bot's random legal move, or a `tablero.seat_left` forfeit) appended with
the version the deadline was read at, so a concurrent move or another replica's
timeout makes it a no-op (compare-and-set), and its request id
`timeout:<version>:<seat>` makes a retry return the first answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MIN_MOVE_SECONDS = 1
MAX_MOVE_SECONDS = 7 * 24 * 3600
ON_TIMEOUT = ("bot", "forfeit")


def parse_clock(value: Any) -> dict[str, Any] | None:
    """The create body's `clock`, checked; ValueError says what is wrong."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ValueError('"clock" must be an object: {"moveSeconds": N, "onTimeout": "bot" | "forfeit"}')
    extra = set(value) - {"moveSeconds", "onTimeout"}
    if extra:
        raise ValueError(f'"clock" has unknown field(s) {", ".join(sorted(extra))}')
    secs = value.get("moveSeconds")
    if not isinstance(secs, int) or isinstance(secs, bool) or not MIN_MOVE_SECONDS <= secs <= MAX_MOVE_SECONDS:
        raise ValueError(f'"clock.moveSeconds" must be an integer from {MIN_MOVE_SECONDS} to {MAX_MOVE_SECONDS}')
    on = value.get("onTimeout", "bot")
    if on not in ON_TIMEOUT:
        raise ValueError('"clock.onTimeout" must be "bot" or "forfeit"')
    return {"moveSeconds": secs, "onTimeout": on}


@dataclass
class ClockRecord:
    version: int
    since: dict[int, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "since": {str(s): t for s, t in self.since.items()}}

    @classmethod
    def from_json(cls, d: dict[str, Any] | None) -> ClockRecord | None:
        if not d:
            return None
        return cls(int(d["version"]), {int(s): float(t) for s, t in d.get("since", {}).items()})

    def advance(self, version: int, waiting: set[int], now: float) -> ClockRecord:
        """The record after the game reached `version` with `waiting` seats to act: seats
        that were already waiting keep their start (simultaneous moves: each late seat
        keeps its own clock), newly waiting seats start now."""
        keep = {s: t for s, t in self.since.items() if s in waiting} if version != self.version else dict(self.since)
        return ClockRecord(version, {s: keep.get(s, now) for s in sorted(waiting)})

    def deadlines(self, move_seconds: int) -> dict[int, float]:
        return {s: t + move_seconds for s, t in self.since.items()}

    def due(self, move_seconds: int, now: float) -> list[int]:
        return sorted(s for s, d in self.deadlines(move_seconds).items() if d <= now)

    def next_due(self, move_seconds: int) -> float | None:
        d = self.deadlines(move_seconds)
        return min(d.values()) if d else None
