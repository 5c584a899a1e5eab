"""Events and values in words, for the terminal's event lines (the browser client's words.js and
dom.js `humanize`/`fmt`/`amounts`, in Python).

An engine module in render/ may define `describe_event(event, game) -> str | None` (a sentence for
the events it knows, None for the rest) and `player_name(game, player) -> str | None` (names for
players that are not plain seats, such as New Bedford's Captains); `generic_event` words any
other event from its type and fields.
"""

from __future__ import annotations

import re
from typing import Any

# Fields that never help a reader of the log: the engine's workings (a Captain's order search),
# hidden data and bookkeeping copied from elsewhere.
HIDDEN_FIELDS = {"type", "seat", "player", "private", "secret", "trace", "rolls", "choices", "details",
                 "engine", "engine_version", "options"}
MAX_LINE = 240


def humanize(s: Any) -> str:
    """`captain_worker_placed` -> `Captain worker placed`."""
    t = re.sub(r"[_-]+", " ", str(s))
    t = re.sub(r"([a-z])([A-Z])", r"\1 \2", t).strip()
    return t[:1].upper() + t[1:]


def name(s: Any) -> str:
    """`scholars_library` -> `scholars library`."""
    return humanize("" if s is None else s).lower()


def fmt(v: Any) -> str:
    """Any JSON value, compactly, for people: zero and empty entries of objects left out."""
    if v is None:
        return "—"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list):
        return ", ".join(fmt(x) for x in v) if v else "none"
    if isinstance(v, dict):
        parts = [(k, x) for k, x in v.items() if x not in (0, None, False) and x != [] and x != {}]
        return ", ".join(f"{name(k)} {fmt(x)}" for k, x in parts) if parts else "nothing"
    return str(v)


def amounts(obj: Any) -> str:
    """`{"food": 2, "money": 3}` -> `2 food, $3`."""
    parts = [(k, n) for k, n in (obj or {}).items() if n] if isinstance(obj, dict) else []
    if not parts:
        return "nothing"
    return ", ".join(f"${n}" if k == "money" else f"{n} {name(k)}" for k, n in parts)


def plural(n: Any, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def only_you_see(event: dict[str, Any]) -> str:
    """The part of a redacted event only the viewer's seat is shown, as text (empty when none)."""
    private = event.get("private")
    if isinstance(private, dict) and private:
        mine = fmt(next(iter(private.values())))
        return f" (only you see: {mine})" if mine != "nothing" else ""
    return ""


def generic_event(event: dict[str, Any], who: str | None) -> str:
    """`worker_placed {seat: 1, space: "farm"}` -> `seat 1: worker placed — space farm`."""
    t = event.get("type")
    if t == "game_started":
        seats = event.get("seats")
        return f"The game starts with {seats} players." if isinstance(seats, int) else "The game starts."
    if t == "game_ended":
        return "The game ends."
    text = (f"{who}: " if who else "") + name(t or "event")
    rest = [(k, v) for k, v in event.items() if k not in HIDDEN_FIELDS]
    if rest:
        text += " — " + "; ".join(f"{name(k)} {fmt(v)}" for k, v in rest)
    text += only_you_see(event)
    if len(text) > MAX_LINE:
        text = text[:MAX_LINE - 1] + "…"
    return text[:1].upper() + text[1:]
