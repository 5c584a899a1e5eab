"""Corners the rulebook leaves open, decided in RULES.md, and whole-game properties."""

import copy

from tablero.engines.core import LocalGame
from tablero.engines.riverboat import ENGINE, board

from .helpers import act, at_phase, full_rows, make_turn, types


def test_the_round_track_worker_goes_to_supply_when_no_field_is_empty():
    g = LocalGame(ENGINE, seats=2, seed=9)
    s = copy.deepcopy(g.state)
    fp = s["first_player"]
    p = s["players"][fp]
    p["crop"] = ["beet"] * board.CELLS
    for phase in ["cultivation", "planting", "harvest", "opportunity"]:
        seat = s["turn"]
        s, _ = act(s, seat, {"type": "choose_phase", "phase": phase})
    s, ev = act(s, s["turn"], {"type": "choose_phase", "phase": "scoring"})
    taken = [e for e in ev if e["type"] == "round_track_worker_taken"][0]
    assert taken["seat"] == fp and taken["place"] is False
    assert s["players"][fp]["workers"] == 14 and not any(x["kind"] == "bonus_worker" for x in s["pending"])


def test_a_scoring_bonus_with_nothing_to_take_is_dropped():
    g = at_phase("opportunity")
    s = make_turn(g.state, "opportunity", 0)
    holder = s["phase_tiles"][4]
    s["supply"]["coins"] = 0
    s["players"][holder].update(harbor=18, workers=0)
    for p in s["players"]:
        p["coins"] = 0
    s["done"] = [True] * s["n"]
    s["done"][0] = False
    s, ev = act(s, 0, {"type": "take_opportunity", "space": next(i for i, c in enumerate(s["opp_spaces"]) if c)})
    dropped = [e for e in ev if e["type"] == "pending_dropped"]
    assert dropped and dropped[0]["seat"] == holder and dropped[0]["reason"] == "unavailable"


def test_every_seat_sees_the_same_view_apart_from_its_own_seat_number():
    g = at_phase("harvest", seats=3)
    views = [g.view(s) for s in (None, 0, 1, 2)]
    for v in views:
        v.pop("seat")
    assert all(v == views[0] for v in views)


def test_phase_tiles_are_kept_after_round_4_for_the_tie_breaks():
    g = LocalGame(ENGINE, seats=3, seed=21)
    g.play_random()
    assert g.outcome() is not None and g.state["round"] == 4
    assert None not in g.state["phase_tiles"]
    ticks = [d["tiebreak"]["rank"] for d in full_rows(g.outcome())]
    assert sorted(ticks)[0] == 1, "someone holds the Cultivation tile"
    assert types(g.events).count("round_ended") == 3 and types(g.events)[-1] == "game_ended"


def test_a_full_game_draws_eight_crop_cards_per_round():
    g = LocalGame(ENGINE, seats=2, seed=8)
    g.play_random()
    assert types(g.events).count("crop_card_revealed") == 32
    assert len(g.state["crop_deck"]) == 8
