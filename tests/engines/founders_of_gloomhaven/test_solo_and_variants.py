"""seed-FoG pp. 17-19: the solo game, achievements, no workers, Shaping history."""

import pytest

from engines import IllegalAction, InvalidAction

from .helpers import C, game, lead, prestige, roads, tile, turn, types


# --- solo ----------------------------------------------------------------------------------------
def _solo(cycle=7, hand=("trade", "vote")):
    g = game(1)
    g.state["cycle"] = cycle
    g.state["players"][0]["hand"] = list(hand)
    g.state["players"][0]["played"] = [{"card": c, "face_up": True} for c in ("recruit", "upgrade", "build")]
    return g


def _last_card(g):
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    return g.act(0, {"type": "take_money"})


def test_solo_is_won_when_every_prestige_building_is_complete_after_the_seventh_cycle():
    g = _solo()
    i = prestige(g, "watchtower", [C(3, 0), C(4, 0)], delivered=[0, 0])
    g.state["prestige"][i]["complete"] = True
    ev = _last_card(g)
    assert ev[-1]["type"] == "game_ended"
    out = g.outcome()
    assert out["reason"] == "solo_complete" and out["winners"] == [0]
    assert "vote_called" not in types(ev)  # the 7th Call to Vote is not played


def test_solo_is_lost_when_a_prestige_building_is_incomplete_after_the_seventh_cycle():
    g = _solo()
    prestige(g, "watchtower", [C(3, 0), C(4, 0)], delivered=[0, None])
    _last_card(g)
    out = g.outcome()
    assert out["reason"] == "solo_incomplete" and out["winners"] == []


def test_solo_is_lost_when_the_neutral_claims_cannot_be_paid_at_a_vote():
    g = _solo(cycle=2)
    prestige(g, "watchtower", [C(3, 0), C(4, 0)])
    prestige(g, "tavern", [C(6, 0), C(7, 0), C(8, 0), C(7, 1)])
    g.state["prestige"][0]["claim"] = g.state["prestige"][1]["claim"] = True  # the second costs 2 fleeting
    _last_card(g)
    out = g.outcome()
    assert out["reason"] == "solo_claims_unpaid" and out["winners"] == []


def test_solo_vote_collects_income_pays_claims_then_the_left_card_is_free_and_the_others_cost_influence():
    g = _solo(cycle=2)
    tile(g, "stall", "metal", 0, [C(0, 8)])
    prestige(g, "watchtower", [C(3, 0), C(4, 0)])
    g.state["prestige"][0]["claim"] = True
    g.state["players"][0]["fleeting"] = 5
    g.state["proposals"] = ["salt_barrel", "foundry", "tavern"]
    prestige(g, "tavern", [C(6, 0), C(7, 0), C(8, 0), C(7, 1)])
    g.state["prestige"][1]["claim"] = True
    ev = _last_card(g)
    assert "income_collected" in types(ev)
    paid = next(e for e in ev if e["type"] == "claims_paid")
    assert paid["pay"] == {"fleeting": 2, "lasting": 0}  # two claims: the left card's (free) + the middle's (2)
    assert g.to_act() == {0} and g.state["vote"]["stage"] == "choose"
    assert {a["proposal"] for a in g.legal_actions(0)} == {0, 1}  # 3 fleeting left: the right card costs 4
    with pytest.raises(IllegalAction, match="costs 4"):
        g.act(0, {"type": "choose_proposal", "proposal": 2})
    g.act(0, {"type": "choose_proposal", "proposal": 1})
    assert g.state["players"][0]["fleeting"] == 1
    g.act(0, g.legal_actions(0)[0])
    assert g.state["proposals"][:2] == ["salt_barrel", "tavern"]  # the others slide left
    assert g.state["players"][0]["fleeting"] == 0 and g.state["cycle"] == 3
    assert all(p["claim"] for p in g.state["prestige"] if not p["complete"])


def _claims(n, version=None, fleeting=20, completions=0):
    g = _solo(cycle=2)
    if version is not None:
        g.state["version"] = version
    g.state["completions"] = completions
    cells = [[C(0, 0), C(1, 0)], [C(3, 0), C(4, 0)], [C(6, 0), C(7, 0)], [C(9, 0), C(10, 0)]]
    for k in range(n):
        prestige(g, "watchtower", cells[k])
        g.state["prestige"][k]["claim"] = True
    g.state["players"][0]["fleeting"] = fleeting
    ev = _last_card(g)
    return next((e for e in ev if e["type"] == "claims_paid"), None), g


def test_solo_claim_tokens_cost_the_left_then_the_middle_then_the_right_card():
    """seed-FoG p. 18: "cualquier ficha neutral de reclamo restante debe retirarse pagando el coste
    de influencia bajo la carta correspondiente a cada una en la oferta de propuestas" and "La carta
    de la izquierda se puede colocar gratis": the first token is free, the second costs the middle
    card's 2 fleeting, the third the right card's 2 lasting (4 fleeting); a fourth the right's again
    (ours). Each completion adds 1 fleeting / 1 lasting under them."""
    assert _claims(1)[0]["pay"] == {"fleeting": 0, "lasting": 0}
    assert _claims(2)[0]["pay"] == {"fleeting": 2, "lasting": 0}
    assert _claims(3)[0]["pay"] == {"fleeting": 6, "lasting": 0}
    assert _claims(4)[0]["pay"] == {"fleeting": 10, "lasting": 0}
    assert _claims(3, completions=1)[0]["pay"] == {"fleeting": 3 + 6, "lasting": 0}
    paid, g = _claims(3, fleeting=5)
    assert paid is None and g.outcome()["reason"] == "solo_claims_unpaid"


def test_v2_solo_games_keep_every_claim_token_at_the_middle_card_cost():
    for version in (1, 2):
        assert _claims(1, version=version)[0]["pay"] == {"fleeting": 2, "lasting": 0}
        assert _claims(3, version=version)[0]["pay"] == {"fleeting": 6, "lasting": 0}


def test_solo_an_adviser_played_face_up_leaves_the_game_and_nobody_follows():
    g = _solo(cycle=1, hand=("mason", "trade", "vote"))
    tile(g, "stall", "metal", 0, [C(0, 0)])
    roads(g, C(1, 0))
    lead(g, 0, "mason")
    ev = g.act(0, {"type": "build", "kind": "house", "cell": C(2, 0)})
    assert ev[0]["cost"] == 2  # Mason: $1 off the leader's $3 (ours)
    assert "mason" in g.state["removed"] and all(c["card"] != "mason" for c in g.state["players"][0]["played"])
    assert ev[-1] == {"type": "turn_passed", "active": 0}


# --- achievements -------------------------------------------------------------------------------
def _ach():
    g = game(4, options={"achievements": True})
    g.state["achievements"] = {"immediate": "bridge_builder", "mid": "treasury", "end": "landlord"}
    return g


def test_an_immediate_achievement_is_scored_once_at_the_end_of_the_turn_it_is_met():
    g = _ach()
    g.state["players"][1]["bridges"] = 2
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    ev = g.act(0, {"type": "take_money"})
    sc = [e for e in ev if e["type"] == "achievement_scored"]
    assert sc == [{"type": "achievement_scored", "achievement": "bridge_builder", "scorers": [1], "value": 2}]
    assert g.state["players"][1]["score"]["achievements"] == 2
    turn(g, 1)
    g.act(1, {"type": "play_card", "card": "trade", "face_up": False})
    ev = g.act(1, {"type": "take_money"})
    assert "achievement_scored" not in types(ev)


def test_the_mid_game_achievement_is_scored_at_the_end_of_the_turn_of_the_second_completion():
    g = _ach()
    g.state["completions"] = 1
    prestige(g, "watchtower", [C(3, 0), C(4, 0)], delivered=[None, 3])
    g.state["players"][0]["resources"] = ["metal"]
    for s in (2, 3):
        g.state["players"][s]["money"] = 5
    lead(g, 0, "trade")
    ev = g.act(0, {"type": "import", "resource": "metal", "cell": C(2, 0)})
    assert "achievement_scored" not in types(ev)  # not before the follows
    for s in (1, 2):
        g.act(s, {"type": "take_money"})
    ev = g.act(3, {"type": "take_money"})
    sc = next(e for e in ev if e["type"] == "achievement_scored")
    assert sc["achievement"] == "treasury" and sc["scorers"] == [0, 1]  # $10 or more


def test_the_end_game_achievement_is_scored_at_the_end():
    g = _ach()
    g.state["completions"] = 5
    g.state["players"][2]["houses"] = 3
    prestige(g, "watchtower", [C(3, 0), C(4, 0)], delivered=[None, 3])
    g.state["players"][0]["resources"] = ["metal"]
    lead(g, 0, "trade")
    g.act(0, {"type": "import", "resource": "metal", "cell": C(2, 0)})
    for s in (1, 2, 3):
        g.act(s, {"type": "take_money"})
    assert g.outcome()["details"][2]["by_source"]["achievements"] == 3


def _ach_v(version):
    g = game(4, options={"achievements": True}, version=version)
    g.state["achievements"] = {"immediate": "bridge_builder", "mid": "treasury", "end": "landlord"}
    return g


def _pass(g, seat, card="trade"):
    turn(g, seat)
    g.act(seat, {"type": "play_card", "card": card, "face_up": False})
    return g.act(seat, {"type": "take_money"})


def test_the_immediate_achievement_is_scored_once_by_every_player_meeting_it_at_that_moment():
    """p. 19: "Cada carta tiene una condición y un valor numérico, el cual se puntuará cada jugador
    que complete la condición en un momento concreto: El logro 'inmediato' se puntúa al final del
    turno de un jugador ... en el que cualquiera de los jugadores completa la condición." (v7)"""
    g = _ach_v(7)
    for s in (1, 3):
        g.state["players"][s]["bridges"] = 2
    ev = _pass(g, 0)
    sc = [e for e in ev if e["type"] == "achievement_scored"]
    assert sc == [{"type": "achievement_scored", "achievement": "bridge_builder", "scorers": [1, 3], "value": 2}]
    g.state["players"][2]["bridges"] = 3  # met later: the moment has passed
    ev = _pass(g, 1)
    ev += _pass(g, 2)
    assert "achievement_scored" not in types(ev)
    assert [p["score"]["achievements"] for p in g.state["players"]] == [0, 2, 0, 2]


def test_before_v7_a_player_meeting_the_immediate_achievement_later_still_scored_it():
    g = _ach_v(6)
    g.state["players"][1]["bridges"] = 2
    _pass(g, 0)
    g.state["players"][2]["bridges"] = 2
    ev = _pass(g, 1)
    assert [e["scorers"] for e in ev if e["type"] == "achievement_scored"] == [[2]]


# --- no workers ---------------------------------------------------------------------------------
def test_no_workers_variant_has_no_worker_action_and_houses_cost_2():
    g = game(4, options={"no_workers": True})
    tile(g, "stall", "metal", 0, [C(0, 0)])
    roads(g, C(1, 0))
    lead(g, 0, "build")
    assert g.act(0, {"type": "build", "kind": "house", "cell": C(2, 0)})[0]["cost"] == 2
    assert g.state["players"][0]["workers"] == 0
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    assert "place_worker" not in types(g.legal_actions(0))
    with pytest.raises(IllegalAction, match="no-workers"):
        g.act(0, {"type": "place_worker", "target": "race"})


# --- Shaping history ----------------------------------------------------------------------------
def test_shaping_history_the_winner_records_a_building_its_section_and_a_governing_body():
    g = game(4, options={"shaping_history": True})
    g.state["completions"] = 5
    prestige(g, "watchtower", [C(3, 0), C(4, 0)], delivered=[None, 3])
    g.state["players"][0]["resources"] = ["metal"]
    g.state["players"][0]["score"]["advisers"] = 30
    lead(g, 0, "trade")
    g.act(0, {"type": "import", "resource": "metal", "cell": C(2, 0)})
    for s in (1, 2, 3):
        g.act(s, {"type": "take_money"})
    assert g.outcome() is None and g.to_act() == {0}
    with pytest.raises(IllegalAction, match="prestige building on the board"):
        g.act(0, {"type": "record_history", "building": "salt_barrel", "governing_body": "x"})
    for blank in ("", "   "):  # no name is malformed, however it is written
        with pytest.raises(InvalidAction):
            g.act(0, {"type": "record_history", "building": "watchtower", "governing_body": blank})
    g.act(0, {"type": "record_history", "building": "watchtower", "governing_body": "The Merchant Council"})
    out = g.outcome()
    assert out["winners"] == [0]
    assert out["history"] == {"seat": 0, "building": "watchtower", "section": "Westshore",
                              "governing_body": "The Merchant Council"}
