"""El Océano Solitario: the automa Captains (Starbuck, Stubb, Flask, Ahab).

A Captain is a player of the game but never a seat: it is appended to
`state["players"]` after the human seats (its entry's `captain` holds its name, Helm
position and heading) and takes its turns inside `decide`, as automatic steps. Every
die roll is written into the events, so a game replays exactly.

The Captain boards (Helm, round-12 headings, Captain's Orders, prepare/launch
restrictions, Building Project, limits, Expert variant) are DATA: one JSON file per
Captain in `captain_boards/`. They are our edition (the printed boards are art that no
available text transcribes); someone holding the printed boards replaces the files,
not this code. `BOARD_SCHEMA` says what a board may contain.

A Captain's worker turn (solo rules pp.12-13):
1. `captain_heading`: roll the Heading die (1,1,1,2,2,3) and advance the token
   clockwise around the Helm; the space (or the half of a split space for this round)
   is the heading. In round 12 the headings printed under the Helm are used instead,
   one per worker; extra actions (Inn) use the Helm as usual.
2. Search the Captain's Orders, in order, until an action space satisfies the heading
   (`search`). Entries: the Captain's own buildings, other players' buildings, the Town
   and Whaling Board actions, a named building (used whenever it is built and free),
   Ahab's Most and Combo, a heading change (search again with another heading, and
   continue with the original one if that finds nothing) and a loop (change the heading
   and go back to step 1; Ahab rerolls his Helm). Going round the orders twice ends the
   search: Ahab then draws a bag token onto one of his ships (or, if he cannot, his
   worker is not placed and he takes no other action this round).
3. `captain_worker_placed`: the worker goes there and the action is carried out as well
   as the Captain can. Captains never pay or collect goods or money; a human owner of a
   building a Captain uses takes $1 from the supply. Where several spaces at the same
   entry are equally good, the human (`chooser`) picks one (`captain_choice_offered`,
   answered by the action `choose_for_captain`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

from . import data, spaces

BOARDS_DIR = Path(__file__).resolve().parent / "captain_boards"
# The biased Heading die (solo rules p.11: sides 1,1,1,2,2,3).
HEADING_DIE = (1, 1, 1, 2, 2, 3)
GOOD_HEADINGS = ("lumber", "food", "brick")
SIMPLE_HEADINGS = (*GOOD_HEADINGS, "money", "prepare", "build_white", "build_black", "victory")
HEADING_PATTERN = r"^(lumber|food|brick|money|prepare|build_white|build_black|victory|(launch|combo):[1-6])$"

# Money headings (solo rules p.13): these buildings count their normal income; Market,
# Lumber Mill and Chandlery count as $5; General Store and Post Office give no money to a
# Captain (Refinery, Perfumery, Customhouse and Brewery are Rising Tide tiles, not in play).
MONEY_AS_FIVE = ("market", "lumber_mill", "chandlery")
NO_MONEY = ("general_store", "post_office")

_heading = {"type": "string", "pattern": HEADING_PATTERN}
_helm_space = {
    "oneOf": [
        _heading,
        {"type": "object", "required": ["early", "late", "from_round"], "additionalProperties": False,
         "properties": {"early": _heading, "late": _heading, "from_round": {"type": "integer", "minimum": 2,
                                                                             "maximum": 12}}},
    ]
}
_building_list = {"type": "array", "items": {"type": "string", "enum": list(data.BUILDING_IDS)}, "uniqueItems": True}
_entry = {
    "oneOf": [
        {"type": "object", "required": ["check"], "additionalProperties": False,
         "properties": {"check": {"enum": ["own", "opponents", "town", "most", "combo"]}}},
        {"type": "object", "required": ["building"], "additionalProperties": False,
         "properties": {"building": {"type": "string", "enum": list(data.BUILDING_IDS)}}},
        {"type": "object", "required": ["change"], "additionalProperties": False, "properties": {"change": _heading}},
        {"type": "object", "required": ["loop"], "additionalProperties": False,
         "properties": {"loop": {"oneOf": [_heading, {"const": "reroll"}]}}},
    ]
}
_limits = {"type": "object", "required": ["buildings", "whales"], "additionalProperties": False,
           "properties": {"buildings": {"type": "integer", "minimum": 0}, "whales": {"type": "integer", "minimum": 0}}}
BOARD_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "New Bedford Captain board",
    "type": "object",
    "required": ["name", "helm", "round12", "orders", "restrictions", "building_project", "victory_order", "limits"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string"},
        "personality": {"type": "string"},
        "edition": {"type": "string"},
        "helm": {"type": "array", "items": _helm_space, "minItems": 4},
        "round12": {"type": "array", "items": _heading, "minItems": data.WORKERS, "maxItems": data.WORKERS},
        "orders": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["step", "entries"], "additionalProperties": False,
            "properties": {"step": {"type": "integer"}, "entries": {"type": "array", "items": _entry, "minItems": 1}}}},
        "restrictions": {"type": "object", "additionalProperties": False,
                         "properties": {"prepare_max_on_dock": {"type": "integer", "minimum": 1, "maximum": 2}}},
        "building_project": {"type": "object", "required": ["white", "black"], "additionalProperties": False,
                             "properties": {"white": _building_list, "black": _building_list}},
        "victory_order": _building_list,
        "limits": _limits,
        "keep_taking_whales": {"type": "boolean"},
        "keep_best_whales": {"type": "integer", "minimum": 0},
        "double_loop_draw": {"type": "boolean"},
        "expert": {"type": "object", "additionalProperties": False,
                   "properties": {"limits": _limits, "round12": {"type": "array", "items": _heading,
                                                                  "minItems": data.WORKERS,
                                                                  "maxItems": data.WORKERS}}},
    },
}


def load_boards(directory: Path = BOARDS_DIR) -> dict[str, dict]:
    """Every `<name>.json` board in `directory`, checked against BOARD_SCHEMA."""
    validator = jsonschema.Draft202012Validator(BOARD_SCHEMA)
    out = {}
    for path in sorted(directory.glob("*.json")):
        board = json.loads(path.read_text())
        errors = sorted(validator.iter_errors(board), key=lambda e: list(e.absolute_path))
        if errors:
            e = errors[0]
            where = "/".join(map(str, e.absolute_path)) or "(top)"
            raise ValueError(f"Captain board {path.name}: {where}: {e.message}")
        out[path.stem] = board
    return out


BOARDS = load_boards()
NAMES = tuple(BOARDS)


_EXPERT: dict[str, dict] = {}


def board_for(state, player: int) -> dict:
    """The Captain's board, with the Expert variant's overrides when the game uses it."""
    name = state["players"][player]["captain"]["name"]
    b = BOARDS[name]
    if state["captain_game"]["expert"] and b.get("expert"):
        got = _EXPERT.get(name)
        if got is None:
            got = _EXPERT[name] = {**b, **b["expert"]}
        return got
    return b


# --- who is who ----------------------------------------------------------------------
def is_captain(state, player: int) -> bool:
    return state["players"][player]["captain"] is not None


def round_order(humans: int, captains: list[int], human_start: int, rnd: int) -> list[int]:
    """Turn order of a round with Captains (solo rules p.16): the Captains first, the humans
    last. Captains take turns being first (each round the next one leads); the humans
    rotate among themselves from `human_start`. So 1 Captain with 2-3 humans: the Captain
    is always first and the humans alternate as next; 2 Captains with 2 humans: Starbuck,
    Flask, Starbuck's controller, Flask's controller, then Flask, Starbuck, ..."""
    r = rnd - 1
    k = len(captains)
    return [captains[(j + r) % k] for j in range(k)] + [(human_start + j + r) % humans for j in range(humans)]


def chooser(state) -> int:
    """The human who decides for a Captain when its orders leave a choice: the only human
    in solo; otherwise the first human in this round's order (with 2 Captains and 2
    humans, the controller of the Captain who is first player: p.16)."""
    n = state["seats"]
    return next(p for p in state["captain_game"]["order"] if p < n)


# --- the Helm --------------------------------------------------------------------------
def heading_at(board: dict, pos: int, rnd: int) -> str:
    space = board["helm"][pos]
    if isinstance(space, str):
        return space
    return space["late"] if rnd >= space["from_round"] else space["early"]


def roll_helm(board: dict, pos: int, rnd: int, rng) -> tuple[int, int, str]:
    roll = rng.choice(HEADING_DIE)
    to = (pos + roll) % len(board["helm"])
    return roll, to, heading_at(board, to, rnd)


HEADING_TEXT = {
    "lumber": "lumber", "food": "food", "brick": "brick", "money": "money", "prepare": "prepare a ship",
    "build_white": "build (white house)", "build_black": "build (black house)", "victory": "build a Victory building",
}


def heading_text(h: str) -> str:
    if h.startswith("launch:"):
        return f"launch a ship to space {h[7:]}"
    if h.startswith("combo:"):
        return f"prepare, or else launch to space {h[6:]}"
    return HEADING_TEXT[h]


def entry_text(state, player: int, entry: dict) -> str:
    name = state["players"][player]["captain"]["name"].capitalize()
    if "check" in entry:
        return {"own": f"{name}'s buildings", "opponents": "opponents' buildings", "town": "Town and Whaling Board actions",
                "most": "Most (buildings giving most)", "combo": "Combo (buildings combining most)"}[entry["check"]]
    if "building" in entry:
        return data.BUILDING_BY_ID[entry["building"]]["name"]
    if "change" in entry:
        return f"change heading to {heading_text(entry['change'])}"
    return "reroll the Helm and go back to step 1" if entry["loop"] == "reroll" else \
        f"change heading to {heading_text(entry['loop'])} and go back to step 1"


# --- limits ------------------------------------------------------------------------------
def whales_held(state, player: int) -> int:
    p = state["players"][player]
    return sum(p["returned"].values()) + sum(sum(s["hold"].values()) for s in p["ships"])


def may_take_whale(state, player: int) -> bool:
    """Captains at their whale limit cannot take or buy whales, except Stubb (p.16)."""
    b = board_for(state, player)
    return bool(b.get("keep_taking_whales")) or whales_held(state, player) < b["limits"]["whales"]


def buildings_owned(state, player: int) -> int:
    return sum(1 for t in state["buildings"].values() if t["owner"] == player)


def best_whale(state, player: int, available: dict[str, int]) -> str | None:
    """Captains always take the most valuable whale available (p.15)."""
    if not may_take_whale(state, player):
        return None
    for k in ("sperm", "bowhead", "right"):
        if available.get(k):
            return k
    return None


def trim_whales(state, player: int) -> dict | None:
    """Stubb keeps only his best `keep_best_whales` whales at the end (p.16)."""
    b = board_for(state, player)
    keep = b.get("keep_best_whales")
    if keep is None:
        return None
    returned = state["players"][player]["returned"]
    if sum(returned.values()) <= keep:
        return None
    kept = {k: 0 for k in data.WHALE_KINDS}
    left = keep
    for k in ("sperm", "bowhead", "right"):
        kept[k] = min(returned[k], left)
        left -= kept[k]
    sold = {k: returned[k] - kept[k] for k in data.WHALE_KINDS}
    return {"kept": kept, "sold": sold}


# --- what a space does for a Captain ----------------------------------------------------------
def _target_building(state, player: int, heading: str | None, board: dict) -> str | None:
    """The building a build heading asks for: the first one of the heading's list, in the
    order laid out at setup (white/black house), or the Victory buildings in the order of
    the Captain's Orders. With no build heading (a named Courthouse/Town Hall), the first
    of white, black, then Victory."""
    if buildings_owned(state, player) >= board["limits"]["buildings"]:
        return None
    free = [b for b, t in state["buildings"].items() if t["owner"] is None and b in data.BUILDING_IDS]
    if heading == "victory":
        wanted = [b for b in board["victory_order"] if b in free]
        return wanted[0] if wanted else None
    lists = {"build_white": ["white"], "build_black": ["black"]}.get(heading, ["white", "black"])
    wanted = {b for name in lists for b in board["building_project"][name]}
    for b in state["captain_game"]["building_order"]:
        if b in wanted and b in free:
            return b
    if heading is None:
        victory = [b for b in board["victory_order"] if b in free]
        return victory[0] if victory else None
    return None


def _ship_at(state, player: int, where: str) -> int | None:
    for i, s in enumerate(state["players"][player]["ships"]):
        if s["at"] == where:
            return i + 1
    return None


def _launch_row(heading: str | None) -> int | None:
    if heading and (heading.startswith("launch:") or heading.startswith("combo:")):
        return int(heading.split(":")[1])
    return None


def _can_prepare(state, player: int, board: dict) -> int | None:
    on_dock = sum(1 for s in state["players"][player]["ships"] if s["at"] == "dock")
    if on_dock >= board["restrictions"].get("prepare_max_on_dock", 2):
        return None
    return _ship_at(state, player, "home")


def restrictions_view(state, player: int) -> dict:
    """The board's "Restricciones a Preparar y Zarpar" (solo p.13, region 2 of the Captain's
    board; p.13: the Captain prepares and launches "siguiendo cualquier restricción de las Órdenes
    del Capitán"), with what they mean now: how many of his ships wait on the Dock, whether a
    Prepare heading can prepare, and so whether a combined heading prepares or launches."""
    board = board_for(state, player)
    most = board["restrictions"].get("prepare_max_on_dock", 2)
    ships = state["players"][player]["ships"]
    on_dock = sum(1 for s in ships if s["at"] == "dock")
    at_home = sum(1 for s in ships if s["at"] == "home")
    can = _can_prepare(state, player, board) is not None
    if on_dock >= most:
        why = f"{on_dock} of his ships {'is' if on_dock == 1 else 'are'} on the Dock"
    elif not at_home:
        why = "no ship of his is at home"
    else:
        why = ""
    text = [f"Prepare: only while fewer than {most} of his ships wait on the Dock" if most > 1 else
            "Prepare: only when none of his ships waits on the Dock",
            "Launch: only to the exact space of the heading; no launch when that row is full",
            "Prepare/Launch heading: a Prepare while he can prepare, else a Launch to its space"]
    now = ("He can prepare now: a Prepare/Launch heading prepares." if can else
           f"He cannot prepare now ({why}): a Prepare heading finds no action, a Prepare/Launch heading is a Launch heading.")
    # `text` and `now` are the English of the catalogs' label.restriction_* (kept for old clients):
    # the clients word them from the numbers.
    return {"prepare_max_on_dock": most, "on_dock": on_dock, "at_home": at_home, "can_prepare": can, "text": text,
            "now": now}


def _gain(state, player: int, sid: str, space: dict, heading: str | None, bonus: dict):
    gain = dict(space["gain"])
    for k, v in bonus.get("gain", {}).items():
        gain[k] = gain.get(k, 0) + v
    if heading in GOOD_HEADINGS:
        n = gain.get(heading, 0) + (1 if heading in bonus.get("gain_one_of", ()) else 0)
        goods = sum(v for k, v in gain.items() if k != "money")
        if n:
            facts = {"bonus": heading} if "gain_one_of" in bonus else {}
            return (n, goods + len(facts)), facts
        return None
    if heading == "money":
        money = 5 if sid in MONEY_AS_FIVE else gain.get("money", 0)
        return ((money, 0), {}) if money else None
    if heading is None:
        facts = {"bonus": bonus["gain_one_of"][0]} if "gain_one_of" in bonus else {}
        return (0, 0), facts
    return None


def _sell(state, player: int, sid: str, space: dict, heading: str | None, bonus: dict):
    if heading == "money" and sid in MONEY_AS_FIVE:
        return (5, 0), {}
    return ((0, 0), {}) if heading is None and sid not in NO_MONEY else None


def _build(state, player: int, sid: str, space: dict, heading: str | None, bonus: dict):
    if heading not in ("build_white", "build_black", "victory", None):
        return None
    target = _target_building(state, player, heading, board_for(state, player))
    if target is None:
        return None
    discount = space.get("discount", 0) + bonus.get("discount", 0)
    return (discount, 0), {"build": target}


def _prepare(state, player: int, sid: str, space: dict, heading: str | None, bonus: dict):
    if heading is not None and heading != "prepare" and not (heading or "").startswith("combo:"):
        return None
    ship = _can_prepare(state, player, board_for(state, player))
    if ship is None:
        return None
    return (sum(bonus.get("cost_discount", {}).values()), 0), {"prepare": ship}


def _launch(state, player: int, sid: str, space: dict, heading: str | None, bonus: dict):
    row = _launch_row(heading)
    if row is None:
        return None
    if heading.startswith("combo:") and _can_prepare(state, player, board_for(state, player)) is not None:
        return None  # a combo heading is a prepare heading while the Captain can prepare
    ship = _ship_at(state, player, space["from"])
    if ship is None or len(state["track"][row]) >= data.RANKS:
        return None
    food = data.launch_food(row)
    saved = food - (food + 1) // 2 if space["food"] == "half_up" else bonus.get("food_discount", 0)
    facts: dict[str, Any] = {"launch": {"ship": ship, "to": row}}
    if space["from"] == "home":
        facts["prepare_and_launch"] = True
    return (saved, 0), facts


def _move_out(state, player: int, sid: str, space: dict, heading: str | None, bonus: dict):
    if heading is not None:
        return None
    ships = sorted((s["row"], state["track"][s["row"]].index([player, i + 1]), i + 1)
                   for i, s in enumerate(state["players"][player]["ships"]) if s["at"] == "sea")
    for row, _, n in ships:
        if row < data.FARTHEST_ROW and len(state["track"][row + 1]) < data.RANKS:
            return (0, 0), {"move_out": {"ship": n, "from": row, "to": row + 1}}
    return None


def _remove_empty_sea(state, player: int, sid: str, space: dict, heading: str | None, bonus: dict):
    empty = state["sea_tokens"]["empty"]
    if heading not in ("money", None) or not empty:
        return None
    k = min(2, empty)
    return (space["payout"][str(k)], 0), {"remove_empty_sea": k}


def _return_right_whales(state, player: int, sid: str, space: dict, heading: str | None, bonus: dict):
    if heading not in ("money", None):
        return None
    best = max(((min(space["max"], s["hold"]["right"]), i + 1) for i, s in enumerate(state["players"][player]["ships"])),
               key=lambda x: (x[0], -x[1]))
    if not best[0]:
        return None
    return (best[0] * data.WHALES["right"]["lay"], 0), {"return_whales": {"ship": best[1],
                                                                            "whales": {"right": best[0]}}}


def _pay_per_whale(state, player: int, sid: str, space: dict, heading: str | None, bonus: dict):
    if heading not in ("money", None):
        return None
    best = max(((sum(s["hold"].values()), i + 1) for i, s in enumerate(state["players"][player]["ships"])),
               key=lambda x: (x[0], -x[1]))
    if not best[0]:
        return None
    return (best[0] * space["per_whale"], 0), {"ship": best[1]}


def _replace_workers(state, player: int, sid: str, space: dict, heading: str | None, bonus: dict):
    return ((0, 0), {"inn": True}) if heading is None else None


def _take_ownership(state, player: int, sid: str, space: dict, heading: str | None, bonus: dict):
    if heading is not None or state["buildings"][sid]["owner"] == player:
        return None  # gives a Captain no money; used only when named, never by its owner
    return (0, 0), {"take_ownership": sid}


# What each kind of space does for a Captain (Turner's Mill's kind is absent: never used by one).
_EFFECTS = {"gain": _gain, "sell": _sell, "build": _build, "prepare": _prepare, "launch": _launch,
            "move_out": _move_out, "remove_empty_sea": _remove_empty_sea, "return_right_whales": _return_right_whales,
            "pay_per_whale": _pay_per_whale, "replace_workers": _replace_workers, "take_ownership": _take_ownership}


def effect_for(state, player: int, sid: str, heading: str | None, first: bool) -> tuple[tuple, dict] | None:
    """What space `sid` does for the Captain under `heading` (None: a named building, used
    for whatever it can do): a value to rank equally placed options (more goods, more
    money, bigger discount) and the facts of the placement, or None when it does not
    satisfy the heading or cannot be performed."""
    space = data.SPACES[sid]
    effect = _EFFECTS.get(space["effect"])
    if effect is None:
        return None
    return effect(state, player, sid, space, heading, space.get("bonus", {}) if first else {})


def _resources_total(sid: str) -> tuple[int, int]:
    """For Ahab's Most and Combo: the resources a building gives in total (or its discount)
    and how many different kinds of resource or action it combines."""
    space = data.SPACES[sid]
    if space["effect"] == "gain":
        g = space["gain"]
        return sum(g.values()), len(g)
    if sid in MONEY_AS_FIVE:
        return 5, 1
    if space["effect"] == "build":
        return space.get("discount", 0), 1
    if space["effect"] == "launch":
        return (2 if space["food"] == "half_up" else 0), (2 if space["from"] == "home" else 1)
    return 0, 1


# Effects whose total for Ahab's Most and Combo is their value in this state (v4).
_TOTAL_BY_STATE = ("launch", "remove_empty_sea", "return_right_whales", "pay_per_whale")


# --- searching the orders -----------------------------------------------------------------
_MAY_SATISFY: dict[tuple[str, str], bool] = {}


def _may_satisfy(sid: str, heading: str) -> bool:
    """False when space `sid` can never satisfy `heading` (a static table, filled as asked):
    `effect_for` is then certain to return None, and the search skips the space. True means
    only that it might, in some state."""
    key = (sid, heading)
    got = _MAY_SATISFY.get(key)
    if got is None:
        got = _MAY_SATISFY[key] = _may_satisfy_uncached(sid, heading)
    return got


def _may_satisfy_uncached(sid: str, heading: str) -> bool:
    space = data.SPACES[sid]
    kind = space["effect"]
    bonus = space.get("bonus", {})
    launch_like = heading.startswith("launch:") or heading.startswith("combo:")
    if kind == "gain":
        if heading in GOOD_HEADINGS:
            return heading in space["gain"] or heading in bonus.get("gain", {}) or heading in bonus.get("gain_one_of", ())
        if heading == "money":
            return sid in MONEY_AS_FIVE or "money" in space["gain"] or "money" in bonus.get("gain", {})
        return False
    if kind == "sell":
        return heading == "money" and sid in MONEY_AS_FIVE
    if kind == "build":
        return heading in ("build_white", "build_black", "victory")
    if kind == "prepare":
        return heading == "prepare" or heading.startswith("combo:")
    if kind == "launch":
        return launch_like
    if kind in ("remove_empty_sea", "return_right_whales", "pay_per_whale"):
        return heading == "money"
    return False  # move_out, replace_workers, take_ownership: only with no heading; the mill: never


_USES: dict[int, tuple[dict, list]] = {}
_LABELS: dict[tuple[str, int, int], tuple[dict, str]] = {}


def _uses(board: dict) -> list[tuple[int, dict]]:
    """The board's entries that name spaces (checks and buildings), with their steps."""
    got = _USES.get(id(board))
    if got is None or got[0] is not board:
        got = _USES[id(board)] = (board, [(st["step"], e) for st in board["orders"] for e in st["entries"]
                                          if "check" in e or "building" in e])
    return got[1]


def _label(state, player: int, st: dict, e: dict) -> str:
    """'step N: <entry text>' of an order entry (a table per Captain and entry)."""
    name = state["players"][player]["captain"]["name"]
    key = (name, id(st), id(e))
    got = _LABELS.get(key)
    if got is None or got[0] is not e:
        got = _LABELS[key] = (e, f"step {st['step']}: {entry_text(state, player, e)}")
    return got[1]


def _spaces_for(state, player: int, check: str) -> list[str]:
    inn = spaces.inn_placement(state)
    if check == "town":
        return list(data.BOARD_SPACE_IDS)
    if inn:
        return []  # Inn re-placements use only Town and Whaling Board spaces
    out = []
    for b, t in state["buildings"].items():
        if t["owner"] is None or t["used"] or data.BUILDING_BY_ID[b]["type"] != "action":
            continue
        mine = t["owner"] == player
        if (check == "own" and mine) or (check == "opponents" and not mine) or check in ("most", "combo"):
            out.append(b)
    return out


_BOARD_SPACES = frozenset(data.BOARD_SPACE_IDS)
_TOWN: dict[str, tuple[str, ...]] = {}


def _town_spaces(heading: str) -> tuple[str, ...]:
    """The Town and Whaling Board spaces that may satisfy `heading` (`_spaces_for` "town",
    filtered by the static `_may_satisfy` table), in board order."""
    got = _TOWN.get(heading)
    if got is None:
        got = _TOWN[heading] = tuple(sid for sid in data.BOARD_SPACE_IDS if _may_satisfy(sid, heading))
    return got


def _candidates(state, player: int, entry: dict, heading: str) -> list[dict]:
    """The spaces an order entry offers for `heading`, as candidate placements."""
    if "building" in entry:
        b = entry["building"]
        t = state["buildings"].get(b)
        if t is None or t["owner"] is None or t["used"] or spaces.inn_placement(state):
            return []
        r = effect_for(state, player, b, heading, False) or effect_for(state, player, b, None, False)
        return [] if r is None else [_placement(state, player, b, False, r)]
    check = entry["check"]
    out = []
    occupancy = state["occupancy"]
    if check == "town":
        sids = _town_spaces(heading)
    else:
        sids = [sid for sid in _spaces_for(state, player, check) if _may_satisfy(sid, heading)]
    for sid in sids:
        first = sid in occupancy and sid in _BOARD_SPACES and not occupancy[sid]
        r = effect_for(state, player, sid, heading, first)
        if r is None:
            continue
        if check in ("most", "combo"):
            total, kinds = _resources_total(sid)
            if version(state) >= 4 and data.SPACES[sid]["effect"] in _TOTAL_BY_STATE:
                # v4 (audit): what these buildings give depends on the table (the Tavern's
                # $4/$6, the Cooperage's $1 per whale, the Tryworks' lays saved, the Wharf's
                # half of the food for this space): their total is that value, not 0 or a
                # fixed 2, so "the most resources in total" (p.13) ranks them by what they
                # give now. v1-3 games keep the fixed totals.
                total = r[0][0]
            # Most: the most resources in total (or the biggest discount), then the one that
            # combines different resources; Combo: the combination first (p.13).
            value = (total, kinds, r[0][0]) if check == "most" else (kinds, total, r[0][0])
            r = (value, r[1])
        out.append(_placement(state, player, sid, first, r))
    return out


def _placement(state, player: int, sid: str, first: bool, r: tuple[tuple, dict]) -> dict:
    value, facts = r
    p: dict[str, Any] = {"space": sid, "first": first, "value": list(value), **facts}
    owner = state["buildings"][sid]["owner"] if sid in state["buildings"] else None
    if owner is not None and owner != player and not is_captain(state, owner):
        # Whenever a Captain uses the player's building, the player takes $1 from the supply.
        p["owner_paid"] = {"seat": owner, "money": data.BUILDING_FEE}
    p["owner"] = owner
    return p


def _best(state, player: int, cands: list[dict]) -> list[dict]:
    top = max(tuple(c["value"]) for c in cands)
    best = [c for c in cands if tuple(c["value"]) == top]
    # A Captain prefers the Captains' action spaces to the player's on a tie (p.16).
    captains_own = [c for c in best if c["owner"] is not None and is_captain(state, c["owner"])]
    return captains_own or best


def search(state, player: int, heading: str, rng) -> dict:
    """Follow the Captain's Orders for `heading`. Returns {"found": [candidates...] or None,
    "heading", "entry", "trace", "rolls", "helm"}; the dice rolled on the way (Ahab's
    rerolls) are in "rolls" and the Helm position they led to in "helm"."""
    board = board_for(state, player)
    cap = state["players"][player]["captain"]
    rnd = state["round"]
    helm = cap["helm"]
    trace: list[str] = []
    rolls: list[int] = []
    uses = _uses(board)
    passes = 0
    while True:
        for st in board["orders"]:
            for e in st["entries"]:
                label = _label(state, player, st, e)
                if "change" in e:
                    new = e["change"]
                    if new == heading:
                        trace.append(f"{label}: already the heading")
                        continue
                    for step, ue in uses:
                        cands = _candidates(state, player, ue, new)
                        if cands:
                            trace.append(f"{label}: step {step}, {entry_text(state, player, ue)} satisfies it")
                            return _found(state, player, cands, new, f"{label} → step {step}: "
                                          f"{entry_text(state, player, ue)}", trace, rolls, helm)
                    trace.append(f"{label}: nothing; back to {heading_text(heading)}")
                    continue
                if "loop" in e:
                    passes += 1
                    if passes >= 2:
                        trace.append(f"{label}: went round the orders twice")
                        return {"found": None, "heading": heading, "entry": label, "trace": trace, "rolls": rolls,
                                "helm": helm}
                    if e["loop"] == "reroll":
                        roll, helm, heading = roll_helm(board, helm, rnd, rng)
                        rolls.append(roll)
                        trace.append(f"{label}: rolled {roll}, new heading {heading_text(heading)}")
                    else:
                        heading = e["loop"]
                        trace.append(f"{label}")
                    break
                cands = _candidates(state, player, e, heading)
                if cands:
                    return _found(state, player, cands, heading, label, trace, rolls, helm)
                trace.append(f"{label}: nothing for {heading_text(heading)}")
            else:
                continue
            break  # a loop entry: back to step 1
        else:
            passes += 1  # the end of the orders: round again from step 1
            if passes >= 2:
                return {"found": None, "heading": heading, "entry": "end of the orders", "trace": trace,
                        "rolls": rolls, "helm": helm}


def _found(state, player, cands, heading, label, trace, rolls, helm) -> dict:
    return {"found": _best(state, player, cands), "heading": heading, "entry": label, "trace": trace, "rolls": rolls,
            "helm": helm}


# --- automatic steps ---------------------------------------------------------------------
def worker_turn(state, player: int, rng) -> dict:
    """The next event of a Captain's worker turn (heading, then placement or offer)."""
    cap = state["players"][player]["captain"]
    name = cap["name"]
    base = {"player": player, "captain": name}
    if cap["idle"]:
        return {"type": "captain_worker_skipped", **base,
                "reason": "Ahab drew a token he could not keep: his worker is not placed this round",
                "inn_placement": spaces.inn_placement(state)}
    board = board_for(state, player)
    if cap["turn_heading"] is None:
        rnd = state["round"]
        if rnd == data.ROUNDS and not spaces.inn_placement(state):
            k = round12_turn(state, player)
            h = board["round12"][min(k, len(board["round12"]) - 1)]
            return {"type": "captain_heading", **base, "roll": None, "from": cap["helm"], "to": cap["helm"],
                    "heading": h, "text": f"Round 12: heading {heading_text(h)} (printed under the Helm)"}
        roll, to, h = roll_helm(board, cap["helm"], rnd, rng)
        return {"type": "captain_heading", **base, "roll": roll, "from": cap["helm"], "to": to, "heading": h,
                "text": f"rolled {roll}: heading {heading_text(h)}"}
    r = search(state, player, cap["turn_heading"], rng)
    common = {**base, "rolled_heading": cap["turn_heading"], "heading": r["heading"], "entry": r["entry"],
              "trace": r["trace"], "rolls": r["rolls"], "helm": r["helm"], "inn_placement": spaces.inn_placement(state)}
    if r["found"] is None:
        if board.get("double_loop_draw"):
            return _ahab_draw(state, player, common, rng)
        return {"type": "captain_worker_skipped", **common, "reason": "no action satisfies the orders"}
    found = r["found"]
    if len(found) == 1:
        return {"type": "captain_worker_placed", **common, **_facts(found[0])}
    return {"type": "captain_choice_offered", **common, "chooser": chooser(state),
            "choices": [{"choice": c["space"], "event": {"type": "captain_worker_placed", **common, **_facts(c)},
                         "text": option_text(c)} for c in found]}


def version(state) -> int:
    """The engine version the game was started with (v1-2 states carry none)."""
    return state.get("version", 1)


def round12_turn(state, player: int) -> int:
    """Which of the round-12 headings printed under the Helm this worker turn uses (solo
    rules p.12: one per turn). From v3: the Captain's turn number this round, counted by
    the round's placements (a turn in which Ahab drew a token and placed no worker still
    counts). v1-2 counted the workers on the board, so after such a turn Ahab's second
    turn took the first heading again; old games keep that."""
    if version(state) >= 3:
        return state["placed"] // len(state["captain_game"]["order"])
    return len(state["players"][player]["workers"])


def _facts(c: dict) -> dict:
    return {k: v for k, v in c.items() if k not in ("value", "owner")}


def option_text(c: dict) -> str:
    words = [data.SPACES[c["space"]]["name"]]
    if "build" in c:
        words.append(f"build {data.BUILDING_BY_ID[c['build']]['name']}")
    if "launch" in c:
        words.append(f"launch Ship {c['launch']['ship']} to space {c['launch']['to']}")
    if "prepare" in c:
        words.append(f"prepare Ship {c['prepare']}")
    if "owner_paid" in c:
        words.append(f"seat {c['owner_paid']['seat']} takes $1")
    return ": ".join([words[0], ", ".join(words[1:])]) if len(words) > 1 else words[0]


def _ahab_draw(state, player: int, common: dict, rng) -> dict:
    """Ahab went round his orders twice (p.13): draw a token from the Ocean Bag and add it to
    one of his ships (the player's choice) if possible; otherwise it goes back to the bag and
    his worker is not placed and takes no other action this round."""
    bag = state["bag"]
    pool = [k for k in data.TOKEN_KINDS for _ in range(bag[k])]
    kind = rng.choice(pool) if pool else None
    ships = [i + 1 for i, s in enumerate(state["players"][player]["ships"]) if s["at"] == "sea"]
    base = {"type": "captain_token_drawn", **common, "kind": kind}
    if kind is None or kind == "empty" or not ships or not may_take_whale(state, player):
        return {**base, "ship": None, "returned": kind is not None}
    if len(ships) == 1:
        return {**base, "ship": ships[0], "returned": False}
    return {"type": "captain_choice_offered", **common, "chooser": chooser(state),
            "choices": [{"choice": f"ship{n}", "event": {**base, "ship": n, "returned": False},
                         "text": f"put the {data.WHALES[kind]['name']} on Ahab's Ship {n}"} for n in ships]}
