"""Agents and the round scoring as seed-R states them, driven through the engine's moves: workers
a boat sends home may become agents at once, the Scoring tile's agent is scored in the same
round, and every agent and active surveyor scores again each round (seed-R "Agentes",
"5. Fase de puntuación"). Independent rules audit (audit-rb)."""

from tablero.engines.riverboat import ENGINE

from .helpers import act, at_phase, clear_mat, harvest_state, make_turn


def test_the_workers_a_boat_sends_home_may_go_to_new_orleans_at_once():
    # seed-R: "Los Trabajadores eliminados vuelven a su suministro personal, para colocarse
    # nuevamente en los Campos en la próxima Ronda o usarse como Agentes más adelante"; boat 6:
    # "puedes enviar hasta 2 trabajadores a Nueva Orleans". The mat's workers stand on beet
    # hexes spread over the mat ("de cualquier lugar de su tapete").
    s = harvest_state({"beet": 0})
    p = s["players"][0]
    for c in (0, 6, 14, 20, 28, 34):
        p["crop"][c] = "beet"
        p["worker"][c] = True
    p["workers"] = 0
    s, _ = act(s, 0, {"type": "claim_boat", "boat": "6", "crop": "beet", "coin": False})
    assert s["players"][0]["workers"] == 6 and not any(s["players"][0]["worker"])
    s, _ = act(s, 0, {"type": "take_surveyor"})
    assert [a["count"] for a in ENGINE.legal_actions(s, 0)] == [0, 1, 2]
    s, _ = act(s, 0, {"type": "send_agents", "count": 2})
    assert s["players"][0]["agents"] == 2 and s["players"][0]["workers"] == 4


def _to_scoring_bonus():
    g = at_phase("opportunity")
    while g.state["phase"] == "opportunity":
        seat = min(g.to_act())
        g.act(seat, g.legal_actions(seat)[0])
    holder = g.state["phase_tiles"][4]
    assert g.state["pending"][0] == {"seat": holder, "kind": "scoring_bonus"}
    return g.state, holder


def test_the_scoring_tiles_agent_is_scored_in_the_same_rounds_scoring():
    # seed-R phase 5: the bonus comes first ("Si tienes la ficha de Fase de puntuación, como
    # bonificación, puedes ... enviar 1 Trabajador de tu suministro personal a Nueva Orleans"),
    # then "1 Punto de Victoria por cada Agente que tengas en Nueva Orleans".
    s, holder = _to_scoring_bonus()
    for p in s["players"]:
        p.update(active_surveyors=0, agents=0, surveyors=0)
    s, events = act(s, holder, {"type": "choose_bonus", "bonus": "agent"})
    while s["phase"] == "scoring":  # nobody has a surveyor: the round is scored at once
        [seat] = ENGINE.to_act(s)
        s, ev = act(s, seat, {"type": "pass"})
        events += ev
    scored = next(e for e in events if e["type"] == "round_scored")
    assert scored["vp"][holder] == 1 and sum(scored["vp"]) == 1


def test_agents_and_surveyors_of_earlier_rounds_score_again_every_round():
    # seed-R phase 5: "1 Punto de Victoria por cada Agrimensor activo (aquellos que han activado
    # una Puntuación ... en esta Ronda o en una Ronda anterior), y 1 Punto de Victoria por cada
    # Agente"; "Recibirás 1 punto de victoria durante la fase de puntuación de cada ronda por cada
    # agente".
    g = at_phase("scoring")
    s = make_turn(g.state, "scoring", 0)
    for p in s["players"]:
        clear_mat(p)
        p.update(surveyors=0, active_surveyors=0, agents=0, opps=[])
    s["players"][0].update(active_surveyors=3, agents=2)
    s["players"][1].update(agents=1)
    s["players"][0]["surveyors"] = 1
    s["players"][0]["feature"][15] = "barn"  # seat 0 is on turn: it passes
    vp = [p["vp"] for p in s["players"]]
    rounds = []
    tiles = list(s["phase_tiles"])
    for r in (1, 2, 3):
        s["round"], s["phase_tiles"] = r, list(tiles)
        s2, ev = act(s, 0, {"type": "pass"})
        rounds.append(next(e for e in ev if e["type"] == "round_scored")["vp"])
        assert s2["round"] == r + 1
        s = make_turn(s2, "scoring", 0)
    assert rounds == [[5, 1]] * 3
    assert [p["vp"] - v for p, v in zip(s["players"], vp, strict=True)] == [15, 3]
