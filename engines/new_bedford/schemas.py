"""JSON Schemas (2020-12) of New Bedford's actions, events and view, published through
`GET /v1/engines/new-bedford` and checked by the engine kit on random games (with and
without Captains). Built from the tables in data.py, so the enums follow the data."""

from __future__ import annotations

from typing import Any

from tablero.engines.core.rules import JSON_SCHEMA_DIALECT, array, boolean, counts, integer, obj, string

from . import captains, data
from .data import GOODS, RESOURCES, TOKEN_KINDS, WHALE_KINDS

S = dict[str, Any]
NULL: S = {"type": "null"}


def nullable(s: S) -> S:
    return {"anyOf": [s, NULL]}


SPACE_IDS = sorted(data.SPACES)
BUILDING_IDS = sorted(data.BUILDING_BY_ID)
PLAYER = integer(0, 3, description="a player: a seat, or a Captain's index after the seats")
SEAT = integer(0, 3)
SHIP = integer(1, 2)
ROW = integer(0, data.FARTHEST_ROW)
SEA_ROW = integer(data.SEA_ROWS[0], data.SEA_ROWS[-1])
WHALES = counts(WHALE_KINDS)
TOKENS = counts(TOKEN_KINDS)
GOODS_COUNTS = counts(RESOURCES)
HEADING = string(pattern=captains.HEADING_PATTERN)
SHIP_ROW = obj({"ship": SHIP, "to": SEA_ROW}, ["ship", "to"])
MOVE_OUT = obj({"ship": SHIP, "from": SEA_ROW, "to": SEA_ROW}, ["ship", "from", "to"])
RETURN_WHALES = obj({"ship": SHIP, "whales": WHALES}, ["ship", "whales"])
OWNER_PAID = obj({"seat": SEAT, "money": integer(1)}, ["seat", "money"])

# --- actions ------------------------------------------------------------------------------------
PLACE_PARAMS: S = {
    "bonus": string(GOODS, description="Warehouse, 1st worker: the extra good"),
    "sell": counts(GOODS, description="goods sold (General Store, Lumber Mill, Market)"),
    "build": string(BUILDING_IDS),
    "discount": counts(RESOURCES, description="goods taken off the printed cost (Town Hall 1st, Courthouse; never money)"),
    "ship": SHIP,
    "to": SEA_ROW,
    "remove": integer(1, 2),
    "right": integer(1, 3),
}


# The moves' field schemas (engine.MOVES); the core builds the action schema from them.
STARTING_GOODS_FIELDS: S = {k: integer(0) for k in ("lumber", "food", "brick", "money")}
PURCHASE_GOOD = string(data.PURCHASE_GOODS)
SPACE = string(sorted(set(SPACE_IDS) | set(BUILDING_IDS)))  # a Victory building: well-formed, not allowed
TOKEN_KIND = string(TOKEN_KINDS)
GOOD = string(GOODS)
COUNT = integer(0, description="how many of the good to sell (0 for none)")
CHOICE_ID = string(minLength=1, description="a space id, or ship1/ship2 (Ahab's drawn token)")


# --- events -------------------------------------------------------------------------------------
PLACEMENT_FACTS: S = {
    "first": boolean(),
    "bonus": string(GOODS),
    "build": string(BUILDING_IDS),
    "prepare": SHIP,
    "launch": SHIP_ROW,
    "prepare_and_launch": boolean(),
    "move_out": MOVE_OUT,
    "return_whales": RETURN_WHALES,
    "remove_empty_sea": integer(1, 2),
    "take_ownership": string(BUILDING_IDS),
    "ship": SHIP,
    "inn": boolean(),
    "inn_placement": boolean(),
}
# Why a Captain's worker is not placed: Ahab drew a token he could not keep (his worker sits out
# the round), or no action satisfies the orders.
SKIP_REASONS = ("worker_sits_out", "orders_exhausted")
# Why a buy or a pick passed by itself (`auto`, the engine's English): a Captain at his whale limit
# (solo p.16), or a player who cannot afford any whale for sale.
PASS_REASONS = ("at_whale_limit", "cannot_afford_whale")
CAPTAIN_TURN: S = {
    "player": PLAYER,
    "captain": string(captains.NAMES),
    "rolled_heading": HEADING,
    "heading": HEADING,
    "entry": string(),
    "trace": array(string()),
    "rolls": array(integer(1, 3)),
    "helm": integer(0),
    "inn_placement": boolean(),
}
CAPTAIN_PLACED_FIELDS: S = {
    **CAPTAIN_TURN,
    **PLACEMENT_FACTS,
    "space": string(SPACE_IDS),
    "owner_paid": OWNER_PAID,
    "chosen_by": SEAT,
}
CAPTAIN_PLACED = obj({"type": {"const": "captain_worker_placed"}, **CAPTAIN_PLACED_FIELDS},
                     ["type", *CAPTAIN_TURN, "space", "first"], title="captain_worker_placed")
TOKEN_DRAWN_FIELDS: S = {**CAPTAIN_TURN, "kind": nullable(string(TOKEN_KINDS)), "ship": nullable(SHIP),
                         "returned": boolean(), "chosen_by": SEAT}
TOKEN_DRAWN = obj({"type": {"const": "captain_token_drawn"}, **TOKEN_DRAWN_FIELDS},
                  ["type", *CAPTAIN_TURN, "kind", "ship", "returned"], title="captain_token_drawn")
SCORE = obj({
    "seat": PLAYER, "player": PLAYER, "captain": string(captains.NAMES), "whales": WHALES,
    "whale_points": integer(0), "buildings": array(string(BUILDING_IDS)), "building_points": integer(0),
    "victory_buildings": {"type": "object", "additionalProperties": integer(0)}, "victory_points": integer(0),
    "money": integer(0), "money_points": integer(0), "total": integer(0),
    "tiebreak": obj({"whale_tokens": integer(0), "unscored_money": integer(0)}, ["whale_tokens", "unscored_money"]),
}, ["whales", "whale_points", "buildings", "building_points", "victory_points", "money_points", "total"])
RESULT_FIELDS: S = {"scores": array(integer(0)), "winners": array(SEAT), "details": array(SCORE),
                    "captains": array(SCORE), "captain_winners": array(string(captains.NAMES))}


# The game's outcome (engine.outcome: the game_ended event's result); `captains`, `captain_winners`
# in games against the Captains.
OUTCOME_SCHEMA: S = {"$schema": JSON_SCHEMA_DIALECT, "title": "new-bedford outcome",
                     **obj(RESULT_FIELDS, ["scores", "winners", "details"])}


def _event(t: str, fields: S, required: list[str] | None = None) -> S:
    return obj({"type": {"const": t}, **fields}, ["type", *(fields if required is None else required)], title=t)


EVENTS: list[S] = [
    _event("game_started", {
        "first_player": SEAT, "buildings": array(string(BUILDING_IDS)), "bag": TOKENS,
        "captains": array(obj({"name": string(captains.NAMES), "roll": integer(1, 3), "helm": integer(0),
                               "heading": HEADING}, ["name", "roll", "helm", "heading"])),
        "building_order": array(string(BUILDING_IDS)), "expert": boolean(), "turners_mill": boolean(),
    }, ["first_player", "buildings", "bag"]),
    _event("starting_goods_chosen", {"seat": SEAT, "goods": GOODS_COUNTS}),
    _event("goods_bought", {"seat": SEAT, "good": string(data.PURCHASE_GOODS), "amount": integer(1),
                            "price": integer(0)}),
    _event("worker_placed", {
        "seat": SEAT, "space": string(SPACE_IDS), "pay": GOODS_COUNTS, "gain": GOODS_COUNTS, "fee": integer(1),
        "owner": PLAYER, "sold": counts(GOODS), "repeat": string(SPACE_IDS), **PLACEMENT_FACTS,
    }, ["seat", "space", "first", "pay", "gain"]),
    _event("sale_opened", {"seat": SEAT, "space": string(SPACE_IDS), "kinds": array(string(GOODS), 1, 3)}),
    _event("goods_offered", {"seat": SEAT, "good": string(GOODS), "count": integer(0)}),
    _event("inn_workers_picked_up", {"seat": PLAYER, "spaces": array(string(SPACE_IDS))}),
    _event("ships_moved", {"final": boolean(), "returning": array(array(integer(0), 2, 2)), "in_order": boolean()},
           ["final", "returning"]),
    _event("ship_returned", {"seat": PLAYER, "ship": SHIP, "pay": WHALES, "sell": WHALES, "lay_paid": integer(0),
                             "sale_money": integer(0), "forced": boolean(), "captain": boolean()},
           ["seat", "ship", "pay", "sell", "lay_paid", "sale_money"]),
    _event("whale_bought", {"seat": PLAYER, "kind": string(WHALE_KINDS), "price": integer(0), "captain": boolean()},
           ["seat", "kind", "price"]),
    _event("buy_passed", {"seat": PLAYER, "auto": string(), "why": string(PASS_REASONS)}, ["seat"]),
    _event("sale_closed", {"seat": SEAT, "discarded": WHALES}),
    _event("whales_drawn", {"returned_to_bag": TOKENS, "drawn": TOKENS}),
    _event("whale_picked", {"seat": PLAYER, "ship": SHIP, "kind": string(WHALE_KINDS), "captain": boolean()},
           ["seat", "ship", "kind"]),
    _event("pick_passed", {"seat": PLAYER, "ship": SHIP, "auto": string(), "why": string(PASS_REASONS)},
           ["seat", "ship"]),
    _event("round_ended", {"round": integer(1, data.ROUNDS), "post_office": nullable(OWNER_PAID),
                           "first_player": PLAYER, "order": array(PLAYER), "last": boolean()},
           ["round", "post_office", "first_player", "last"]),
    _event("game_ended", RESULT_FIELDS, ["scores", "winners", "details"]),
    _event("captain_heading", {"player": PLAYER, "captain": string(captains.NAMES), "roll": nullable(integer(1, 3)),
                               "from": integer(0), "to": integer(0), "heading": HEADING, "text": string()}),
    CAPTAIN_PLACED,
    _event("captain_choice_offered", {
        **CAPTAIN_TURN, "chooser": SEAT,
        "choices": array(obj({"choice": string(), "text": string(),
                              "event": {"oneOf": [CAPTAIN_PLACED, TOKEN_DRAWN]}}, ["choice", "text", "event"]),
                         min_items=2),
    }),
    TOKEN_DRAWN,
    # `why` (the reason as an id, for the catalogs) is added by the engine's event_view, for old
    # logs too; `reason` is its English, as logged.
    _event("captain_worker_skipped", {**CAPTAIN_TURN, "reason": string(), "why": string(SKIP_REASONS)},
           ["player", "captain", "reason"]),
    _event("captain_whales_trimmed", {"player": PLAYER, "captain": string(captains.NAMES), "kept": WHALES,
                                      "sold": WHALES}),
]
EVENT_SCHEMA: S = {"$schema": JSON_SCHEMA_DIALECT, "title": "new-bedford event", "oneOf": EVENTS}
EVENT_TYPES = tuple(e["title"] for e in EVENTS)

# --- the view -------------------------------------------------------------------------------------
SHIP_VIEW = {
    "type": "object",
    "properties": {"at": string(["home", "dock", "sea", "returning"]), "row": nullable(ROW), "hold": WHALES,
                   "ship": SHIP, "rank": nullable(integer(1, data.RANKS)), "where": string(),
                   "lay_to_keep_all": integer(0), "hold_points": integer(0)},
    "required": ["at", "row", "hold", "ship", "rank", "where", "lay_to_keep_all", "hold_points"],
    "additionalProperties": False,
}
CAPTAIN_STATE = obj({"name": string(captains.NAMES), "helm": integer(0), "heading": HEADING,
                     "turn_heading": nullable(HEADING), "idle": boolean()},
                    ["name", "helm", "heading", "turn_heading", "idle"])
PLAYER_VIEW = obj({
    **{k: integer(0) for k in RESOURCES},
    "returned": WHALES,
    "ships": array(SHIP_VIEW, 2, 2),
    "workers": array(string(SPACE_IDS)),
    "captain": nullable(CAPTAIN_STATE),
}, [*RESOURCES, "returned", "ships", "workers", "captain"])
# What a choice made for a Captain would record (the same two event types the log holds).
CAPTAIN_CHOICE_EVENT: S = {"oneOf": [CAPTAIN_PLACED, TOKEN_DRAWN]}
CHOICE = obj({"chooser": SEAT, "player": PLAYER, "captain": string(captains.NAMES), "heading": HEADING,
              "entry": string(), "choices": array(obj({"choice": string(), "text": string(),
                                                       "event": CAPTAIN_CHOICE_EVENT},
                                                      ["choice", "text", "event"]))},
             ["chooser", "player", "captain", "heading", "entry", "choices"])
CAPTAIN_GAME = obj({
    "humans": integer(1, 3), "captains": array(PLAYER), "human_start": SEAT, "order": array(PLAYER),
    "building_order": array(string(BUILDING_IDS)), "expert": boolean(), "turners_mill": boolean(),
    "choice": nullable(CHOICE), "last_captain_space": nullable(string(SPACE_IDS)),
}, ["humans", "captains", "human_start", "order", "building_order", "expert", "turners_mill", "choice",
    "last_captain_space"])
# An entry of a Captain's Orders as the board writes it (captains.BOARD_SCHEMA), without enums: its
# words are the catalogs' label.order_entry.
ORDER_ENTRY: S = {"oneOf": [
    obj({"check": string(pattern="^(own|opponents|town|most|combo)$")}, ["check"]),
    obj({"building": string(BUILDING_IDS)}, ["building"]),
    obj({"change": HEADING}, ["change"]),
    obj({"loop": string(pattern=captains.HEADING_PATTERN[:-2] + "|reroll)$")}, ["loop"]),
]}
CAPTAIN_VIEW = obj({
    "player": PLAYER, "name": string(captains.NAMES), "title": string(), "personality": string(),
    "helm": array(HEADING), "helm_printed": array(captains._helm_space), "helm_position": integer(0),
    "heading": HEADING, "heading_text": string(), "round12": array(HEADING),
    "orders": array(obj({"step": integer(), "entries": array(string())}, ["step", "entries"])),
    "order_entries": array(obj({"step": integer(), "entries": array(ORDER_ENTRY)}, ["step", "entries"])),
    "building_project": obj({"white": array(string(BUILDING_IDS)), "black": array(string(BUILDING_IDS))},
                            ["white", "black"]),
    "victory_order": array(string(BUILDING_IDS)), "limits": obj({"buildings": integer(0), "whales": integer(0)},
                                                                ["buildings", "whales"]),
    "restrictions": obj({"prepare_max_on_dock": integer(1), "on_dock": integer(0), "at_home": integer(0),
                         "can_prepare": boolean(), "text": array(string()), "now": string()},
                        ["prepare_max_on_dock", "on_dock", "at_home", "can_prepare", "text", "now"]),
    "buildings": array(string(BUILDING_IDS)), "whales": integer(0), "idle": boolean(),
}, ["player", "name", "helm", "helm_position", "heading", "orders", "building_project", "limits", "restrictions",
    "buildings", "whales"])
# The awaited decision in words (engine.AWAITING): the decision and what it is about.
AWAITING_FACTS: S = {
    "inn": boolean(description="place_worker: re-placing a worker at the Inn"),
    "may_buy_goods": boolean(description="place_worker: buy_goods is still open this turn"),
    "space": string(SPACE_IDS, description="sell_goods: the selling space"),
    "good": string(GOODS, description="sell_goods: the good to sell now"),
    "sold": counts(GOODS, description="sell_goods: sold so far"),
    "ship": SHIP, "seller": SEAT, "for_sale": WHALES,
    "captain": string(captains.NAMES), "player": PLAYER, "heading": HEADING, "entry": string(),
}
AWAITING = {
    "type": "object",
    "properties": {"seat": SEAT, "decision": string(["choose_starting_goods", "place_worker", "buy_whale",
                                                     "return_ship", "pick_whale", "choose_for_captain",
                                                     "sell_goods"]),
                   **AWAITING_FACTS},
    "required": ["seat", "decision"],
    "additionalProperties": False,
}
# --- the pending decision (view.pending): each legal action with its effect on the acting seat
# Every legal action as the engine's action schema declares it (filled in by engine.py, from
# the moves the core builds the action schema from).
LEGAL_ACTION: S = {"oneOf": []}
COUNT_BY_GOOD = counts(GOODS)
SPACE_NAME = string()
WORKER_EFFECT = obj({
    "space": string(SPACE_IDS), "space_name": SPACE_NAME, "first_bonus": boolean(), "pay": GOODS_COUNTS,
    "gain": GOODS_COUNTS, "fee": obj({"money": integer(1), "to_seat": PLAYER, "to_supply": boolean()}, ["money", "to_seat", "to_supply"]),
    "build": string(BUILDING_IDS), "prepare": SHIP,
    "launch": obj({"ship": SHIP, "to": SEA_ROW, "rank": integer(1), "whaling_phases": integer(0)},
                  ["ship", "to", "rank", "whaling_phases"]),
    "move_out": MOVE_OUT,
    "return_whales": obj({"ship": SHIP, "whales": WHALES, "points": integer(0)}, ["ship", "whales", "points"]),
    "remove_empty_sea": integer(1, 2), "take_ownership": string(BUILDING_IDS), "inn": boolean(),
}, ["space", "space_name", "first_bonus", "pay", "gain"], title="a worker placed")
EFFECTS: list[S] = [
    WORKER_EFFECT,
    obj({"space": string(SPACE_IDS), "space_name": SPACE_NAME, "sale": array(string(GOODS))},
        ["space", "space_name", "sale"], title="a sale of goods opened"),
    obj({"gain": GOODS_COUNTS}, ["gain"], title="starting goods"),
    obj({"pay": GOODS_COUNTS, "gain": GOODS_COUNTS}, ["pay", "gain"], title="goods bought"),
    obj({"ship": SHIP, "keep": WHALES, "sell": WHALES, "lay_paid": integer(0), "sale_money": integer(0),
         "money_change": integer(), "points_kept": integer(0)},
        ["ship", "keep", "sell", "lay_paid", "sale_money", "money_change", "points_kept"], title="a ship returned"),
    obj({"kind": string(WHALE_KINDS), "price": integer(0), "points": integer(0)}, ["kind", "price", "points"],
        title="a whale bought"),
    obj({"ship": SHIP, "kind": string(WHALE_KINDS), "lay": integer(0), "points": integer(0)},
        ["ship", "kind", "lay", "points"], title="a whale picked"),
    obj({"good": string(GOODS), "count": integer(0)}, ["good", "count"], title="one good sold, then the next"),
    obj({"captain_event": CAPTAIN_CHOICE_EVENT}, ["captain_event"], title="a choice for a Captain"),
    obj({}, [], title="nothing (pass)"),
]
SELL_SUMMARY = obj({
    "space": string(SPACE_IDS), "space_name": SPACE_NAME, "prices": COUNT_BY_GOOD,
    "first_of_kind_extra": COUNT_BY_GOOD, "first_bonus_money": integer(0), "fee": integer(0),
    "fee_to_seat": nullable(PLAYER), "fee_to_supply": boolean(), "have": COUNT_BY_GOOD, "text": string(),
}, ["space", "space_name", "prices", "first_of_kind_extra", "first_bonus_money", "fee", "fee_to_seat", "fee_to_supply", "have",
    "text"], description="what a selling space pays now, per good (view.sell_summary)")
PENDING = {
    "type": "object",
    "properties": {
        "seat": SEAT, "decision": AWAITING["properties"]["decision"],
        "options": array(obj({"action": LEGAL_ACTION, "effect": {"anyOf": EFFECTS},
                              "net": counts(RESOURCES, lo=-1000), "after": counts(RESOURCES, lo=-1000),
                              "text": string(), "whales_gained": WHALES},
                             ["action", "effect", "net", "after", "text"])),
        "sell": {"type": "object", "propertyNames": {"enum": SPACE_IDS}, "additionalProperties": SELL_SUMMARY},
        **AWAITING_FACTS,
        # return_ship: the hold of the ship coming home, the seat's money and the rule in words
        "hold": WHALES, "money": integer(0), "rule": string(),
    },
    "required": ["seat", "decision", "options"],
    "additionalProperties": False,
}

# --- the printed reference (view.REFERENCE): the same in every game
_SPACES_PRINTED = data.TOWN_SPACES + data.WHALING_SPACES
REFERENCE = obj({
    "whales": array(obj({
        "kind": string([*WHALE_KINDS, "empty"]), "name": string(), "lay": nullable(integer(0)),
        "sale": nullable(integer(0)), "points": integer(0), "in_bag_per_player": integer(0), "text": string(),
    }, ["kind", "name", "lay", "sale", "points", "in_bag_per_player", "text"])),
    "whaling_track": obj({
        "ranks": integer(1),
        "rows": array(obj({
            "row": ROW, "name": string(), "food": nullable(integer(0)),
            "launch_food": obj({"city_pier": integer(0), "city_pier_first": integer(0), "wharf": integer(0),
                                "dry_dock": GOODS_COUNTS}, ["city_pier", "city_pier_first", "wharf", "dry_dock"]),
            "whaling_phases": integer(0), "text": string(),
        }, ["row", "name", "food", "text"])),
        "text": string(),
    }, ["ranks", "rows", "text"]),
    "spaces": array(obj({
        "id": string(sorted(sp["id"] for sp in _SPACES_PRINTED)), "name": string(),
        # (plain strings: their values are no names in the message catalogs)
        "board": string(description=f"one of {', '.join(sorted({sp['board'] for sp in _SPACES_PRINTED}))}"),
        "effect": string(description=f"one of {', '.join(sorted({sp['effect'] for sp in _SPACES_PRINTED}))}"),
        "gain": GOODS_COUNTS, "prices": COUNT_BY_GOOD, "cost": GOODS_COUNTS,
        "food_by_row": {"type": "object", "propertyNames": {"pattern": "^[0-9]+$"},
                        "additionalProperties": integer(0), "description": "launch food by sea row"},
        "text": string(),
        "first_bonus": obj({"gain": GOODS_COUNTS, "gain_one_of": array(string(GOODS)), "money": integer(0),
                            "discount": integer(0), "cost_discount": GOODS_COUNTS, "food_discount": integer(0)}),
        "first_bonus_text": string(),
    }, ["id", "name", "board", "effect", "cost", "text", "first_bonus", "first_bonus_text"])),
    "spaces_text": string(),
    "turn": obj({
        "rounds": integer(1), "workers": integer(1), "starting_value": integer(0), "good_values": COUNT_BY_GOOD,
        "building_fee": integer(0),
        "purchase": obj({"goods": array(string(data.PURCHASE_GOODS)), "amount": integer(1), "price": integer(0),
                         "text": string()}, ["goods", "amount", "price", "text"]),
        "text": string(),
    }, ["rounds", "workers", "starting_value", "good_values", "building_fee", "purchase", "text"]),
    "scoring": obj({"whale_points": WHALES, "points_per_building": integer(0), "money_per_point": integer(1),
                    "text": string()}, ["whale_points", "points_per_building", "money_per_point", "text"]),
}, ["whales", "whaling_track", "spaces", "spaces_text", "turn", "scoring"])
_VIEW_PROPS: S = {
    "type": {"const": "new-bedford"},
    "viewer": nullable(SEAT),
    "to_act": array(SEAT),
    "seats": integer(1, 4),
    "round": integer(1, data.ROUNDS),
    "first_player": PLAYER,
    "phase": string(["setup", "actions", "inn", "movement", "whaling", "over"]),
    "setup_done": integer(0),
    "version": integer(3),
    "players": array(PLAYER_VIEW, 1, 4),
    "buildings": {"type": "object", "propertyNames": {"enum": BUILDING_IDS},
                  "additionalProperties": obj({"owner": nullable(PLAYER), "used": boolean()}, ["owner", "used"])},
    "track": array(array(array(integer(0), 2, 2), max_items=data.RANKS), data.FARTHEST_ROW + 1, data.FARTHEST_ROW + 1),
    "bag": TOKENS,
    "sea_tokens": TOKENS,
    "out_of_game": TOKENS,
    "occupancy": {"type": "object", "propertyNames": {"enum": SPACE_IDS}, "additionalProperties": array(PLAYER)},
    "placed": integer(0),
    "bought": boolean(),
    "inn": nullable(obj({"seat": PLAYER, "left": integer(0, data.WORKERS)}, ["seat", "left"])),
    "sale": nullable(obj({"seller": SEAT, "ship": SHIP, "whales": WHALES, "queue": array(PLAYER), "turn": integer(0)},
                         ["seller", "ship", "whales", "queue", "turn"])),
    "picks": array(array(integer(0), 2, 2)),
    "final": boolean(),
    "result": nullable(obj(RESULT_FIELDS, ["scores", "winners", "details"])),
    "captain_game": CAPTAIN_GAME,
    "selling": obj({"seat": SEAT, "space": string(SPACE_IDS), "kinds": array(string(GOODS)), "sold": counts(GOODS)},
                   ["seat", "space", "kinds", "sold"]),
    "score_preview": array(SCORE),
    "building_names": {"type": "object", "additionalProperties": string()},
    "building_tiles": {"type": "object", "additionalProperties": obj(
        {"name": string(), "type": string(["action", "victory"]), "cost": GOODS_COUNTS, "text": string()},
        ["name", "type", "cost", "text"])},
    "awaiting": nullable(AWAITING),
    "reference": REFERENCE,
    "whaling_track": array(obj({"row": ROW, "name": string(), "ships": array(obj(
        {"seat": PLAYER, "ship": SHIP, "rank": integer(1, data.RANKS)}, ["seat", "ship", "rank"]))},
        ["row", "name", "ships"])),
    "pending": nullable(PENDING),
    "captains": nullable(obj({"captains": array(CAPTAIN_VIEW), "order": array(PLAYER),
                              "building_order": array(string(BUILDING_IDS)), "expert": boolean(),
                              "turners_mill": boolean(), "last_captain_space": nullable(string(SPACE_IDS)),
                              "choice": nullable(CHOICE)},
                             ["captains", "order", "building_order", "expert", "turners_mill", "last_captain_space",
                              "choice"])),
}
VIEW_SCHEMA: S = {
    "$schema": JSON_SCHEMA_DIALECT,
    "title": "new-bedford view",
    "type": "object",
    "properties": _VIEW_PROPS,
    "required": [k for k in _VIEW_PROPS if k not in ("captain_game", "selling", "version")],
    "additionalProperties": False,
}
