"""Version 10: the Upgrade leader's road before the tile counts when judging whether the card
can be played face up (outside rules audit B).

Rulebook: ../shared/rules/002_24ae600459e7675b.txt (seed-FoG), lines as in that file:
L7 (p. 11) "Si la carta se coloca boca arriba, el jugador debe poder resolver la acción principal
de la carta"; L39 (p. 12) "Además, ya sea antes o después de de colocar la loseta, el jugador
también puede construir una única carretera conectada a la loseta de recurso que se está
construyendo". Versions 4-9 judged the card without the road before the tile (RULES.md, "Limits
(ours)"), so an Upgrade that only such a road could resolve was not playable face up — and that
is the common case for a tier-2 resource made from one's own basic resource alone (bricks from
clay, leather from animals, food from plant): the tile must be connected to the prerequisite, may
not touch it (L42: not adjacent to one's own tiles), so it needs a road, and at the start of a
game there is none."""

from __future__ import annotations

import random

import pytest
from tablero.engines import IllegalAction
from tablero.engines.founders_of_gloomhaven.build import _road_cells
from tablero.engines.founders_of_gloomhaven.upgrade import _first_road_works, _road_first_candidates

from tablero import engines

UP = {"type": "play_card", "card": "upgrade", "face_up": True}


def _seed_114(version: int) -> engines.LocalGame:
    """Two seats, seed 114 (the position of test_rules_audit_v9's item 1): seat 0 owns clay (187),
    population and animals stalls, no road is on the map, and it has access to seat 1's plant."""
    g = engines.LocalGame("founders-of-gloomhaven", seats=2, seed=114, options={"setup": "dealt"})
    g.state["version"] = version
    g.act(0, {"type": "play_card", "card": "income", "face_up": True})
    g.act(1, {"type": "import", "resource": "plant"})
    g.act(1, {"type": "place_stall", "cell": 38})
    g.act(1, {"type": "play_card", "card": "income", "face_up": True})
    g.act(0, {"type": "access", "tile": 6})
    return g


def test_the_engine_is_version_10_and_keeps_every_earlier_version():
    eng = engines.get("founders-of-gloomhaven")
    assert eng.version >= 10 and set(range(1, 10)) <= set(eng.supported_versions)  # v11: test_solo_influence_payment


def test_v10_an_upgrade_only_a_road_first_can_resolve_is_playable_face_up():
    """L7, L39: no tile can be placed now (bricks must be connected to seat 0's clay and may not
    touch it), but a road first next to the clay lets a bricks tile be placed connected to it: the
    main action can be resolved, so the card may be played face up; the road comes first."""
    g = _seed_114(10)
    assert g.state["occ"].count(-2) == 0  # no road anywhere
    assert UP in g.legal_actions(0)
    g.act(0, UP)
    assert g.legal_actions(0) == [{"type": "road_first"}]  # the only way to resolve it
    g.act(0, {"type": "road_first"})
    cells = {a["cell"] for a in g.legal_actions(0)}
    assert 186 in cells  # next to the clay on 187
    g.act(0, {"type": "first_road", "cell": 186})
    ups = g.legal_actions(0)
    assert ups and {a["resource"] for a in ups} == {"bricks"}
    ev = g.act(0, {"type": "upgrade", "resource": "bricks", "cells": [123, 144, 165]})
    assert ev[0]["type"] == "building_upgraded" and ev[0]["cost"] == 4 and ev[0]["prereqs"] == [[0, 0, 1]]


def test_v9_games_keep_refusing_the_card_face_up():
    g = _seed_114(9)
    assert UP not in g.legal_actions(0)
    with pytest.raises(IllegalAction, match="cannot be resolved"):
        g.act(0, UP)


@pytest.mark.parametrize("seats", [2, 4])
def test_the_road_first_squares_are_found_exactly_without_a_map_search_per_square(seats):
    """`_road_first_candidates` (reckoned on the present network) gives exactly the squares where
    the look-ahead `_first_road_works` (a map search with the road placed) finds a tile."""
    rng = random.Random(seats)
    g = engines.LocalGame("founders-of-gloomhaven", seats=seats, seed=seats)
    checked = 0
    for step in range(400):
        if g.outcome() is not None:
            break
        st = g.state
        seat = rng.choice(sorted(g.to_act()))
        if st["cur"] and st["cur"].get("role") == "play" and step % 4 == 0:
            probe = dict(st, cur={"seat": seat, "role": "lead", "category": "upgrade", "card": "upgrade",
                                  "discount": 0, "bonus": {}})
            exact = [c for c in _road_cells(probe, seat) if _first_road_works(probe, seat, c)]
            assert list(_road_first_candidates(probe, seat)) == exact, step
            checked += 1
        g.act(seat, g.engine.random_action(st, seat, g.legal_actions(seat), rng))
    assert checked >= 10
