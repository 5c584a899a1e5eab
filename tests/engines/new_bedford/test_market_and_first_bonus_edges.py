"""Edge cases of the selling spaces and the 1st-placement bonuses (rulebook p.4, pp.17, 22;
FAQ 6), each driven through the engine's moves."""

import pytest
from tablero.engines.core import IllegalAction

from .helpers import game, give, own, place, player


def _sell(g, seat, space, **counts):
    """A sale composed in steps: open the space, then say each kind's count."""
    g.act(seat, {"type": "place_worker", "space": space})
    events = []
    while "selling" in g.state:
        good = g.state["selling"]["kinds"][len(g.state["selling"]["sold"])]
        events = g.act(seat, {"type": "sell_goods", "good": good, "count": counts.get(good, 0)})
    return events


def test_market_selling_only_brick_doubles_the_first_brick():
    # p.22: "Recibe el doble del coste del primer artículo vendido de cada tipo": 3 brick = 4 + 2 + 2.
    g = game(seats=3)
    own(g, 0, "market")
    give(g, 0, brick=3)
    _sell(g, 0, "market", brick=3)
    assert player(g, 0)["money"] == 8 and player(g, 0)["brick"] == 0


def test_market_doubles_the_first_of_each_kind_in_one_action():
    # p.22: "Pueden obtenerse todos en la misma acción": 2 lumber, 1 food, 1 brick = (2+1) + 2 + 4.
    g = game(seats=3)
    own(g, 0, "market")
    give(g, 0, lumber=2, food=1, brick=1)
    _sell(g, 0, "market", lumber=2, food=1, brick=1)
    assert player(g, 0)["money"] == 9


def test_another_players_market_takes_the_dollar_first_and_needs_it_beforehand():
    g = game(seats=3)
    own(g, 1, "market")
    give(g, 0, lumber=1)  # no money: the fee is paid before the sale (FAQ 3)
    assert not [a for a in g.legal_actions(0) if a.get("space") == "market"]
    with pytest.raises(IllegalAction):
        place(g, 0, "market")
    give(g, 0, money=1, lumber=1)
    _sell(g, 0, "market", lumber=1)
    assert player(g, 0)["money"] == 2 and player(g, 1)["money"] == 6


def test_only_the_first_worker_at_the_general_store_takes_the_extra_dollar():
    g = game(seats=3)
    give(g, 0, food=1)
    give(g, 1, food=1)
    _sell(g, 0, "general_store", food=1)
    _sell(g, 1, "general_store", food=1)
    assert player(g, 0)["money"] == 2 and player(g, 1)["money"] == 1


def test_town_hall_bonus_on_the_mansion_takes_a_lumber_off_never_a_dollar():
    # p.17: the bonus "no se aplica al dinero en el precio de la Mansión".
    g = game(seats=3, buildings=["mansion", "bank"])
    give(g, 0, money=10, lumber=3)
    opts = [a for a in g.legal_actions(0) if a.get("space") == "town_hall"]
    assert opts == [{"type": "place_worker", "space": "town_hall", "build": "mansion", "discount": {"lumber": 1}}]
    place(g, 0, "town_hall", build="mansion", discount={"lumber": 1})
    p = player(g, 0)
    assert (p["money"], p["lumber"]) == (0, 0) and g.state["buildings"]["mansion"]["owner"] == 0


def test_the_second_worker_at_the_town_hall_pays_the_full_cost():
    g = game(seats=3, buildings=["dry_dock", "lighthouse"])
    give(g, 0, lumber=2, brick=2)
    give(g, 1, lumber=2, brick=1)
    place(g, 0, "town_hall", build="dry_dock", discount={"brick": 1})  # 1st: 2 lumber + 1 brick
    assert player(g, 0)["brick"] == 1
    assert not [a for a in g.legal_actions(1) if a.get("space") == "town_hall"]  # 2 lumber + 2 brick needed
    with pytest.raises(IllegalAction):
        place(g, 1, "town_hall", build="lighthouse", discount={"brick": 1})


def test_the_warehouse_bonus_good_is_chosen_only_by_the_first_worker():
    g = game(seats=3)
    assert sorted(a["bonus"] for a in g.legal_actions(0) if a.get("space") == "warehouse") == [
        "brick", "food", "lumber"]
    place(g, 0, "warehouse", bonus="food")
    assert [a for a in g.legal_actions(1) if a.get("space") == "warehouse"] == [
        {"type": "place_worker", "space": "warehouse"}]
    place(g, 1, "warehouse")
    assert (player(g, 0)["brick"], player(g, 0)["food"]) == (1, 1)
    assert (player(g, 1)["brick"], player(g, 1)["food"]) == (1, 0)
