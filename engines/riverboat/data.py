"""Riverboat's components as data.

Everything the rulebook text (seed-R) or the facts file (shared/rules/riverboat.md)
states is reproduced here with its source. Where the printed component is known only
from pictures, the values below are OUR EDITION (marked so), designed to be consistent
with every known fact; replace a table here to play the printed edition, no code change
needed. RULES.md lists every such decision.
"""

from __future__ import annotations

# --- the five crops (facts §2.3: literal English of Rüben/nabo, Weizen, Mais, Kartoffeln, Kürbisse)
CROPS = ["beet", "wheat", "corn", "potato", "pumpkin"]

# --- the five field colours of the player mats and crop cards (facts §2.4, §2.6).
# OUR EDITION: the colour names; the letters are used by the mat layouts below.
FIELD_COLOURS = {"Y": "yellow", "O": "orange", "G": "green", "B": "blue", "P": "purple"}
WILD = "wild"

# --- player mats. Facts §2.6: every mat has 5 field areas, one per colour, and all four
# mats have the same number of hexes of each colour arranged differently.
# OUR EDITION: a 5 x 7 hex grid ("odd-r": odd rows are shifted half a hex to the right),
# 7 hexes per colour, each colour one connected area. Each string is one row.
MAT_ROWS = 5
MAT_COLS = 7
MATS = {
    "A": ["YYYOOOO", "YYGGOOO", "YYGGGBB", "PPGGBBB", "PPPPPBB"],
    "B": ["GGGGBBB", "GGGYBBB", "PPYYYOB", "PPYYOOO", "PPPYOOO"],
    "C": ["BBOOOPP", "BBOOOPP", "BBYOGPP", "BYYYGGP", "YYYGGGG"],
    "D": ["PPPYYYY", "OPPPYYY", "OOPGGBB", "OOGGGBB", "OOGGBBB"],
}

# --- crop cards (facts §2.4, R-DOJ): 7 of each field colour + 5 wild = 40.
CROP_CARDS = {**{colour: 7 for colour in FIELD_COLOURS.values()}, WILD: 5}
CULTIVATION_CARDS_PER_ROUND = 8  # seed-R, phase 1


def _tile_kinds() -> list[dict]:
    """The 110 crop tiles (facts §2.2: 70 one-hex, 25 two-hex, 15 three-hex; a tile shows one
    or two crops, one crop per hex). OUR EDITION of the crop make-up (the printed
    distribution cards were not found), the same for every crop, 33 hexes each:
      1-hex: 14 of each crop                                          (70 tiles)
      2-hex: 3 of each single crop + 1 of each of the 10 crop pairs   (25 tiles)
      3-hex: 1 of each single crop + 10 "two of a, one of b" tiles,
             b = the next and the next-but-one crop after a          (15 tiles)
    """
    kinds: list[dict] = []

    def add(crops: list[str], count: int) -> None:
        kinds.append({"kind": f"{len(crops)}-" + "-".join(crops), "size": len(crops), "crops": crops,
                      "count": count})

    for c in CROPS:
        add([c], 14)
    for c in CROPS:
        add([c, c], 3)
    for i, a in enumerate(CROPS):
        for b in CROPS[i + 1:]:
            add([a, b], 1)
    for c in CROPS:
        add([c, c, c], 1)
    for i, a in enumerate(CROPS):
        for step in (1, 2):
            add([a, a, CROPS[(i + step) % len(CROPS)]], 1)
    return kinds


CROP_TILES = _tile_kinds()
TILE_KINDS = {k["kind"]: k for k in CROP_TILES}
# seed-R, phase 2: a 2-hex tile scores 1 VP and a 3-hex tile 2 VP when placed.
TILE_VP = {1: 0, 2: 1, 3: 2}
# OUR EDITION: 3-hex tiles are triangles (three mutually adjacent hexes).
THREE_HEX_SHAPE = "triangle"
# OUR EDITION: face-up spaces of each size on the "crop supply and scoring" board.
SUPPLY_SLOTS = {"1": 6, "2": 4, "3": 3}
# seed-R: a coin draws a 1- or 2-hex tile from the draw pile (never a 3-hex one).
COIN_PILE_SIZES = ("1", "2")

# --- riverboats (facts §2.5): 9 types x 5 tiles, capacities 1, 2, 2', 3, 3', 4, 5, 6, 7.
# The nine benefits are seed-R's list in its order; the capacity each sits on is the facts
# file's UNVERIFIED inference (seed order = smallest to largest) - OUR EDITION until checked.
# benefit keys: coins, vp, harbor (steps), surveyors (straight from the supply), feature (barn|surveyor|any estate feature: seed-R calls
# barns, wells and surveyors together estate features, with substitution when one runs out),
# agents (may send up to that many workers to New Orleans).
BOATS = [
    {"id": "1", "capacity": 1, "count": 5, "benefit": {"coins": 1, "harbor": 3}},
    {"id": "2a", "capacity": 2, "count": 5, "benefit": {"vp": 1, "harbor": 2}},
    {"id": "2b", "capacity": 2, "count": 5, "benefit": {"vp": 2, "harbor": 1}},
    {"id": "3a", "capacity": 3, "count": 5, "benefit": {"vp": 3, "harbor": 1}},
    {"id": "3b", "capacity": 3, "count": 5, "benefit": {"vp": 3, "coins": 1}},
    {"id": "4", "capacity": 4, "count": 5, "benefit": {"feature": "barn"}},
    {"id": "5", "capacity": 5, "count": 5, "benefit": {"feature": "surveyor", "agents": 1}},
    {"id": "6", "capacity": 6, "count": 5, "benefit": {"feature": "any", "agents": 2}},
    {"id": "7", "capacity": 7, "count": 5, "benefit": {"feature": "any", "agents": 3}},
]
BOAT_TYPES = {b["id"]: b for b in BOATS}
BOAT_CLAIMS_PER_ROUND = [2, 2, 2, 3]  # seed-R, phase 3 (round 4: 3)

# --- harbor track (facts §2.7). OUR EDITION: spaces 0..18 along the top of the mat; the
# riverboat slots (filled left to right) sit above every second space, slot i at
# HARBOR_SLOT_SPACES[i]; the harbor master starts on the space labelled with the player count.
# Two spaces per slot make the harbor a race: the boats' own steps (1-3) and the phase
# bonuses do not carry a harbor master past every boat of a full game.
HARBOR_LAST_SPACE = 18
HARBOR_SLOT_SPACES = [1, 3, 5, 7, 9, 11, 13, 15, 17]
HARBOR_START = {"2": 0, "3": 1, "4": 2}

# --- opportunity cards (17, facts §2.9). OUR EDITION: what each card scores when a surveyor
# is placed with it: `per` VP for each unit counted by `count` (see scoring.count_for_card),
# at most `cap` VP.
OPPORTUNITY_CARDS = [
    *[{"id": f"crop-{c}", "count": "crop_hexes", "crop": c, "per": 1, "cap": 12,
       "text": f"1 VP per {c} hex on your mat"} for c in CROPS],
    {"id": "boats", "count": "boats", "per": 2, "cap": 12, "text": "2 VP per riverboat you own"},
    {"id": "reached-boats", "count": "reached_boats", "per": 2, "cap": 12,
     "text": "2 VP per riverboat your harbor master has reached or passed"},
    {"id": "agents", "count": "agents", "per": 3, "cap": 12, "text": "3 VP per agent in New Orleans"},
    {"id": "coins", "count": "coins", "per": 1, "cap": 12, "text": "1 VP per coin you hold"},
    {"id": "fields", "count": "complete_fields", "per": 4, "cap": 12,
     "text": "4 VP per field colour fully covered"},
    {"id": "barns", "count": "barns", "per": 4, "cap": 12, "text": "4 VP per barn on your mat"},
    {"id": "wells", "count": "wells", "per": 4, "cap": 12, "text": "4 VP per well on your mat"},
    {"id": "largest-area", "count": "largest_area", "per": 1, "cap": 12,
     "text": "1 VP per hex of your largest connected area of one crop"},
    {"id": "harbor", "count": "harbor_steps", "per": 1, "cap": 12,
     "text": "1 VP per step your harbor master has travelled"},
    {"id": "harvest", "count": "harvested_pairs", "per": 1, "cap": 12,
     "text": "1 VP per 2 crops harvested this game"},
    {"id": "boat-types", "count": "boat_capacities", "per": 2, "cap": 12,
     "text": "2 VP per different riverboat capacity you own"},
    {"id": "opportunities", "count": "opportunity_cards", "per": 2, "cap": 12,
     "text": "2 VP per opportunity card you own (this one included)"},
]
# seed-R phase 5: a surveyed card scores "según los requisitos que se muestran en ella", so the
# text a player reads names the cap too (an outside audit found it missing: "2 VP per riverboat
# you own" scored 12, not 16, for 8 boats).
for _c in OPPORTUNITY_CARDS:
    _c["text"] += f" (at most {_c['cap']} VP)"
del _c
OPPORTUNITY = {c["id"]: c for c in OPPORTUNITY_CARDS}
# OUR EDITION: the bonus printed above each of the four card spaces of New Orleans (same
# keys as a riverboat benefit: coins, vp, harbor, surveyors, feature, agents).
# The surveyor is an estate feature (seed-R), so it is given as one: with none left in the
# supply its taker chooses a barn or a well instead (seed-R substitution).
CARD_SPACE_BONUSES = [{"feature": "surveyor"}, {"coins": 1}, {"harbor": 1}, {"vp": 2}]

# --- general supply (seed-R components; limited, seed-R setup 6) and personal start (seed-R)
SUPPLY = {"coins": 25, "barns": 8, "wells": 8, "surveyors": 28}
START_WORKERS = 13
START_SURVEYORS = 2
START_COINS = 3
ROUND_TRACK_WORKERS = 4
ROUNDS = 4

PHASES = ["cultivation", "planting", "harvest", "opportunity", "scoring"]
SURVEYORS_PER_ROUND = [2, 2, 2, 3]  # seed-R, phase 5 (round 4: 3)
HARVEST_BONUS_AT = 9  # seed-R "Bono de cosecha"
BARN_VP_PER_HEX = 2  # seed-R phase 5
WELL_VP_PER_HEX = 1  # seed-R phase 5
FIELD_VP = 7  # seed-R final scoring
UNSCORED_FEATURE_VP = 2  # seed-R final scoring
AGENT_MAJORITY_VP = [20, 10, 5, 0]  # seed-R, R-LVX
