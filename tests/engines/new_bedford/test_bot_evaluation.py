"""New Bedford's judgement for the bots (evaluation.py) and the search hooks it declares
(engines/core/search.py `Evaluation.unfinished`, `Evaluation.plies`)."""

from __future__ import annotations

import dataclasses
import random

from tablero.engines.core import LocalGame, search
from tablero.engines.new_bedford import evaluation

from tablero import engines

NB = engines.get("new-bedford")


def _round1(seats: int = 2, **options) -> LocalGame:
    g = LocalGame("new-bedford", seats=seats, seed=3, options={"first_player": 0, **options})
    while g.state["phase"] == "setup":
        seat = min(g.to_act())
        g.act(seat, {"type": "choose_starting_goods", "lumber": 2, "food": 3, "brick": 0, "money": 0})
    return g


def test_a_ship_is_worth_more_the_farther_it_has_gone():
    g = _round1()
    s = g.state
    seat = min(g.to_act())
    home = evaluation.points(s, seat)
    ship = s["players"][seat]["ships"][0]
    ship["at"] = "dock"
    dock = evaluation.points(s, seat)
    ship["at"], ship["row"] = "sea", 2
    near = evaluation.points(s, seat)
    ship["row"] = 6
    far = evaluation.points(s, seat)
    assert home < dock < far and near < far


def test_goods_beyond_what_the_seat_can_use_are_worth_their_sale_price_share():
    g = _round1()
    s = g.state
    seat = min(g.to_act())
    p = s["players"][seat]
    worth = []
    for food in (0, 1, 40, 41):
        p["food"] = food
        worth.append(evaluation.points(s, seat))
    needed, spare = worth[1] - worth[0], worth[3] - worth[2]
    assert abs(needed - evaluation.P["food"]) < 1e-9 and abs(spare - evaluation.P["spare"]) < 1e-9 and spare < needed


def test_an_opened_sale_is_judged_once_finished():
    """Opening a sale of goods leaves the seat to say its counts: medium judges that placement by the
    state after the whole sale (the worker placed, the game gone on), like every other placement."""
    g = _round1()
    seat = min(g.to_act())
    ev = search.evaluation(NB)
    store = {"type": "place_worker", "space": "general_store"}
    opened = search.apply(NB, g.state, seat, store, random.Random(7))
    assert opened is not None and evaluation.unfinished(opened, seat)
    done = search._finish(NB, ev, opened, seat, 7)
    assert not evaluation.unfinished(done, seat) and "selling" not in done
    assert done["players"][seat]["workers"] == ["general_store"]
    ranked = search.one_step(NB, ev, g.state, seat, [store], random.Random(0), None)
    assert ranked[0][0] == search.value(NB, ev, done, seat)


def test_goods_bought_are_judged_with_the_placement_they_serve():
    g = _round1()
    seat = min(g.to_act())
    ev = search.evaluation(NB)
    buy = {"type": "buy_goods", "good": "food"}
    g.state["players"][seat]["money"] = 3
    after = search.apply(NB, g.state, seat, buy, random.Random(7))
    assert after is not None and evaluation.unfinished(after, seat)
    done = search._finish(NB, ev, after, seat, 7)
    assert not done["bought"] and len(done["players"][seat]["workers"]) == 1


def test_without_the_hook_a_decision_is_judged_as_it_leaves_the_state():
    g = _round1()
    seat = min(g.to_act())
    ev = dataclasses.replace(search.evaluation(NB), unfinished=None)
    store = {"type": "place_worker", "space": "general_store"}
    opened = search.apply(NB, g.state, seat, store, random.Random(0))
    ranked = search.one_step(NB, ev, g.state, seat, [store], random.Random(0), None)
    assert ranked[0][0] == search.value(NB, ev, opened, seat)


def test_hard_rolls_out_the_other_seats_answers_but_only_its_own_move_in_solo():
    budget = search.evaluation(NB).budget
    assert evaluation.plies(_round1().state, budget) == budget.rollout_plies
    solo = LocalGame("new-bedford", seats=1, seed=3, options={"captains": ["starbuck"]})
    assert evaluation.plies(solo.state, budget) == evaluation.SOLO_PLIES


def test_hard_uses_the_engines_rollout_length():
    seen = []
    ev = search.evaluation(NB)

    def plies(state, budget):
        seen.append(budget.rollout_plies)
        return 0

    g = _round1()
    seat = min(g.to_act())
    hooked = dataclasses.replace(ev, plies=plies, budget=dataclasses.replace(ev.budget, rollout_plies=7))
    actions = g.legal_actions(seat)
    a = search._paired_search(NB, hooked, g.state, seat, actions, random.Random(1), search.Limit(), 2)
    assert seen == [7] and a.action in actions and a.considered == 2
