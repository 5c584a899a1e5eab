"""Real events of solo games against Captain Ahab in which the player sells whales: random legal
play (preferring returns that sell) until a Captain has taken a sold whale and the player has
brought home a ship keeping one whale and one keeping several."""

from __future__ import annotations

import random

from tablero.engines.core import LocalGame


def _kept(e: dict) -> int:
    return sum(e["pay"].values())


def sold_whale_games(limit: int = 60) -> dict[str, tuple[LocalGame, dict]]:
    """{"captain_bought": (game, event), "kept_one": ..., "kept_several": ...}: each with the game it
    came from (at its end) and the event as the seat 0 sees it."""
    found: dict[str, tuple[LocalGame, dict]] = {}
    for seed in range(limit):
        g = LocalGame("new-bedford", seats=1, seed=seed, options={"captains": ["ahab"]})
        rng = random.Random(seed)
        while g.outcome() is None:
            seat = next(iter(g.to_act()))
            legal = g.legal_actions(seat)
            selling = [a for a in legal if a["type"] == "return_ship" and sum(a["sell"].values())]
            g.act(seat, rng.choice(selling if selling and rng.random() < 0.7 else legal))
        for e in g.events:
            if e["type"] == "whale_bought" and e.get("captain"):
                found.setdefault("captain_bought", (g, g.event_view(e, 0)))
            if e["type"] == "ship_returned" and e["seat"] == 0 and _kept(e) == 1:
                found.setdefault("kept_one", (g, g.event_view(e, 0)))
            if e["type"] == "ship_returned" and e["seat"] == 0 and _kept(e) > 1:
                found.setdefault("kept_several", (g, g.event_view(e, 0)))
        if len(found) == 3:
            return found
    raise AssertionError(f"{limit} games without all of: {sorted(found)}")
