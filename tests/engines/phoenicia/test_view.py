"""What a player sees: enough to play from the view alone (whose turn, the pending
decision, the printed facts of the face-up cards, costs and values on the tableaus)."""

from tablero.engines.phoenicia import data

from .helpers import game, player, set_turn


def test_the_view_shows_the_printed_facts_of_every_face_up_card_and_your_discount_on_it():
    g = game(3, seed=4)
    set_turn(g, [0, 1, 2])
    g.state["display"] = ["Dye House", "Tracker", "Granary"]
    player(g, 0, cards=["Dyer", "Dyer"])
    shown = {c["card"]: c for c in g.view(0)["display"]}
    dye = shown["Dye House"]
    assert (dye["set"], dye["ab"], dye["min_bid"], dye["vp"], dye["production"], dye["storehouses"]) == (
        2, "A", 14, 3, 3, 1)
    assert dye["tile"] == "clothmaking" and dye["your_discount"] == 7
    assert shown["Tracker"]["improves"] == ["hunting"]
    assert shown["Tracker"]["discounts"] == [{"on": ["Caravan"], "amounts": data.DISCOUNTS[2]["amounts"]}]
    assert shown["Granary"]["treasury"] == 6
    assert g.view(1)["display"][0]["your_discount"] == 0
    assert g.view(None)["display"][0]["card"] == "Dye House"


def test_the_view_shows_tool_costs_vp_and_production_per_space_of_each_tableau():
    g = game(2, seed=4)
    player(g, 1, cards=["Tracker"])
    hunting, farming = g.view(0)["players"][1]["tiles"]
    assert (hunting["title"], hunting["tool_cost"], hunting["vp_per_worker"]) == ("Improved Hunting", 2, 1)
    assert hunting["production"][:4] == [1, 2, 1, 2]
    assert (farming["tool_cost"], farming["production"][0]) == (5, 2)


def test_the_view_names_the_pending_decision():
    g = game(3, seed=4)
    set_turn(g, [0, 1, 2])
    g.state["display"] = ["Dyer", "Tracker", "Prospector"]
    for s in range(3):
        player(g, s, hand=[6], disks=3, storehouses=2)
    assert g.view(1)["awaiting"] == {"seats": [0], "decision": "turn"}
    assert (g.view(1)["step"], g.view(1)["active"]) == ("auctions", 0)
    g.act(0, {"type": "open_auction", "card": "Dyer", "bid": 2})
    assert g.view(2)["awaiting"] == {"seats": [1], "decision": "bid"}
    g.act(1, {"type": "drop_out"})
    g.act(2, {"type": "drop_out"})
    assert g.view(1)["awaiting"] == {"seats": [0], "decision": "pay"}
