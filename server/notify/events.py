"""Notification events, derived from what a game's log and metadata say (pure functions).

The deriver keeps one `Cursor` per game: how far it has read the game's log and what the
game looked like there (the seats a person had to act for, the seats claimed, whether it had
started or finished). `derive` walks the new entries one by one from that state and says
which notification events they imply, each with a stable id made from the game id, the
version and the kind: the same log always gives the same events with the same ids, however
often (and on whichever replica) it is derived again.

Kinds: game.created, game.started (every open seat taken; at creation when none is open),
game.finished (with the outcome), turn.started (a seat that was not to act before an event
must act after it: the seats now to act, their portal users, the deadline when a clock runs),
turn.timed_out, seat.joined, seat.left.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from tablero.server.portal.table import SEAT_LEFT, TURN_TIMED_OUT

KINDS = ("game.created", "game.started", "game.finished", "turn.started", "turn.timed_out",
         "seat.joined", "seat.left")
# Derived for the in-app list only, never sent (not a kind an endpoint can ask for): the seats
# that were to act before an entry and are not after it (they moved, in a game of simultaneous
# moves; they left), whose "turn" items the list then drops.
TURN_ENDED = "turn.ended"


@dataclasses.dataclass
class Cursor:
    version: int = 0
    waiting: list[int] = dataclasses.field(default_factory=list)
    claimed: list[int] = dataclasses.field(default_factory=list)
    started: bool = False
    finished: bool = False
    # Whether a turn.started gave the deadlines of a running clock since the game started (a
    # cursor written before this field: taken as given).
    clocked: bool = True

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, doc: dict[str, Any] | None) -> Cursor | None:
        return None if doc is None else cls(**doc)


def event(game_id: str, version: int, kind: str, data: dict[str, Any], now: float | None = None,
          suffix: str = "") -> dict[str, Any]:
    """One notification event: `id` is stable (game, version, kind), `timestamp` when derived."""
    return {"id": f"evt_{game_id}_{version}_{kind.replace('.', '_')}{suffix}", "type": kind, "gameId": game_id,
            "version": version, "timestamp": round(time.time() if now is None else now, 3),
            "data": {"gameId": game_id, "version": version, **data}}


def unclaimed(meta: dict[str, Any], claimed: list[int]) -> list[int]:
    return [s for s, k in enumerate(meta["seats"]) if k == "open" and s not in claimed]


def seats_payload(seats: list[int], users: list[dict[str, Any] | None],
                  deadlines: dict[int, float]) -> list[dict[str, Any]]:
    out = []
    for s in seats:
        user = users[s] if s < len(users) else None
        entry: dict[str, Any] = {"seat": s, "userId": (user or {}).get("id")}
        if s in deadlines:
            entry["deadline"] = deadlines[s]
        out.append(entry)
    return out


def derive_meta(game_id: str, meta: dict[str, Any], cur: Cursor | None, claimed: list[int],
                users: list[dict[str, Any] | None], version: int) -> tuple[Cursor, list[dict[str, Any]]]:
    """game.created (first sight), seat.joined for seats claimed since, game.started."""
    out: list[dict[str, Any]] = []
    if cur is None:
        cur = Cursor(claimed=[], clocked=meta.get("clock") is None)
        # The seats as created: an open seat has nobody then (a later join is its seat.joined),
        # whenever this is derived (the seat directory may already name its joiner).
        out.append(event(game_id, 0, "game.created", {
            "engine": meta["engine"], "players": meta["players"], "seats": [
                {"seat": s, "kind": k,
                 "userId": None if k == "open" else ((users[s] if s < len(users) else None) or {}).get("id")}
                for s, k in enumerate(meta["seats"])]}))
    joined = []
    for seat in claimed:
        if seat not in cur.claimed:
            cur.claimed.append(seat)
            joined.append(seat)
            user = users[seat] if seat < len(users) else None
            out.append(event(game_id, 0, "seat.joined", {"seat": seat, "userId": (user or {}).get("id")},
                             suffix=f"_{seat}"))
    if not cur.started and not unclaimed(meta, cur.claimed):
        cur.started = True
        out.append(event(game_id, 0, "game.started", {}))
    # A seat taken while it was already to act (its turn started before anyone held it, named
    # nobody): its turn starts for its new player now. With a clock, the turn.started that gives
    # the deadlines once the game starts says it (clock_turn).
    newly = [s for s in joined if s in cur.waiting]
    if newly and meta.get("clock") is None:
        out.append(event(game_id, cur.version, "turn.started", {
            "seats": seats_payload(sorted(cur.waiting), users, {}), "newly": newly},
            suffix="_joined" + "_".join(map(str, newly))))
    return cur, out


def derive_step(game_id: str, version: int, ev: dict[str, Any], waiting: list[int], finished: bool,
                outcome: dict[str, Any] | None, cur: Cursor, users: list[dict[str, Any] | None],
                deadlines: dict[int, float], lasting: set[int] | None = None) -> list[dict[str, Any]]:
    """What event `version` (`ev`) implies, given the game after it (`waiting`: the seats a
    person must act for; `finished`/`outcome`) and the cursor before it. Moves the cursor.
    `lasting`: the seats whose turn may start here (None: any of `waiting`; the worker gives
    none when the game's end follows at once)."""
    out: list[dict[str, Any]] = []
    kind = ev.get("type")
    if kind == TURN_TIMED_OUT:
        out.append(event(game_id, version, "turn.timed_out", {"seat": ev["seat"], **_user(users, ev["seat"])}))
    elif kind == SEAT_LEFT:
        out.append(event(game_id, version, "seat.left", {"seat": ev["seat"], "reason": ev["reason"],
                                                         "then": ev["then"], **_user(users, ev["seat"])}))
    if finished and not cur.finished:
        out.append(event(game_id, version, "game.finished", {"outcome": outcome}))
    elif not finished:
        newly = sorted((set(waiting) - set(cur.waiting)) & (set(waiting) if lasting is None else lasting))
        if newly:
            out.append(event(game_id, version, "turn.started", {
                "seats": seats_payload(sorted(waiting), users, deadlines), "newly": newly}))
        ended = sorted(set(cur.waiting) - set(waiting))
        if ended:
            out.append(event(game_id, version, TURN_ENDED, {"seats": ended}))
    cur.version, cur.waiting, cur.finished = version, sorted(waiting), cur.finished or finished
    return out


def _user(users: list[dict[str, Any] | None], seat: int) -> dict[str, Any]:
    user = users[seat] if seat < len(users) else None
    return {"userId": (user or {}).get("id")}


def clock_turn(game_id: str, cur: Cursor, evs: list[dict[str, Any]], users: list[dict[str, Any] | None],
               deadlines: dict[int, float]) -> list[dict[str, Any]]:
    """Once a clock runs for every seat to act (at the game's start: a game with open seats
    starts its clock when the last one is taken, after those seats' turn.started), a
    turn.started that gives their deadlines, unless one derived with `evs` already did.
    Marks the cursor; the event's id ends in `_clock`."""
    waiting = cur.waiting
    if cur.clocked or not cur.started or cur.finished or not waiting or any(s not in deadlines for s in waiting):
        return []
    cur.clocked = True
    given = [e for e in evs if e["type"] == "turn.started" and e["version"] == cur.version]
    if given and all("deadline" in x for x in given[-1]["data"]["seats"]):
        return []
    return [event(game_id, cur.version, "turn.started", {
        "seats": seats_payload(sorted(waiting), users, deadlines), "newly": sorted(waiting)}, suffix="_clock")]
