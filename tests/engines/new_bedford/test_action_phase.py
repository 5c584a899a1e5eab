"""Rulebook pp.4-6, 17 and 23: the action phase, the Town Board and the Whaling Board."""

import pytest
from tablero.engines.core import IllegalAction, InvalidAction

from .helpers import ENGINE, at_sea, game, give, on_dock, own, place, player


def test_players_place_one_worker_at_a_time_clockwise_from_the_ship_wheel():
    g = game(seats=3, first=1)
    order = []
    for _ in range(6):
        (seat,) = g.to_act()
        order.append(seat)
        place(g, seat, "forest")
    assert order == [1, 2, 0, 1, 2, 0]


def test_first_worker_on_the_farm_takes_an_extra_food():
    g = game()
    place(g, 0, "farm")
    place(g, 1, "farm")
    assert player(g, 0)["food"] == 3 and player(g, 1)["food"] == 2


def test_first_worker_in_the_forest_takes_an_extra_lumber():
    g = game()
    place(g, 0, "forest")
    place(g, 1, "forest")
    assert player(g, 0)["lumber"] == 3 and player(g, 1)["lumber"] == 2


def test_first_worker_at_the_warehouse_takes_one_lumber_food_or_brick_extra():
    g = game()
    assert [a for a in g.legal_actions(0) if a.get("space") == "warehouse"] == [
        {"type": "place_worker", "space": "warehouse", "bonus": g_} for g_ in ("lumber", "food", "brick")
    ]
    place(g, 0, "warehouse", bonus="food")
    assert (player(g, 0)["brick"], player(g, 0)["food"]) == (1, 1)
    assert [a for a in g.legal_actions(1) if a.get("space") == "warehouse"] == [
        {"type": "place_worker", "space": "warehouse"}
    ]
    with pytest.raises(InvalidAction):
        place(g, 1, "warehouse", bonus="food")
    place(g, 1, "warehouse")
    assert player(g, 1)["brick"] == 1 and player(g, 1)["food"] == 0


def test_town_spaces_may_be_used_several_times_a_round_even_by_the_same_player():
    g = game()
    place(g, 0, "farm")
    place(g, 1, "farm")
    place(g, 0, "farm")
    assert player(g, 0)["food"] == 5
    assert g.state["occupancy"]["farm"] == [0, 1, 0]


def test_general_store_sells_lumber_and_food_for_1_and_brick_for_2_plus_1_for_the_first():
    g = game()
    give(g, 0, lumber=2, food=1, brick=1)
    give(g, 1, brick=2)
    place(g, 0, "general_store", sell={"lumber": 2, "food": 1, "brick": 1})
    assert player(g, 0)["money"] == 2 + 1 + 2 + 1
    place(g, 1, "general_store", sell={"lumber": 0, "food": 0, "brick": 2})
    assert player(g, 1)["money"] == 4


def test_general_store_needs_at_least_one_good_to_sell():
    g = game()
    give(g, 0, money=5)
    assert not [a for a in g.legal_actions(0) if a.get("space") == "general_store"]
    with pytest.raises(IllegalAction, match="at least one good"):
        place(g, 0, "general_store", sell={"lumber": 0, "food": 0, "brick": 0})


def test_town_hall_builds_a_building_into_your_corner():
    g = game()
    give(g, 0, brick=4)
    give(g, 1, lumber=3, brick=1)
    place(g, 0, "town_hall", build="bank", discount={"brick": 1})
    place(g, 1, "town_hall", build="lumber_mill", discount={})  # not first: no discount
    assert g.state["buildings"]["bank"]["owner"] == 0 and player(g, 0)["brick"] == 1
    assert g.state["buildings"]["lumber_mill"]["owner"] == 1 and player(g, 1)["brick"] == 0


def test_first_worker_at_town_hall_pays_one_less_of_one_good_of_the_printed_cost():
    g = game()
    give(g, 0, lumber=1, food=2, brick=1)
    opts = [a for a in g.legal_actions(0) if a.get("space") == "town_hall"]
    # Schoolhouse costs 2 lumber, 2 food, 1 brick: only "1 less lumber" is payable with 1 lumber.
    assert {"type": "place_worker", "space": "town_hall", "build": "schoolhouse", "discount": {"lumber": 1}} in opts
    assert not [a for a in opts if a["build"] == "schoolhouse" and a["discount"] != {"lumber": 1}]
    place(g, 0, "town_hall", build="schoolhouse", discount={"lumber": 1})
    assert g.state["buildings"]["schoolhouse"]["owner"] == 0
    assert (player(g, 0)["lumber"], player(g, 0)["food"], player(g, 0)["brick"]) == (0, 0, 0)


def test_town_hall_discount_must_name_a_good_in_the_printed_cost():
    g = game()
    give(g, 0, brick=4, food=5)
    with pytest.raises(IllegalAction, match="printed cost"):
        place(g, 0, "town_hall", build="bank", discount={"food": 1})
    with pytest.raises(IllegalAction):
        place(g, 0, "town_hall", build="bank", discount={"brick": 2})
    place(g, 0, "town_hall", build="bank", discount={"brick": 1})
    assert player(g, 0)["brick"] == 1


def test_dockyard_prepares_a_ship_for_two_lumber_or_one_for_the_first_worker():
    g = game()
    give(g, 0, lumber=1)
    give(g, 1, lumber=2)
    place(g, 0, "dockyard", ship=1)
    place(g, 1, "dockyard", ship=2)
    assert player(g, 0)["lumber"] == 0 and player(g, 0)["ships"][0]["at"] == "dock"
    assert player(g, 1)["lumber"] == 0 and player(g, 1)["ships"][1]["at"] == "dock"


def test_dockyard_needs_an_available_ship():
    g = game()
    give(g, 0, lumber=5)
    on_dock(g, 0, 1)
    at_sea(g, 0, 2, 3)
    assert not [a for a in g.legal_actions(0) if a.get("space") == "dockyard"]
    with pytest.raises(IllegalAction, match="not available"):
        place(g, 0, "dockyard", ship=1)


def test_city_pier_launches_a_prepared_ship_for_the_food_on_the_space():
    g = game()
    on_dock(g, 0, 1)
    on_dock(g, 1, 1)
    give(g, 0, food=2)
    give(g, 1, food=6)
    place(g, 0, "city_pier", ship=1, to=3)  # first: 3 - 1 food
    place(g, 1, "city_pier", ship=1, to=6)  # 6 food
    assert player(g, 0)["food"] == 0 and player(g, 1)["food"] == 0
    assert g.state["track"][3] == [[0, 1]] and g.state["track"][6] == [[1, 1]]


def test_ships_launch_only_onto_spaces_with_a_food_cost_and_never_a_fourth_ship():
    g = game(seats=3)
    for seat in (1, 2):
        at_sea(g, seat, 1, 4)
    at_sea(g, 2, 2, 4)
    on_dock(g, 0, 1)
    give(g, 0, food=9)
    with pytest.raises(InvalidAction):
        place(g, 0, "city_pier", ship=1, to=0)
    with pytest.raises(IllegalAction, match="already holds 3"):
        place(g, 0, "city_pier", ship=1, to=4)
    tos = {a["to"] for a in g.legal_actions(0) if a.get("space") == "city_pier"}
    assert tos == {1, 2, 3, 5, 6}


def test_players_may_buy_exactly_two_lumber_or_two_food_for_three_dollars_before_the_action():
    g = game()
    acts = g.legal_actions(0)
    assert {"type": "buy_goods", "good": "lumber"} in acts and {"type": "buy_goods", "good": "food"} in acts
    assert not [a for a in acts if a["type"] == "buy_goods" and a["good"] == "brick"]
    g.act(0, {"type": "buy_goods", "good": "food"})
    assert (player(g, 0)["money"], player(g, 0)["food"]) == (2, 2)
    assert g.to_act() == {0}  # the purchase comes before the action, in the same turn
    assert not [a for a in g.legal_actions(0) if a["type"] == "buy_goods"]
    with pytest.raises(IllegalAction, match="once per turn"):
        g.act(0, {"type": "buy_goods", "good": "lumber"})
    place(g, 0, "farm")
    assert g.to_act() == {1}
    g.act(1, {"type": "buy_goods", "good": "lumber"})
    assert player(g, 1)["lumber"] == 2


def test_the_purchase_needs_three_dollars():
    g = game()
    give(g, 0, money=2)
    assert not [a for a in g.legal_actions(0) if a["type"] == "buy_goods"]
    with pytest.raises(IllegalAction):
        g.act(0, {"type": "buy_goods", "good": "food"})


def test_a_bought_purchase_can_pay_for_the_action_of_the_same_turn():
    g = game()
    on_dock(g, 0, 1)
    give(g, 0, money=3)
    # With no food only space 1 is reachable (1 food less for the first worker).
    assert [a["to"] for a in g.legal_actions(0) if a.get("space") == "city_pier"] == [1]
    g.act(0, {"type": "buy_goods", "good": "food"})
    place(g, 0, "city_pier", ship=1, to=3)
    assert g.state["track"][3] == [[0, 1]]


def test_a_building_action_may_be_used_once_per_round():
    g = game()
    own(g, 0, "bank")
    place(g, 0, "bank")
    assert not [a for a in g.legal_actions(1) if a.get("space") == "bank"]
    with pytest.raises(IllegalAction, match="once per round"):
        place(g, 1, "bank")


def test_building_actions_reset_at_the_end_of_the_round():
    g = game()
    own(g, 0, "bank")
    place(g, 0, "bank")
    for seat in (1, 0, 1):
        place(g, seat, "forest")
    assert g.state["round"] == 2
    assert {"type": "place_worker", "space": "bank"} in g.legal_actions(1)


def test_the_owner_uses_a_building_free_and_others_pay_the_owner_one_dollar():
    g = game()
    own(g, 0, "bank", "schoolhouse")
    place(g, 0, "bank")
    assert player(g, 0)["money"] == 10
    place(g, 1, "schoolhouse")
    assert player(g, 1)["money"] == 4 and player(g, 0)["money"] == 11
    assert player(g, 1)["lumber"] == 2 and player(g, 1)["food"] == 2


def test_unbuilt_buildings_and_victory_buildings_have_no_action_space():
    g = game()
    with pytest.raises(IllegalAction, match="not been built"):
        place(g, 0, "bank")
    own(g, 0, "mansion")
    with pytest.raises(IllegalAction, match="Victory"):
        place(g, 0, "mansion")
    with pytest.raises(InvalidAction):
        place(g, 0, "no_such_space")


def test_malformed_placements_are_invalid():
    g = game()
    give(g, 0, lumber=3, brick=3)
    for bad in (
        {"type": "place_worker"},
        {"type": "place_worker", "space": ["farm"]},
        {"type": "place_worker", "space": "farm", "extra": 1},
        {"type": "place_worker", "space": "general_store", "sell": {"gold": 1}},
        {"type": "place_worker", "space": "general_store", "sell": {"lumber": -1}},
        {"type": "place_worker", "space": "town_hall", "build": 7, "discount": {}},
        {"type": "place_worker", "space": "dockyard", "ship": 3},
    ):
        with pytest.raises(InvalidAction):
            g.act(0, bad)


def test_the_action_phase_ends_when_everyone_placed_both_workers():
    g = game(seats=2)
    for seat in (0, 1, 0):
        place(g, seat, "farm")
    assert g.state["round"] == 1
    evs = place(g, 1, "farm")
    assert [e["type"] for e in evs][1:] == ["ships_moved", "whales_drawn", "round_ended"]
    assert g.state["round"] == 2 and g.state["phase"] == "actions"
    assert ENGINE.to_act(g.state) == {1}  # the Ship's Wheel moved one player to the left


def test_actions_with_unknown_fields_are_invalid():
    g = game()
    with pytest.raises(InvalidAction, match="unknown field"):
        g.act(0, {"type": "buy_goods", "good": "food", "amount": 3})
    with pytest.raises(InvalidAction):
        g.act(0, {"type": "buy_goods", "good": "brick"})


def test_whaling_board_spaces_may_be_used_several_times_a_round_even_by_the_same_player():
    # Rulebook p.4: the Town Board and Whaling Board actions "se pueden usar varias veces
    # por ronda"; p.6: Dockyard and City Pier work "like the Town actions".
    g = game()
    give(g, 0, lumber=3)
    place(g, 0, "dockyard", ship=1)  # first worker: 1 lumber
    place(g, 1, "forest")
    assert {"type": "place_worker", "space": "dockyard", "ship": 2} in g.legal_actions(0)
    place(g, 0, "dockyard", ship=2)  # not first any more: 2 lumber
    assert player(g, 0)["lumber"] == 0
    assert [s["at"] for s in player(g, 0)["ships"]] == ["dock", "dock"]
