"""Every action has exactly the fields of its shape in `legal_actions`: a field too many, missing
or mistyped makes the action malformed (InvalidAction naming the field); a well-formed action
against the rules is refused (IllegalAction) with its real reason."""

import random

import pytest
from tablero.engines.core import IllegalAction, InvalidAction, LocalGame
from tablero.engines.riverboat import ENGINE
from tablero.engines.riverboat.data import OPPORTUNITY
from tablero.engines.riverboat.engine import ACTION_FIELDS

from .helpers import act, at_phase, cells_of, clear_mat, make_turn, new_game, play_until

# A value of the wrong JSON type for each field (by the type the field really has).
_WRONG = {bool: 1, int: True, str: 7, list: "0,1"}


def _sampled_legal_actions(seats: int, seed: int, options=None, every: int = 7):
    """(state, seat, legal actions) at every `every`-th decision of a random game."""
    g = LocalGame(ENGINE, seats=seats, seed=seed, options=options)
    rng = random.Random(seed)
    step = 0
    while g.outcome() is None:
        seat = rng.choice(sorted(g.to_act()))
        acts = g.legal_actions(seat)
        if step % every == 0:
            yield g.state, seat, acts
        g.act(seat, ENGINE.random_action(g.state, seat, acts, rng))
        step += 1


def test_an_unknown_field_on_a_free_phase_tile_is_malformed_not_a_taken_tile():
    # The acceptance tester's case: the cultivation tile is free, the action carries an extra field.
    s = new_game(2).state
    seat = s["first_player"]
    assert s["phase_tiles"][0] is None
    with pytest.raises(InvalidAction, match="'extra'"):
        ENGINE.decide(s, seat, {"type": "choose_phase", "phase": "cultivation", "extra": 1}, random.Random(0))
    # Without the extra field the same action is legal.
    ENGINE.decide(s, seat, {"type": "choose_phase", "phase": "cultivation"}, random.Random(0))


@pytest.mark.parametrize(("seats", "options"), [(2, None), (3, None), (4, None), (2, {"coin_draws": "blind"})])
def test_every_legal_action_has_exactly_its_fields_and_any_other_shape_is_malformed(seats, options):
    rng = random.Random(seats)
    seen = set()
    for s, seat, acts in _sampled_legal_actions(seats, 40 + seats, options, every=3):
        for a in rng.sample(acts, min(4, len(acts))):
            t = a["type"]
            seen.add(t)
            assert set(a) - {"type"} == set(ACTION_FIELDS[t]), f"{t}: legal_actions lists {sorted(a)}"
            ENGINE.decide(s, seat, a, random.Random(0))  # well-formed and legal
            with pytest.raises(InvalidAction, match="'zz'"):
                ENGINE.decide(s, seat, {**a, "zz": 0}, random.Random(0))
            for field in ACTION_FIELDS[t]:
                missing = {k: v for k, v in a.items() if k != field}
                with pytest.raises(InvalidAction, match=f"'{field}'"):
                    ENGINE.decide(s, seat, missing, random.Random(0))
                wrong = {**a, field: _WRONG[type(a[field])]}
                with pytest.raises(InvalidAction, match=f"'{field}'"):
                    ENGINE.decide(s, seat, wrong, random.Random(0))
    assert {"choose_phase", "place_worker", "plant", "claim_boat", "take_opportunity"} <= seen


def test_the_field_table_covers_every_action_type_and_nothing_else():
    s = new_game(2).state
    for t, fields in ACTION_FIELDS.items():
        with pytest.raises((InvalidAction, IllegalAction)) as e:
            ENGINE.decide(s, s["first_player"], {"type": t, **{f: None for f in fields}, "zz": 1}, None)
        assert e.type is InvalidAction and "'zz'" in str(e.value)


# --- rule errors name the real reason --------------------------------------------------------

def _cultivation(card="green"):
    g = at_phase("cultivation")
    s = make_turn(g.state, "cultivation", 0)
    for p in s["players"]:
        clear_mat(p)
        p.update(workers=5, coins=2)
    s["card"] = card
    s["waiting"] = [0, 1]
    return s


def test_a_taken_phase_tile_is_refused_as_taken():
    g = new_game(2)
    fp = g.state["first_player"]
    g.act(fp, {"type": "choose_phase", "phase": "cultivation"})
    with pytest.raises(IllegalAction, match="the cultivation tile is already taken"):
        g.act(1 - fp, {"type": "choose_phase", "phase": "cultivation"})


def test_cultivation_refusals_name_the_colour_the_occupied_cell_or_the_missing_coin():
    s = _cultivation("green")
    p = s["players"][0]
    green, blue = cells_of(p, "green")[0], cells_of(p, "blue")[0]
    with pytest.raises(IllegalAction, match=f"cell {blue} is a blue field, not green"):
        ENGINE.decide(s, 0, {"type": "place_worker", "cell": blue, "coin": False}, None)
    # seed-R: a coin places on an empty field of your choice, one of the card's colour too.
    ENGINE.decide(s, 0, {"type": "place_worker", "cell": green, "coin": True}, None)
    p["worker"][green] = True
    with pytest.raises(IllegalAction, match=f"a worker already stands on cell {green}"):
        ENGINE.decide(s, 0, {"type": "place_worker", "cell": green, "coin": True}, None)
    with pytest.raises(IllegalAction, match=f"a worker already stands on cell {green}"):
        ENGINE.decide(s, 0, {"type": "place_worker", "cell": green, "coin": False}, None)
    with pytest.raises(IllegalAction, match="you must place a worker, you have an empty green field"):
        ENGINE.decide(s, 0, {"type": "skip"}, None)
    p["coins"] = 0
    with pytest.raises(IllegalAction, match="no coin to spend"):
        ENGINE.decide(s, 0, {"type": "place_worker", "cell": blue, "coin": True}, None)


def test_the_round_track_worker_on_an_occupied_cell_names_the_cell_not_a_pending_decision():
    g = new_game(2, seed=5)
    fp = g.state["first_player"]
    for phase in ("cultivation", "planting", "harvest", "opportunity", "scoring"):
        [seat] = g.to_act()
        g.act(seat, {"type": "choose_phase", "phase": phase})
    s = g.state
    assert s["pending"][0]["kind"] == "bonus_worker"
    s["players"][fp]["worker"][3] = True
    with pytest.raises(IllegalAction, match="cell 3 is not an empty field for the round-track worker"):
        ENGINE.decide(s, fp, {"type": "place_worker", "cell": 3, "coin": False}, None)
    with pytest.raises(IllegalAction, match="without a coin"):
        ENGINE.decide(s, fp, {"type": "place_worker", "cell": 4, "coin": True}, None)
    with pytest.raises(IllegalAction, match="first resolve your pending decision"):
        ENGINE.decide(s, fp, {"type": "skip"}, None)


def test_a_coin_boat_from_an_empty_draw_pile_is_refused_with_that_reason():
    g = at_phase("harvest")
    s = make_turn(g.state, "harvest", 0)
    p = s["players"][0]
    clear_mat(p)
    p["coins"] = 1
    for c in range(4):
        p["crop"][c], p["worker"][c] = "corn", True
    s["boat_board"]["4"], s["boat_piles"]["4"] = True, 0
    with pytest.raises(IllegalAction, match="the draw pile of riverboat 4 is empty .take the board's one without"):
        ENGINE.decide(s, 0, {"type": "claim_boat", "boat": "4", "crop": "corn", "coin": True}, None)
    s["boat_board"]["4"], s["boat_piles"]["4"] = False, 0
    with pytest.raises(IllegalAction, match="no riverboat 4 is left"):
        ENGINE.decide(s, 0, {"type": "claim_boat", "boat": "4", "crop": "corn", "coin": True}, None)


def test_a_mandatory_feature_cannot_be_declined_and_a_wrong_cell_is_named():
    g = at_phase("harvest")
    s = make_turn(g.state, "harvest", 0)
    p = s["players"][0]
    clear_mat(p)
    p["crop"][0] = "corn"
    s["pending"] = [{"seat": 0, "kind": "feature", "options": ["barn"], "reason": "riverboat 4"}]
    with pytest.raises(IllegalAction, match="not optional"):
        ENGINE.decide(s, 0, {"type": "decline"}, None)
    with pytest.raises(IllegalAction, match="cell 0 is not an empty field for a barn"):
        ENGINE.decide(s, 0, {"type": "place_barn", "cell": 0}, None)
    with pytest.raises(IllegalAction, match="gives a barn, not a well"):
        ENGINE.decide(s, 0, {"type": "place_well", "cell": 0}, None)
    with pytest.raises(IllegalAction, match="first resolve your pending decision"):
        ENGINE.decide(s, 0, {"type": "pass"}, None)
    s, _ = act(s, 0, {"type": "place_barn", "cell": 1})
    assert s["players"][0]["feature"][1] == "barn"


def test_the_wrong_coin_action_for_the_chosen_coin_draws_option_says_which_one_to_use():
    g = LocalGame(ENGINE, seats=2, seed=3, options={"coin_draws": "blind"})
    play_until(g, lambda s: s["phase"] == "opportunity" and not s["pending"])
    [seat] = g.to_act()
    g.state["players"][seat]["coins"] = 1
    with pytest.raises(IllegalAction, match="draw_opportunity"):
        g.act(seat, {"type": "search_opportunity_deck"})
    with pytest.raises(IllegalAction, match="Opportunity: passing is for the Harvest & Shipping and Scoring phases"):
        g.act(seat, {"type": "pass"})


def test_surveying_what_you_do_not_have_says_so():
    g = at_phase("scoring")
    s = make_turn(g.state, "scoring", 0)
    p = s["players"][0]
    clear_mat(p)
    p.update(surveyors=1, opps=[])
    p["feature"][5] = "barn"
    with pytest.raises(IllegalAction, match="you have no well on cell 5"):
        ENGINE.decide(s, 0, {"type": "survey", "feature": "well", "cell": 5}, None)
    p["scored"][5] = True
    p["feature"][6] = "well"
    p["crop"][6] = "beet"
    with pytest.raises(IllegalAction, match="barn on cell 5 is already scored"):
        ENGINE.decide(s, 0, {"type": "survey", "feature": "barn", "cell": 5}, None)
    with pytest.raises(IllegalAction, match="you do not hold opportunity card"):
        ENGINE.decide(s, 0, {"type": "survey_card", "card": sorted(OPPORTUNITY)[0]}, None)


@pytest.mark.parametrize(("seats", "options"), [(2, None), (4, None), (3, {"coin_draws": "blind"})])
def test_any_well_formed_action_is_accepted_exactly_when_legal_and_otherwise_refused_with_a_reason(seats, options):
    # Candidates: every action legal at some point of one game, tried at sampled points of another.
    pool = {}
    for _, _, acts in _sampled_legal_actions(seats, 70 + seats, options, every=1):
        for a in acts:
            pool[repr(sorted(a.items()))] = a
    candidates = list(pool.values())
    rng = random.Random(seats)
    for s, seat, acts in _sampled_legal_actions(seats, 80 + seats, options, every=5):
        for a in rng.sample(candidates, min(25, len(candidates))):
            if a in acts:
                ENGINE.decide(s, seat, a, random.Random(0))
                continue
            with pytest.raises(IllegalAction) as e:
                ENGINE.decide(s, seat, a, random.Random(0))
            assert ": " in str(e.value) or "may not act" in str(e.value)
