"""Legal actions are fully enumerated and every one of them is accepted; the generic
engine kit passes for 2, 3 and 4 players on more seeds than the shared kit run."""

import copy
import random

import pytest

from engines.core import LocalGame, canonical_json, testkit
from engines.new_bedford import data
from engines.new_bedford.spaces import discount_choices

from .helpers import ENGINE, game, give, own


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


def test_general_store_lists_every_way_to_sell_at_least_one_good():
    g = game()
    give(g, 0, lumber=2, food=1, brick=3)
    opts = [a for a in g.legal_actions(0) if a.get("space") == "general_store"]
    assert len(opts) == 3 * 2 * 4 - 1


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
