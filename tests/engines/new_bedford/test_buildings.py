"""Rulebook pp.18-22 and the English tiles: every building's action."""

import json
from pathlib import Path

import pytest
from tablero.engines.core import IllegalAction

from .helpers import at_sea, finish_action_phase, game, give, on_dock, own, place, player, set_bag, types


def spaces_of(g, seat, space):
    return [a for a in g.legal_actions(seat) if a.get("space") == space]


# --- 2-player set ------------------------------------------------------------------
def test_bank_gives_five_dollars():
    g = game()
    own(g, 0, "bank")
    give(g, 0)
    place(g, 0, "bank")
    assert player(g, 0)["money"] == 5


def test_dry_dock_prepares_and_launches_for_two_lumber_plus_the_full_food_cost():
    g = game()
    own(g, 0, "dry_dock")
    give(g, 0, lumber=2, food=4)
    place(g, 0, "dry_dock", ship=2, to=4)
    assert (player(g, 0)["lumber"], player(g, 0)["food"]) == (0, 0)
    assert g.state["track"][4] == [[0, 2]] and player(g, 0)["ships"][1]["at"] == "sea"


def test_dry_dock_gets_no_dockyard_or_city_pier_bonus():
    g = game()
    own(g, 0, "dry_dock")
    give(g, 0, lumber=1, food=3)
    assert not spaces_of(g, 0, "dry_dock")
    give(g, 0, lumber=2, food=2)
    assert {a["to"] for a in spaces_of(g, 0, "dry_dock")} == {1, 2}


def test_dry_dock_launches_only_a_ship_that_is_not_yet_prepared():
    g = game()
    own(g, 0, "dry_dock")
    give(g, 0, lumber=9, food=9)
    on_dock(g, 0, 1)
    assert {a["ship"] for a in spaces_of(g, 0, "dry_dock")} == {2}


def test_lighthouse_moves_a_ship_one_space_farther_into_rank_first():
    g = game(seats=3)
    own(g, 0, "lighthouse")
    at_sea(g, 1, 1, 3)
    at_sea(g, 0, 1, 3)
    at_sea(g, 2, 1, 3)
    at_sea(g, 1, 2, 4)
    at_sea(g, 2, 2, 4)
    place(g, 0, "lighthouse", ship=1)
    # The ships already on 4 shift one rank right, keeping their order; the ship behind
    # the moved one on 3 moves up one rank.
    assert g.state["track"][4] == [[0, 1], [1, 2], [2, 2]]
    assert g.state["track"][3] == [[1, 1], [2, 1]]
    assert player(g, 0)["ships"][0]["row"] == 4


def test_lighthouse_cannot_move_past_the_farthest_space_or_into_a_full_one():
    g = game(seats=4)
    own(g, 0, "lighthouse")
    at_sea(g, 0, 1, 6)
    at_sea(g, 0, 2, 2)
    for seat in (1, 2, 3):
        at_sea(g, seat, 1, 3)
    assert not spaces_of(g, 0, "lighthouse")
    with pytest.raises(IllegalAction, match="farthest"):
        place(g, 0, "lighthouse", ship=1)
    with pytest.raises(IllegalAction, match="already holds 3"):
        place(g, 0, "lighthouse", ship=2)


def test_lumber_mill_sells_only_lumber_at_two_dollars_each():
    g = game()
    own(g, 0, "lumber_mill")
    give(g, 0, lumber=3, food=4)
    assert spaces_of(g, 0, "lumber_mill") == [{"type": "place_worker", "space": "lumber_mill"}]
    place(g, 0, "lumber_mill")
    assert g.legal_actions(0) == [{"type": "sell_goods", "good": "lumber", "count": n} for n in (1, 2, 3)]
    g.act(0, {"type": "sell_goods", "good": "lumber", "count": 3})
    assert player(g, 0)["money"] == 6 and player(g, 0)["food"] == 4


def test_lumber_mill_cannot_be_taken_without_lumber_to_sell():
    g = game()
    own(g, 0, "lumber_mill")
    give(g, 0, food=4)
    assert not spaces_of(g, 0, "lumber_mill")


def test_schoolhouse_gives_two_lumber_and_two_food():
    g = game()
    own(g, 0, "schoolhouse")
    give(g, 0)
    place(g, 0, "schoolhouse")
    assert (player(g, 0)["lumber"], player(g, 0)["food"]) == (2, 2)


def test_tavern_removes_one_or_two_empty_sea_tokens_for_4_or_6_dollars():
    g = game()
    own(g, 0, "tavern", "bank")
    g.state["sea_tokens"] = {"right": 1, "bowhead": 0, "sperm": 0, "empty": 3}
    give(g, 0)
    assert [a["remove"] for a in spaces_of(g, 0, "tavern")] == [1, 2]
    place(g, 0, "tavern", remove=2)
    assert player(g, 0)["money"] == 6
    assert g.state["sea_tokens"]["empty"] == 1 and g.state["out_of_game"]["empty"] == 2
    # The removed tokens never return to the bag.
    set_bag(g, right=5)
    finish_action_phase(g)
    assert g.state["bag"]["empty"] == 1


def test_tavern_works_only_if_empty_sea_was_drawn_in_the_previous_whaling_phase():
    g = game()
    own(g, 0, "tavern")
    assert not spaces_of(g, 0, "tavern")
    g.state["sea_tokens"]["empty"] = 1
    assert [a["remove"] for a in spaces_of(g, 0, "tavern")] == [1]
    with pytest.raises(IllegalAction, match="only 1"):
        place(g, 0, "tavern", remove=2)


def test_tryworks_returns_up_to_three_right_whales_from_one_ship_for_free():
    g = game()
    own(g, 0, "tryworks")
    at_sea(g, 0, 1, 5, right=4, bowhead=1)
    give(g, 0)
    opts = spaces_of(g, 0, "tryworks")
    assert [(a["ship"], a["right"]) for a in opts] == [(1, 1), (1, 2), (1, 3)]
    place(g, 0, "tryworks", ship=1, right=3)
    assert player(g, 0)["returned"]["right"] == 3 and player(g, 0)["money"] == 0
    # Only the whales return; the ship stays where it is.
    assert player(g, 0)["ships"][0]["hold"] == {"right": 1, "bowhead": 1, "sperm": 0}
    assert g.state["track"][5] == [[0, 1]]


def test_wharf_launches_for_half_the_food_rounded_up():
    g = game()
    own(g, 0, "wharf")
    on_dock(g, 0, 1)
    give(g, 0, food=3)
    assert {a["to"] for a in spaces_of(g, 0, "wharf")} == {1, 2, 3, 4, 5, 6}
    place(g, 0, "wharf", ship=1, to=5)
    assert player(g, 0)["food"] == 0 and g.state["track"][5] == [[0, 1]]


# --- added for 3-4 players ---------------------------------------------------------
def test_bakery_gives_four_food():
    g = game(seats=3)
    own(g, 0, "bakery")
    give(g, 0)
    place(g, 0, "bakery")
    assert player(g, 0)["food"] == 4


def test_brickyard_gives_three_brick():
    g = game(seats=3)
    own(g, 0, "brickyard")
    give(g, 0)
    place(g, 0, "brickyard")
    assert player(g, 0)["brick"] == 3


def test_chandlery_gives_a_dollar_a_food_a_lumber_and_a_brick():
    g = game(seats=3)
    own(g, 0, "chandlery")
    give(g, 0)
    place(g, 0, "chandlery")
    p = player(g, 0)
    assert (p["money"], p["food"], p["lumber"], p["brick"]) == (1, 1, 1, 1)


def test_cooperage_pays_a_dollar_per_whale_token_of_any_kind_on_one_ship():
    g = game(seats=3)
    own(g, 0, "cooperage")
    at_sea(g, 0, 1, 4, right=1, bowhead=2, sperm=1)
    at_sea(g, 0, 2, 2, right=1)
    give(g, 0)
    assert [a["ship"] for a in spaces_of(g, 0, "cooperage")] == [1, 2]
    place(g, 0, "cooperage", ship=1)
    assert player(g, 0)["money"] == 4


def test_the_cooperage_is_told_as_it_pays_a_dollar_per_whale_of_any_kind():
    """The tile's effect as players read it (both catalogs) names no kind of whale: the engine
    pays for every whale token (the English tile; shared/rules/new-bedford.md A.11). It read "per
    right whale", the Spanish text's slip, so players read one rule and got another."""
    folder = Path(__file__).parents[3] / "engines" / "new_bedford" / "messages"
    for lang, kinds in (("en", ("right", "bowhead", "sperm")), ("es", ("franca", "boreal", "cachalote"))):
        text = json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))["effect.cooperage"]
        assert not any(k in text.lower() for k in kinds), (lang, text)


def test_cooperage_needs_a_ship_holding_a_whale():
    g = game(seats=3)
    own(g, 0, "cooperage")
    at_sea(g, 0, 1, 4)
    assert not spaces_of(g, 0, "cooperage")


def test_courthouse_builds_paying_two_fewer_goods_of_one_or_two_kinds():
    g = game(seats=3)
    own(g, 0, "courthouse")
    give(g, 0, lumber=2, brick=3)
    opts = [a for a in spaces_of(g, 0, "courthouse") if a["build"] == "dry_dock"]
    assert sorted(map(lambda a: sorted(a["discount"].items()), opts)) == sorted(
        [[("lumber", 2)], [("brick", 1), ("lumber", 1)], [("brick", 2)]]
    )
    place(g, 0, "courthouse", build="dry_dock", discount={"lumber": 1, "brick": 1})
    assert g.state["buildings"]["dry_dock"]["owner"] == 0
    assert (player(g, 0)["lumber"], player(g, 0)["brick"]) == (1, 2)


def test_courthouse_never_reduces_money():
    g = game(seats=3)
    own(g, 0, "courthouse")
    give(g, 0, lumber=2, money=9)
    assert not [a for a in spaces_of(g, 0, "courthouse") if a["build"] == "mansion"]
    give(g, 0, lumber=2, money=10)
    assert [a["discount"] for a in spaces_of(g, 0, "courthouse") if a["build"] == "mansion"] == [{"lumber": 2}]


def test_another_players_courthouse_needs_the_fee_on_top_of_the_cost():
    g = game(seats=3)
    own(g, 1, "courthouse")
    give(g, 0, lumber=2, money=10)
    assert not [a for a in spaces_of(g, 0, "courthouse") if a["build"] == "mansion"]
    give(g, 0, lumber=2, money=11)
    place(g, 0, "courthouse", build="mansion", discount={"lumber": 2})
    assert player(g, 0)["money"] == 0 and player(g, 1)["money"] == 6


def test_inn_replaces_both_workers_on_town_or_whaling_spaces_after_everyone_placed():
    g = game(seats=3)
    own(g, 0, "inn", "bank")
    on_dock(g, 0, 1)
    place(g, 0, "inn")
    place(g, 1, "farm")
    place(g, 2, "farm")
    place(g, 0, "forest")
    place(g, 1, "forest")
    evs = place(g, 2, "warehouse", bonus="brick")
    assert types(evs)[-1] == "inn_workers_picked_up"
    assert g.state["phase"] == "inn" and g.to_act() == {0}
    assert g.state["occupancy"]["forest"] == [1] and g.state["occupancy"]["inn"] == []
    spaces = {a.get("space") for a in g.legal_actions(0)}
    assert spaces == {"farm", "forest", "warehouse", "general_store", "town_hall", "dockyard", "city_pier"} | {None}
    with pytest.raises(IllegalAction, match="building"):
        place(g, 0, "inn")
    place(g, 0, "farm")
    assert g.to_act() == {0}
    evs = place(g, 0, "farm")
    assert types(evs)[0] == "worker_placed" and types(evs)[1] == "ships_moved"


def test_inn_bonus_is_won_again_when_the_inn_player_left_a_town_space_empty():
    g = game(seats=2, buildings="all")
    own(g, 0, "inn")
    give(g, 0)
    place(g, 0, "farm")  # first: 3 food
    place(g, 1, "forest")
    place(g, 0, "inn")
    place(g, 1, "forest")
    assert g.state["phase"] == "inn"
    place(g, 0, "farm")  # the farm is empty again: the bonus once more
    place(g, 0, "forest")  # the forest still has seat 1's workers: no bonus
    assert player(g, 0)["food"] == 6 and player(g, 0)["lumber"] == 2


def test_market_doubles_the_first_good_of_each_kind_sold():
    g = game(seats=3)
    own(g, 0, "market")
    give(g, 0, lumber=3, food=1, brick=2)
    place(g, 0, "market", sell={"lumber": 3, "food": 1, "brick": 2})
    # lumber 2+1+1, food 2, brick 4+2
    assert player(g, 0)["money"] == 4 + 2 + 6


def test_post_office_moves_to_whoever_uses_it_and_pays_its_owner_two_dollars_each_round():
    g = game(seats=3)
    own(g, 1, "post_office")
    place(g, 0, "post_office")
    assert g.state["buildings"]["post_office"]["owner"] == 0
    assert player(g, 0)["money"] == 4 and player(g, 1)["money"] == 6  # the $1 fee went to the old owner
    for seat in (1, 2, 0, 1, 2):
        place(g, seat, "forest")
    assert g.state["round"] == 2
    assert player(g, 0)["money"] == 6


def test_the_post_office_owner_cannot_use_it_because_the_action_would_move_nothing():
    # Rulebook p.22: the action moves the tile to your corner, making you its owner; an
    # action that cannot be performed may not be taken (p.4, FAQ 2).
    g = game(seats=3)
    own(g, 0, "post_office")
    assert not spaces_of(g, 0, "post_office")
    with pytest.raises(IllegalAction, match="already yours"):
        place(g, 0, "post_office")
    place(g, 0, "forest")
    # Another player may still take it over, paying the owner $1 first.
    assert spaces_of(g, 1, "post_office") == [{"type": "place_worker", "space": "post_office"}]
    place(g, 1, "post_office")
    assert g.state["buildings"]["post_office"]["owner"] == 1
    assert player(g, 0)["money"] == 6 and player(g, 1)["money"] == 4


def test_a_building_can_be_used_in_the_round_it_was_built():
    g = game()
    give(g, 0, brick=4)
    place(g, 0, "town_hall", build="bank", discount={"brick": 1})
    assert {"type": "place_worker", "space": "bank"} in g.legal_actions(1)
    place(g, 1, "bank")
    assert player(g, 1)["money"] == 5 - 1 + 5 and player(g, 0)["money"] == 0 + 1
