"""Phoenicia's tables as data: development cards, village tableaus, discount rows,
the production deck and the starting village.

Sources (see RULES.md and ../../shared/rules/phoenicia.md):
  seed-P  the rulebook text (003_511c13edd7374df3.txt)
  P-AID   the player aid (14 of the 19 development cards, the tableau table)
  ours    our edition: a value no public source gave us, designed to fit the known
          cards. Every "ours" row may be replaced by the printed value without
          touching engine code.
"""

from __future__ import annotations

# --- the scoring track ------------------------------------------------------
VP_TO_WIN = 32  # seed-P "Fin del juego": 32 VP or more at step 2a ends the game

# --- the starting village (seed-P "Configuración inicial", P-AID) -----------
START = {
    "untrained": 1,       # one pawn on the Training Grounds (untrained side)
    "trained": 0,
    "workers": {"hunting": 1, "farming": 1},  # first slot of Hunting and of Farming
    "storehouses": 2,
    "disks": 2,           # two disks in the treasury
}
TREASURY_SPACES = 3       # seed-P 2d: "el límite de discos será siempre de 3" (P-JKLM agrees)
TRAINING_COST = 2         # seed-P 1b
PRESET_CARD_VALUE = 5     # seed-P: the 5 introductory production cards are all 5s

# --- village tableaus -------------------------------------------------------
# `production` lists one pattern per upgrade level (0 = printed side, 1 = improved,
# 2 = advanced); slot i (0-based, filled row by row) produces pattern[i % len(pattern)],
# so [1, 2] is "1 on odd slots, 2 on even slots" (P-AID).
# `level_card`: the development card whose copies (owned, max 2) choose the level.
# `slots`: how many workers one tile holds -- NOT FOUND in any source: ours.
TABLEAUS = {
    "hunting": {
        "title": ["Hunting", "Improved Hunting", "Advanced Hunting"],
        "tool_cost": 2, "vp": 1, "production": [[1], [1, 2], [2]], "level_card": "Tracker",
        "slots": 6, "storehouse_per_worker": 0, "source": "P-AID; slots ours",
    },
    "farming": {
        "title": ["Farming"],
        "tool_cost": 5, "vp": 1, "production": [[2]], "level_card": None,
        "slots": 6, "storehouse_per_worker": 0, "source": "P-AID; slots ours",
    },
    "mining": {
        "title": ["Mining", "Improved Mining", "Advanced Mining"],
        "tool_cost": 8, "vp": 2, "production": [[3], [3, 4], [4]], "level_card": "Smelter",
        "slots": 5, "storehouse_per_worker": 0, "source": "P-AID; slots ours",
    },
    "clothmaking": {
        "title": ["Clothmaking"],
        "tool_cost": 11, "vp": 2, "production": [[4]], "level_card": None,
        # seed-P 1b: a storehouse for every pawn placed on Clothmaking
        "slots": 4, "storehouse_per_worker": 1, "source": "P-AID, seed-P 1b; slots ours",
    },
}
WORK_TABLEAUS = ("hunting", "farming", "mining", "clothmaking")

# The City Center tile (from the City Center card): buy VP at a price, one disk per
# purchase, as many purchases as it has spaces (P-AID: "up to 3 VP at 3 each").
CITY_CENTER = {"title": "City Center", "spaces": 3, "vp_price": 3, "source": "P-AID, seed-P 1c"}


# --- development cards ------------------------------------------------------
def _card(name, set_, ab, min_bid, *, production=0, vp=0, storehouses=0, untrained=0, trained=0,
          tile=None, treasury=None, training_cost=None, source="P-AID"):
    return {
        "name": name, "set": set_, "ab": ab, "min_bid": min_bid,
        "production": production, "vp": vp, "storehouses": storehouses,
        "untrained": untrained, "trained": trained,
        "tile": tile,                    # a village tile the card adds
        "treasury": treasury,            # new treasury size ("Improved Storage")
        "training_cost": training_cost,  # new training cost ("Improved Training")
        "source": source,
    }


# "A" cards have 3 copies, "B" cards 2 (seed-P); how many are used depends on the seats.
CARDS = [
    # set 1 (complete in P-AID: 4 A + 3 B)
    _card("Dyer", 1, "A", 2, vp=1),
    _card("Granary", 1, "A", 4, vp=1, storehouses=2, treasury=6),
    _card("Glassmaking", 1, "A", 5, production=1, vp=1),
    _card("Fort", 1, "A", 7, vp=1, untrained=3),
    _card("Prospector", 1, "B", 2, vp=1, tile="mining"),
    _card("Indentured Worker", 1, "B", 3, trained=1),
    _card("Tracker", 1, "B", 3, vp=1),  # upgrades Hunting (TABLEAUS level_card)
    # set 2 (complete in P-AID: 2 A + 3 B)
    _card("Caravan", 2, "A", 9, production=2, vp=1, storehouses=1),
    _card("Dye House", 2, "A", 14, production=3, vp=3, storehouses=1, tile="clothmaking"),
    _card("City Center", 2, "B", 4, vp=2, tile="city_center"),
    _card("Smelter", 2, "B", 6, production=1, vp=1, storehouses=1),  # upgrades Mining
    _card("Shipyard", 2, "B", 7, vp=2),
    # set 3
    _card("Public Works", 3, "A", 12, vp=5, training_cost=1),
    _card("Ships", 3, "A", 14, production=4, vp=2, storehouses=1),
    # ours: the five cards no source lists (names from P-AID / discount references,
    # the fifth named by us); 2 A + 3 B in sets 3-4 as the 10 A / 9 B totals require.
    _card("Refugees", 3, "B", 6, vp=1, untrained=1, trained=1, source="ours (name: P-AID)"),
    _card("Temple", 3, "B", 10, vp=4, source="ours (name and values)"),
    _card("Tradefleet", 4, "A", 18, production=5, vp=3, storehouses=2, source="ours (name: P-AID)"),
    _card("City Walls", 4, "A", 20, vp=8, source="ours (name: P-AID)"),
    _card("Port", 4, "B", 16, production=3, vp=4, storehouses=2, source="ours (name: P-AID, P-BSB)"),
]
CARD = {c["name"]: c for c in CARDS}

# Copies of each A and B card in play by number of players (seed-P setup table).
COPIES = {2: {"A": 1, "B": 1}, 3: {"A": 2, "B": 1}, 4: {"A": 2, "B": 2}, 5: {"A": 3, "B": 2}}

# Cards that may not be in the first display (seed-P setup): replaced and shuffled
# back into set 1.
NOT_IN_FIRST_DISPLAY = ("Granary", "Fort")

# --- discount rows on the central board --------------------------------------
# Owning k copies of `holder` puts k cubes in its row; the row's k-th amount applies
# (only the largest cube in a row counts; rows never add up: seed-P 1a).
# Only Dye House's 7 (two Dyers) and 9 (three Dyers) are known (seed-P); the rest: ours.
DISCOUNTS = [
    {"holder": "Dyer", "on": ["Dye House"], "amounts": [4, 7, 9], "source": "seed-P (7, 9); 4 ours"},
    {"holder": "Prospector", "on": ["Smelter"], "amounts": [3, 4], "source": "P-AID (row); amounts ours"},
    {"holder": "Tracker", "on": ["Caravan"], "amounts": [3, 5], "source": "P-AID (row); amounts ours"},
    {"holder": "City Center", "on": ["Public Works"], "amounts": [4, 6], "source": "P-AID (row); amounts ours"},
    {"holder": "Shipyard", "on": ["Ships", "Tradefleet", "Port"], "amounts": [5, 8],
     "source": "P-AID (row); amounts ours"},
    {"holder": "Public Works", "on": ["City Walls"], "amounts": [6, 9, 11], "source": "P-AID (row); amounts ours"},
]

# --- production cards -----------------------------------------------------------
# 40 cards of value 4, 5 or 6 (P-DOC, P-JKLM); the split is NOT FOUND: ours, even
# around a mean of 5.
PRODUCTION_DECK = {4: 13, 5: 14, 6: 13}
CARD_POINTS = 4  # seed-P 2c: one production card for every 4 points


def deck_for(seats: int) -> dict[int, list[str]]:
    """The development cards in play per set (seed-P setup table)."""
    copies = COPIES[seats]
    sets: dict[int, list[str]] = {1: [], 2: [], 3: [], 4: []}
    for c in CARDS:
        sets[c["set"]].extend([c["name"]] * copies[c["ab"]])
    return sets
