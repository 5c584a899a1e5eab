"""The exhausted-game safety net (RULES.md "Exhausted game", ours) and the v2 move rule agree
(v3). Found by two medium bots (seed 72): at 30 and 31 VP with no card left, no City Center
space and no spare worker, the only "moves to a more costly activity" left gained neither
production nor VP, which v2 forbids, so nobody could ever gain a VP; but the net still counted
those moves, the game never ended (round 643 and counting) and both seats ended their turns for
ever. From v3 the net counts only the moves the rules allow; v2 games keep their net."""

from __future__ import annotations

import random

from tablero.engines.core import IllegalAction, clone
from tablero.engines.phoenicia import moves
from tablero.engines.phoenicia.village import dead_end, may_still_gain_vp

from tablero import engines

from .helpers import ENGINE

# The villages of that game at round 40 (seed 72, medium against medium).
HOLDS_A_CITY_CENTER_FULL = {
    "hand": [5, 6, 6, 6, 6, 6], "preset": 0, "disks": 3, "storehouses": 6, "untrained": 0, "trained": 0,
    "origins": [[5, 26], [6, 2], [6, 2], [6, 2], [6, 2], [6, 2]],
    "cards": ["Tracker", "Fort", "Caravan", "Glassmaking", "Shipyard", "Refugees", "City Center", "Temple", "Ships",
              "Port"],
    "tiles": [{"kind": "hunting", "slots": ["w", "w", "t", "t", "t", "t"]},
              {"kind": "farming", "slots": ["w", "w", "w", "w", "w", "w"]},
              {"kind": "city_center", "slots": ["t", "t", "t"]}], "vp": 30, "production": 25}
ONLY_FRUITLESS_MOVES = {
    "hand": [4, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6], "preset": 0, "disks": 6, "storehouses": 11, "untrained": 0,
    "trained": 0,
    "origins": [[4, 25], [5, 24], [5, 25], [6, 1], [6, 2], [6, 2], [6, 2], [6, 2], [6, 2], [6, 3], [6, 3]],
    "cards": ["Indentured Worker", "Granary", "Prospector", "Dyer", "Smelter", "Dye House", "Public Works",
              "City Walls", "Tradefleet"],
    "tiles": [{"kind": "hunting", "slots": ["t", None, None, None, None, None]},
              {"kind": "farming", "slots": ["t", "t", "t", "t", None, None]},
              {"kind": "mining", "slots": ["t", "w", "t", None, None]},
              {"kind": "clothmaking", "slots": ["w", "w", "w", None]}], "vp": 31, "production": 25}


def _stalled(version: int) -> dict:
    g = engines.LocalGame(ENGINE, seats=2, seed=72)
    if version != ENGINE.version:
        g = engines.LocalGame(ENGINE, seed=72, events=[dict(g.events[0], engine_version=version)])
    s = clone(g.state)
    s["deck"], s["display"] = [], []
    s["players"] = [clone(HOLDS_A_CITY_CENTER_FULL), clone(ONLY_FRUITLESS_MOVES)]
    return s


def _lawful_moves(s: dict, seat: int) -> list[dict]:
    """The moves the rule allows, whatever they cost (not Move.legal, which also asks for the
    money now: the safety net ignores cost, as a player may still save up)."""
    out = []
    for a in moves._moves(s, seat):
        try:
            moves._move_target(s, seat, a)
        except IllegalAction:
            continue
        out.append(a)
    return out


def test_no_lawful_move_gains_anything_so_the_game_is_exhausted_from_v3():
    s = _stalled(3)
    assert s["version"] == 3
    assert list(moves._moves(s, 1)) and not _lawful_moves(s, 1)  # moves upward exist; v2's rule allows none
    assert may_still_gain_vp(s["players"][1]) and not may_still_gain_vp(s["players"][1], lucrative=True)
    assert dead_end(s)


def test_a_v2_game_keeps_its_safety_net():
    s = _stalled(2)
    assert s["version"] == 2 and not dead_end(s)


def test_a_village_with_a_lawful_move_may_still_gain_vp():
    """The net never ends a game in which a move is still allowed: over random games, every
    village with a lawful move counts as one that may still gain VP."""
    seen = 0
    for seed in range(6):
        g = engines.LocalGame(ENGINE, seats=2 + seed % 4, seed=seed)
        g.play_random(rng=random.Random(seed))
        state = None
        for e in g.events:
            state = ENGINE.evolve(state, clone(e))
            for seat, p in enumerate(state["players"]):
                if _lawful_moves(state, seat):
                    seen += 1
                    assert may_still_gain_vp(p, lucrative=True), (seed, seat)
    assert seen > 0
