"""Forming matches from waiting tickets (pure: no store, no clock).

A ticket's rating window widens with its wait (docs/matchmaking.md):

    window(wait) = WINDOW_START + WINDOW_GROWTH * wait      (rating points, mu - 3 sigma)

capped by the ticket's own `ratingWindow` when it gives one. Two tickets fit together when their
ratings differ by at most the smaller of their two windows, they want the same options, and
they share a table size. The oldest ticket is matched first, with the closest ratings that fit
it and each other, at the largest table size it accepts that can be filled now; once it has
waited `botsAfter` seconds, bots fill its smallest table size around whoever fits.
"""

from __future__ import annotations

import json
from typing import Any

WINDOW_START = 2.0
WINDOW_GROWTH = 1.5  # per second of waiting


def window(t: dict[str, Any], now: float) -> float:
    w = WINDOW_START + WINDOW_GROWTH * max(0.0, now - t["created"])
    cap = t.get("ratingWindow") or 0
    return min(w, cap) if cap > 0 else w


def _options(t: dict[str, Any]) -> str:
    return json.dumps(t.get("options") or {}, sort_keys=True)


def _fits(a: dict[str, Any], b: dict[str, Any], now: float) -> bool:
    return abs(a["rating"] - b["rating"]) <= min(window(a, now), window(b, now))


def _fill(anchor: dict[str, Any], cands: list[dict[str, Any]], n: int, now: float) -> list[dict[str, Any]]:
    group = [anchor]
    for c in cands:
        if len(group) == n:
            break
        if n in c["players"] and c["user"] not in {g["user"] for g in group} and all(_fits(c, g, now) for g in group):
            group.append(c)
    return group


def form(anchor: dict[str, Any], live: list[dict[str, Any]], used: set[str],
         now: float) -> tuple[list[dict[str, Any]], int] | None:
    """(the tickets, the table size) of a match for `anchor`, or None. Bots take the seats
    beyond the tickets."""
    opts = _options(anchor)
    cands = [t for t in live if t["id"] not in used and t["id"] != anchor["id"] and t["user"] != anchor["user"]
             and _options(t) == opts and set(t["players"]) & set(anchor["players"]) and _fits(anchor, t, now)]
    cands.sort(key=lambda t: (abs(t["rating"] - anchor["rating"]), t["created"]))
    for n in sorted(anchor["players"], reverse=True):
        group = _fill(anchor, cands, n, now)
        if len(group) == n:
            return group, n
    bots_after = anchor.get("botsAfter") or 0
    if bots_after > 0 and now - anchor["created"] >= bots_after:
        n = min(anchor["players"])
        return _fill(anchor, cands, n, now), n
    return None


def matches(live: list[dict[str, Any]], now: float) -> list[tuple[list[dict[str, Any]], int]]:
    """Every match one round forms, oldest tickets first; no ticket in two."""
    used: set[str] = set()
    out = []
    for anchor in sorted(live, key=lambda t: t["created"]):
        if anchor["id"] in used:
            continue
        m = form(anchor, live, used, now)
        if m is None:
            continue
        used.update(t["id"] for t in m[0])
        out.append(m)
    return out
