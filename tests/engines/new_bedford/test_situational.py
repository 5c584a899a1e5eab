"""Situational rules of the base game (2-4 players), checked after the speed work (second
rules audit): the bag running dry, ties on the whaling track, returns with no money, building
fees of an owner on his own building, unlimited goods, the last round. Each test names the
sentence of the Spanish rulebook (shared/rules/000_d80ea33544e097da.txt) it checks."""

import pytest
from tablero.engines.core import IllegalAction

from .helpers import at_sea, finish_action_phase, game, give, on_dock, own, place, player, set_bag, types

Z = {"right": 0, "bowhead": 0, "sperm": 0}


def whales(**kw):
    return {**Z, **kw}


# --- the Ocean Bag (p.8 line 431; RULES.md decision 14) --------------------------------------
def test_an_empty_bag_draws_nothing_even_with_ships_at_sea_and_the_round_ends():
    g = game(seats=2)
    at_sea(g, 0, 1, 4, right=1)
    set_bag(g)
    evs = finish_action_phase(g)
    drawn = [e for e in evs if e["type"] == "whales_drawn"][0]
    assert sum(drawn["drawn"].values()) == 0
    assert types(evs)[-1] == "round_ended" and g.state["round"] == 2
    assert player(g, 0)["ships"][0]["hold"] == whales(right=1)


def test_unpicked_tokens_refill_an_empty_bag_at_the_next_whaling_phase():
    # p.8 line 431: "Al comienzo de la fase, cualquier ficha ... en el tablero se devuelve a la Bolsa".
    g = game(seats=2)
    at_sea(g, 0, 1, 5)
    set_bag(g, right=2)
    finish_action_phase(g)
    g.act(0, {"type": "pass"})
    assert g.state["bag"] == {"right": 0, "bowhead": 0, "sperm": 0, "empty": 0}
    finish_action_phase(g)
    # The 2 Right Whales left on the board went back and 2 (1 + 1 ship) were drawn again.
    assert g.state["sea_tokens"]["right"] == 2 and g.state["phase"] == "whaling"


# --- ties on the whaling track (p.6 line 380, p.8 line 440) --------------------------------
def test_ships_on_one_space_pick_in_arrival_order_across_rounds_and_launches():
    g = game(seats=3)
    at_sea(g, 1, 1, 4)  # arrived earlier: rank 1st of space 4
    on_dock(g, 0, 1)
    give(g, 0, food=5)
    set_bag(g, right=10)
    place(g, 0, "city_pier", ship=1, to=4)  # joins space 4 in the first open rank (2nd)
    assert g.state["track"][4] == [[1, 1], [0, 1]]
    finish_action_phase(g)
    assert g.state["track"][3] == [[1, 1], [0, 1]]
    assert g.state["picks"] == [[1, 1], [0, 1]]


def test_a_lighthouse_ship_jumps_the_queue_of_the_space_it_enters():
    # p.18 line 691: "en la primera posición en el nuevo espacio. Desplaza los barcos ... a la derecha".
    g = game(seats=3)
    own(g, 0, "lighthouse")
    at_sea(g, 1, 1, 5)
    at_sea(g, 2, 1, 5)
    at_sea(g, 0, 1, 4)
    set_bag(g, right=10)
    place(g, 0, "lighthouse", ship=1)
    assert g.state["track"][5] == [[0, 1], [1, 1], [2, 1]]
    finish_action_phase(g)
    assert g.state["picks"] == [[0, 1], [1, 1], [2, 1]]


def test_a_full_space_refuses_every_launch_route():
    # p.6 line 380: "Los jugadores no pueden realizar acciones que conlleven un cuarto barco".
    g = game(seats=4)
    own(g, 0, "dry_dock", "wharf")
    for seat in (1, 2, 3):
        at_sea(g, seat, 1, 3)
    on_dock(g, 0, 1)
    give(g, 0, money=5, lumber=5, food=10)
    for space, params in (("city_pier", {"ship": 1}), ("wharf", {"ship": 1}), ("dry_dock", {"ship": 2})):
        with pytest.raises(IllegalAction, match="already holds 3"):
            place(g, 0, space, to=3, **params)
        assert not [a for a in g.legal_actions(0) if a.get("space") == space and a.get("to") == 3]


# --- returning with no money for the lay (p.7 lines 406-419) -------------------------------
def test_a_penniless_owner_may_sell_one_whale_to_pay_the_lay_of_another():
    g = game(seats=3)
    at_sea(g, 0, 1, 1, bowhead=1, right=1)
    give(g, 0)
    set_bag(g)
    finish_action_phase(g)
    assert g.to_act() == {0}
    assert g.legal_actions(0) == [
        {"type": "return_ship", "pay": whales(), "sell": whales(right=1, bowhead=1)},
        {"type": "return_ship", "pay": whales(right=1), "sell": whales(bowhead=1)},
    ]
    g.act(0, {"type": "return_ship", "pay": whales(right=1), "sell": whales(bowhead=1)})
    assert player(g, 0)["money"] == 0 and player(g, 0)["returned"] == whales(right=1)


def test_a_forced_sale_nobody_can_afford_leaves_the_game():
    # p.7 line 419: "Las fichas que no se compran se retiran del juego."
    g = game(seats=3)
    at_sea(g, 0, 1, 1, sperm=1)
    for seat in range(3):
        give(g, seat)
    set_bag(g)
    evs = finish_action_phase(g)
    ret = [e for e in evs if e["type"] == "ship_returned"][0]
    assert ret["forced"] and ret["sale_money"] == 4
    assert [e["auto"] for e in evs if e["type"] == "buy_passed"] == ["cannot afford any whale for sale"] * 2
    assert g.state["out_of_game"]["sperm"] == 1 and player(g, 0)["money"] == 4
    assert g.state["phase"] == "actions" and g.state["round"] == 2


# --- building fees (p.4 line 346, p.5 line 369, FAQ 3 line 817) ------------------------------
def test_the_owner_uses_his_own_building_free_even_without_a_dollar():
    g = game(seats=3)
    own(g, 0, "bank", "courthouse")
    give(g, 0)
    assert {"type": "place_worker", "space": "bank"} in g.legal_actions(0)
    evs = place(g, 0, "bank")
    assert "fee" not in evs[0] and player(g, 0)["money"] == 5
    place(g, 1, "farm")
    place(g, 2, "farm")
    give(g, 0, brick=2)  # no money; Lighthouse costs 2 lumber 2 brick, the Courthouse takes 2 lumber off
    evs = place(g, 0, "courthouse", build="lighthouse", discount={"lumber": 2})
    assert "fee" not in evs[0] and evs[0]["pay"] == {"brick": 2}
    assert g.state["buildings"]["lighthouse"]["owner"] == 0


def test_the_fee_goes_to_the_owner_and_a_player_without_a_dollar_cannot_use_the_building():
    g = game(seats=3)
    own(g, 2, "bank")
    give(g, 0)
    assert not [a for a in g.legal_actions(0) if a.get("space") == "bank"]
    with pytest.raises(IllegalAction, match=r"\$1"):
        place(g, 0, "bank")
    place(g, 0, "farm")
    give(g, 1, money=1)
    evs = place(g, 1, "bank")
    assert evs[0]["fee"] == 1 and evs[0]["owner"] == 2
    assert player(g, 1)["money"] == 5 and player(g, 2)["money"] == 6


# --- resource limits (p.1 line 270: goods and money unlimited; whales limited) ---------------
def test_goods_and_money_are_unlimited_beyond_the_printed_token_counts():
    g = game(seats=2)
    give(g, 0, money=200, lumber=25, food=30, brick=20)  # every printed token of each good
    give(g, 1, lumber=25)
    place(g, 0, "forest")
    place(g, 1, "forest")
    assert player(g, 0)["lumber"] == 28 and player(g, 1)["lumber"] == 27
    g.act(0, {"type": "buy_goods", "good": "food"})
    assert player(g, 0)["food"] == 32 and player(g, 0)["money"] == 197


# --- the last round (p.9 line 456, FAQ 7 line 821) ----------------------------------------------
def test_in_the_last_round_a_ship_still_on_the_dock_scores_nothing_and_the_game_ends():
    g = game(seats=2)
    g.state["round"] = 12
    on_dock(g, 0, 1)
    at_sea(g, 1, 1, 6, right=1)
    give(g, 1, money=2)
    set_bag(g)
    finish_action_phase(g)
    # No whaling after round 12: the ship on space 6 (5 after round 12's movement) comes home at
    # once, with every ship still at sea (FAQ 7-8).
    assert g.to_act() == {1}
    evs = g.act(1, {"type": "return_ship", "pay": whales(right=1), "sell": whales()})
    assert types(evs)[-1] == "game_ended"
    assert types(g.events).count("whales_drawn") == 1 and types(g.events).count("ships_moved") == 2
    assert player(g, 0)["ships"][0]["at"] == "dock"
    assert g.outcome()["scores"] == [1, 1]
