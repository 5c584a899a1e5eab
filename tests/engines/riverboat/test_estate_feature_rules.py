"""Estate features as seed-R states them, driven through the engine's moves: where barns and wells
may stand, what a surveyed barn or well scores (and that later growth adds nothing), and how they
count at the end (seed-R "Características inmobiliarias", "5. Fase de puntuación", "Fin del juego").
Independent rules audit (audit-rb)."""

from tablero.engines.riverboat import ENGINE, board, scoring

from .helpers import act, at_phase, cells_of, clear_mat, harvest_state, make_turn


def _feature_owed(options, crops=None):
    """Harvest, seat 0 owes the estate feature of a benefit (`options`); its mat holds `crops`
    ({cell: crop}) and nothing else."""
    s = harvest_state({"beet": 0})
    p = s["players"][0]
    for cell, crop in (crops or {}).items():
        p["crop"][cell] = crop
    s["pending"] = [{"seat": 0, "kind": "feature", "options": list(options), "reason": "test"}]
    return s


def test_barns_may_stand_side_by_side():
    # seed-R: "Puede colocar graneros uno al lado del otro, aunque no se recomienda."
    s = _feature_owed(["barn"])
    s["players"][0]["feature"][15] = "barn"
    cells = [a["cell"] for a in ENGINE.legal_actions(s, 0)]
    beside = [c for c in board.NEIGHBOURS[15]]
    assert set(beside) <= set(cells)
    s2, _ = act(s, 0, {"type": "place_barn", "cell": beside[0]})
    assert s2["players"][0]["feature"][beside[0]] == "barn"


def test_a_barn_goes_on_an_empty_field_only():
    # seed-R: "coloque un granero en un espacio de campo vacío": not on a crop hex, not on a barn.
    s = _feature_owed(["barn"], {0: "beet"})
    s["players"][0]["feature"][1] = "barn"
    cells = {a["cell"] for a in ENGINE.legal_actions(s, 0)}
    assert cells == set(range(board.CELLS)) - {0, 1}


def test_a_well_goes_on_a_crop_hex_with_or_without_a_worker_at_most_one_per_crop():
    # seed-R: "coloque un pozo en un hexágono de cultivo (con o sin un trabajador en él) de un tipo
    # en el que aún no haya colocado un pozo"; "Puede tener como máximo un pozo por tipo de cultivo."
    s = _feature_owed(["well"], {0: "beet", 1: "beet", 2: "corn", 3: "wheat"})
    p = s["players"][0]
    p["worker"][0] = True
    p["feature"][3] = "well"
    cells = {a["cell"] for a in ENGINE.legal_actions(s, 0)}
    assert cells == {0, 1, 2}, "with a worker (0) or without (1, 2); not wheat, which has its well"
    s2, _ = act(s, 0, {"type": "place_well", "cell": 0})
    assert s2["players"][0]["feature"][0] == "well" and s2["players"][0]["worker"][0], "the worker stays"


def _scoring_turn():
    g = at_phase("scoring")
    s = make_turn(g.state, "scoring", 0)
    for p in s["players"]:
        clear_mat(p)
        p.update(surveyors=0, active_surveyors=0, agents=0, opps=[], vp=0, vp_by={})
    s["players"][0]["surveyors"] = 2
    return s


def test_a_barn_counts_only_the_largest_single_crop_around_it_not_barns_or_empty_fields():
    # seed-R: "Los graneros obtienen la mayor cantidad de hexes de cultivo de un solo tipo que lo
    # rodean"; surveyed: "2 Puntos de Victoria por Cultivos adyacentes de un solo tipo".
    s = _scoring_turn()
    p = s["players"][0]
    ring = board.NEIGHBOURS[15]
    p["feature"][15] = "barn"
    p["feature"][ring[0]] = "barn"
    p["crop"][ring[1]] = p["crop"][ring[2]] = "potato"
    p["crop"][ring[3]] = "corn"
    s2, ev = act(s, 0, {"type": "survey", "feature": "barn", "cell": 15})
    assert ev[0]["vp"] == 4 and s2["players"][0]["vp"] == 4


def test_crops_added_after_a_survey_add_nothing_and_the_scored_feature_is_not_unscored_at_the_end():
    # seed-R: "Si agrega cultivos del tipo puntuado más tarde, no obtendrá ningún punto adicional";
    # "Si expande un área con un pozo ya puntuado más tarde, no obtendrá puntos adicionales";
    # "Fin del juego: 2 puntos de victoria por cada característica de propiedad sin puntuación".
    s = _scoring_turn()
    p = s["players"][0]
    p["crop"][0] = p["crop"][1] = "beet"
    p["feature"][0] = "well"
    s, ev = act(s, 0, {"type": "survey", "feature": "well", "cell": 0})
    assert ev[0]["vp"] == 2
    q = s["players"][0]
    vp = q["vp"]
    q["crop"][2] = q["crop"][7] = "beet"  # the well's area grows later
    assert q["vp"] == vp
    row = scoring.final_scoring(s)[0]
    assert row["unscored_features"]["wells"] == 0
    assert row["unscored_features"]["surveyors_in_supply"] == 1, "the surveyor not placed scores 2 VP"
    assert row["unscored_features"]["vp"] == 2


def test_a_field_colour_covered_by_crops_and_barns_scores_7_at_the_end_a_well_hex_counts_as_its_crop():
    # seed-R "Fin del juego": "7 puntos de victoria para cada color de los espacios de campo en un
    # tapete de jugador completamente cubierto con hexes de cultivo y / o graneros".
    s = _scoring_turn()
    p = s["players"][0]
    green = cells_of(p, "green")
    for c in green[:-2]:
        p["crop"][c] = "wheat"
    p["feature"][green[0]] = "well"  # a well stands on a crop hex: still covered
    p["feature"][green[-2]] = "barn"
    assert scoring.final_scoring(s)[0]["complete_fields"]["count"] == 0, "one hex still empty"
    p["feature"][green[-1]] = "barn"
    row = scoring.final_scoring(s)[0]
    assert row["complete_fields"]["colours"] == ["green"] and row["complete_fields"]["vp"] == 7
