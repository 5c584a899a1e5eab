"""Engine version 5 plays a revised edition (`edition5.json` laid over `edition.json`; RULES.md,
"Our edition", v5): its map keeps every fact of the rulebook and the facts file, its
requirements are spread over the resources, and games of versions 1-4 keep their data."""

import collections
import json
import random

import pytest
from tablero.engines.core import golden
from tablero.engines.founders_of_gloomhaven import data as D
from tablero.engines.founders_of_gloomhaven.board import board_of
from tablero.engines.founders_of_gloomhaven.delivery import _find_deliveries

from tablero import engines

from .helpers import game, prestige, roads, tile, types

ENGINE = engines.get("founders-of-gloomhaven")
V5 = D.EDITIONS[5]
MAP = V5.BOARDS["thematic"]


def test_new_games_play_the_v5_edition():
    g = engines.LocalGame(ENGINE, seats=3, seed=1)
    assert ENGINE.version == 11 and g.state["version"] == 11  # v6-v11 changed rules code only, not the edition
    assert D.edition(g.state) is V5 and board_of(g.state) is MAP
    assert g.view(0)["map"]["width"] == MAP.w == 21 and g.view(0)["map"]["height"] == MAP.h == 16
    sym = engines.LocalGame(ENGINE, seats=2, seed=1, options={"map": "symmetric"})
    assert board_of(sym.state) is V5.BOARDS["symmetric"] and sym.view(0)["map"]["width"] == 22


def test_the_v5_symmetric_map_keeps_the_facts():
    b, old = V5.BOARDS["symmetric"], D.BOARDS["symmetric"]
    assert (b.w, b.h) == (22, 16)
    # mirror-symmetric both ways (river and wall swap places), sections 6, 8, 6 squares wide
    kind = ["land" if c not in ("river", "wall") else "crossing" for c in b.colour]
    for c in range(b.size):
        x, y = c % b.w, c // b.w
        assert kind[c] == kind[y * b.w + b.w - 1 - x] == kind[(b.h - 1 - y) * b.w + x]
        if b.colour[c] not in ("river", "wall"):
            assert b.colour[c] == b.colour[(b.h - 1 - y) * b.w + b.w - 1 - x]
    widths = [len({c % b.w for c in range(b.size) if b.section[c] == k}) for k in range(3)]
    assert widths == [6, 8, 6]
    # the Ghost Fortress in the centre; either gate in any of three reserved spots
    (gf,) = b.spots["ghost_fortress"]
    assert sorted((c % b.w, c // b.w) for c in gf) == [(10, 7), (10, 8), (11, 7), (11, 8)]
    assert b.spots["west_gate"] == b.spots["north_gate"] and len(b.spots["west_gate"]) == 3
    # the same numbered spaces (section, number) as the v1-4 side, so old start events map onto them
    assert sorted(b.space_key.values()) == sorted(old.space_key.values())


def test_the_v5_thematic_map_keeps_the_facts():
    colours = collections.Counter(MAP.colour)
    assert MAP.sections == ["left", "middle", "right"] and len(set(MAP.section) - {None}) == 3
    assert colours["river"] == colours["wall"] == MAP.h  # one river and one wall split the sections
    assert {"red", "white", "grey", "green"} <= set(colours)
    # 9 grey numbered spaces, 1-3 left, 4-6 middle, 7-9 right (the solo start reads them by section)
    assert sorted(MAP.numbered.values()) == list(range(1, 10))
    for k, c in MAP.number_cell.items():
        assert MAP.colour[c] == "grey" and MAP.section[c] == (k - 1) // 3 and MAP.land[c]
    # the fixed spots: West Gate on the left edge, North Gate on the top of the middle section,
    # the Ghost Fortress (2 x 2) in the right section
    (wg,), (ng,), (gf,) = MAP.spots["west_gate"], MAP.spots["north_gate"], MAP.spots["ghost_fortress"]
    assert all(c % MAP.w == 0 for c in wg) and len(wg) == 2
    assert all(c // MAP.w == 0 and MAP.section[c] == 1 for c in ng) and len(ng) == 2
    assert len(gf) == 4 and all(MAP.section[c] == 2 for c in gf)
    # wider sections than the v1-4 map (5, 4, 4 columns): 6, 7, 6
    widths = [len({c % MAP.w for c in range(MAP.size) if MAP.section[c] == k}) for k in range(3)]
    assert widths == [6, 7, 6]


def test_v5_requirements_are_spread_and_shapes_and_colours_kept():
    uses = collections.Counter(r for p in V5.PRESTIGE.values() for r in p["requires"])
    assert max(uses.values()) <= 4 and uses["food"] <= 3  # food was needed by 5 buildings (v1-4)
    assert sum(1 for r in uses if D.TIER[r] == 3) == 4 and all(uses[r] == 1 for r in uses if D.TIER[r] == 3)
    assert set(uses) == set(D.RESOURCES)  # every resource is needed somewhere
    for card, p in V5.PRESTIGE.items():
        old = D.PRESTIGE[card]
        assert (p["name"], p["shape"], p["colour"], p.get("spot")) == (old["name"], old["shape"], old["colour"],
                                                                        old.get("spot"))
        assert 2 <= len(p["requires"]) <= 3 and len(set(p["requires"])) == len(p["requires"])
    # the rulebook's examples keep their data: the Salt Barrel, Machinery = Metal + Knowledge
    assert V5.PRESTIGE["salt_barrel"]["requires"] == D.PRESTIGE["salt_barrel"]["requires"]
    assert D.ADVANCED["machinery"]["prereqs"] == {"metal": 1, "knowledge": 1}


def test_games_of_versions_1_to_4_keep_their_map_and_requirements():
    g = game(3, version=4)
    assert board_of(g.state) is D.BOARDS["thematic"] and board_of(g.state).w == 15
    assert D.edition(g.state).PRESTIGE is D.PRESTIGE
    g5 = game(3, version=5)
    assert board_of(g5.state) is MAP and len(g5.state["occ"]) == MAP.size


@pytest.mark.parametrize("section", ["left", "middle", "right"])
def test_the_solo_race_resource_starts_on_the_first_numbered_space_of_its_section(section):
    g = engines.LocalGame(ENGINE, seats=1, seed=3, options={"solo_section": section})
    (st,) = [t for t in g.state["tiles"] if t["kind"] == "stall"]
    k = ["left", "middle", "right"].index(section)
    assert st["cells"] == [MAP.number_cell[3 * k + 1]] and MAP.sections[st["section"]] == section
    # the start event names the square of the v1-4 map (start() draws alike for every version)
    assert g.events[0]["stalls"][0][2] == D.BOARDS["thematic"].number_cell[3 * k + 1]


@pytest.mark.parametrize("side", ["thematic", "symmetric"])
def test_dealt_starting_stalls_go_on_the_same_numbered_spaces_of_the_v5_map(side):
    g = engines.LocalGame(ENGINE, seats=4, seed=5, options={"setup": "dealt", "map": side})
    b, old = V5.BOARDS[side], D.BOARDS[side]
    cells = [t["cells"][0] for t in g.state["tiles"]]
    assert len(cells) == 8 and set(cells) <= set(b.numbered)
    assert [b.space_key[c] for c in cells] == [old.space_key[cell] for _, _, cell in g.events[0]["stalls"]]


def test_a_v5_building_receives_a_tile_through_a_road_not_through_a_building():
    g = game(3, version=5)
    W = MAP.w
    c = lambda x, y: y * W + x  # noqa: E731
    # left section, columns 0-5; the Watchtower (I2 white) needs metal and knowledge in v5
    assert V5.PRESTIGE["watchtower"]["requires"] == ["metal", "knowledge"]
    bi = prestige(g, "watchtower", [c(1, 5), c(2, 5)])
    tile(g, "stall", "metal", 0, [c(4, 7)])
    roads(g, c(2, 6), c(2, 7))  # a road from the building to the square next to the metal
    tile(g, "prestige", None, None, [c(3, 7)])  # a building in between does not conduct
    assert _find_deliveries(g.state) == []
    roads(g, c(3, 6), c(4, 6))  # around it, the road reaches the metal
    found = _find_deliveries(g.state)
    assert [(e["building"], e["resource"], e["owner"]) for e in found] == [(bi, "metal", 0)]


def test_random_v5_games_end_by_the_sixth_completion():
    for seed in range(3):
        g = engines.LocalGame(ENGINE, seats=4, seed=seed)
        g.play_random(rng=random.Random(seed))
        assert g.outcome()["reason"] == "six_completions"
        assert "game_ended" in types(g.events)


def _golden(name):
    return json.loads((golden.GOLDEN_DIR / "founders-of-gloomhaven" / name).read_text())


def test_a_careful_player_wins_a_v5_solo_game_from_the_deal_and_losing_stays_possible():
    """A recorded line (found by a beam search over the bot's moves, RULES.md "Random play")
    wins the solo game of seed 1 from its first decision; the plain bot's game of the same deal
    (the v5 golden log) is lost."""
    won = _golden("v5-1p-seed1-solo-won.json")
    g = engines.LocalGame(ENGINE, seats=1, seed=won["seed"])
    g.state["version"] = won["engine_version"]  # the rules it was found under (v9 claim tokens cost more)
    for seat, action in won["decisions"]:
        g.act(seat, action)
    out = g.outcome()
    assert out["reason"] == "solo_complete" and out["winners"] == [0]
    assert len(g.state["prestige"]) == 6 and all(pb["complete"] for pb in g.state["prestige"])
    lost = _golden("v5-1p-seed1.json")
    end = lost["events"][-1]
    assert end["type"] == "game_ended" and end["reason"] == "solo_incomplete" and end["winners"] == []
