"""Outside audit C, scenarios the other files leave out (seed-FoG = shared/rules/002_24ae600459e7675b.txt,
cited by line): the 2-player Income card as a played card and in the reset (L70-L76), what a
follower of it may not do (L25, L36, L72), a face-down adviser in the solo game (L120), the
fleeting influence of the income spent in the vote it precedes (L77-L86), the mid-game achievement
of a second completion made at a vote (L135), and a lasting token worth 1 point at the end (L102)."""

import pytest
from tablero.engines import IllegalAction

from .helpers import C, cast_votes, game, lead, prestige, tile, turn, types


def _two_players_after(cards_played: list[tuple[str, bool]]):
    g = game(2)
    p = g.state["players"][0]
    for card, up in cards_played:
        p["hand"].remove(card)
        p["played"].append({"card": card, "face_up": up})
    return g


def test_the_income_card_played_face_up_counts_toward_the_three_cards_of_a_two_player_vote():
    """L74: "al menos 2 cartas en frente suyo de turnos anteriores (3 cartas en una partida a 2
    jugadores)"; L71: the Income card is one of the player's action cards."""
    g = _two_players_after([("trade", False), ("build", True)])
    turn(g, 0)
    assert "call_vote" not in types(g.legal_actions(0))
    lead(g, 0, "income")
    g.act(1, {"type": "take_money"})  # the follower
    turn(g, 0)
    assert "call_vote" in types(g.legal_actions(0))
    ev = g.act(0, {"type": "call_vote"})
    # L76: one benefit per card left in hand (recruit, upgrade), the Call to Vote card not counted
    assert next(e for e in ev if e["type"] == "vote_called")["benefits"] == 2


def test_the_income_card_left_in_hand_is_a_card_for_the_reset_and_comes_back_with_the_others():
    g = _two_players_after([("trade", False), ("build", True), ("recruit", False)])
    turn(g, 0)
    ev = g.act(0, {"type": "call_vote"})
    assert next(e for e in ev if e["type"] == "vote_called")["benefits"] == 2  # upgrade, income
    g.act(0, {"type": "reset_benefit", "kind": "money"})
    g.act(0, {"type": "reset_benefit", "kind": "influence"})
    assert sorted(g.state["players"][0]["hand"]) == sorted(["trade", "build", "recruit", "upgrade", "income", "vote"])
    assert g.state["players"][0]["played"] == []


def test_a_follower_of_the_income_card_cannot_import_and_access_a_neutral_resource():
    """L72: the follower takes a follow action of any type; L36: "La acción de importar e
    inmediatamente comprar acceso no se puede hacer como seguimiento"; the follow's access only on
    red or white (L36), a neutral tile costing $4 (L30)."""
    g = game(2)
    g.state["neutral"] = ["clay", "animals"]
    lead(g, 0, "income")
    assert g.to_act() == {1}
    assert "import_access" not in types(g.legal_actions(1))
    with pytest.raises(IllegalAction, match="follow"):
        g.act(1, {"type": "import_access", "resource": "clay"})
    # the leader of a Trade card may
    lead(g, 1, "trade")
    assert "import_access" in types(g.legal_actions(1))


def test_solo_an_adviser_played_face_down_stays_and_comes_back_at_the_vote():
    """L120: "Una carta de acción de asesor puede aún así jugarse boca abajo para hacer una acción
    básica y no ser retirada"."""
    g = game(1)
    g.state["cycle"] = 1
    p = g.state["players"][0]
    p["hand"] = ["mason", "trade", "vote"]
    p["played"] = [{"card": c, "face_up": True} for c in ("recruit", "upgrade", "build")]
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "mason", "face_up": False})
    g.act(0, {"type": "take_money"})
    assert "mason" not in g.state["removed"]
    g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    ev = g.act(0, {"type": "take_money"})
    assert "cards_returned" in types(ev)  # the solo Call to Vote (L122)
    assert "mason" in g.state["players"][0]["hand"] and "mason" not in g.state["removed"]


def test_the_fleeting_influence_of_the_income_before_a_vote_can_be_spent_in_it_then_returns():
    """L77-L80: the others' income (1 fleeting per house) comes before the vote; L83: each fleeting
    spent adds 1; L85-L86: all fleeting influence, spent or not, goes back after it."""
    g = game(3)
    g.state["proposals"] = ["watchtower", "salt_barrel", "tavern"]
    g.state["players"][1]["houses"] = 2
    p = g.state["players"][0]
    p["hand"] = ["vote"]
    p["played"] = [{"card": c, "face_up": True} for c in ("trade", "build", "recruit")]
    turn(g, 0)
    ev = g.act(0, {"type": "call_vote"})
    inc = next(e for e in ev if e["type"] == "income_collected" and e["seat"] == 1)
    assert inc["fleeting"] == 2 and g.state["players"][1]["fleeting"] == 2
    ev = cast_votes(g, [(0, 0, 0), (1, 1, 0), (2, 0, 0)])
    rv = next(e for e in ev if e["type"] == "votes_revealed")
    assert rv["totals"] == [1, 2, 1] and rv["winner"] == 1 and rv["placer"] == 1
    assert [pl["fleeting"] for pl in g.state["players"]] == [0, 0, 0]  # the unspent one too


def test_the_mid_game_achievement_is_scored_after_a_vote_whose_placement_makes_the_second_completion():
    """L135: the mid-game achievement is scored at the end of the turn in which the second
    completion token is placed; a vote is the caller's turn (L5-L6, L74), and a neutral basic
    resource is delivered the moment its building is placed (L4)."""
    g = game(3, options={"achievements": True})
    g.state["achievements"] = {"immediate": "bridge_builder", "mid": "treasury", "end": "landlord"}
    g.state["neutral"] = ["metal", "clay"]
    done = prestige(g, "tavern", [C(6, 0), C(7, 0), C(8, 0), C(7, 1)])
    g.state["prestige"][done]["complete"] = True
    g.state["completions"] = 1
    tile(g, "stall", "wood", 1, [C(0, 1)])  # touches (0, 0): the Watchtower's wood is delivered at once
    g.state["proposals"] = ["watchtower", "salt_barrel", "tavern"]
    g.state["players"][2]["money"] = 9
    p = g.state["players"][0]
    p["hand"] = ["vote"]
    p["played"] = [{"card": c, "face_up": True} for c in ("trade", "build", "recruit")]
    turn(g, 0)
    g.act(0, {"type": "call_vote"})
    cast_votes(g, [(0, 1, 0), (0, 0, 0), (1, 0, 0)])
    ev = g.act(0, {"type": "place_prestige", "cells": [C(0, 0), C(1, 0)]})
    assert "completed" in types(ev) and g.state["completions"] == 2
    sc = next(e for e in ev if e["type"] == "achievement_scored")
    assert sc["achievement"] == "treasury" and sc["scorers"] == [0, 1]  # $20 each (game()); seat 2 holds $9
    assert types(ev).index("achievement_scored") > types(ev).index("vote_closed")  # at the end of the turn
    assert ev[-1] == {"type": "turn_passed", "active": 1}


def test_a_lasting_influence_token_is_worth_one_point_at_the_end_not_two():
    """L102: "Cada ficha de influencia que quede tiene un valor de 1 punto" (a lasting token counts 2
    only in a vote, L84)."""
    g = game(4)
    g.state["completions"] = 5
    prestige(g, "watchtower", [C(3, 0), C(4, 0)], delivered=[None, 3])
    g.state["players"][0]["resources"] = ["metal"]
    for pl in g.state["players"][1:]:
        pl.update(money=0, fleeting=0, lasting=0)
    g.state["players"][2]["lasting"] = 3
    lead(g, 0, "trade")
    g.act(0, {"type": "import", "resource": "metal", "cell": C(2, 0)})
    for s in (1, 2, 3):
        g.act(s, {"type": "take_money"})
    d = g.outcome()["details"][2]
    assert d["by_source"]["influence"] == 3 and d["by_source"]["money"] == 0
