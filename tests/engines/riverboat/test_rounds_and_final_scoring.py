"""End of a round (first player, 3-player rule) and the final scoring (seed-R "Fin de la Ronda",
"Fin del juego", "Puntuación del puerto", "Puntaje de bonificación de agentes")."""

import pytest
from tablero.engines.riverboat import ENGINE, board, scoring
from tablero.engines.riverboat import events as engine_module

from .helpers import act, at_phase, clear_mat, full_rows, make_turn, new_game, types


def _end_of_scoring(seats, round_):
    """Scoring phase of `round_`, seat 0 about to pass as the last one to act."""
    g = at_phase("scoring", seats=seats)
    s = make_turn(g.state, "scoring", 0)
    s["round"] = round_
    for p in s["players"]:
        clear_mat(p)
        p.update(surveyors=0, active_surveyors=0, agents=0, opps=[], vp=0, vp_by={}, vp_at=0)
    s["players"][0].update(surveyors=1)
    s["players"][0]["feature"][15] = "barn"
    return s


@pytest.mark.parametrize("seats", [2, 4])
def test_the_first_player_marker_passes_to_the_left_after_rounds_1_to_3(seats):
    for round_ in (1, 2, 3):
        s = _end_of_scoring(seats, round_)
        s["first_player"] = 1
        s2, ev = act(s, 0, {"type": "pass"})
        ended = [e for e in ev if e["type"] == "round_ended"][0]
        assert ended["first_player"] == 2 % seats
        assert s2["round"] == round_ + 1 and s2["phase"] == "draft" and ENGINE.to_act(s2) == {2 % seats}
        assert s2["phase_tiles"] == [None] * 5, "phase tiles are returned"


def test_three_players_after_round_3_the_marker_goes_to_the_player_furthest_behind():
    s = _end_of_scoring(3, 3)
    s["first_player"] = 0
    for seat, vp in enumerate([30, 25, 28]):
        s["players"][seat]["vp"] = vp
    _, ev = act(s, 0, {"type": "pass"})
    assert [e for e in ev if e["type"] == "round_ended"][0]["first_player"] == 1


def test_three_players_tie_for_last_goes_to_the_marker_on_top_of_the_stack():
    s = _end_of_scoring(3, 3)
    s["first_player"] = 2
    for seat, (vp, at) in enumerate([(20, 9), (20, 12), (31, 3)]):
        s["players"][seat].update(vp=vp, vp_at=at)
    _, ev = act(s, 0, {"type": "pass"})
    assert [e for e in ev if e["type"] == "round_ended"][0]["first_player"] == 1, "arrived last = on top"


def test_round_scoring_moves_the_markers_clockwise_from_the_scoring_tile_holder():
    # Seats 0 and 2 both reach 20 in the round scoring; the holder (seat 2) moves first, so
    # seat 0 lands on top of it and, furthest behind with seat 2, takes the first-player marker.
    s = _end_of_scoring(3, 3)
    s["phase_tiles"][4] = 2
    s["first_player"] = 1
    for seat, (vp, agents) in enumerate([(19, 1), (40, 0), (18, 2)]):
        s["players"][seat].update(vp=vp, agents=agents, vp_at=seat + 1)
    s2, ev = act(s, 0, {"type": "pass"})
    scored = [e for e in ev if e["type"] == "round_scored"][0]
    assert scored["order"] == [2, 0, 1]
    assert s2["players"][0]["vp"] == s2["players"][2]["vp"] == 20
    assert s2["players"][0]["vp_at"] > s2["players"][2]["vp_at"]
    assert [e for e in ev if e["type"] == "round_ended"][0]["first_player"] == 0


def test_three_players_after_rounds_1_and_2_the_marker_still_passes_left():
    s = _end_of_scoring(3, 2)
    s["first_player"] = 2
    s["players"][1]["vp"] = -1
    _, ev = act(s, 0, {"type": "pass"})
    assert [e for e in ev if e["type"] == "round_ended"][0]["first_player"] == 0


def test_a_vp_gain_puts_your_marker_on_top():
    g = new_game(2)
    s = g.state
    engine_module._add_vp(s, 1, 3, "test")
    engine_module._add_vp(s, 0, 3, "test")
    assert s["players"][0]["vp_at"] > s["players"][1]["vp_at"]


def test_a_new_round_refills_crop_tiles_boats_and_four_opportunity_cards():
    s = _end_of_scoring(2, 1)
    s["slots"]["1"][0] = None
    s["slots"]["3"][2] = None
    s["boat_board"] = {b: True for b in s["boat_board"]}
    s["boat_piles"] = {b: 3 for b in s["boat_piles"]}
    s["boat_board"]["4"] = False
    s["boat_board"]["7"] = False
    s["boat_piles"]["7"] = 0
    s["opp_spaces"] = [None] * 4
    s2, ev = act(s, 0, {"type": "pass"})
    started = [e for e in ev if e["type"] == "round_started"][0]
    assert started["boats"] == ["4"], "an exhausted type is not replaced"
    assert s2["boat_board"]["4"] and not s2["boat_board"]["7"]
    assert None not in s2["slots"]["1"] and None not in s2["slots"]["3"]
    assert s2["opp_spaces"] == s["opp_deck"][:4]


# --- final scoring ------------------------------------------------------------------------

def _final(seats=2):
    s = _end_of_scoring(seats, 4)
    s["phase_tiles"] = [0, 1, 0, 1, 0][:5] if seats == 2 else s["phase_tiles"]
    for p in s["players"]:
        p.update(coins=0, harbor=0, boats=[], agents=0, surveyors=0)
    s["players"][0].update(surveyors=1)
    return s


def test_the_game_ends_after_round_4_with_every_final_category_in_the_details():
    s = _final()
    s2, ev = act(s, 0, {"type": "pass"})
    assert types(ev)[-1] == "game_ended" and s2["phase"] == "over"
    out = ENGINE.outcome(s2)
    row = full_rows(out)[0]
    for key in (*scoring.FINAL_CATEGORIES, "in_game", "final_vp", "total", "tiebreak"):
        assert key in row
    for key in scoring.FINAL_CATEGORIES:
        assert "vp" in row[key]
    assert out["scores"] == [d["total"] for d in out["details"]]
    assert ENGINE.to_act(s2) == set()


def test_final_scoring_coins_complete_fields_and_unscored_features():
    s = _final()
    p = s["players"][0]
    p["coins"] = 4
    cols = board.COLOUR[p["mat"]]
    yellow = [c for c in range(35) if cols[c] == "yellow"]
    for c in yellow[:-1]:
        p["crop"][c] = "beet"
    p["feature"][yellow[-1]] = "barn"  # barns count as covered
    p["surveyors"] = 1  # unused at the end: 2 VP; plus the unscored barns: 2 VP each
    p["feature"][15] = None
    row = scoring.final_scoring(s)[0]
    assert row["coins"] == {"count": 4, "vp_each": 1, "vp": 4}
    assert row["complete_fields"] == {"colours": ["yellow"], "count": 1, "vp_each": 7, "vp": 7}
    assert row["unscored_features"] == {"barns": 1, "wells": 0, "surveyors_in_supply": 1, "count": 2, "vp_each": 2,
                                        "vp": 4}


def test_an_incomplete_field_scores_nothing():
    s = _final()
    p = s["players"][0]
    cols = board.COLOUR[p["mat"]]
    for c in [c for c in range(35) if cols[c] == "green"][1:]:
        p["crop"][c] = "corn"
    assert scoring.final_scoring(s)[0]["complete_fields"]["vp"] == 0


def test_harbor_full_value_for_the_farthest_harbor_master_half_rounded_up_for_the_others():
    s = _final()
    a, b = s["players"]
    a.update(harbor=scoring.slot_space(1), boats=["7", "5", "3a", "2a"])  # reaches 7 + 5
    b.update(harbor=scoring.slot_space(0), boats=["6", "1", "4"])          # reaches 6 -> half: 3
    assert scoring.harbor_scores(s) == [12, 3]
    b["harbor"] = scoring.slot_space(2)                                     # now the farthest: 6 + 1 + 4
    assert scoring.harbor_scores(s) == [6, 11]
    a["harbor"] = scoring.slot_space(1) + 1  # between two slots: the next boat is not reached
    assert scoring.harbor_scores(s)[0] == 6


def test_boats_beyond_the_harbor_master_score_nothing():
    s = _final()
    s["players"][0].update(harbor=0, boats=["7"])
    s["players"][1].update(harbor=0, boats=[])
    assert scoring.harbor_scores(s)[0] == 0


def test_harbor_tie_goes_to_the_earlier_round_4_phase_tile():
    s = _final()
    s["phase_tiles"] = [1, 0, 0, 0, 1]  # seat 1 holds Cultivation
    a, b = s["players"]
    a.update(harbor=4, boats=["7"])
    b.update(harbor=4, boats=["7"])
    assert scoring.harbor_leader(s) == 1
    assert scoring.harbor_scores(s) == [4, 7]


def test_rulebook_example_the_cultivation_tile_beats_the_opportunity_tile_in_a_harbor_tie():
    # seed-R "Puntuación del puerto": "la ficha de Fase de cultivo vencería a la ficha de Fase de Oportunidad"
    s = _final(4)
    s["phase_tiles"] = [1, 2, 3, 0, 2]  # seat 0: Opportunity, seat 1: Cultivation
    for p in s["players"]:
        p.update(harbor=0, boats=[], agents=0)
    s["players"][0].update(harbor=5, boats=["3a", "4"])
    s["players"][1].update(harbor=5, boats=["3a", "4"])
    assert scoring.harbor_leader(s) == 1
    assert scoring.harbor_scores(s)[:2] == [4, 7]


def test_half_harbor_value_is_rounded_up():
    s = _final()
    a, b = s["players"]
    a.update(harbor=scoring.slot_space(2), boats=["1", "2a", "4"])  # leader: 1 + 2 + 4 = 7
    b.update(harbor=scoring.slot_space(1), boats=["3a", "2b", "7"])  # reaches 3 + 2 = 5 -> 3
    assert scoring.harbor_scores(s) == [7, 3]


def test_agent_majority_20_10_5_0_with_ties_to_the_earlier_phase_tile():
    s = _final(4)
    s["phase_tiles"] = [3, 2, 1, 0, 3]
    for seat, agents in enumerate([2, 4, 4, 1]):
        s["players"][seat]["agents"] = agents
    vp, place = scoring.agent_scores(s)
    # seats 1 and 2 tie on 4 agents; seat 2 holds Planting, seat 1 Harvest: seat 2 is first.
    assert vp == [5, 10, 20, 0] and place == [3, 2, 1, 4]


def test_you_need_at_least_one_agent_to_score_the_majority():
    s = _final(4)
    s["phase_tiles"] = [0, 1, 2, 3, 0]
    for seat, agents in enumerate([0, 0, 1, 0]):
        s["players"][seat]["agents"] = agents
    vp, place = scoring.agent_scores(s)
    assert vp == [0, 0, 20, 0] and place == [None, None, 1, None]


def test_tied_winners_share_the_victory():
    s = _final()
    for p in s["players"]:
        p["vp"] = 50
    s["players"][1]["coins"] = 4  # against seat 0's unscored barn and surveyor
    s2, _ = act(s, 0, {"type": "pass"})
    out = ENGINE.outcome(s2)
    assert out["scores"][0] == out["scores"][1] and out["winners"] == [0, 1]
