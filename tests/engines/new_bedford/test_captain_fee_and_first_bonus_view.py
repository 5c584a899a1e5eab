"""What the view tells a player about a Captain at a space (solo rules, El Océano Solitario p.12,
../shared/rules/000_d80ea33544e097da.txt L533: "El Capitán nunca paga ni recoge mercancías o
dinero"): the $1 for using a Captain's building goes to the supply, and the option and the event
say so (`fee.to_supply`, `pending.sell[].fee_to_supply`); a Captain who took a space's first-placement bonus leaves
the player's option without it (`first_bonus: false`)."""

from __future__ import annotations

from tablero.engines.core import LocalGame

from .captain_helpers import cap, solo, turn
from .helpers import ENGINE, own, place, player


def _option(g: LocalGame, seat: int, space: str) -> dict:
    return next(o for o in g.view(seat)["pending"]["options"]
                if o["action"] == {"type": "place_worker", "space": space})


def test_the_fee_for_a_captains_building_is_shown_and_recorded_as_going_to_the_supply():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    own(g, s, "bank")
    g.state["placed"] = 1
    eff = _option(g, 0, "bank")["effect"]
    assert eff["fee"] == {"money": 1, "to_seat": s, "to_supply": True}
    e = next(e for e in place(g, 0, "bank") if e["type"] == "worker_placed")
    assert e["fee"] == 1 and e["owner"] == s
    assert player(g, 0)["money"] == 5 - 1 + 5 and player(g, s)["money"] == 0


def test_the_fee_for_another_players_building_still_goes_to_that_player():
    g = LocalGame(ENGINE, seats=2, seed=1, options={"first_player": 0})
    for p in g.state["players"]:
        p["money"] = 5
    g.state["setup_done"], g.state["phase"] = 2, "actions"
    own(g, 1, "bank")
    eff = _option(g, 0, "bank")["effect"]
    assert eff["fee"] == {"money": 1, "to_seat": 1, "to_supply": False}
    e = next(e for e in place(g, 0, "bank") if e["type"] == "worker_placed")
    assert e["owner"] == 1 and player(g, 1)["money"] == 6


def test_a_sale_at_a_captains_building_says_its_fee_goes_to_the_supply():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    own(g, s, "lumber_mill")
    player(g, 0)["lumber"] = 2
    g.state["placed"] = 1
    sell = g.view(0)["pending"]["sell"]["lumber_mill"]
    assert sell["fee"] == 1 and sell["fee_to_seat"] == s and sell["fee_to_supply"] is True
    assert "to the supply" in sell["text"]


def test_after_a_captain_took_the_forest_bonus_the_players_option_has_none():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    e = turn(g, s, "lumber")
    assert (e["space"], e["first"]) == ("forest", True)
    opt = _option(g, 0, "forest")
    assert opt["effect"]["first_bonus"] is False and opt["effect"]["gain"] == {"lumber": 2}
    assert _option(g, 0, "farm")["effect"]["first_bonus"] is True
