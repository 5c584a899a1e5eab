"""Rulebook p.7 (Fase de Movimiento, Regreso de un Barco, Vender y Comprar) and FAQ 8-9."""

import pytest
from tablero.engines.core import IllegalAction

from .helpers import ENGINE, at_sea, finish_action_phase, game, give, player, set_bag, types

Z = {"right": 0, "bowhead": 0, "sperm": 0}


def whales(**kw):
    return {**Z, **kw}


def returning_game(seats=3, money=None, **hold):
    """Seat 0's Ship 1 on space 1 with `hold`; the action phase then ends, so it returns."""
    g = game(seats=seats)
    at_sea(g, 0, 1, 1, **hold)
    for seat, m in (money or {}).items():
        give(g, seat, money=m)
    set_bag(g)
    finish_action_phase(g)
    return g


def test_every_ship_moves_one_space_toward_return_keeping_its_rank():
    g = game(seats=3)
    at_sea(g, 1, 1, 4)
    at_sea(g, 0, 1, 4)
    at_sea(g, 2, 1, 6)
    at_sea(g, 0, 2, 2)
    set_bag(g)
    finish_action_phase(g)
    t = g.state["track"]
    assert t[3] == [[1, 1], [0, 1]] and t[5] == [[2, 1]] and t[1] == [[0, 2]]
    assert t[4] == [] and t[6] == [] and t[2] == []
    assert player(g, 0)["ships"][1]["row"] == 1


def test_a_ship_reaching_return_with_an_empty_hold_comes_home_without_a_decision():
    g = returning_game()
    assert g.state["track"][0] == [] and player(g, 0)["ships"][0]["at"] == "home"
    assert "ship_returned" in types(g.events)


def test_a_returned_ship_can_be_prepared_again():
    g = returning_game()
    give(g, g.state["first_player"], lumber=2)
    seat = g.state["first_player"]
    g.state["players"][seat]["ships"][0] = {"at": "home", "row": None, "hold": dict(Z)}
    assert {"type": "place_worker", "space": "dockyard", "ship": 1} in g.legal_actions(seat)


def test_the_owner_pays_the_lay_or_sells_each_whale_of_a_returning_ship():
    g = returning_game(right=1, bowhead=1)
    assert g.to_act() == {0} and g.state["phase"] == "movement"
    give(g, 0, money=6)
    g.act(0, {"type": "return_ship", "pay": whales(right=1, bowhead=1), "sell": whales()})
    assert player(g, 0)["returned"] == whales(right=1, bowhead=1) and player(g, 0)["money"] == 0
    assert player(g, 0)["ships"][0] == {"at": "home", "row": None, "hold": Z}


def test_a_whale_the_owner_cannot_pay_for_must_be_sold():
    g = returning_game(sperm=1, right=1)
    give(g, 0, money=3)
    assert {"type": "return_ship", "pay": whales(sperm=1), "sell": whales(right=1)} not in g.legal_actions(0)
    with pytest.raises(IllegalAction, match="lay is \\$8"):
        g.act(0, {"type": "return_ship", "pay": whales(sperm=1), "sell": whales(right=1)})


def test_when_no_lay_can_be_paid_everything_is_sold_without_asking():
    g = game(seats=3)
    at_sea(g, 0, 1, 1, right=1)
    give(g, 0, money=0)
    give(g, 1, money=5)
    set_bag(g)
    finish_action_phase(g)
    forced = [e for e in g.events if e["type"] == "ship_returned"][-1]
    assert forced["forced"] and forced["sell"] == whales(right=1) and forced["pay"] == whales()
    assert player(g, 0)["money"] == 1
    assert g.to_act() == {1} and g.state["sale"]["whales"] == whales(right=1)


def test_the_seller_is_paid_half_the_lay_first_and_may_use_it_at_once():
    g = returning_game(sperm=1, right=2)
    give(g, 0, money=0)
    # Selling the Sperm Whale gives $4, enough to pay the lay of both Right Whales.
    act = {"type": "return_ship", "pay": whales(right=2), "sell": whales(sperm=1)}
    assert act in g.legal_actions(0)
    g.act(0, act)
    assert player(g, 0)["money"] == 0 and player(g, 0)["returned"]["right"] == 2


def test_every_affordable_pay_and_sell_split_is_a_legal_action():
    g = returning_game(right=2, bowhead=1)
    give(g, 0, money=4)
    got = {(a["pay"]["right"], a["pay"]["bowhead"]) for a in g.legal_actions(0)}
    # Money 4 plus half the lay of what is sold must cover the lay of what is kept.
    # (1, 1) would need $6 with only $4 + $1; (2, 1) $8 with only $4.
    assert got == {(0, 0), (1, 0), (2, 0), (0, 1)}
    for a in g.legal_actions(0):
        assert {k: a["pay"][k] + a["sell"][k] for k in Z} == whales(right=2, bowhead=1)


def test_other_players_buy_sold_whales_clockwise_from_the_seller_at_the_full_lay():
    g = returning_game(seats=4, right=2, bowhead=1)
    for s in (1, 2, 3):
        give(g, s, money=10)
    g.act(0, {"type": "return_ship", "pay": whales(), "sell": whales(right=2, bowhead=1)})
    assert player(g, 0)["money"] == 5 + 1 + 1 + 2
    assert g.to_act() == {1}
    g.act(1, {"type": "buy_whale", "kind": "bowhead"})
    assert player(g, 1)["money"] == 6 and player(g, 1)["returned"]["bowhead"] == 1
    assert g.to_act() == {2}
    g.act(2, {"type": "buy_whale", "kind": "right"})
    assert g.to_act() == {3}
    g.act(3, {"type": "buy_whale", "kind": "right"})
    assert g.state["sale"] is None
    assert player(g, 2)["returned"]["right"] == 1 and player(g, 3)["returned"]["right"] == 1


def test_buyers_keep_taking_turns_until_everything_is_bought_or_everyone_passed():
    g = returning_game(seats=3, right=3)
    give(g, 1, money=10)
    give(g, 2, money=10)
    g.act(0, {"type": "return_ship", "pay": whales(), "sell": whales(right=3)})
    g.act(1, {"type": "buy_whale", "kind": "right"})
    g.act(2, {"type": "pass"})
    assert g.to_act() == {1}  # seat 2 passed and is out of this sale
    g.act(1, {"type": "buy_whale", "kind": "right"})
    assert g.to_act() == {1}
    g.act(1, {"type": "pass"})
    assert g.state["sale"] is None
    assert player(g, 1)["returned"]["right"] == 2
    # The whale nobody bought leaves the game.
    assert g.state["out_of_game"]["right"] == 1


def test_the_seller_cannot_buy_back_and_a_buyer_who_cannot_pay_is_passed():
    g = returning_game(seats=3, money={0: 20, 1: 7, 2: 8}, sperm=1)
    g.act(0, {"type": "return_ship", "pay": whales(), "sell": whales(sperm=1)})
    # Seat 1 cannot afford $8 and is passed automatically; seat 0 (the seller) is never asked.
    assert g.to_act() == {2}
    assert g.legal_actions(2) == [{"type": "buy_whale", "kind": "sperm"}, {"type": "pass"}]
    g.act(2, {"type": "pass"})
    assert g.state["sale"] is None and g.state["out_of_game"]["sperm"] == 1
    assert player(g, 0)["returned"]["sperm"] == 0


def test_ships_entering_return_together_return_in_rank_order_each_finished_before_the_next():
    g = game(seats=3)
    at_sea(g, 2, 1, 1, right=1)
    at_sea(g, 0, 1, 1, bowhead=1)
    set_bag(g)
    for s in range(3):
        give(g, s, money=10)
    finish_action_phase(g)
    assert g.to_act() == {2}  # rank 1st returns first
    g.act(2, {"type": "return_ship", "pay": whales(), "sell": whales(right=1)})
    # The sale of seat 2's whale finishes before seat 0's ship returns.
    assert g.to_act() == {0}
    assert g.state["sale"] is not None
    g.act(0, {"type": "buy_whale", "kind": "right"})
    assert g.state["sale"] is None and g.to_act() == {0}
    assert g.state["track"][0] == [[0, 1]]
    assert g.legal_actions(0)[0]["type"] == "return_ship"


def test_sale_money_is_usable_for_a_later_ship_in_the_same_movement_phase():
    g = game(seats=2)
    at_sea(g, 0, 1, 1, sperm=1)
    at_sea(g, 0, 2, 1, right=2)
    set_bag(g)
    give(g, 0, money=0)
    give(g, 1, money=0)
    finish_action_phase(g)
    # Ship 1's Sperm Whale cannot be paid for, so it is sold ($4) without asking ...
    assert player(g, 0)["money"] == 4 and g.state["track"][0] == [[0, 2]]
    # ... and that money pays the lay of Ship 2's two Right Whales.
    assert {"type": "return_ship", "pay": whales(right=2), "sell": whales()} in g.legal_actions(0)


def test_only_return_actions_are_accepted_while_a_ship_returns():
    g = returning_game(right=1)
    with pytest.raises(IllegalAction):
        g.act(0, {"type": "place_worker", "space": "farm"})
    with pytest.raises(IllegalAction, match="pay the lay or sell"):
        g.act(0, {"type": "return_ship", "pay": whales(), "sell": whales()})
    assert ENGINE.to_act(g.state) == {0}
