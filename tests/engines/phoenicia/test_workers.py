"""Rulebook 1b: training, employing and moving workers; 1c: tools and the City Center."""

import pytest
from tablero.engines import IllegalAction
from tablero.engines.phoenicia.engine import _new_tile, scoring

from .helpers import ENGINE, my_turn, pay_options, player, tile, types


def test_training_a_worker_costs_2():
    g = my_turn()
    ev = g.act(0, {"type": "train", "cards": [], "disks": 2})
    assert ev[0]["type"] == "worker_trained"
    p = g.state["players"][0]
    assert (p["untrained"], p["trained"], p["disks"]) == (0, 1, 1)


def test_public_works_lowers_training_to_1():
    g = my_turn(cards=["Public Works"])
    assert {"type": "pay", "cards": [], "disks": 1} in pay_options(g, 0, {"type": "train"})
    with pytest.raises(IllegalAction, match="not needed"):
        g.act(0, {"type": "train", "cards": [], "disks": 2})


def test_employing_pays_the_tool_cost_and_takes_the_first_free_space():
    g = my_turn(trained=1)
    g.act(0, {"type": "employ", "tableau": "farming", "cards": [6], "disks": 0})
    p = g.state["players"][0]
    assert tile(g, 0, "farming")["slots"][:3] == ["w", "w", None]
    assert (p["production"], p["vp"], p["disks"]) == (5, 3, 4)


def test_tool_costs_are_2_5_8_and_11():
    g = my_turn(trained=1, disks=0, hand=[6, 6, 6])
    p = g.state["players"][0]
    p["tiles"] += [_new_tile("mining"), _new_tile("clothmaking")]
    costs = {}
    for a in g.legal_actions(0):
        if a["type"] == "employ":
            costs[a["tableau"]] = pay_options(g, 0, a)[0]
    assert {k: ENGINE.simulate(g.state, ENGINE.decide(g.state, 0, {"type": "employ", "tableau": k}, None))
            ["payment"]["price"] for k in costs} == {"hunting": 2, "farming": 5, "mining": 8, "clothmaking": 11}
    # Paid with 6s (no disks): the fewest 6s that reach the price.
    assert {k: sum(p["cards"]) for k, p in costs.items()} == {"hunting": 6, "farming": 6, "mining": 12,
                                                               "clothmaking": 12}
    assert g.state["players"][0]["untrained"] == 1


def test_moving_a_worker_from_hunting_to_mining_pays_8_gains_the_difference_and_leaves_a_tool_disk():
    # Seed-P 1b worked example: pay the full 8, gain 2 production and 1 VP.
    g = my_turn(cards=["Prospector"], hand=[4, 4], disks=0)
    g.state["players"][0]["tiles"].append(_new_tile("mining"))
    player(g, 0)
    before = dict(g.state["players"][0])
    ev = g.act(0, {"type": "move", "from_tile": 0, "from_slot": 0, "to": "mining",
                   "cards": [4, 4], "disks": 0})
    assert types(ev) == ["worker_moved"]
    p = g.state["players"][0]
    assert p["production"] - before["production"] == 2
    assert p["vp"] - before["vp"] == 1
    assert tile(g, 0, "hunting")["slots"][0] == "t"
    assert tile(g, 0, "mining")["slots"][0] == "w"


def test_a_worker_moves_only_to_a_more_costly_activity():
    g = my_turn()
    assert not [a for a in g.legal_actions(0) if a["type"] == "move" and a["to"] == "hunting"]
    with pytest.raises(IllegalAction, match="more costly"):
        g.act(0, {"type": "move", "from_tile": 1, "from_slot": 0, "to": "hunting", "cards": [], "disks": 2})


def test_the_player_chooses_which_worker_moves():
    g = my_turn(hand=[6], disks=0)
    tile(g, 0, "hunting")["slots"][:2] = ["w", "w"]  # two hunters, 1 production each
    prod = player(g, 0)["production"]
    moves = [a for a in g.legal_actions(0) if a["type"] == "move"]
    assert {(a["from_tile"], a["from_slot"]) for a in moves} == {(0, 0), (0, 1)}
    g.act(0, {"type": "move", "from_tile": 0, "from_slot": 0, "to": "farming", "cards": [6], "disks": 0})
    assert tile(g, 0, "hunting")["slots"][:2] == ["t", "w"]
    assert g.state["players"][0]["production"] == prod - 1 + 2


def test_a_trained_worker_takes_a_tool_disk_for_free_and_gains_the_full_value():
    g = my_turn(trained=1)
    tile(g, 0, "hunting")["slots"][:2] = ["t", None]
    player(g, 0)
    prod, vp = g.state["players"][0]["production"], g.state["players"][0]["vp"]
    assert {"type": "employ", "tableau": "hunting"} in g.legal_actions(0)
    ev = g.act(0, {"type": "employ", "tableau": "hunting"})  # free: no pay step
    assert ev[0]["tool_taken"] is True
    p = g.state["players"][0]
    assert (p["production"] - prod, p["vp"] - vp, p["disks"]) == (1, 1, 3)


def test_every_worker_placed_in_clothmaking_brings_a_storehouse():
    g = my_turn(trained=1, hand=[6, 6], disks=0, cards=["Dye House"])
    g.state["players"][0]["tiles"].append(_new_tile("clothmaking"))
    store = g.state["players"][0]["storehouses"]
    g.act(0, {"type": "employ", "tableau": "clothmaking", "cards": [6, 6], "disks": 0})
    p = g.state["players"][0]
    assert p["storehouses"] == store + 1
    assert scoring(p)["workers_production"] == 1 + 2 + 4


def test_a_tableau_holds_no_more_workers_than_its_spaces():
    g = my_turn(trained=1)
    tile(g, 0, "farming")["slots"] = ["w"] * len(tile(g, 0, "farming")["slots"])
    player(g, 0)
    assert not [a for a in g.legal_actions(0) if a.get("tableau") == "farming"]
    with pytest.raises(IllegalAction, match="full"):
        g.act(0, {"type": "employ", "tableau": "farming", "cards": [6], "disks": 0})


def test_one_tracker_improves_hunting_every_second_hunter_produces_2_and_two_make_it_advanced():
    g = my_turn()
    tile(g, 0, "hunting")["slots"][:4] = ["w", "w", "w", "w"]
    assert player(g, 0)["production"] == 4 + 2
    assert player(g, 0, cards=["Tracker"])["production"] == (1 + 2 + 1 + 2) + 2  # hunters + the farmer
    assert player(g, 0, cards=["Tracker", "Tracker"])["production"] == 8 + 2
    assert g.view(1)["players"][0]["tiles"][0]["title"] == "Advanced Hunting"


def test_smelters_improve_mining():
    g = my_turn()
    g.state["players"][0]["tiles"].append(_new_tile("mining"))
    t = tile(g, 0, "mining")
    t["slots"][:2] = ["w", "w"]
    assert scoring(player(g, 0, cards=["Prospector"]))["workers_production"] == 3 + 6
    assert scoring(player(g, 0, cards=["Prospector", "Smelter"]))["workers_production"] == 3 + 3 + 4
    assert scoring(player(g, 0, cards=["Prospector", "Smelter", "Smelter"]))["workers_production"] == 3 + 8


def test_workers_come_before_tools_and_auctions_before_workers():
    g = my_turn(trained=1)
    g.state["display"] = ["Dyer"]
    g.act(0, {"type": "buy_tool", "tableau": "hunting", "cards": [], "disks": 2})
    kinds = {a["type"] for a in g.legal_actions(0)}
    assert not kinds & {"open_auction", "train", "employ", "move"}
    with pytest.raises(IllegalAction, match="too late"):
        g.act(0, {"type": "employ", "tableau": "hunting", "cards": [], "disks": 0})


def test_buying_a_tool_puts_a_disk_on_the_first_free_space():
    g = my_turn()
    g.act(0, {"type": "buy_tool", "tableau": "farming", "cards": [6], "disks": 0})
    assert tile(g, 0, "farming")["slots"][:3] == ["w", "t", None]
    assert g.state["players"][0]["disks"] == 4


def test_city_center_sells_up_to_3_vp_at_3_each():
    g = my_turn(cards=["City Center"], hand=[6, 6, 6, 6], disks=0)
    g.state["players"][0]["tiles"].append(_new_tile("city_center"))
    vp = player(g, 0)["vp"]
    for _ in range(3):
        g.act(0, {"type": "buy_vp", "cards": [6], "disks": 0})
    assert g.state["players"][0]["vp"] == vp + 3
    assert not [a for a in g.legal_actions(0) if a["type"] == "buy_vp"]
    with pytest.raises(IllegalAction, match="City Center"):
        g.act(0, {"type": "buy_vp", "cards": [6], "disks": 0})


def test_a_worker_moved_to_clothmaking_or_taking_its_tool_disk_brings_a_storehouse_too():
    g = my_turn(cards=["Dye House"], hand=[6, 6], disks=0, trained=1)
    g.state["players"][0]["tiles"].append(_new_tile("clothmaking"))
    store = g.state["players"][0]["storehouses"]
    g.act(0, {"type": "move", "from_tile": 1, "from_slot": 0, "to": "clothmaking", "cards": [6, 6], "disks": 0})
    assert g.state["players"][0]["storehouses"] == store + 1
    tile(g, 0, "clothmaking")["slots"][1] = "t"
    g.act(0, {"type": "employ", "tableau": "clothmaking", "cards": [], "disks": 0})
    assert g.state["players"][0]["storehouses"] == store + 2
    assert tile(g, 0, "clothmaking")["slots"][:2] == ["w", "w"]


def test_a_moved_worker_gains_only_the_difference_and_a_tool_disk_stays_on_the_vacated_space():
    # Farming (2 production, 1 VP) to Clothmaking (4, 2): +2 production, +1 VP.
    g = my_turn(cards=["Dye House"], hand=[6, 6], disks=0)
    g.state["players"][0]["tiles"].append(_new_tile("clothmaking"))
    before = dict(player(g, 0))
    g.act(0, {"type": "move", "from_tile": 1, "from_slot": 0, "to": "clothmaking", "cards": [6, 6], "disks": 0})
    p = g.state["players"][0]
    assert (p["production"] - before["production"], p["vp"] - before["vp"]) == (2, 1)
    assert tile(g, 0, "farming")["slots"][0] == "t"
    assert p["disks"] == 1  # paid 12 for 11: one disk of change
