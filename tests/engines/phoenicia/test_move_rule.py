"""Rulebook 1b, moving a worker (seed-P): "El jugador activo puede también TRASLADAR a
un trabajador a una actividad más costosa y lucrativa" -- a move must be more costly
AND more lucrative: it must gain production or VP (v2). A v1 game keeps v1's reading
(more costly only), so its old logs and games in progress play on unchanged."""

import pytest
from tablero.engines import IllegalAction
from tablero.engines.phoenicia.engine import _new_tile

from tablero import engines

from .helpers import ENGINE, game, player, set_turn, tile


def _village(g, **fields):
    set_turn(g, [0, 1])
    g.state["display"] = []
    player(g, 0, **{"hand": [6, 6], "disks": 3, "storehouses": 4, **fields})
    return g


def _v1_game(seats=2, seed=7):
    g = game(seats, seed)
    first = dict(g.events[0], engine_version=1)
    return engines.LocalGame(ENGINE, seed=seed, events=[first])


def _moves(g, seat=0):
    return {(a["from_tile"], a["from_slot"], a["to"]) for a in g.legal_actions(seat) if a["type"] == "move"}


def test_a_new_game_is_played_by_the_v2_rules_and_an_old_one_by_v1():
    assert ENGINE.version == 3 and {1, 2} <= set(ENGINE.supported_versions)  # v3 moves as v2 (test_exhausted)
    assert game(2, 7).state["version"] == 3
    assert "version" not in _v1_game().state  # v1 states stay as v1 wrote them


def test_an_improved_hunter_producing_2_may_not_move_to_farming_for_plus_0():
    # Improved Hunting (one Tracker): space 1 produces 1, space 2 produces 2; Farming
    # produces 2 and both give 1 VP. Only the first hunter gains by moving.
    g = _village(game(2, 7), cards=["Tracker"])
    tile(g, 0, "hunting")["slots"][:2] = ["w", "w"]
    player(g, 0)
    assert (0, 0, "farming") in _moves(g)
    assert (0, 1, "farming") not in _moves(g)
    with pytest.raises(IllegalAction, match="more costly and more lucrative.*no production and no VP"):
        g.act(0, {"type": "move", "from_tile": 0, "from_slot": 1, "to": "farming", "cards": [6], "disks": 0})
    with pytest.raises(IllegalAction, match="more lucrative"):
        g.act(0, {"type": "move", "from_tile": 0, "from_slot": 1, "to": "farming"})


def test_an_advanced_miner_may_not_move_to_clothmaking_for_a_storehouse_alone():
    # Advanced Mining (two Smelters) produces 4 with 2 VP, as Clothmaking does; the
    # storehouse Clothmaking brings is capacity, not production or VP.
    g = _village(game(2, 7), cards=["Prospector", "Smelter", "Smelter", "Dye House"], hand=[6, 6])
    g.state["players"][0]["tiles"] += [_new_tile("mining"), _new_tile("clothmaking")]
    tile(g, 0, "mining")["slots"][0] = "w"
    player(g, 0)
    assert (2, 0, "clothmaking") not in _moves(g)
    assert (1, 0, "clothmaking") in _moves(g)  # a farmer gains 2 production and 1 VP there


def test_a_hunter_moving_to_mining_gains_vp_and_may_move():
    g = _village(game(2, 7), cards=["Prospector", "Tracker", "Tracker"])
    g.state["players"][0]["tiles"].append(_new_tile("mining"))
    player(g, 0)
    # Advanced Hunting produces 2, Mining 3 and one more VP: more lucrative.
    assert (0, 0, "mining") in _moves(g)
    # ... but not to Farming, where an advanced hunter gains nothing.
    assert (0, 0, "farming") not in _moves(g)


def test_a_v1_game_still_offers_and_accepts_the_move_for_plus_0():
    g = _village(_v1_game(), cards=["Tracker"])
    tile(g, 0, "hunting")["slots"][:2] = ["w", "w"]
    player(g, 0)
    assert (0, 1, "farming") in _moves(g)
    ev = g.act(0, {"type": "move", "from_tile": 0, "from_slot": 1, "to": "farming", "cards": [6], "disks": 0})
    assert ev[0]["type"] == "worker_moved"
