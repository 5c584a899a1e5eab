"""Coin abilities of Planting and Opportunity, default reading (seed-R): the coin lets you
CHOOSE a tile from the face-down 1- or 2-hex pile ("elige una loseta … del mazo de robo",
"Baraja las fichas restantes una vez seleccionadas", "debes tomar una ficha de la pila de robo
… incluso si no te gusta lo que ves en la pila") or a card from the opportunity deck ("puedes
elegir una carta de Oportunidad de la pila de robo"). You pay first, then look: the searcher,
and only the searcher, sees the pile's contents at that moment."""

import json
import random

import pytest
from tablero.engines.core import IllegalAction
from tablero.engines.riverboat import ENGINE

from .helpers import act, at_phase, clear_mat, make_turn


def _planting():
    g = at_phase("planting", seats=3)
    s = make_turn(g.state, "planting", 0)
    for p in s["players"]:
        clear_mat(p)
        p["coins"] = 2
    for seat, cell in ((0, 0), (0, 1), (1, 10), (2, 20)):
        s["players"][seat]["worker"][cell] = True
    return s


def _opportunity():
    g = at_phase("opportunity", seats=3)
    s = make_turn(g.state, "opportunity", 0)
    for p in s["players"]:
        p["coins"] = 2
    return s


def test_before_paying_nobody_sees_what_a_pile_or_the_deck_holds():
    s = _planting()
    acts = ENGINE.legal_actions(s, 0)
    assert not [a for a in acts if a["type"] == "plant_from_pile"]
    assert {"type": "search_pile", "size": 1} in acts and {"type": "search_pile", "size": 2} in acts
    o = _opportunity()
    assert not [a for a in ENGINE.legal_actions(o, 0) if a["type"] == "take_opportunity_from_deck"]
    for seat in (None, 0, 1, 2):
        assert ENGINE.view(s, seat)["search"] is None and ENGINE.view(o, seat)["search"] is None


def test_a_pile_search_shows_the_pile_to_the_searcher_only():
    s = _planting()
    s2, ev = act(s, 0, {"type": "search_pile", "size": 2})
    e = ev[0]
    assert e["private"] == {"0": {"tiles": sorted(s["piles"]["2"])}}
    for other in (None, 1, 2):
        assert "private" not in ENGINE.event_view(e, other)
        v = ENGINE.view(s2, other)
        assert v["search"] == {"seat": 0, "pile": "2-hex tiles", "contents": None}
        if other is not None:
            assert ENGINE.legal_actions(s2, other) == []
    assert ENGINE.view(s2, 0)["search"]["contents"] == sorted(s["piles"]["2"])
    # The searcher sees what the pile holds, never its order (it is shuffled after the choice).
    text = json.dumps(ENGINE.view(s2, 0))
    assert json.dumps(s["piles"]["2"]) not in text


def test_the_coin_is_paid_when_searching_and_a_tile_must_then_be_taken():
    s = _planting()
    s2, _ = act(s, 0, {"type": "search_pile", "size": 1})
    assert s2["players"][0]["coins"] == 1 and s2["supply"]["coins"] == s["supply"]["coins"] + 1
    assert ENGINE.to_act(s2) == {0}
    acts = ENGINE.legal_actions(s2, 0)
    assert acts and {a["type"] for a in acts} == {"plant_from_pile"}
    assert all(a["kind"].startswith("1-") for a in acts)
    with pytest.raises(IllegalAction, match="pending|first resolve"):
        ENGINE.decide(s2, 0, {"type": "plant", "size": 1, "slot": 0, "cells": [0]}, random.Random(0))
    with pytest.raises(IllegalAction, match="searched"):
        ENGINE.decide(s2, 0, {"type": "plant_from_pile", "kind": "2-beet-beet", "cells": [0, 1]}, random.Random(0))


def test_a_two_hex_search_needs_two_adjacent_uncovered_workers():
    s = _planting()
    s["players"][0]["worker"][1] = False
    acts = ENGINE.legal_actions(s, 0)
    assert {"type": "search_pile", "size": 2} not in acts and {"type": "search_pile", "size": 1} in acts


def test_an_opportunity_deck_search_shows_the_deck_to_the_searcher_only():
    s = _opportunity()
    s2, ev = act(s, 0, {"type": "search_opportunity_deck"})
    e = ev[0]
    assert e["private"] == {"0": {"cards": sorted(s["opp_deck"])}}
    for other in (None, 1, 2):
        assert "private" not in ENGINE.event_view(e, other)
        assert ENGINE.view(s2, other)["search"] == {"seat": 0, "pile": "opportunity deck", "contents": None}
    assert ENGINE.view(s2, 0)["search"]["contents"] == sorted(s["opp_deck"])
    # Taken: no bonus, the deck is shuffled, the search is over.
    card = sorted(s["opp_deck"])[0]
    s3, ev = act(s2, 0, {"type": "take_opportunity_from_deck", "card": card})
    assert ev[0]["gains"] == {} and card not in s3["opp_deck"]
    assert all(ENGINE.view(s3, seat)["search"] is None for seat in (None, 0, 1, 2))


@pytest.mark.parametrize("what", ["pile", "deck"])
def test_resampling_hidden_information_never_changes_a_view_during_a_search(what):
    if what == "pile":
        s, _ = act(_planting(), 0, {"type": "search_pile", "size": 1})
    else:
        s, _ = act(_opportunity(), 0, {"type": "search_opportunity_deck"})
    for viewer in (None, 0, 1, 2):
        before = ENGINE.view(s, viewer)
        for i in range(5):
            assert ENGINE.view(ENGINE.resample_hidden(s, viewer, random.Random(i)), viewer) == before
