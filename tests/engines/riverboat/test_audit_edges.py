"""Rulebook audit (seed-R, sentence by sentence): edge cases the other test files leave open —
player-count differences of the draft, who plays first in each phase, coin abilities at their
limits, running out of tiles, coins, workers and features, harvest-bonus conditions, agents,
the end-of-game trigger and tie-breaks, and hidden information for every seat and spectators."""

import copy
import json
import random

import pytest
from tablero.engines.core import IllegalAction, InvalidAction, LocalGame
from tablero.engines.riverboat import ENGINE, scoring
from tablero.engines.riverboat.data import PHASES

from .helpers import act, at_phase, clear_mat, harvest_state, make_turn, new_game, types


def _draft(g: LocalGame, picks: list[str]) -> list[int]:
    order = []
    for phase in picks:
        [seat] = g.to_act()
        order.append(seat)
        g.act(seat, {"type": "choose_phase", "phase": phase})
    return order


# --------------------------------------------------------------------------- draft, first player
@pytest.mark.parametrize(("seats", "held"), [(2, [3, 2]), (3, [2, 2, 1]), (4, [2, 1, 1, 1])])
def test_uno_o_dos_jugadores_tendran_multiples_fichas_de_fase_at_every_player_count(seats, held):
    # seed-R "Inicio de una ronda": the first player picks, then clockwise until all five are
    # taken; "Uno o dos jugadores tendrán múltiples fichas de fase".
    g = new_game(seats, seed=3)
    fp = g.state["first_player"]
    order = _draft(g, list(PHASES))
    assert order == [(fp + i) % seats for i in range(5)]
    counts = [g.state["phase_tiles"].count((fp + i) % seats) for i in range(seats)]
    assert counts == held
    assert 1 <= sum(1 for c in counts if c > 1) <= 2


def test_each_round_the_draft_starts_with_the_new_first_player_four_players():
    # seed-R "Fin de la Ronda": the marker passes to the left after rounds 1, 2 and 3; the holder
    # of the marker picks the first phase tile of the next round.
    g = LocalGame(ENGINE, seats=4, seed=11)
    fp0 = g.state["first_player"]
    firsts = []
    rng = random.Random(1)
    while g.outcome() is None:
        s = g.state
        if s["phase"] == "draft" and all(t is None for t in s["phase_tiles"]) and not s["pending"]:
            firsts.append((s["round"], s["first_player"], sorted(g.to_act())))
        seat = rng.choice(sorted(g.to_act()))
        g.act(seat, ENGINE.random_action(g.state, seat, g.legal_actions(seat), rng))
    assert [r for r, _, _ in firsts] == [1, 2, 3, 4]
    for r, fp, to_act in firsts:
        assert fp == (fp0 + r - 1) % 4 and to_act == [fp]


@pytest.mark.parametrize("phase", ["planting", "harvest", "opportunity", "scoring"])
def test_each_phase_is_played_clockwise_from_its_tile_holder_not_from_the_first_player(phase):
    # seed-R "Cinco fases": "el juego se desarrolla en el sentido de las agujas del reloj ...,
    # comenzando por el jugador que seleccionó la ficha de fase".
    g = new_game(3, seed=4)
    fp = g.state["first_player"]
    rest = [p for p in PHASES if p not in ("cultivation", phase)]
    _draft(g, ["cultivation", phase, *rest])
    holder = g.state["phase_tiles"][PHASES.index(phase)]
    assert holder == (fp + 1) % 3 != fp
    rng = random.Random(2)
    while g.state["phase"] != phase:
        seat = rng.choice(sorted(g.to_act()))
        g.act(seat, ENGINE.random_action(g.state, seat, g.legal_actions(seat), rng))
    i = max(i for i, e in enumerate(g.events) if e["type"] == "phase_started" and e["phase"] == phase)
    assert g.events[i]["holder"] == holder and g.state["turn"] == holder
    # Every seat able to act in the phase: the holder acts first.
    s = make_turn(g.state, phase, holder)
    for p in s["players"]:
        clear_mat(p)
        p.update(coins=0, surveyors=1, opps=[], workers=0)
        p["crop"][0] = "beet"
        p["worker"][0] = phase != "planting" and phase == "harvest"
        p["feature"][0] = "well" if phase == "scoring" else None
        if phase == "planting":
            p["crop"][0] = None
            p["worker"][0] = True
    s["slots"]["1"] = ["1-beet"] * 6
    s["boat_board"]["1"] = True
    assert ENGINE.to_act(s) == {holder}


# --------------------------------------------------------------------------- cultivation
def _cultivation_state(seats=2):
    g = new_game(seats, seed=5)
    _draft(g, list(PHASES))
    [holder] = g.to_act()
    g.act(holder, {"type": "place_worker", "cell": 0, "coin": False})
    s = copy.deepcopy(g.state)
    for p in s["players"]:
        clear_mat(p)
        p["workers"], p["coins"] = 5, 0
    return s


def test_the_cultivation_bonus_worker_is_one_more_than_the_eight():
    # seed-R phase 1: "Este trabajador no cuenta para los (hasta) 8 trabajadores".
    g = new_game(2, seed=6)
    _draft(g, list(PHASES))
    holder = g.state["phase_tiles"][0]
    [h] = g.to_act()
    assert h == holder and g.state["pending"][0]["kind"] == "bonus_worker"
    g.act(holder, {"type": "place_worker", "cell": g.legal_actions(holder)[0]["cell"], "coin": False})
    assert g.state["round_track"] == 3, "the leftmost round-track worker counts off the round"
    assert g.state["players"][holder]["workers"] == 13, "taken from the track, not from the supply"
    placed = 0
    while g.state["phase"] == "cultivation":
        for seat in sorted(g.to_act()):
            acts = [a for a in g.legal_actions(seat) if not a.get("coin")]
            g.act(seat, acts[0])
            if seat == holder and acts[0]["type"] == "place_worker":
                placed += 1
    assert placed <= 8
    assert sum(g.state["players"][holder]["worker"]) == placed + 1


def test_a_player_who_runs_out_of_workers_mid_cultivation_is_no_longer_asked():
    s = _cultivation_state()
    s["players"][0]["workers"] = 1
    s["card"] = "wild"
    s["waiting"] = [0, 1]
    s, ev = act(s, 0, {"type": "place_worker", "cell": 3, "coin": False})
    s, ev = act(s, 1, {"type": "place_worker", "cell": 3, "coin": False})
    revealed = [e for e in ev if e["type"] == "crop_card_revealed"]
    assert revealed and 0 not in revealed[0]["must_place"] and 1 in revealed[0]["must_place"]


def test_a_coin_in_cultivation_needs_a_coin():
    s = _cultivation_state()
    s["card"] = "wild"
    s["waiting"] = [0, 1]
    with pytest.raises(IllegalAction, match="no coin"):
        act(s, 0, {"type": "place_worker", "cell": 3, "coin": True})
    s["players"][0]["coins"] = 1
    s2, _ = act(s, 0, {"type": "place_worker", "cell": 3, "coin": True})
    assert s2["players"][0]["coins"] == 0 and s2["supply"]["coins"] == s["supply"]["coins"] + 1


# --------------------------------------------------------------------------- planting
def test_the_coin_never_takes_a_three_hex_tile_from_a_pile():
    # seed-R phase 2: "una ficha de Recorte de 1 hexágono o 2 hexágonos (¡no de 3 hexágonos!)".
    g = at_phase("planting")
    s = make_turn(g.state, "planting", 0)
    clear_mat(s["players"][0])
    for c in (0, 1, 7):
        s["players"][0]["worker"][c] = True
    s["players"][0]["coins"] = 2
    assert {a.get("size") for a in ENGINE.legal_actions(s, 0) if a["type"] == "search_pile"} <= {1, 2}
    with pytest.raises(InvalidAction):
        ENGINE.check_shape({"type": "search_pile", "size": 3})


def test_with_every_pile_and_face_up_tile_gone_uncovered_workers_go_home_without_a_coin():
    # Running out of crop tiles: no face-up tile fits, the piles cannot refill, no coin.
    g = at_phase("planting")
    s = make_turn(g.state, "planting", 0)
    for p in s["players"]:
        clear_mat(p)
        p["coins"] = 0
    s["players"][0]["worker"][4] = True
    s["players"][0]["workers"] = 0
    s["piles"] = {"1": [], "2": [], "3": []}
    s["slots"] = {"1": [None] * 6, "2": [None] * 4, "3": ["3-corn-corn-corn", None, None]}
    s["players"][1]["worker"][0] = True
    s["players"][1]["worker"][1] = True
    s["players"][1]["worker"][7] = True
    # seat 0 has one uncovered worker and nothing fits: it goes home automatically when the turn starts
    events = ENGINE.settle(s, [], random.Random(0))
    assert types(events)[:1] == ["workers_returned"]
    assert events[0]["seat"] == 0 and events[0]["cells"] == [4]


# --------------------------------------------------------------------------- harvest
def test_the_harvest_bonus_comes_when_a_claim_crosses_nine_not_only_when_it_lands_on_it():
    # seed-R "Bono de cosecha": "al menos 9 cultivos de un tipo".
    s = harvest_state({"wheat": 3})
    s["players"][0]["harvested"]["wheat"] = 7
    s2, ev = act(s, 0, {"type": "claim_boat", "boat": "3a", "crop": "wheat", "coin": False})
    claimed = ev[0]
    assert claimed["harvest_bonus"] is True and s2["players"][0]["harvested"]["wheat"] == 10
    assert s2["pending"][-1]["optional"] is True


def test_no_harvest_bonus_below_nine_and_two_crops_each_give_their_own():
    s = harvest_state({"wheat": 2, "corn": 2})
    s["players"][0]["harvested"].update(wheat=6, corn=7)
    s, ev = act(s, 0, {"type": "claim_boat", "boat": "2a", "crop": "wheat", "coin": False})
    assert ev[0]["harvest_bonus"] is False and s["players"][0]["harvested"]["wheat"] == 8
    s["turn"] = 0
    s["done"][1] = True
    s, ev = act(s, 0, {"type": "claim_boat", "boat": "2b", "crop": "corn", "coin": False})
    assert ev[0]["harvest_bonus"] is True and s["players"][0]["harvest_bonus"] == ["corn"]


def test_a_declined_harvest_bonus_is_not_offered_again_for_that_crop():
    s = harvest_state({"beet": 5})
    s["players"][0]["harvested"]["beet"] = 8
    s, ev = act(s, 0, {"type": "claim_boat", "boat": "1", "crop": "beet", "coin": False})
    assert ev[0]["harvest_bonus"] is True
    s, ev = act(s, 0, {"type": "decline"})
    s["turn"] = 0
    s["done"][1] = True
    s, ev = act(s, 0, {"type": "claim_boat", "boat": "3a", "crop": "beet", "coin": False})
    assert ev[0]["harvest_bonus"] is False


def test_agents_only_from_the_personal_supply_up_to_the_benefit():
    # seed-R "Agentes": "Solo los Trabajadores de su suministro personal pueden convertirse en
    # Agentes"; boat 7: "puede enviar hasta 3 trabajadores".
    s = harvest_state({"pumpkin": 7})
    s["supply"]["barns"] = 0
    s["supply"]["wells"] = 0
    s, ev = act(s, 0, {"type": "claim_boat", "boat": "7", "crop": "pumpkin", "coin": False})
    # the surveyor is the only feature left: taken at once; then the agents decision
    assert "surveyor_taken" in types(ev)
    assert s["pending"][0]["kind"] == "agents" and s["players"][0]["workers"] == 7
    assert [a["count"] for a in ENGINE.legal_actions(s, 0)] == [0, 1, 2, 3]
    few = copy.deepcopy(s)
    few["players"][0]["workers"] = 2
    assert [a["count"] for a in ENGINE.legal_actions(few, 0)] == [0, 1, 2]
    with pytest.raises(IllegalAction, match="0 to 2"):
        act(few, 0, {"type": "send_agents", "count": 3})
    s2, _ = act(s, 0, {"type": "send_agents", "count": 2})
    assert s2["players"][0]["agents"] == 2 and s2["players"][0]["workers"] == 5


def test_agents_benefit_with_no_worker_in_supply_is_dropped():
    s = harvest_state({"corn": 5})
    s, ev = act(s, 0, {"type": "claim_boat", "boat": "5", "crop": "corn", "coin": False})
    # the five harvested workers are in the supply: the agent may be sent
    assert s["pending"][0]["kind"] == "agents" and s["pending"][0]["max"] == 1
    s["players"][0]["workers"] = 0
    events = ENGINE.settle(s, [], random.Random(0))
    assert events[0] == {"type": "pending_dropped", "seat": 0, "reason": "unavailable"}


def test_a_player_who_cannot_fill_any_boat_is_skipped_and_cannot_pass_out_of_turn():
    s = harvest_state({"beet": 1})
    s["boat_board"]["1"] = False
    s["boat_piles"]["1"] = 0
    # seat 0 holds one beet worker but no capacity-1 boat is left: nobody can claim
    events = ENGINE.settle(s, [], random.Random(0))
    assert events[0]["type"] == "phase_started" and events[0]["phase"] == "opportunity"


# --------------------------------------------------------------------------- opportunity
def test_the_opportunity_coin_needs_a_card_in_the_deck():
    g = at_phase("opportunity")
    s = make_turn(g.state, "opportunity", 0)
    s["players"][0]["coins"] = 1
    s["opp_deck"] = []
    s["opp_known_bottom"] = 0
    assert {"type": "search_opportunity_deck"} not in ENGINE.legal_actions(s, 0)
    with pytest.raises(IllegalAction, match="empty"):
        act(s, 0, {"type": "search_opportunity_deck"})


# --------------------------------------------------------------------------- scoring
def _scoring(seats=2):
    g = at_phase("scoring", seats=seats)
    s = make_turn(g.state, "scoring", 0)
    for p in s["players"]:
        clear_mat(p)
        p.update(surveyors=0, active_surveyors=0, agents=0, opps=[])
    return s


def test_each_player_places_all_its_surveyors_in_one_turn_then_the_next_player():
    # seed-R phase 5: "Después de anotar o pasar, el siguiente jugador en el sentido de las agujas
    # del reloj puede colocar hasta dos Topógrafos".
    s = _scoring(3)
    for seat in (0, 1):
        p = s["players"][seat]
        p["surveyors"] = 2
        p["feature"][0] = p["feature"][14] = "barn"
    s, _ = act(s, 0, {"type": "survey", "feature": "barn", "cell": 0})
    assert ENGINE.to_act(s) == {0}, "the same player places its second surveyor"
    s, _ = act(s, 0, {"type": "survey", "feature": "barn", "cell": 14})
    assert ENGINE.to_act(s) == {1}, "seat 2 has nothing to survey and is skipped after seat 1"


def test_a_player_without_surveyors_is_skipped_in_scoring():
    s = _scoring(2)
    s["players"][0]["feature"][0] = "barn"
    s["players"][1].update(surveyors=1)
    s["players"][1]["feature"][0] = "barn"
    events = ENGINE.settle(s, [], random.Random(0))
    assert events == [] and ENGINE.to_act(s) == {1}


def test_the_scoring_coin_bonus_is_not_offered_with_no_coin_in_the_supply():
    g = at_phase("opportunity")
    s = make_turn(g.state, "opportunity", 0)
    holder = s["phase_tiles"][4]
    s["supply"]["coins"] = 0
    s["done"] = [True] * s["n"]
    s["done"][0] = False
    s, ev = act(s, 0, {"type": "take_opportunity", "space": next(i for i, c in enumerate(s["opp_spaces"]) if c)})
    if s["pending"] and s["pending"][0]["kind"] == "scoring_bonus":
        assert {"type": "choose_bonus", "bonus": "coin"} not in ENGINE.legal_actions(s, holder)
        with pytest.raises(IllegalAction, match="no coin"):
            act(s, holder, {"type": "choose_bonus", "bonus": "coin"})


# --------------------------------------------------------------------------- end of game
def test_the_game_ends_after_the_round_4_scoring_and_nobody_may_act_afterwards():
    g = LocalGame(ENGINE, seats=3, seed=31)
    g.play_random()
    s = g.state
    assert s["phase"] == "over" and g.outcome() is not None
    assert types(g.events).count("round_scored") == 4 and types(g.events).count("round_started") == 3
    assert ENGINE.to_act(s) == set()
    for seat in range(3):
        assert ENGINE.legal_actions(s, seat) == []


def test_agent_majority_in_two_players_is_20_and_10_and_a_tie_goes_to_the_earlier_tile():
    g = at_phase("scoring")
    s = copy.deepcopy(g.state)
    s["phase_tiles"] = [1, 0, 0, 1, 1]
    s["players"][0]["agents"] = 2
    s["players"][1]["agents"] = 2
    vp, place = scoring.agent_scores(s)
    assert vp == [10, 20] and place == [2, 1]
    s["players"][0]["agents"] = 3
    assert scoring.agent_scores(s)[0] == [20, 10]


def test_four_players_agent_ranks_give_20_10_5_0():
    g = at_phase("scoring", seats=4)
    s = copy.deepcopy(g.state)
    s["phase_tiles"] = [3, 2, 1, 0, 3]
    for seat, k in enumerate([1, 1, 1, 1]):
        s["players"][seat]["agents"] = k
    vp, place = scoring.agent_scores(s)
    assert vp == [0, 5, 10, 20] and place == [4, 3, 2, 1]


# --------------------------------------------------------------------------- hidden information
def _full_coin_game(seats: int, seed: int, options: dict | None = None) -> LocalGame:
    """A game whose players use the pile and deck coin abilities often."""
    g = LocalGame(ENGINE, seats=seats, seed=seed, options=options or {})
    rng = random.Random(seed)
    while g.outcome() is None:
        seat = rng.choice(sorted(g.to_act()))
        acts = g.legal_actions(seat)
        coin = [a for a in acts if a["type"] in ("search_pile", "search_opportunity_deck", "draw_tile",
                                                 "draw_opportunity")]
        g.act(seat, coin[0] if coin and rng.random() < 0.6 else ENGINE.random_action(g.state, seat, acts, rng))
    return g


@pytest.mark.parametrize(("seats", "options"), [(2, {}), (3, {}), (4, {}), (3, {"coin_draws": "blind"})])
def test_no_event_shows_a_secret_or_another_seats_private_part_to_any_seat_or_spectator(seats, options):
    g = _full_coin_game(seats, 40 + seats, options)
    searched = 0
    for e in g.events:
        for viewer in [None, *range(seats)]:
            red = ENGINE.event_view(e, viewer)
            assert "secret" not in red
            priv = red.get("private") or {}
            assert set(priv) <= ({str(viewer)} if viewer is not None else set())
        if e["type"] in ("pile_searched", "opportunity_deck_searched", "tile_drawn"):
            searched += 1
            owner = str(e["seat"])
            assert ENGINE.event_view(e, e["seat"])["private"] == e["private"]
            assert "private" not in ENGINE.event_view(e, None)
            assert owner in e["private"]
    assert searched > 0


def test_during_a_search_no_other_view_names_a_tile_of_the_pile_and_their_legal_actions_are_empty():
    g = at_phase("planting", seats=4)
    s = g.state
    seat = next(iter(g.to_act()))
    s = copy.deepcopy(s)
    s["players"][seat]["coins"] = 2
    pile = [a for a in ENGINE.legal_actions(s, seat) if a["type"] == "search_pile"]
    assert pile, "a pile search is open to the seat on turn"
    s, ev = act(s, seat, pile[0])
    size = str(pile[0]["size"])
    kinds = set(s["piles"][size])
    for viewer in [None, *range(4)]:
        v = ENGINE.view(s, viewer)
        text = json.dumps(v)
        if viewer == seat:
            assert v["search"]["contents"] == sorted(s["piles"][size])
        else:
            assert v["search"]["contents"] is None
            # the face-up supply may show kinds that are also in the pile; nothing else may
            visible = json.dumps(v["crop_supply"]) + json.dumps([p["crop"] for p in v["players"]])
            for k in kinds:
                if k not in visible:
                    assert k not in text
            if viewer is not None:
                assert ENGINE.legal_actions(s, viewer) == []
