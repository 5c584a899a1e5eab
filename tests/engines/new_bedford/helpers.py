"""Builders of precise New Bedford test states: play through LocalGame, then set
the JSON state directly where a test needs a particular position."""

from __future__ import annotations

from tablero.engines.core import LocalGame

from tablero import engines

ENGINE = engines.get("new-bedford")
ZERO_WHALES = {"right": 0, "bowhead": 0, "sperm": 0}


def game(seats: int = 2, first: int = 0, buildings=None, seed: int = 1) -> LocalGame:
    """A game past setup: every player took $5 in money; seat `first` holds the Ship's Wheel."""
    options = {"first_player": first}
    if buildings is not None:
        options["buildings"] = buildings
    g = LocalGame(ENGINE, seats=seats, seed=seed, options=options)
    for i in range(seats):
        g.act((first + i) % seats, {"type": "choose_starting_goods", "lumber": 0, "food": 0, "brick": 0, "money": 5})
    return g


def give(g: LocalGame, seat: int, **resources: int) -> None:
    """Set a player's money/lumber/food/brick exactly (unnamed ones become 0)."""
    p = g.state["players"][seat]
    for k in ("money", "lumber", "food", "brick"):
        p[k] = resources.get(k, 0)


def own(g: LocalGame, seat: int, *buildings: str) -> None:
    for b in buildings:
        g.state["buildings"][b]["owner"] = seat


def at_sea(g: LocalGame, seat: int, ship: int, row: int, **hold: int) -> None:
    """Put a ship on the whaling track (last open rank of `row`) with whales in its hold."""
    s = g.state["players"][seat]["ships"][ship - 1]
    s["at"], s["row"] = "sea", row
    s["hold"] = {**ZERO_WHALES, **hold}
    g.state["track"][row].append([seat, ship])


def on_dock(g: LocalGame, seat: int, ship: int) -> None:
    g.state["players"][seat]["ships"][ship - 1]["at"] = "dock"


def place(g: LocalGame, seat: int, space: str, **params) -> list[dict]:
    return g.act(seat, {"type": "place_worker", "space": space, **params})


def set_bag(g: LocalGame, **tokens: int) -> None:
    g.state["bag"] = {"right": 0, "bowhead": 0, "sperm": 0, "empty": 0, **tokens}


def finish_action_phase(g: LocalGame, space: str = "forest") -> list[dict]:
    """Everyone still to place puts workers on `space` until the action phase ends (or the
    Inn's re-placement begins)."""
    events = []
    start = g.state["round"]
    while g.state["round"] == start and g.state["phase"] == "actions" and g.to_act():
        (seat,) = g.to_act()
        events += place(g, seat, space)
    return events


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def player(g: LocalGame, seat: int) -> dict:
    return g.state["players"][seat]
