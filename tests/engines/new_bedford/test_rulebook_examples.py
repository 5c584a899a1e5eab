"""The rulebook's worked examples and its NOTAS/FAQs (p.23), one named test each."""

import pytest
from tablero.engines.core import IllegalAction

from .helpers import (
    ENGINE,
    at_sea,
    finish_action_phase,
    game,
    give,
    on_dock,
    own,
    place,
    player,
    set_bag,
    types,
)

Z = {"right": 0, "bowhead": 0, "sperm": 0}


# --- worked examples -----------------------------------------------------------------
def test_example_starting_goods_one_brick_two_lumber_and_one_dollar():
    """p.2: 1 brick ($2) + 2 lumber ($2) + $1 from the supply = $5."""
    from tablero.engines.core import LocalGame

    g = LocalGame(ENGINE, seats=2, seed=1, options={"first_player": 0})
    g.act(0, {"type": "choose_starting_goods", "lumber": 2, "food": 0, "brick": 1, "money": 1})
    p = player(g, 0)
    assert (p["brick"], p["lumber"], p["money"]) == (1, 2, 1)


def test_example_city_pier_first_player_launches_to_five_for_four_food_into_the_first_open_rank():
    """p.6: orange prepared a ship in an earlier round, takes City Pier first, wants
    space 5, pays 4 food (1st-player bonus) and takes the first open rank there."""
    g = game(seats=3)
    at_sea(g, 1, 1, 5)  # another ship already holds rank 1st on space 5
    on_dock(g, 0, 1)
    give(g, 0, food=4)
    place(g, 0, "city_pier", ship=1, to=5)
    assert player(g, 0)["food"] == 0
    assert g.state["track"][5] == [[1, 1], [0, 1]]


def test_example_three_ships_on_the_track_draw_four_tokens_and_pick_orange_turquoise_green():
    """p.8: with 3 ships on the track 4 tokens are drawn; the farthest ship picks first,
    ships on the same space by arrival order: orange, then turquoise, then green."""
    orange, turquoise, green = 0, 1, 2
    g = game(seats=3)
    at_sea(g, orange, 1, 6)
    at_sea(g, turquoise, 1, 4)
    at_sea(g, green, 1, 4)
    set_bag(g, sperm=1, bowhead=1, right=1, empty=1)
    finish_action_phase(g)
    assert sum(g.state["sea_tokens"].values()) == 4
    picked = []
    while g.state["phase"] == "whaling":
        (seat,) = g.to_act()
        kind = next(a["kind"] for a in g.legal_actions(seat) if a["type"] == "pick_whale")
        g.act(seat, {"type": "pick_whale", "kind": kind})
        picked.append((seat, kind))
    assert picked == [(orange, "right"), (turquoise, "bowhead"), (green, "sperm")]
    assert g.state["sea_tokens"] == {"right": 0, "bowhead": 0, "sperm": 0, "empty": 1}


def test_example_return_pay_some_sell_others_and_the_others_buy_clockwise():
    """p.7: pay the lay or sell each whale; the seller is paid half first and may use it;
    then clockwise the others buy one at a time or pass; unbought whales leave the game."""
    g = game(seats=4)
    at_sea(g, 1, 2, 1, right=2, bowhead=1, sperm=1)
    set_bag(g)
    give(g, 1, money=1)
    give(g, 2, money=8)
    give(g, 3, money=1)
    give(g, 0, money=4)
    finish_action_phase(g)
    assert g.to_act() == {1}
    # Sell the Sperm ($4) and a Right ($1): $1 + $5 pays the Bowhead ($4) and a Right ($2).
    g.act(1, {"type": "return_ship", "pay": {**Z, "right": 1, "bowhead": 1},
              "sell": {**Z, "right": 1, "sperm": 1}})
    assert player(g, 1)["money"] == 0
    assert player(g, 1)["returned"] == {"right": 1, "bowhead": 1, "sperm": 0}
    assert g.to_act() == {2}  # left of the seller
    g.act(2, {"type": "buy_whale", "kind": "sperm"})
    # Seat 3 has only $1 and cannot buy: passed. Seat 0 buys the Right Whale.
    assert g.to_act() == {0}
    g.act(0, {"type": "buy_whale", "kind": "right"})
    assert g.state["sale"] is None
    assert player(g, 2)["returned"]["sperm"] == 1 and player(g, 0)["returned"]["right"] == 1
    assert (player(g, 2)["money"], player(g, 0)["money"]) == (0, 2)


def test_example_lighthouse_shifts_the_ranks_of_both_spaces():
    """p.18: into rank 1st of the new space, others there shift right in order; the ships
    on the space it left shift left."""
    g = game(seats=3)
    own(g, 2, "lighthouse")
    at_sea(g, 0, 1, 2)
    at_sea(g, 2, 1, 2)
    at_sea(g, 1, 1, 2)
    at_sea(g, 1, 2, 3)
    g.state["first_player"] = 2
    g.state["placed"] = 0
    place(g, 2, "lighthouse", ship=1)
    assert g.state["track"][2] == [[0, 1], [1, 1]]
    assert g.state["track"][3] == [[2, 1], [1, 2]]


# --- NOTAS / FAQs --------------------------------------------------------------------
def test_faq1_money_goods_and_whales_are_public_information():
    g = game(seats=3)
    at_sea(g, 1, 1, 3, right=2)
    give(g, 2, money=7, brick=3)
    spectator = ENGINE.view(g.state, None)
    for viewer in (0, 1, 2):
        v = ENGINE.view(g.state, viewer)
        assert v["players"] == spectator["players"]
        assert v["players"][2]["money"] == 7 and v["players"][1]["ships"][0]["hold"]["right"] == 2
        assert v["bag"] == g.state["bag"]  # what is left in the bag, by kind


def test_the_view_shows_each_building_tiles_printed_cost_and_text():
    # Rulebook p.5: the pale side of each tile shows its cost and a description of its action.
    g = game(seats=3)
    tiles = ENGINE.view(g.state, 0)["building_tiles"]
    assert set(tiles) == set(g.state["buildings"])
    assert tiles["municipal_office"]["cost"] == {"lumber": 4, "brick": 4}
    assert tiles["mansion"] == {"name": "Mansion", "type": "victory", "cost": {"lumber": 4, "money": 10},
                                "text": "End of game: +4 VP."}
    assert all(t["text"] for t in tiles.values())


def test_faq2_a_player_cannot_take_an_action_they_cannot_perform():
    g = game()
    own(g, 0, "lumber_mill")
    give(g, 0, money=5, food=9)
    legal = {a.get("space") for a in g.legal_actions(0)}
    assert "city_pier" not in legal and "lumber_mill" not in legal
    with pytest.raises(IllegalAction):
        place(g, 0, "city_pier", ship=1, to=2)
    with pytest.raises(IllegalAction):
        place(g, 0, "lumber_mill", sell={"lumber": 0})


def test_faq3_the_fee_is_paid_before_using_the_building_so_its_income_cannot_pay_it():
    g = game()
    own(g, 1, "tavern")
    g.state["sea_tokens"]["empty"] = 2
    give(g, 0, money=0)
    assert "tavern" not in {a.get("space") for a in g.legal_actions(0)}
    with pytest.raises(IllegalAction, match="\\$1"):
        place(g, 0, "tavern", remove=2)
    give(g, 0, money=1)
    place(g, 0, "tavern", remove=2)
    assert player(g, 0)["money"] == 6 and player(g, 1)["money"] == 6


def test_faq4_the_purchase_is_allowed_once_per_placement_including_inn_replacements():
    g = game(seats=3)
    own(g, 0, "inn")
    give(g, 0, money=20)
    g.act(0, {"type": "buy_goods", "good": "lumber"})
    place(g, 0, "inn")
    finish_action_phase(g)
    assert g.state["phase"] == "inn"
    g.act(0, {"type": "buy_goods", "good": "food"})
    place(g, 0, "farm")
    g.act(0, {"type": "buy_goods", "good": "lumber"})
    with pytest.raises(IllegalAction):
        g.act(0, {"type": "buy_goods", "good": "food"})
    place(g, 0, "farm")
    assert player(g, 0)["money"] == 20 - 3 * 3
    assert [e["seat"] for e in g.events if e["type"] == "goods_bought"] == [0, 0, 0]


def test_faq5_inn_replacements_happen_before_the_ships_move():
    g = game(seats=3)
    own(g, 0, "inn")
    on_dock(g, 0, 1)
    give(g, 0, food=5)
    place(g, 0, "inn")
    evs = finish_action_phase(g, "farm")
    assert types(evs)[-1] == "inn_workers_picked_up" and "ships_moved" not in types(evs)
    place(g, 0, "city_pier", ship=1, to=4)
    evs = place(g, 0, "farm")
    assert "ships_moved" in types(evs)
    assert player(g, 0)["ships"][0]["row"] == 3  # launched to 4, then moved once


def test_faq6_town_hall_bonus_and_courthouse_reduce_only_printed_goods_never_money():
    g = game(seats=3)
    give(g, 0, lumber=3, money=10)
    opts = [a for a in g.legal_actions(0) if a.get("space") == "town_hall" and a["build"] == "mansion"]
    assert opts == [{"type": "place_worker", "space": "town_hall", "build": "mansion", "discount": {"lumber": 1}}]
    give(g, 0, lumber=4, money=9)
    with pytest.raises(IllegalAction):
        place(g, 0, "town_hall", build="mansion", discount={"money": 1})
    assert not [a for a in g.legal_actions(0) if a.get("build") == "mansion"]


def test_faq7_after_round_12_whaling_all_ships_at_sea_return_in_order():
    g = game(seats=2)
    g.state["round"] = 12
    at_sea(g, 0, 1, 6)
    at_sea(g, 1, 1, 6)
    at_sea(g, 0, 2, 3)
    set_bag(g)
    finish_action_phase(g)
    assert g.outcome() is not None
    # "in order" (FAQ 7), the order of token selection (FAQ 8): the farthest ships first, by rank;
    # the ship nearer shore last (until v5 the repeated movement brought it home first).
    order = [(e["seat"], e["ship"]) for e in g.events if e["type"] == "ship_returned"]
    assert order == [(0, 1), (1, 1), (0, 2)]
    assert types(g.events).count("whales_drawn") == 1  # round 12's, none after


def test_faq8_ships_returning_in_the_same_round_return_in_whale_selection_order():
    g = game(seats=3)
    at_sea(g, 2, 1, 1, right=1)
    at_sea(g, 0, 1, 1, right=1)
    at_sea(g, 1, 1, 1, right=1)
    set_bag(g)
    for s in range(3):
        give(g, s, money=2)
    finish_action_phase(g)
    order = []
    while g.state["phase"] == "movement":
        (seat,) = g.to_act()
        order.append(seat)
        g.act(seat, {"type": "return_ship", "pay": {**Z, "right": 1}, "sell": dict(Z)})
    assert order == [2, 0, 1]


def test_faq9_the_seller_cannot_stop_others_buying_and_may_sell_any_number_of_whales():
    g = game(seats=2)
    at_sea(g, 0, 1, 1, right=3)
    set_bag(g)
    give(g, 0, money=100)
    give(g, 1, money=100)
    finish_action_phase(g)
    sells = {a["sell"]["right"] for a in g.legal_actions(0)}
    assert sells == {0, 1, 2, 3}
    g.act(0, {"type": "return_ship", "pay": {**Z, "right": 1}, "sell": {**Z, "right": 2}})
    assert g.to_act() == {1}
    assert not [a for a in ENGINE.legal_actions(g.state, 0)]
    with pytest.raises(IllegalAction):
        g.act(0, {"type": "pass"})
    g.act(1, {"type": "buy_whale", "kind": "right"})
    g.act(1, {"type": "buy_whale", "kind": "right"})
    assert player(g, 1)["returned"]["right"] == 2


def test_the_view_names_the_awaited_decision():
    g = game(seats=2)
    assert ENGINE.view(g.state, 1)["awaiting"] == {
        "seat": 0, "decision": "place_worker", "inn": False, "may_buy_goods": True,
    }
    at_sea(g, 0, 2, 1, right=1)
    set_bag(g)
    finish_action_phase(g)
    assert ENGINE.view(g.state, None)["awaiting"] == {"seat": 0, "decision": "return_ship", "ship": 2}
