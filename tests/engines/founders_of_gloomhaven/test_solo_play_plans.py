"""Solo Founders: three habits of the engine's solo player (`solo_play.py`, whose play-outs the
hard bot's cycle planner chooses between; not rules) — bench/bots_results.md, twelfth pass:

- in the first cycle, before any building stands, its Trade makes what the proposal the vote
  will place asks (that building or a prerequisite of its advanced resource), not any resource;
- it takes influence, claims paid, when a little more lets the vote choose a proposal needing
  far less work than the one it can pay for (the left card is often a tier-3 building);
- it takes money, not a road, when the Upgrade card waits in hand for a needed advanced resource
  whose site stands and the money is short."""

from __future__ import annotations

import random

from tablero.engines.core import LocalGame, clone
from tablero.engines.founders_of_gloomhaven import solo_play
from tablero.engines.founders_of_gloomhaven.board import EMPTY, ROAD, adjacent_to_own, board_of
from tablero.engines.founders_of_gloomhaven.data import edition
from tablero.engines.founders_of_gloomhaven.events import _add_tile
from tablero.engines.founders_of_gloomhaven.phases import _claims_cost
from tablero.engines.founders_of_gloomhaven.play import _wanted
from tablero.engines.founders_of_gloomhaven.play import weighted_choice as general_choice
from tablero.engines.founders_of_gloomhaven.upgrade import _upgrade_sites

NAME = "founders-of-gloomhaven"


def _choice(s: dict, seed: int = 1) -> dict:
    g = LocalGame(NAME, seats=1, seed=0)
    return solo_play.weighted_choice(g.engine, s, 0, g.engine.legal_actions(s, 0), random.Random(seed))


def _position(seed: int, found) -> dict:
    """The first position of a solo deal (the general weighting's moves: independent of the solo
    player) where `found(state, legal actions)` holds."""
    g = LocalGame(NAME, seats=1, seed=seed)
    rng = random.Random(seed)
    while g.outcome() is None:
        acts = g.legal_actions(0)
        if found(g.state, acts):
            return clone(g.state)
        g.act(0, general_choice(g.engine, g.state, 0, acts, rng))
    raise AssertionError("no such position in the deal")


def test_the_first_cycles_trade_imports_what_the_coming_building_asks():
    for seed in (0, 1, 2, 3):
        g = LocalGame(NAME, seats=1, seed=seed)
        assert g.state["cycle"] == 1 and not g.state["prestige"]
        g.act(0, {"type": "play_card", "card": "trade", "face_up": True})
        s = g.state
        imports = {a["resource"] for a in g.legal_actions(0) if a["type"] == "import"}
        asked = _wanted({r: [] for r in edition(s).PRESTIGE[s["proposals"][0]]["requires"]})  # no influence: the left card
        assert imports - asked, "the test needs imports the coming building does not ask for"
        for r in range(12):
            pick = _choice(s, r)
            assert pick["type"] == "import" and pick["resource"] in asked, (seed, pick, asked)


def _basic(s: dict, acts: list[dict]) -> bool:
    types = {a["type"] for a in acts}
    return ({"take_influence", "take_money", "road"} <= types and s["roads_left"] > 0 and s["completions"] == 0
            and len(s["players"][0]["hand"]) >= 3 and len(s["proposals"]) == 3)


def _claims_paid(s: dict, extra: int = 0) -> dict:
    """`s` with just the fleeting influence the next vote's claims take (+ `extra`)."""
    s = clone(s)
    pl = s["players"][0]
    pl["lasting"] = 0
    claims = sum(1 for pb in s["prestige"] if pb["claim"])
    pl["fleeting"] = max(0, _claims_cost(s, claims) - pl["houses"]) + extra
    return s


def test_influence_buys_the_choice_of_a_proposal_needing_far_less_work():
    s = _claims_paid(_position(0, _basic))
    have = {t["res"] for t in s["tiles"] if t["kind"] in ("stall", "t2", "t3")}
    assert "weapons" not in have and "machinery" not in have
    s["proposals"] = ["ghost_fortress", "watchtower", "salt_barrel"]  # weapons + stone; metal + knowledge
    assert _choice(s) == {"type": "take_influence"}
    # the left card as easy as the others: the basic action goes elsewhere
    s["proposals"] = ["watchtower", "ghost_fortress", "salt_barrel"]
    assert _choice(s)["type"] != "take_influence"
    # the middle card already paid for: nothing to buy
    s = _claims_paid(s, extra=2)
    s["proposals"] = ["ghost_fortress", "watchtower", "salt_barrel"]
    assert _choice(s)["type"] != "take_influence"


def _with_a_bricks_site(s: dict) -> dict:
    """`s` with a clay stall of the player and a road beside it such that a bricks tile could
    stand on the map (a site: free, touching no own tile, connected to the clay)."""
    b = board_of(s)
    for c in b.land_cells:
        if s["occ"][c] != EMPTY or adjacent_to_own(s, 0, [c]):
            continue
        for n in b.adj[c]:
            if not b.land[n] or s["occ"][n] != EMPTY:
                continue
            probe = clone(s)
            _add_tile(probe, "stall", "clay", 0, [c])
            probe["supply"]["clay"] -= 1
            probe["occ"][n] = ROAD
            if _upgrade_sites(probe, 0).get("bricks"):
                return probe
    raise AssertionError("no bricks site could be made")


def test_money_short_of_a_standing_upgrade_site_takes_money_not_a_road():
    g = LocalGame(NAME, seats=1, seed=0)
    g.act(0, {"type": "play_card", "card": "build", "face_up": False})  # a basic action, Upgrade in hand
    s = clone(g.state)
    assert not s["prestige"] and "upgrade" in s["players"][0]["hand"]
    s["proposals"] = ["stonemason_lodge", "watchtower", "salt_barrel"]  # the coming building asks bricks
    s = _with_a_bricks_site(s)
    s["players"][0]["money"] = 3  # a tier-2 upgrade costs $4
    assert {"take_money", "road"} <= {a["type"] for a in g.engine.legal_actions(s, 0)}
    assert _choice(s) == {"type": "take_money"}
    s["players"][0]["money"] = 6
    assert _choice(s)["type"] == "road"
