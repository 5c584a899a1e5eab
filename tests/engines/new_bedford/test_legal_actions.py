"""Legal actions are fully enumerated and every one of them is accepted; the generic
engine kit passes for 2, 3 and 4 players on more seeds than the shared kit run."""

import copy
import random

import pytest
from tablero.engines.core import IllegalAction, LocalGame, canonical_json, testkit
from tablero.engines.new_bedford import data
from tablero.engines.new_bedford.spaces import discount_choices

from .helpers import ENGINE, game, give, own, player


def test_town_hall_lists_every_discount_choice_for_every_affordable_building():
    g = game(seats=3)
    give(g, 0, money=10, lumber=9, food=9, brick=9)
    opts = [a for a in g.legal_actions(0) if a.get("space") == "town_hall"]
    expected = sum(len([x for x in ("lumber", "food", "brick") if b["cost"].get(x)]) for b in data.BUILDINGS)
    assert len(opts) == expected
    chandlery = [a["discount"] for a in opts if a["build"] == "chandlery"]
    assert sorted(map(str, chandlery)) == sorted(map(str, [{"lumber": 1}, {"food": 1}, {"brick": 1}]))


def test_courthouse_lists_every_way_to_pay_two_fewer_goods():
    got = discount_choices({"lumber": 2, "food": 2, "brick": 2}, 2)
    assert sorted(map(lambda d: sorted(d.items()), got)) == sorted(map(lambda d: sorted(d.items()), [
        {"food": 1, "brick": 1}, {"food": 2}, {"lumber": 1, "brick": 1}, {"lumber": 1, "food": 1},
        {"lumber": 2}, {"brick": 2},
    ]))
    assert discount_choices({"brick": 3}, 2) == [{"brick": 2}]
    assert discount_choices({"lumber": 4, "money": 10}, 2) == [{"lumber": 2}]
    assert len(discount_choices({"lumber": 1, "food": 1, "brick": 1}, 2)) == 3
    g = game(seats=3)
    own(g, 0, "courthouse")
    give(g, 0, money=10, lumber=9, food=9, brick=9)
    opts = [a for a in g.legal_actions(0) if a.get("space") == "courthouse"]
    built = {"courthouse"}
    assert len(opts) == sum(len(discount_choices(b["cost"], 2)) for b in data.BUILDINGS if b["id"] not in built)


def test_a_sale_is_offered_as_steps_never_as_every_combination_of_goods():
    """Issue 14: a large stock must not list thousands of sale actions. The General Store is
    one action; then one sell_goods decision per kind held, with every count."""
    g = game()
    give(g, 0, lumber=40, food=30, brick=20)
    opts = [a for a in g.legal_actions(0) if a.get("space") == "general_store"]
    assert opts == [{"type": "place_worker", "space": "general_store"}]
    assert len(g.legal_actions(0)) < 100
    g.act(0, opts[0])
    assert [a["count"] for a in g.legal_actions(0)] == list(range(41))
    g.act(0, {"type": "sell_goods", "good": "lumber", "count": 3})
    assert {a["good"] for a in g.legal_actions(0)} == {"food"}
    g.act(0, {"type": "sell_goods", "good": "food", "count": 0})
    events = g.act(0, {"type": "sell_goods", "good": "brick", "count": 1})
    assert events[0]["type"] == "worker_placed" and events[0]["sold"] == {"lumber": 3, "food": 0, "brick": 1}
    assert player(g, 0)["money"] == 3 + 2 + 1  # lumber $1, brick $2, 1st-worker bonus $1


def test_the_last_step_of_a_sale_must_sell_something_when_nothing_was_sold():
    g = game()
    give(g, 0, lumber=2, food=1)
    g.act(0, {"type": "place_worker", "space": "general_store"})
    g.act(0, {"type": "sell_goods", "good": "lumber", "count": 0})
    assert [a["count"] for a in g.legal_actions(0)] == [1]
    with pytest.raises(IllegalAction, match="at least one"):
        g.act(0, {"type": "sell_goods", "good": "food", "count": 0})


def test_the_one_action_form_of_a_sale_is_still_accepted_for_every_combination():
    g = game()
    give(g, 0, lumber=2, food=1, brick=3)
    for lumber in range(3):
        for food in range(2):
            for brick in range(4):
                sold = {"lumber": lumber, "food": food, "brick": brick}
                a = {"type": "place_worker", "space": "general_store", "sell": sold}
                if any(sold.values()):
                    assert ENGINE.decide(g.state, 0, a, random.Random(0))[0]["sold"] == sold
                else:
                    with pytest.raises(IllegalAction):
                        ENGINE.decide(g.state, 0, a, random.Random(0))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_listed_action_is_accepted_without_changing_the_state(seats):
    rng = random.Random(seats)
    for seed in range(2):
        g = LocalGame(ENGINE, seats=seats, seed=seed)
        step = 0
        while g.outcome() is None:
            (seat,) = g.to_act()
            actions = g.legal_actions(seat)
            assert actions
            if step % 3 == 0:
                before = canonical_json(g.state)
                for a in rng.sample(actions, min(len(actions), 25)):
                    ENGINE.decide(copy.deepcopy(g.state), seat, a, random.Random(0))
                assert canonical_json(g.state) == before
            g.act(seat, ENGINE.random_action(g.state, seat, actions, rng))
            step += 1


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", [11, 12])
def test_engine_kit_passes(seats, seed):
    testkit.run_all(ENGINE, seats, seed)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_engine_kit_rejections_pass(seats):
    testkit.check_rejections(ENGINE, seats, seed=seats * 7 + 1)


def test_engine_kit_passes_with_all_buildings_for_two_players():
    testkit.run_all(ENGINE, 2, 5, options={"buildings": "all"})


def test_checking_one_action_never_lists_the_legal_actions(monkeypatch):
    """Issue 14: decide checks the one action (its move's check), not the whole list."""
    from tablero.engines.new_bedford import engine as nb_engine
    from tablero.engines.new_bedford import spaces

    def refuse(*a, **k):
        raise AssertionError("the legal actions were listed to check one action")

    g = game()
    give(g, 0, lumber=9, food=9, brick=9, money=9)
    monkeypatch.setattr(spaces, "placements", refuse)
    monkeypatch.setattr(nb_engine, "return_options", refuse)
    from tablero.engines.core import Move

    monkeypatch.setattr(Move, "legal", refuse)
    events = ENGINE.decide(g.state, 0, {"type": "place_worker", "space": "town_hall", "build": "bank",
                                         "discount": {"brick": 1}}, random.Random(0))
    assert events[0]["build"] == "bank"


def test_the_engine_publishes_valid_action_event_and_view_schemas():
    import jsonschema

    d = ENGINE.describe()
    for key in ("action_schema", "event_schema", "view_schema"):
        schema = d[key]
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["$schema"].endswith("2020-12/schema")
    assert {s["title"] for s in d["action_schema"]["oneOf"]} >= {"place_worker", "sell_goods", "choose_for_captain"}
    assert d["view_schema"]["additionalProperties"] is False and "captains" in d["view_schema"]["required"]
