"""Turner's Mill (solo rules p.16, 000_d80ea33544e097da.txt lines 620-624): "Repite la acción del
último trabajador del Capitán. Paga el precio normal de la acción más 1$." Scenarios beyond the
Dockyard and the Farm of test_captains.py: a building the Captain used this round, a launch, the
last worker of the Captain's latest turn, and the mill used once per round."""

import pytest
from tablero.engines.core import IllegalAction

from .captain_helpers import cap, solo, turn
from .helpers import on_dock, own, place, player


def test_the_mill_repeats_a_building_the_captain_used_this_round():
    # The Bank is used for the round, but the mill repeats its action: +$5, paying only the $1.
    g = solo(["starbuck"], turners_mill=True)
    s = cap(g, "starbuck")
    own(g, 0, "turners_mill")
    own(g, s, "bank")
    e = turn(g, s, "money")
    assert e["space"] == "bank" and g.state["buildings"]["bank"]["used"]
    player(g, 0)["money"] = 1
    assert [a for a in g.legal_actions(0) if a.get("space") == "turners_mill"] == [
        {"type": "place_worker", "space": "turners_mill"}]
    got = place(g, 0, "turners_mill")[0]
    assert (got["space"], got["repeat"], got["pay"], got["gain"]) == ("turners_mill", "bank", {"money": 1},
                                                                      {"money": 5})
    assert player(g, 0)["money"] == 5


def test_the_mill_repeats_a_launch_at_the_full_food_cost_plus_one_dollar():
    g = solo(["starbuck"], turners_mill=True)
    s = cap(g, "starbuck")
    own(g, 0, "turners_mill")
    on_dock(g, s, 1)
    e = turn(g, s, "launch:3")
    assert (e["space"], e["launch"]) == ("city_pier", {"ship": 1, "to": 3})
    on_dock(g, 0, 1)
    player(g, 0).update(money=1, food=3)
    opts = [a for a in g.legal_actions(0) if a.get("space") == "turners_mill"]
    assert {a["to"] for a in opts} == {1, 2, 3}  # 3 food: spaces 1-3, no 1st-placement discount
    place(g, 0, "turners_mill", ship=1, to=3)
    assert (player(g, 0)["money"], player(g, 0)["food"]) == (0, 0)
    assert g.state["track"][3] == [[s, 1], [0, 1]]


def test_the_mill_is_a_building_action_used_once_per_round():
    g = solo(["starbuck"], turners_mill=True)
    s = cap(g, "starbuck")
    own(g, 0, "turners_mill")
    turn(g, s, "food")
    player(g, 0)["money"] = 5
    place(g, 0, "turners_mill")  # the Captain's second turn follows at once
    assert g.to_act() == {0} and len(player(g, s)["workers"]) == 2
    assert not [a for a in g.legal_actions(0) if a.get("space") == "turners_mill"]
    with pytest.raises(IllegalAction, match="once per round"):
        place(g, 0, "turners_mill")
