"""New Bedford as data: goods, whales, the ocean bag, the whaling track, the Town
and Whaling Board action spaces and the 20 building tiles.

Sources: the Spanish rulebook (rulebook p.N below) and the English tiles and
reference pages collected in shared/rules/new-bedford.md (A.x below). Where they
differ the English wins; see RULES.md.
"""

from __future__ import annotations

# --- goods and money ------------------------------------------------------------
GOODS = ("lumber", "food", "brick")
RESOURCES = ("money", "lumber", "food", "brick")
# Rulebook p.2: starting goods are chosen at these prices, worth $5 in all.
GOOD_VALUE = {"lumber": 1, "food": 1, "brick": 2}
STARTING_VALUE = 5
# Rulebook p.4 / player board: once per turn, exactly 2 lumber or 2 food for $3.
PURCHASE_GOODS = ("lumber", "food")
PURCHASE_AMOUNT = 2
PURCHASE_PRICE = 3
# Rulebook p.5: using another player's building costs $1, paid to its owner first.
BUILDING_FEE = 1
# Rulebook p.9: every $5 is worth 1 point.
MONEY_PER_POINT = 5

# --- whales and the ocean bag ---------------------------------------------------
WHALE_KINDS = ("right", "bowhead", "sperm")
TOKEN_KINDS = ("right", "bowhead", "sperm", "empty")
# Rulebook p.7: the lay (cost to keep a returned whale) and the points it scores.
WHALES = {
    "right": {"name": "Right Whale", "lay": 2, "points": 1},
    "bowhead": {"name": "Bowhead Whale", "lay": 4, "points": 2},
    "sperm": {"name": "Sperm Whale", "lay": 8, "points": 4},
}
# Rulebook p.2 setup 1 / p.25: per player 9 Right, 5 Bowhead, 1 Sperm, 4 Empty Sea.
BAG_PER_PLAYER = {"right": 9, "bowhead": 5, "sperm": 1, "empty": 4}

# --- the Whaling Board ----------------------------------------------------------
# A.4: row 0 is Return (nearest shore, no food cost); rows 1..6 are the sea spaces and
# cost that much food to launch to; row 6 is farthest from shore. Each row has 3 ranks.
RETURN_ROW = 0
SEA_ROWS = (1, 2, 3, 4, 5, 6)
FARTHEST_ROW = 6
RANKS = 3
ROUNDS = 12
WORKERS = 2
SHIPS = (1, 2)  # "Ship 1" (small) and "Ship 2" (large); they behave the same (rulebook p.3)


def launch_food(row: int) -> int:
    """Food printed on a sea space of the whaling track (A.4)."""
    return row


# --- action spaces --------------------------------------------------------------
# Effect kinds, interpreted by spaces.py:
#   gain               take the goods/money in "gain"
#   sell               sell goods at "prices" (optionally the first of each kind doubled)
#   build              build a building, paying "discount" fewer goods
#   prepare            put a ship from home on the Dock, paying "cost"
#   launch             move a ship from "from" (dock/home) to a sea space, paying food ("full"/"half_up")
#   move_out           Lighthouse: one of your ships one space farther out, into rank 1st
#   remove_empty_sea   Tavern
#   return_right_whales Tryworks
#   pay_per_whale      Cooperage
#   replace_workers    Inn
#   take_ownership     Post Office
#
# Town and Whaling Board spaces may be used any number of times per round; the first
# worker on an empty one also takes its "bonus" (rulebook p.4, p.6, pp.17, 23).
TOWN_SPACES = [
    {"id": "farm", "name": "Farm", "board": "town", "effect": "gain", "gain": {"food": 2},
     "bonus": {"gain": {"food": 1}}},
    {"id": "forest", "name": "Forest", "board": "town", "effect": "gain", "gain": {"lumber": 2},
     "bonus": {"gain": {"lumber": 1}}},
    {"id": "warehouse", "name": "Warehouse", "board": "town", "effect": "gain", "gain": {"brick": 1},
     "bonus": {"gain_one_of": ["lumber", "food", "brick"]}},
    {"id": "general_store", "name": "General Store", "board": "town", "effect": "sell",
     "prices": {"lumber": 1, "food": 1, "brick": 2}, "bonus": {"money": 1}},
    {"id": "town_hall", "name": "Town Hall", "board": "town", "effect": "build", "discount": 0,
     "bonus": {"discount": 1}},
]
WHALING_SPACES = [
    {"id": "dockyard", "name": "Dockyard", "board": "whaling", "effect": "prepare", "cost": {"lumber": 2},
     "bonus": {"cost_discount": {"lumber": 1}}},
    {"id": "city_pier", "name": "City Pier", "board": "whaling", "effect": "launch", "from": "dock",
     "food": "full", "bonus": {"food_discount": 1}},
]

# The 20 building tiles (rulebook pp.18-22, English tiles A.6). "two_player" marks the
# 12 tiles of the suggested 2-player set (rulebook p.2, 2nd printing: A.3).
BUILDINGS = [
    # --- 2-player set: action buildings
    {"id": "bank", "name": "Bank", "type": "action", "two_player": True, "cost": {"brick": 4},
     "effect": "gain", "gain": {"money": 5}},
    {"id": "dry_dock", "name": "Dry Dock", "type": "action", "two_player": True, "cost": {"lumber": 2, "brick": 2},
     "effect": "launch", "from": "home", "prepare_cost": {"lumber": 2}, "food": "full"},
    {"id": "lighthouse", "name": "Lighthouse", "type": "action", "two_player": True,
     "cost": {"lumber": 2, "brick": 2}, "effect": "move_out"},
    {"id": "lumber_mill", "name": "Lumber Mill", "type": "action", "two_player": True,
     "cost": {"lumber": 3, "brick": 1}, "effect": "sell", "prices": {"lumber": 2}},
    {"id": "schoolhouse", "name": "Schoolhouse", "type": "action", "two_player": True,
     "cost": {"lumber": 2, "food": 2, "brick": 1}, "effect": "gain", "gain": {"lumber": 2, "food": 2}},
    {"id": "tavern", "name": "Tavern", "type": "action", "two_player": True, "cost": {"food": 3, "brick": 2},
     "effect": "remove_empty_sea", "payout": {"1": 4, "2": 6}},
    {"id": "tryworks", "name": "Tryworks", "type": "action", "two_player": True, "cost": {"brick": 3},
     "effect": "return_right_whales", "max": 3},
    {"id": "wharf", "name": "Wharf", "type": "action", "two_player": True, "cost": {"lumber": 3, "brick": 1},
     "effect": "launch", "from": "dock", "food": "half_up"},
    # --- 2-player set: victory buildings (no action space)
    {"id": "counting_house", "name": "Counting House", "type": "victory", "two_player": True,
     "cost": {"lumber": 3, "food": 2}, "vp": {"per": "right_whales", "every": 2, "points": 1}},
    {"id": "mansion", "name": "Mansion", "type": "victory", "two_player": True, "cost": {"lumber": 4, "money": 10},
     "vp": {"fixed": 4}},
    # English tile: 4 lumber + 4 brick (the Spanish text says 4 food + 4 brick: A.11).
    {"id": "municipal_office", "name": "Municipal Office", "type": "victory", "two_player": True,
     "cost": {"lumber": 4, "brick": 4}, "vp": {"per": "buildings", "every": 2, "points": 1}},
    {"id": "seamens_bethel", "name": "Seamen's Bethel", "type": "victory", "two_player": True,
     "cost": {"lumber": 5, "brick": 5}, "vp": {"fixed": 5}},
    # --- added for 3-4 players
    {"id": "bakery", "name": "Bakery", "type": "action", "two_player": False, "cost": {"food": 2, "brick": 1},
     "effect": "gain", "gain": {"food": 4}},
    {"id": "brickyard", "name": "Brickyard", "type": "action", "two_player": False, "cost": {"brick": 4},
     "effect": "gain", "gain": {"brick": 3}},
    {"id": "chandlery", "name": "Chandlery", "type": "action", "two_player": False,
     "cost": {"lumber": 2, "food": 2, "brick": 2}, "effect": "gain",
     "gain": {"money": 1, "lumber": 1, "food": 1, "brick": 1}},
    # English tile: $1 per whale token of any kind on one ship (Spanish: per Right Whale: A.11).
    {"id": "cooperage", "name": "Cooperage", "type": "action", "two_player": False, "cost": {"lumber": 4},
     "effect": "pay_per_whale", "per_whale": 1},
    {"id": "courthouse", "name": "Courthouse", "type": "action", "two_player": False,
     "cost": {"lumber": 5, "brick": 1}, "effect": "build", "discount": 2},
    # English tile: re-place on any two Town or Whaling Board spaces (A.11).
    {"id": "inn", "name": "Inn", "type": "action", "two_player": False, "cost": {"food": 2, "brick": 2},
     "effect": "replace_workers"},
    {"id": "market", "name": "Market", "type": "action", "two_player": False,
     "cost": {"lumber": 1, "food": 1, "brick": 1}, "effect": "sell",
     "prices": {"lumber": 1, "food": 1, "brick": 2}, "double_first": True},
    {"id": "post_office", "name": "Post Office", "type": "action", "two_player": False,
     "cost": {"lumber": 2, "brick": 1}, "effect": "take_ownership", "income": 2},
]

# One line of each tile's text, in English, for views (rulebook pp.18-22, A.6).
BUILDING_TEXT = {
    "bank": "Take $5.",
    "dry_dock": "Prepare and launch a ship for 2 lumber plus the full food cost (no Dockyard/City Pier bonus).",
    "lighthouse": "Move one of your ships one space farther out, into rank 1st of the new space.",
    "lumber_mill": "Sell lumber only, at $2 each.",
    "schoolhouse": "Take 2 lumber and 2 food.",
    "tavern": "Remove 1 or 2 Empty Sea tokens drawn in the last whaling phase from the game; take $4 or $6.",
    "tryworks": "Up to 3 Right Whales on one of your ships return at once, free; the ship stays.",
    "wharf": "Launch a prepared ship for half the food cost, rounded up.",
    "counting_house": "End of game: +1 VP per 2 Right Whales you have.",
    "mansion": "End of game: +4 VP.",
    "municipal_office": "End of game: +1 VP per 2 buildings you own, counting this one.",
    "seamens_bethel": "End of game: +5 VP.",
    "bakery": "Take 4 food.",
    "brickyard": "Take 3 brick.",
    "chandlery": "Take $1, 1 food, 1 lumber and 1 brick.",
    "cooperage": "Take $1 per whale token on one of your ships.",
    "courthouse": "Build a building paying 2 fewer goods (never money).",
    "inn": "After everyone has placed, before movement, re-place both your workers on Town or Whaling Board spaces.",
    "market": "Sell goods; the first good of each kind sold earns double.",
    "post_office": "Another player's: move this tile to your corner and become its owner. Owner: $2 each End of Round.",
}

# Solo only (rulebook p.16, "Taller de Tornero"; A.6): added to a 1-player game against
# Captains by the option `turners_mill`, after the Captains' building order is laid out.
# Not one of the 20 base tiles, so never in "all" or the default sets.
TURNERS_MILL = {"id": "turners_mill", "name": "Turner's Mill", "type": "action", "two_player": False,
                "cost": {"lumber": 2, "food": 2}, "effect": "repeat_captain", "extra_money": 1}
BUILDING_TEXT["turners_mill"] = ("Repeat the action of the Captain's last worker, paying that action's normal "
                                 "cost plus $1.")

BUILDING_IDS = tuple(b["id"] for b in BUILDINGS)
TWO_PLAYER_BUILDINGS = tuple(b["id"] for b in BUILDINGS if b["two_player"])
SPACES = {s["id"]: s for s in TOWN_SPACES + WHALING_SPACES + [b for b in BUILDINGS if b["type"] == "action"]}
SPACES[TURNERS_MILL["id"]] = TURNERS_MILL
BUILDING_BY_ID = {b["id"]: b for b in [*BUILDINGS, TURNERS_MILL]}
BOARD_SPACE_IDS = tuple(s["id"] for s in TOWN_SPACES + WHALING_SPACES)


def default_buildings(seats: int) -> list[str]:
    """Rulebook p.2 setup 3: the suggested 12 tiles with 2 players, all 20 with 3-4."""
    return list(TWO_PLAYER_BUILDINGS) if seats == 2 else list(BUILDING_IDS)
