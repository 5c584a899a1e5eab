"""Building precise Phoenicia states: play from a seeded start, then edit the JSON state."""

from __future__ import annotations

from tablero.engines.phoenicia.engine import _refresh

from tablero import engines

ENGINE = engines.get("phoenicia")


def game(seats: int = 2, seed: int = 1, options: dict | None = None) -> engines.LocalGame:
    return engines.LocalGame("phoenicia", seats=seats, seed=seed, options=options)


def set_turn(g: engines.LocalGame, order: list[int], turn: int = 0) -> None:
    """Make `order` the round's turn order (order[0] the Overlord) and order[turn] active."""
    st = g.state
    st["order"] = list(order)
    st["overlord"] = order[0]
    st["turn"] = turn
    st["active"] = order[turn]
    st["phase"] = "turn"
    st["step"] = "auctions"


def player(g: engines.LocalGame, seat: int, **fields) -> dict:
    """Edit a player's fields (hand, disks, cards, storehouses, ...) and refresh the tracks."""
    p = g.state["players"][seat]
    for k, v in fields.items():
        p[k] = v
    _refresh(p)
    return p


def tile(g: engines.LocalGame, seat: int, kind: str) -> dict:
    return next(t for t in g.state["players"][seat]["tiles"] if t["kind"] == kind)


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def pay_options(g: engines.LocalGame, seat: int, action: dict) -> list[dict]:
    """The `pay` actions offered after `seat` chooses the grouped (payment-less) form of
    a priced action; the game itself is left unchanged."""
    import random

    events = ENGINE.decide(g.state, seat, action, random.Random(0))
    assert [e["type"] for e in events] == ["payment_requested"], events
    return ENGINE.legal_actions(ENGINE.simulate(g.state, events), seat)


def set_vps(g: engines.LocalGame, vps: list[int]) -> None:
    """Give each seat exactly these VP, through City Center purchases (bought VP count
    directly: it keeps an example small)."""
    for s, v in enumerate(vps):
        p = g.state["players"][s]
        p["tiles"] = [t for t in p["tiles"] if t["kind"] != "city_center"]
        extra = v - player(g, s)["vp"]
        p["tiles"].append({"kind": "city_center", "slots": ["t"] * extra})
        assert player(g, s)["vp"] == v


def my_turn(**fields) -> engines.LocalGame:
    """Seat 0's turn of a 2-seat game (seed 7) with an empty display, two 6s in hand, 3 disks and 4
    storehouses, and `fields` on top (the workers' and tools' tests)."""
    g = game(2, seed=7)
    set_turn(g, [0, 1])
    g.state["display"] = []
    player(g, 0, **{"hand": [6, 6], "disks": 3, "storehouses": 4, **fields})
    return g
