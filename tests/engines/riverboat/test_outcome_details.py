"""The outcome details explain every score: per seat and final-scoring category the count it is
based on and the VP it gives, the VP scored during the game, the total and the tie-break — so
every number can be checked from the details alone (RULES.md "Outcome details")."""

import json

import pytest
from tablero.engines.core import LocalGame
from tablero.engines.riverboat import ENGINE, scoring
from tablero.engines.riverboat.data import AGENT_MAJORITY_VP, FIELD_VP, PHASES, UNSCORED_FEATURE_VP

from .helpers import act, at_phase, clear_mat, full_rows, make_turn


def _check_row(row: dict) -> None:
    """Recompute every VP figure of one seat's details from the details alone."""
    assert row["in_game"]["vp"] == sum(row["in_game"]["by_source"].values())
    coins = row["coins"]
    assert coins["vp"] == coins["count"] * coins["vp_each"] and coins["vp_each"] == 1
    fields = row["complete_fields"]
    assert fields["count"] == len(fields["colours"]) and fields["vp"] == FIELD_VP * fields["count"]
    feats = row["unscored_features"]
    assert feats["count"] == feats["barns"] + feats["wells"] + feats["surveyors_in_supply"]
    assert feats["vp"] == UNSCORED_FEATURE_VP * feats["count"]
    h = row["harbor"]
    for b in h["boats"]:
        assert b["reached"] == (b["slot_space"] <= h["position"])
    assert h["boats_value"] == sum(b["capacity"] for b in h["boats"] if b["reached"])
    assert h["full_or_half"] == ("full" if h["farthest"] else "half")
    assert h["vp"] == (h["boats_value"] if h["farthest"] else (h["boats_value"] + 1) // 2)
    ag = row["agents"]
    assert (ag["rank"] is None) == (ag["count"] == 0)
    assert ag["vp"] == (0 if ag["rank"] is None else AGENT_MAJORITY_VP[ag["rank"] - 1])
    assert row["final_vp"] == sum(row[k]["vp"] for k in scoring.FINAL_CATEGORIES)
    assert row["total"] == row["in_game"]["vp"] + row["final_vp"]
    tb = row["tiebreak"]
    assert tb["earliest_phase_tile"] == min(tb["phase_tiles_held"], key=PHASES.index)
    assert tb["rank"] == PHASES.index(tb["earliest_phase_tile"]) + 1


@pytest.mark.parametrize(("seats", "seed"), [(2, 11), (3, 12), (4, 13), (4, 14)])
def test_every_final_score_can_be_recomputed_from_the_details_alone(seats, seed):
    g = LocalGame(ENGINE, seats=seats, seed=seed)
    g.play_random()
    out = g.outcome()
    assert json.loads(json.dumps(out)) == out
    rows = full_rows(out)
    assert [r["seat"] for r in rows] == list(range(seats))
    for row in rows:
        _check_row(row)
    assert out["scores"] == [r["total"] for r in rows]
    assert out["winners"] == [i for i, v in enumerate(out["scores"]) if v == max(out["scores"])]
    # Across seats: one farthest harbor master, the farthest one; agent ranks by count then tile.
    farthest = [r for r in rows if r["harbor"]["farthest"]]
    assert len(farthest) == 1
    assert farthest[0]["harbor"]["position"] == max(r["harbor"]["position"] for r in rows)
    ranked = sorted((r for r in rows if r["agents"]["rank"]), key=lambda r: r["agents"]["rank"])
    assert [r["agents"]["rank"] for r in ranked] == list(range(1, len(ranked) + 1))
    keys = [(-r["agents"]["count"], r["tiebreak"]["rank"]) for r in ranked]
    assert keys == sorted(keys)
    # The counts are those of the final state.
    for row, p in zip(rows, g.state["players"], strict=True):
        assert row["coins"]["count"] == p["coins"] and row["agents"]["count"] == p["agents"]
        assert row["harbor"]["position"] == p["harbor"] and [b["boat"] for b in row["harbor"]["boats"]] == p["boats"]
        assert p["vp"] == row["total"]


def test_details_of_a_built_end_show_counts_and_vp_side_by_side():
    g = at_phase("scoring")
    s = make_turn(g.state, "scoring", 0)
    s["round"] = 4
    s["phase_tiles"] = [1, 0, 0, 1, 1]  # seat 1: cultivation, opportunity, scoring
    for p in s["players"]:
        clear_mat(p)
        p.update(surveyors=0, active_surveyors=0, agents=0, opps=[], vp=0, vp_by={}, vp_at=0, coins=0, harbor=0,
                 boats=[])
    a, b = s["players"]
    a.update(surveyors=1, coins=3, harbor=scoring.slot_space(1), boats=["7", "5", "3a"], agents=2, vp=10,
             vp_by={"riverboats": 6, "crop_tiles": 4})
    a["feature"][0] = "well"
    a["crop"][0] = "beet"
    b.update(harbor=scoring.slot_space(0), boats=["6", "1"], agents=2, vp=5, vp_by={"round_scoring": 5})
    s2, _ = act(s, 0, {"type": "pass"})
    ra, rb = full_rows(ENGINE.outcome(s2))
    assert ra["coins"] == {"count": 3, "vp_each": 1, "vp": 3}
    assert ra["unscored_features"] == {"barns": 0, "wells": 1, "surveyors_in_supply": 1, "count": 2, "vp_each": 2,
                                       "vp": 4}
    assert ra["harbor"]["boats_value"] == 12 and ra["harbor"]["full_or_half"] == "full" and ra["harbor"]["vp"] == 12
    assert [x["reached"] for x in ra["harbor"]["boats"]] == [True, True, False]
    assert rb["harbor"] == {"position": scoring.slot_space(0), "farthest": False,
                            "boats": [{"boat": "6", "capacity": 6, "slot_space": scoring.slot_space(0),
                                       "reached": True},
                                      {"boat": "1", "capacity": 1, "slot_space": scoring.slot_space(1),
                                       "reached": False}],
                            "boats_value": 6, "full_or_half": "half", "vp": 3}
    # 2 agents each: seat 1 holds the earlier tile (Cultivation), so it ranks first.
    assert rb["agents"] == {"count": 2, "rank": 1, "vp": 20} and ra["agents"] == {"count": 2, "rank": 2, "vp": 10}
    assert rb["tiebreak"] == {"phase_tiles_held": ["cultivation", "opportunity", "scoring"],
                              "earliest_phase_tile": "cultivation", "rank": 1}
    # In game: the VP before this last Scoring phase plus its round scoring (1 per agent).
    assert ra["in_game"] == {"vp": 12, "by_source": {"crop_tiles": 4, "riverboats": 6, "round_scoring": 2}}
    assert ra["final_vp"] == 3 + 0 + 4 + 12 + 10 and ra["total"] == 12 + ra["final_vp"]
    for row in (ra, rb):
        _check_row(row)


def test_the_outcomes_first_lines_are_the_ones_that_add_up_to_the_total():
    """An outside pass (a Spanish player's final screen): the lines shown up front read "Puntos 99",
    six "Elementos sin puntuar" lines, "Total 99", four "Puerto" lines and "PV finales 51", while
    the in-game VP, coins, fields and agents sat in the folded breakdown: from what was shown the
    sum did not add up. Clients show a details' plain lines, shallowest first, up to a dozen, and
    fold lists of records (clients/web/js/scores.js, the terminal's render/scores.py): the outcome
    now holds as plain lines only the VP during the game, each final-scoring category's VP and
    the total, and the rest as records under `breakdown`."""
    g = LocalGame(ENGINE, seats=3, seed=12)
    g.play_random()
    out = g.outcome()
    for d, score in zip(out["details"], out["scores"], strict=True):
        plain = {k: v for k, v in d.items() if k not in ("seat", "breakdown", "in_game")}
        assert list(d) == ["seat", "in_game", *scoring.FINAL_CATEGORIES, "total", "breakdown"]
        plain["in_game"] = d["in_game"].pop("vp")
        assert d["in_game"] == {}  # one line, "In game › VP" (programs read in_game.vp)
        assert all(isinstance(v, int) for v in plain.values())
        assert d["total"] == score == sum(v for k, v in plain.items() if k != "total")
        for k, records in d["breakdown"].items():  # folded away: each a list of records
            assert isinstance(records, list) and records and all(isinstance(r, dict) for r in records), k
