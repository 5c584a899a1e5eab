"""Option coin_draws="blind" (issue 4's reading of the coin abilities): the planting coin draws
the top 1- or 2-hex tile unseen, shown only to its drawer until placed; the opportunity coin
draws the top card of the deck (no bonus)."""

import random

import pytest
from tablero.engines.core import LocalGame, testkit
from tablero.engines.riverboat import ENGINE

from .helpers import act, clear_mat, make_turn, play_until, types

BLIND = {"coin_draws": "blind"}


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_blind_variant_passes_the_engine_kit(seats):
    g = testkit.playthrough(ENGINE, seats, 500 + seats, BLIND)
    testkit.check_outcome(g)
    testkit.check_replay(g)
    testkit.check_views(g, random.Random(seats))
    testkit.check_rejections(ENGINE, seats, seed=seats * 13, options=BLIND)


def _planting():
    g = LocalGame(ENGINE, seats=2, seed=4, options=BLIND)
    play_until(g, lambda s: s["phase"] == "planting" and not s["pending"])
    s = make_turn(g.state, "planting", 0)
    for p in s["players"]:
        clear_mat(p)
        p["coins"] = 1
    s["players"][0]["worker"][0] = True
    s["players"][0]["worker"][1] = True
    s["players"][1]["worker"][5] = True
    return s


def test_a_blind_tile_draw_is_shown_only_to_its_drawer_then_must_be_placed():
    s = _planting()
    acts = ENGINE.legal_actions(s, 0)
    assert {"type": "draw_tile", "size": 1} in acts and {"type": "draw_tile", "size": 2} in acts
    assert not [a for a in acts if a["type"] == "plant_from_pile"]
    top = s["piles"]["2"][0]
    s, ev = act(s, 0, {"type": "draw_tile", "size": 2})
    e = ev[0]
    assert e["private"] == {"0": {"kind": top}}
    assert "private" not in ENGINE.event_view(e, 1) and "private" not in ENGINE.event_view(e, None)
    assert s["players"][0]["coins"] == 0
    assert ENGINE.view(s, 0)["held_tile"]["kind"] == top
    assert ENGINE.view(s, 1)["held_tile"] == {"seat": 0, "size": 2, "kind": None}
    acts = ENGINE.legal_actions(s, 0)
    assert acts and {a["type"] for a in acts} == {"plant_drawn"}
    s, ev = act(s, 0, acts[0])
    assert ev[0]["kind"] == top and s["held"] is None and s["players"][0]["vp"] >= 1


def test_a_two_hex_blind_draw_needs_two_adjacent_uncovered_workers():
    s = _planting()
    s["players"][0]["worker"][1] = False
    acts = ENGINE.legal_actions(s, 0)
    assert {"type": "draw_tile", "size": 2} not in acts and {"type": "draw_tile", "size": 1} in acts


def test_a_blind_opportunity_draw_takes_the_top_card_without_bonus():
    g = LocalGame(ENGINE, seats=2, seed=4, options=BLIND)
    play_until(g, lambda s: s["phase"] == "opportunity" and not s["pending"])
    s = make_turn(g.state, "opportunity", 0)
    s["players"][0]["coins"] = 1
    top = s["opp_deck"][0]
    assert {"type": "draw_opportunity"} in ENGINE.legal_actions(s, 0)
    s2, ev = act(s, 0, {"type": "draw_opportunity"})
    assert types(ev)[0] == "opportunity_taken" and ev[0]["card"] == top and ev[0]["gains"] == {}
    assert s2["opp_deck"] == s["opp_deck"][1:]
