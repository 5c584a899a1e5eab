"""Version 9: the departures from the rulebook found by the outside audit of issue 38, each on
the issue's own reproduction (`engines.LocalGame(..., options={"setup": "dealt"})`, one
`random.Random(seed)` choosing the seat and the engine's random player choosing the action).

The reproductions were found in games of version 8. Each test plays them as a version-8 game
up to the decision in question, then judges that decision under version 9 (the state's
`version`), so the test checks the rule and not the path a version-9 game would take. The same
decision under version 8 is checked to keep its old result (old logs replay unchanged).

Rulebook: ../shared/rules/002_24ae600459e7675b.txt (seed-FoG), lines as in that file."""

from __future__ import annotations

import random

import pytest
from tablero.engines import IllegalAction
from tablero.engines.founders_of_gloomhaven import data as D
from tablero.engines.founders_of_gloomhaven.delivery import _find_deliveries
from tablero.engines.founders_of_gloomhaven.placement import _prestige_footprints

from tablero import engines

from .helpers import C, game, prestige
from .test_solo_and_variants import _last_card


def _replay(seats: int, seed: int, decisions: int, version: int = 8) -> tuple[engines.LocalGame, random.Random]:
    """The issue's reproduction: `decisions` random decisions in a game of `version`."""
    g = engines.LocalGame("founders-of-gloomhaven", seats=seats, seed=seed, options={"setup": "dealt"})
    g.state["version"] = version
    rng = random.Random(seed)
    for _ in range(decisions):
        _decide(g, rng)
    return g, rng


def _decide(g, rng):
    s = rng.choice(sorted(g.to_act()))
    a = g.engine.random_action(g.state, s, g.legal_actions(s), rng)
    return s, a, g.act(s, a)


# --- 1. an advanced resource is connected to something its builder owns ----------------------
def _seed_114(version):
    """Seat 0 takes the income face up; seat 1 imports a plant onto 38 and takes the income face
    up; seat 0 buys access to that plant (tile 6) and plays the Upgrade face up."""
    g = engines.LocalGame("founders-of-gloomhaven", seats=2, seed=114, options={"setup": "dealt"})
    g.state["version"] = 8
    g.act(0, {"type": "play_card", "card": "income", "face_up": True})
    g.act(1, {"type": "import", "resource": "plant"})
    g.act(1, {"type": "place_stall", "cell": 38})
    g.act(1, {"type": "play_card", "card": "income", "face_up": True})
    g.act(0, {"type": "access", "tile": 6})
    g.act(0, {"type": "play_card", "card": "upgrade", "face_up": True})
    g.state["version"] = version
    return g


FOOD = {"type": "upgrade", "resource": "food", "cells": [18, 19, 39, 40]}


def test_v9_an_upgrade_must_be_connected_to_something_the_builder_owns_not_only_to_an_accessed_tile():
    """L47: "Los edificios personales, como los recursos avanzados y las carreteras, sólo pueden
    ponerse en un espacio conectado a algo que el jugador ya posea." L150: "Cada vez que algo se
    construya (incluyendo carreteras), el jugador debe construirlo conectado a algo que posea."
    L151: "Comprar acceso al recurso de otro jugador no otorga la propiedad".
    Issue 38, seed 114: the food on [18, 19, 39, 40] touches only seat 1's plant stall (seat 0
    has access to it) and nothing seat 0 owns."""
    g = _seed_114(version=9)
    assert g.state["tiles"][6]["owner"] == 1 and g.state["tiles"][6]["claims"] == [0]
    with pytest.raises(IllegalAction, match="connected to something you own"):
        g.act(0, FOOD)
    assert not [a for a in g.legal_actions(0) if a["type"] == "upgrade"]  # nothing seat 0 owns is near a plant


def test_v9_the_upgrade_card_is_not_playable_face_up_when_no_site_touches_what_the_player_owns():
    """The same position one step earlier, a game of version 9: the Upgrade's main action could
    not be resolved without the road before the tile, which version 9 did not count, so the card
    is not playable face up (seed-FoG p. 11). Version 10 counts that road: test_rules_audit_v10."""
    g = engines.LocalGame("founders-of-gloomhaven", seats=2, seed=114, options={"setup": "dealt"})
    g.state["version"] = 9
    g.act(0, {"type": "play_card", "card": "income", "face_up": True})
    g.act(1, {"type": "import", "resource": "plant"})
    g.act(1, {"type": "place_stall", "cell": 38})
    g.act(1, {"type": "play_card", "card": "income", "face_up": True})
    g.act(0, {"type": "access", "tile": 6})
    assert {"type": "play_card", "card": "upgrade", "face_up": True} not in g.legal_actions(0)
    with pytest.raises(IllegalAction):
        g.act(0, {"type": "play_card", "card": "upgrade", "face_up": True})


def test_v8_games_keep_accepting_an_upgrade_connected_only_to_an_accessed_tile():
    g = _seed_114(version=8)
    assert FOOD in g.legal_actions(0)
    assert g.act(0, FOOD)[0]["type"] == "building_upgraded"


# --- 2. the reshuffle -------------------------------------------------------------------------
def test_v9_a_short_draw_pile_reshuffles_the_discards_instead_of_dealing_two_of_one_type():
    """L90: "Si no hay suficientes cartas en el mazo de robo, barajea los descartes y úsalos como
    nuevo mazo de robo." L91: "Si se roban dos cartas del mismo tipo de edificio en el mismo
    conjunto de tres, sustituye la de más a la derecha y ponla encima del mazo de robo."
    Issue 38, 3 seats, seed 62, 122 decisions: the pile's last card (the Tavern) duplicates the
    Golden Lion's type (T4 red); version 8 drew it 37 more times and dealt it."""
    g, rng = _replay(3, 62, 121)
    g.state["version"] = 9
    _decide(g, rng)
    drawn = next(e for e in reversed(g.events) if e["type"] == "proposals_drawn")
    props = g.state["proposals"]
    assert len({D.prestige_type(c) for c in props}) == len(props) == 3
    assert drawn["reshuffled"] is True and "tavern" in drawn["returned"]
    assert g.state["proposal_discard"] == []  # the 12 discards became the draw pile
    assert g.state["proposal_deck"][0] == "tavern"  # the card put back lies on top
    assert len(g.state["proposal_deck"]) == 12


def test_v8_games_keep_their_draw():
    g, _ = _replay(3, 62, 122)
    assert g.state["proposals"] == ["golden_lion", "north_gate", "tavern"]
    assert g.state["proposal_deck"] == [] and len(g.state["proposal_discard"]) == 12


def test_v9_with_nothing_left_to_draw_the_set_stays_short_rather_than_hold_two_of_one_type():
    """Ours (the text does not say): with an empty pile and no discards, the duplicate is not dealt."""
    from tablero.engines.founders_of_gloomhaven.phases import _draw_proposals

    st = {"version": 9, "proposal_deck": ["tavern"], "proposal_discard": []}
    ev = _draw_proposals(st, random.Random(1), 2, ["golden_lion"])
    assert ev["cards"] == [] and ev["returned"] == ["tavern"] and ev["secret"]["deck"] == ["tavern"]


# --- 3. two prestige buildings of one type in one section ---------------------------------------
def test_v9_a_fixed_spot_building_is_unplaceable_where_its_type_stands_and_is_replaced():
    """L94 (condition 3): "no haya una loseta de edificio de prestigio del mismo tipo (misma forma y
    color) en la misma sección de ciudad"; L153: "De igual forma, tampoco dos edificios de
    prestigio del mismo tipo"; L96: a card without a legal spot "deberá retirarse de la partida y
    reemplazarla por otra carta". Issue 38, 2 seats, seed 168, 94 decisions: the Ghost Fortress
    (O4 grey, our edition) went onto its spot [229, 230, 250, 251] in the right section, where
    the Foundry (O4 grey) stood."""
    g, rng = _replay(2, 168, 92)
    g.state["version"] = 9
    foundry = next(pb for pb in g.state["prestige"] if pb["card"] == "foundry")
    assert g.state["tiles"][foundry["tile"]]["section"] == 2
    assert D.prestige_type("foundry") == D.prestige_type("ghost_fortress")
    assert _prestige_footprints(g.state, "ghost_fortress") == []
    _decide(g, rng)  # the last vote: the Ghost Fortress wins
    types = [e["type"] for e in g.events[-3:]]
    assert types == ["votes_revealed", "prestige_unplaceable", "proposals_drawn"]
    assert g.events[-2]["card"] == "ghost_fortress" and "ghost_fortress" in g.state["removed"]
    assert g.state["vote"]["card"] != "ghost_fortress"
    assert not any(a.get("cells") == [229, 230, 250, 251] for a in g.legal_actions(0))


def test_v9_place_prestige_refuses_the_fixed_spot_when_the_section_holds_its_type():
    g, _ = _replay(2, 168, 93)  # the v8 vote: the Ghost Fortress is to be placed
    assert g.state["vote"]["card"] == "ghost_fortress"
    g.state["version"] = 9
    with pytest.raises(IllegalAction, match="already stands in this section"):
        g.act(0, {"type": "place_prestige", "cells": [229, 230, 250, 251]})


def test_v8_games_keep_placing_the_fixed_spot_building():
    g, rng = _replay(2, 168, 93)
    _, a, ev = _decide(g, rng)
    assert a == {"type": "place_prestige", "cells": [229, 230, 250, 251]} and ev[0]["type"] == "prestige_placed"


# --- 4. buying access delivers at once -----------------------------------------------------------
def test_v9_buying_access_delivers_at_once_what_it_connects():
    """facts B.8 (../shared/rules/founders-of-gloomhaven.md) and seed-FoG p. 11: a delivery
    happens the moment a required resource becomes connected; from v3 an access holder delivers
    through its own network (RULES.md). Issue 38, 3 seats, seed 226, 202 decisions: seat 1 buys
    access to tile 22 (seat 2's animals), which its bridge at 35 connects to the Harbor
    Warehouse."""
    g, rng = _replay(3, 226, 201)
    g.state["version"] = 9
    s, a, ev = _decide(g, rng)
    assert (s, a) == (1, {"type": "access", "tile": 22})
    dl = [e for e in ev if e["type"] == "delivered"]
    assert [(e["tile"], e["owner"], e["resource"]) for e in dl] == [(22, 1, "animals")]
    assert _find_deliveries(g.state) == []  # nothing is left waiting for a later placement


def test_v8_games_keep_the_delivery_waiting():
    g, _ = _replay(3, 226, 202)
    assert g.events[-2]["type"] == "access_bought" and g.events[-2]["tile"] == 22
    assert [d["tile"] for d in _find_deliveries(g.state)] == [22]


# --- the solo claim tokens, re-read ---------------------------------------------------------------
def _claims_v(n, version, fleeting=20, completions=0):
    g = game(1, version=version)  # the map and data of that version
    g.state["cycle"] = 2
    g.state["players"][0]["hand"] = ["trade", "vote"]
    g.state["players"][0]["played"] = [{"card": c, "face_up": True} for c in ("recruit", "upgrade", "build")]
    g.state["completions"] = completions
    cells = [[C(0, 0), C(1, 0)], [C(3, 0), C(4, 0)], [C(6, 0), C(7, 0)], [C(9, 0), C(10, 0)]]
    for k in range(n):
        prestige(g, "watchtower", cells[k])
        g.state["prestige"][k]["claim"] = True
    g.state["players"][0]["fleeting"] = fleeting
    ev = _last_card(g)
    return next((e for e in ev if e["type"] == "claims_paid"), None), g


def test_v9_every_remaining_claim_token_costs_influence_the_first_the_middle_card():
    """L128: "cualquier ficha neutral de reclamo restante debe retirarse pagando el coste de
    influencia bajo la carta correspondiente a cada una en la oferta de propuestas. Si el jugador
    no puede pagar el coste, pierde la partida. De este modo, el jugador debería en teoría
    entregar al menos un recurso a cada edificio de prestigio incompleto cada ciclo." L126-127:
    influence lies only under the middle (2 fleeting) and right (2 lasting) cards, 1 more of each
    per completion; the left card is free, nothing lies under it. So no token is free: the
    first costs the middle card's influence, the second and any further one the right card's."""
    assert _claims_v(1, 9)[0]["pay"] == {"fleeting": 2, "lasting": 0}
    assert _claims_v(2, 9)[0]["pay"] == {"fleeting": 2 + 4, "lasting": 0}
    assert _claims_v(3, 9)[0]["pay"] == {"fleeting": 2 + 4 + 4, "lasting": 0}
    assert _claims_v(1, 9, completions=2)[0]["pay"] == {"fleeting": 4, "lasting": 0}
    paid, g = _claims_v(1, 9, fleeting=1)  # one token left undelivered and 1 fleeting: lost
    assert paid is None and g.outcome()["reason"] == "solo_claims_unpaid"


def test_v3_to_v8_solo_games_keep_the_first_claim_token_free():
    for version in (3, 8):
        assert _claims_v(1, version)[0]["pay"] == {"fleeting": 0, "lasting": 0}
        assert _claims_v(2, version)[0]["pay"] == {"fleeting": 2, "lasting": 0}
