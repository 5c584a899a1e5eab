"""Rulebook p.2 (Preparación): bag, buildings, round marker, Ship's Wheel, starting goods."""

import pytest
from tablero.engines.core import IllegalAction, InvalidOptions, LocalGame
from tablero.engines.new_bedford import data

from .helpers import ENGINE, game, player


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_bag_holds_9_right_5_bowhead_1_sperm_4_empty_sea_per_player(seats):
    g = LocalGame(ENGINE, seats=seats, seed=3)
    assert g.state["bag"] == {"right": 9 * seats, "bowhead": 5 * seats, "sperm": seats, "empty": 4 * seats}


def test_quick_reference_bag_table_for_two_three_and_four_players():
    table = {2: (18, 10, 2, 8), 3: (27, 15, 3, 12), 4: (36, 20, 4, 16)}
    for seats, counts in table.items():
        bag = LocalGame(ENGINE, seats=seats, seed=1).state["bag"]
        assert (bag["right"], bag["bowhead"], bag["sperm"], bag["empty"]) == counts


def test_two_player_game_uses_the_suggested_twelve_buildings():
    g = LocalGame(ENGINE, seats=2, seed=1)
    assert sorted(g.state["buildings"]) == sorted([
        "bank", "dry_dock", "lighthouse", "lumber_mill", "schoolhouse", "tavern", "tryworks", "wharf",
        "counting_house", "mansion", "municipal_office", "seamens_bethel",
    ])


@pytest.mark.parametrize("seats", [3, 4])
def test_three_and_four_player_games_use_all_twenty_buildings(seats):
    g = LocalGame(ENGINE, seats=seats, seed=1)
    assert len(g.state["buildings"]) == 20 == len(data.BUILDINGS)


def test_building_set_option_takes_all_two_player_or_an_explicit_list():
    assert len(LocalGame(ENGINE, seats=2, seed=1, options={"buildings": "all"}).state["buildings"]) == 20
    assert len(LocalGame(ENGINE, seats=4, seed=1, options={"buildings": "two_player"}).state["buildings"]) == 12
    g = LocalGame(ENGINE, seats=3, seed=1, options={"buildings": ["inn", "bank", "mansion"]})
    assert sorted(g.state["buildings"]) == ["bank", "inn", "mansion"]
    with pytest.raises(InvalidOptions):
        LocalGame(ENGINE, seats=3, seed=1, options={"buildings": ["turners_mill"]})
    with pytest.raises(InvalidOptions):
        LocalGame(ENGINE, seats=2, seed=1, options={"first_player": 3})


def test_all_buildings_start_unbuilt_and_every_building_has_its_printed_cost():
    g = LocalGame(ENGINE, seats=4, seed=1)
    assert all(t["owner"] is None for t in g.state["buildings"].values())
    costs = {b["id"]: b["cost"] for b in data.BUILDINGS}
    assert costs["municipal_office"] == {"lumber": 4, "brick": 4}  # English tile, not 4 food + 4 brick
    assert costs["mansion"] == {"lumber": 4, "money": 10}
    assert costs["seamens_bethel"] == {"lumber": 5, "brick": 5}
    assert costs["courthouse"] == {"lumber": 5, "brick": 1}


def test_round_marker_starts_on_round_one_and_ship_wheel_holder_is_recorded():
    g = LocalGame(ENGINE, seats=3, seed=1, options={"first_player": 2})
    assert g.state["round"] == 1 and g.state["first_player"] == 2
    assert g.events[0]["first_player"] == 2


def test_without_an_option_the_first_player_is_drawn_and_written_into_the_first_event():
    firsts = {LocalGame(ENGINE, seats=4, seed=s).events[0]["first_player"] for s in range(20)}
    assert firsts == {0, 1, 2, 3}


def test_each_player_chooses_five_dollars_of_starting_goods_in_turn_order():
    g = LocalGame(ENGINE, seats=3, seed=1, options={"first_player": 1})
    assert g.to_act() == {1}
    # Rulebook example: 1 brick ($2), 2 lumber ($2) and $1.
    g.act(1, {"type": "choose_starting_goods", "lumber": 2, "food": 0, "brick": 1, "money": 1})
    assert g.to_act() == {2}
    g.act(2, {"type": "choose_starting_goods", "lumber": 0, "food": 5, "brick": 0, "money": 0})
    assert g.to_act() == {0}
    g.act(0, {"type": "choose_starting_goods", "lumber": 0, "food": 0, "brick": 2, "money": 1})
    p = player(g, 1)
    assert (p["money"], p["lumber"], p["food"], p["brick"]) == (1, 2, 0, 1)
    assert g.state["phase"] == "actions" and g.to_act() == {1}


def test_starting_goods_must_be_worth_exactly_five_dollars():
    g = LocalGame(ENGINE, seats=2, seed=1, options={"first_player": 0})
    with pytest.raises(IllegalAction, match="exactly \\$5"):
        g.act(0, {"type": "choose_starting_goods", "lumber": 0, "food": 0, "brick": 3, "money": 0})
    with pytest.raises(IllegalAction):
        g.act(0, {"type": "choose_starting_goods", "lumber": 1, "food": 1, "brick": 0, "money": 1})


def test_every_mix_of_starting_goods_worth_five_dollars_is_a_legal_action():
    g = LocalGame(ENGINE, seats=2, seed=1, options={"first_player": 0})
    acts = g.legal_actions(0)
    assert len(acts) == 34  # bricks 0/1/2 leave $5/$3/$1 split among lumber, food and money: 21 + 10 + 3
    for a in acts:
        assert a["lumber"] + a["food"] + 2 * a["brick"] + a["money"] == 5
    assert len({tuple(sorted(a.items())) for a in acts}) == 34


def test_after_setup_the_ship_wheel_holder_places_first():
    g = game(seats=4, first=3)
    assert g.state["phase"] == "actions" and g.to_act() == {3}
