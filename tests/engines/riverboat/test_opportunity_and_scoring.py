"""Phase 4, Opportunity, and phase 5, Scoring (seed-R "4. Fase de oportunidad", "5. Fase de puntuación")."""

import pytest
from tablero.engines.core import IllegalAction
from tablero.engines.riverboat import ENGINE, board
from tablero.engines.riverboat.data import CARD_SPACE_BONUSES, OPPORTUNITY, PHASES

from .helpers import act, at_phase, clear_mat, make_turn, types


def _opportunity():
    g = at_phase("opportunity")
    s = make_turn(g.state, "opportunity", 0)
    for p in s["players"]:
        p["coins"] = 2
        p["opps"] = []
    return s


def test_opportunity_holder_gains_1_vp_at_the_start_of_the_phase():
    g = at_phase("harvest")
    holder = g.state["phase_tiles"][PHASES.index("opportunity")]
    while g.state["phase"] == "harvest":
        seat = min(g.to_act())
        g.act(seat, {"type": "pass"} if g.state["pending"] == [] else g.legal_actions(seat)[0])
    i = next(i for i, e in enumerate(g.events) if e["type"] == "phase_started" and e["phase"] == "opportunity")
    assert g.events[i + 1] == {"type": "gained", "seat": holder, "gains": {"vp": 1}, "reason": "phase_bonus"}


@pytest.mark.parametrize("space", range(4))
def test_a_face_up_card_comes_with_the_bonus_printed_above_its_space(space):
    s = _opportunity()
    card = s["opp_spaces"][space]
    s2, ev = act(s, 0, {"type": "take_opportunity", "space": space})
    p, q = s["players"][0], s2["players"][0]
    assert q["opps"] == [{"id": card, "scored": False}] and s2["opp_spaces"][space] is None
    bonus = CARD_SPACE_BONUSES[space]
    gains = {k: v for k, v in bonus.items() if k in ("coins", "harbor", "vp")}
    assert ev[0]["gains"] == gains
    for key in ("coins", "harbor", "vp"):
        assert q[key] - p[key] == bonus.get(key, 0)
    if bonus.get("feature") == "surveyor":
        assert "surveyor_taken" in types(ev) and q["surveyors"] == p["surveyors"] + 1


def test_the_card_space_surveyor_is_an_estate_feature_replaced_when_the_supply_is_out():
    s = _opportunity()
    assert CARD_SPACE_BONUSES[0] == {"feature": "surveyor"}
    s["supply"]["surveyors"] = 0
    s, _ = act(s, 0, {"type": "take_opportunity", "space": 0})
    kinds = {a["type"] for a in ENGINE.legal_actions(s, 0)}
    assert "take_surveyor" not in kinds and kinds & {"place_barn", "place_well"}


def test_a_coin_chooses_a_card_from_the_deck_without_bonus_and_the_deck_is_shuffled():
    s = _opportunity()
    card = s["opp_deck"][-1]
    assert {"type": "take_opportunity_from_deck", "card": card} not in ENGINE.legal_actions(s, 0)
    assert {"type": "search_opportunity_deck"} in ENGINE.legal_actions(s, 0)
    s1, ev = act(s, 0, {"type": "search_opportunity_deck"})
    assert ev[0]["type"] == "opportunity_deck_searched" and s1["players"][0]["coins"] == 1
    acts = ENGINE.legal_actions(s1, 0)
    assert acts == [{"type": "take_opportunity_from_deck", "card": c} for c in sorted(s["opp_deck"])], \
        "once the coin is paid you must take a card from the deck"
    a = {"type": "take_opportunity_from_deck", "card": card}
    s2, ev = act(s1, 0, a)
    assert ev[0]["gains"] == {} and ev[0]["space"] is None
    assert sorted(ev[0]["secret"]["deck"]) == sorted(s["opp_deck"][:-1])
    assert s2["players"][0]["coins"] == 1 and s2["players"][0]["opps"][0]["id"] == card
    assert "secret" not in ENGINE.event_view(ev[0], 0)
    s["players"][0]["coins"] = 0
    with pytest.raises(IllegalAction, match="coin"):
        ENGINE.decide(s, 0, {"type": "search_opportunity_deck"}, None)


def test_each_player_takes_one_card_then_the_leftovers_go_under_the_deck():
    s = _opportunity()
    s, _ = act(s, 0, {"type": "take_opportunity", "space": 1})
    assert ENGINE.to_act(s) == {1}
    left = [c for i, c in enumerate(s["opp_spaces"]) if i != 2]
    s, ev = act(s, 1, {"type": "take_opportunity", "space": 2})
    ret = [e for e in ev if e["type"] == "opportunities_returned"][0]
    assert ret["cards"] == [c for c in left if c is not None]
    assert s["opp_deck"][-len(ret["cards"]):] == ret["cards"]
    assert s["phase"] == "scoring"


# --- scoring phase -------------------------------------------------------------------------

def _scoring(round_=1):
    g = at_phase("scoring")
    s = make_turn(g.state, "scoring", 0)
    s["round"] = round_
    for p in s["players"]:
        clear_mat(p)
        p.update(surveyors=0, active_surveyors=0, agents=0, opps=[], vp=0, vp_by={})
    return s


def test_scoring_holder_chooses_a_coin_a_harbor_step_or_an_agent():
    g = at_phase("opportunity")
    holder = g.state["phase_tiles"][PHASES.index("scoring")]
    g2 = at_phase("opportunity")
    while g2.state["phase"] == "opportunity":
        seat = min(g2.to_act())
        g2.act(seat, g2.legal_actions(seat)[0])
    assert g2.to_act() == {holder} and g2.state["pending"][0]["kind"] == "scoring_bonus"
    acts = g2.legal_actions(holder)
    assert {a["bonus"] for a in acts} == {"coin", "harbor", "agent"}
    p = g2.state["players"][holder]
    s, _ = act(g2.state, holder, {"type": "choose_bonus", "bonus": "agent"})
    assert s["players"][holder]["agents"] == p["agents"] + 1
    assert s["players"][holder]["workers"] == p["workers"] - 1
    s, _ = act(g2.state, holder, {"type": "choose_bonus", "bonus": "harbor"})
    assert s["players"][holder]["harbor"] == p["harbor"] + 1
    s, _ = act(g2.state, holder, {"type": "choose_bonus", "bonus": "coin"})
    assert s["players"][holder]["coins"] == p["coins"] + 1


def _ring(p, centre, crops):
    for n, crop in zip(board.NEIGHBOURS[centre], crops, strict=False):
        p["crop"][n] = crop


def test_a_barn_scores_2_vp_per_adjacent_hex_of_the_most_common_single_crop():
    s = _scoring()
    p = s["players"][0]
    p["surveyors"] = 2
    centre = 15  # an inner hex: six neighbours
    assert len(board.NEIGHBOURS[centre]) == 6
    p["feature"][centre] = "barn"
    _ring(p, centre, ["corn", "corn", "corn", "beet", "beet", None])
    s2, ev = act(s, 0, {"type": "survey", "feature": "barn", "cell": centre})
    assert ev[0]["vp"] == 6
    assert s2["players"][0]["vp_by"]["surveyors_placed"] == 6 and s2["players"][0]["scored"][centre]


def test_a_barn_surrounded_by_one_crop_scores_12():
    p = board.new_mat()
    p["mat"] = "A"
    _ring(p, 15, ["wheat"] * 6)
    assert board.barn_score(p, 15) == 12


def test_a_well_scores_1_vp_per_hex_of_its_connected_crop_area():
    s = _scoring()
    p = s["players"][0]
    p["surveyors"] = 1
    for c in (0, 1, 2, 7, 8):
        p["crop"][c] = "potato"
    p["crop"][9] = "corn"
    p["crop"][4] = "potato"  # same crop, not connected
    p["feature"][1] = "well"
    s2, ev = act(s, 0, {"type": "survey", "feature": "well", "cell": 1})
    assert ev[0]["vp"] == 5


def test_an_opportunity_card_scores_its_requirement_when_surveyed():
    s = _scoring()
    p = s["players"][0]
    p["surveyors"] = 1
    p["opps"] = [{"id": "crop-beet", "scored": False}]
    for c in (0, 5, 9):
        p["crop"][c] = "beet"
    s2, ev = act(s, 0, {"type": "survey_card", "card": "crop-beet"})
    assert ev[0]["vp"] == 3 and s2["players"][0]["opps"][0]["scored"]


def test_each_opportunity_card_scores_at_most_its_cap():
    p = board.new_mat()
    p.update(mat="A", coins=40, agents=0, boats=[], harbor=0, harbor_start=0, harvested={}, opps=[])
    assert ENGINE and OPPORTUNITY["coins"]["cap"] == 12
    from tablero.engines.riverboat.scoring import opportunity_score
    assert opportunity_score(p, "coins") == 12


def test_a_feature_scores_only_once():
    s = _scoring()
    p = s["players"][0]
    p["surveyors"] = 2
    p["feature"][15] = "barn"
    s, _ = act(s, 0, {"type": "survey", "feature": "barn", "cell": 15})
    assert {"type": "survey", "feature": "barn", "cell": 15} not in ENGINE.legal_actions(s, 0)


@pytest.mark.parametrize(("round_", "limit"), [(1, 2), (3, 2), (4, 3)])
def test_at_most_two_surveyors_per_round_three_in_round_four(round_, limit):
    s = _scoring(round_)
    p = s["players"][0]
    p["surveyors"] = 5
    for c in range(5):
        p["feature"][c * 7] = "barn"
    placed = 0
    while 0 in ENGINE.to_act(s) and not s["pending"] and s["phase"] == "scoring" and s["round"] == round_:
        a = [x for x in ENGINE.legal_actions(s, 0) if x["type"] == "survey"][0]
        s, _ = act(s, 0, a)
        placed += 1
    assert placed == limit


def test_after_surveying_each_player_scores_1_vp_per_active_surveyor_and_per_agent():
    s = _scoring()
    s["players"][0].update(surveyors=1, active_surveyors=2, agents=3)
    s["players"][0]["feature"][15] = "barn"
    s["players"][1].update(active_surveyors=1, agents=0)
    s, ev = act(s, 0, {"type": "pass"})
    scored = [e for e in ev if e["type"] == "round_scored"][0]
    assert scored["vp"] == [5, 1]
    assert s["players"][0]["vp_by"]["round_scoring"] == 5


def test_passing_keeps_your_surveyors_for_later():
    s = _scoring()
    s["players"][0].update(surveyors=2)
    s["players"][0]["feature"][15] = "barn"
    s, ev = act(s, 0, {"type": "pass"})
    assert s["players"][0]["surveyors"] == 2 and "round_ended" in types(ev)


def test_card_space_bonuses_are_data_and_may_grant_features_or_agents(monkeypatch):
    from tablero.engines.riverboat import moves as module

    monkeypatch.setattr(module, "CARD_SPACE_BONUSES", [{"feature": "any", "agents": 1}, *module.CARD_SPACE_BONUSES[1:]])
    s = _opportunity()
    s, ev = act(s, 0, {"type": "take_opportunity", "space": 0})
    assert [x["kind"] for x in ev[0]["pending"]] == ["feature", "agents"]
    assert ENGINE.to_act(s) == {0}
    assert {a["type"] for a in ENGINE.legal_actions(s, 0)} >= {"take_surveyor"}
