"""Phoenicia's declared shapes: its events' fields, the view and the outcome (JSON Schema)."""

from __future__ import annotations

from tablero.engines.core import integer, obj
from tablero.engines.core.event_schema import private

from .data import CARD, TABLEAUS, WORK_TABLEAUS
from .moves import _DEV_CARD, _TABLEAU, MOVES, PAYMENT, STEPS

# What each phase waits for (the view's `awaiting.decision`).
DECISION = {"auctions": "turn", "workers": "turn", "tools": "turn", "converted": "turn",
            "auction": "bid", "payment": "pay", "limits": "discard"}

# --- schemas ---------------------------------------------------------------------------------
_S = "https://json-schema.org/draft/2020-12/schema"
_INT = {"type": "integer"}
_INTS = {"type": "array", "items": _INT}
_SEAT = integer(0, 4)
_SEAT_OR_NULL = {"type": ["integer", "null"], "minimum": 0, "maximum": 4}
_STRS = {"type": "array", "items": {"type": "string"}}
_PAID = {"cards": _INTS, "disks": _INT, "change": _INT}
_WHERE = {"tile": _INT, "slot": _INT}

EVENT_FIELDS = {
    "game_started": {"overlord": _SEAT, "display": _STRS, "replaced": _STRS,
                     "preset_production": {"type": "boolean"},
                     "private": private(obj({"hand": _INTS}, ["hand"]))},
    "auction_opened": {"seat": _SEAT, "card": _DEV_CARD, "bid": _INT, "bidders": _INTS},
    "bid_raised": {"seat": _SEAT, "card": _DEV_CARD, "amount": _INT},
    "dropped_out": {"seat": _SEAT, "card": _DEV_CARD},
    "auction_won": {"seat": _SEAT, "card": _DEV_CARD, "bid": _INT, "discount": _INT, "price": _INT},
    "payment_requested": {"seat": _SEAT, "price": _INT,
                          "action": {"oneOf": [m.schema() for m in MOVES if m.optional == set(PAYMENT)],
                                     "description": "the priced action chosen, in its grouped form"}},
    "development_bought": {"seat": _SEAT, "card": _DEV_CARD, "price": _INT, **_PAID},
    "worker_trained": {"seat": _SEAT, **_PAID},
    "worker_employed": {"seat": _SEAT, "tableau": _TABLEAU, **_WHERE, "tool_taken": {"type": "boolean"}, **_PAID},
    "worker_moved": {"seat": _SEAT, "from": _TABLEAU, "from_tile": _INT, "from_slot": _INT, "tableau": _TABLEAU,
                     **_WHERE, **_PAID},
    "tool_bought": {"seat": _SEAT, "tableau": _TABLEAU, **_WHERE, **_PAID},
    "vp_bought": {"seat": _SEAT, **_WHERE, **_PAID},
    "card_converted": {"seat": _SEAT, "card": _INT, "disks_gained": _INT, "lost": _INT},
    "discard_required": {"seats": {"type": "object", "additionalProperties": _INT},
                         "when": {"enum": ["turn", "admin"]}},
    "limits_applied": {"seat": _SEAT, "discarded": _INTS, "disks": _INT, "lost": _INT},
    "turn_ended": {"seat": _SEAT, "next": _SEAT_OR_NULL},
    "overlord_changed": {"seat": _SEAT},
    "display_refilled": {"cards": _STRS},
    "production_reshuffled": {"count": _INT},
    "production_dealt": {"seat": _SEAT, "cards": _INT, "undealt": _INT, "disks": _INT,
                         "private": private(obj({"cards": _INTS}, ["cards"]))},
    "round_started": {"round": _INT, "overlord": _SEAT, "order": _INTS},
    "game_ended": {"reason": {"enum": ["city_state", "exhausted"]}, "winners": _INTS, "overlord": _SEAT,
                   "vp": _INTS, "money": _INTS},
}


def _object(props: dict, required: list | None = None, extra: bool = False) -> dict:
    return {"type": "object", "properties": props, "required": list(props) if required is None else required,
            "additionalProperties": extra}


_NULLABLE_OBJ = {"type": ["object", "null"]}
_TILE_VIEW = {
    "type": "object",
    "properties": {"kind": {"enum": [*WORK_TABLEAUS, "city_center"]}, "title": {"type": "string"},
                   "slots": {"type": "array", "items": {"enum": ["w", "t", None]}},
                   "tool_cost": _INT, "vp_per_worker": _INT, "production": _INTS, "vp_price": _INT},
    "required": ["kind", "title", "slots"],
    "additionalProperties": False,
}
_PLAYER_VIEW = _object({
    "seat": _INT, "vp": _INT, "production": _INT,
    "hand_size": _INT, "preset_cards": _INT,
    "hand": {"type": ["array", "null"], "items": _INT,
             "description": "production card values: the viewer's own hand only, null for others"},
    "disks": _INT, "treasury_spaces": _INT, "storehouses": _INT,
    "untrained": _INT, "trained": _INT, "training_cost": _INT,
    "cards": _STRS, "tiles": {"type": "array", "items": _TILE_VIEW},
    "discounts": {"type": "object", "additionalProperties": _INT},
    "scoring": {"type": "object", "additionalProperties": _INT},
})
# A development card on display: what it shows face up (village.card_facts) and the viewer's discount.
_DISPLAY_VIEW = _object({
    "card": _DEV_CARD, "set": integer(1, 4), "ab": {"enum": ["A", "B"]}, "min_bid": _INT, "vp": _INT,
    "production": _INT, "storehouses": _INT, "untrained": _INT, "trained": _INT,
    "tile": {"enum": [*WORK_TABLEAUS, "city_center", None], "description": "the tile it adds, if any"},
    "treasury": {"type": ["integer", "null"]}, "training_cost": {"type": ["integer", "null"]},
    "improves": {"type": "array", "items": _TABLEAU, "description": "the tableaus it upgrades"},
    "discounts": {"type": "array", "items": _object({"on": {"type": "array", "items": _DEV_CARD}, "amounts": _INTS}),
                  "description": "the discounts its holder gets, on which cards, by how many held"},
    "your_discount": _INT,
})
VIEW_SCHEMA = {
    "$schema": _S,
    "title": "phoenicia view",
    **_object({
        "type": {"const": "phoenicia"},
        "you": _SEAT_OR_NULL,
        "round": _INT,
        "phase": {"enum": ["turn", "limits", "admin", "round_end", "over"]},
        "overlord": _SEAT,
        "order": _INTS,
        "active": _SEAT_OR_NULL,
        "step": {"enum": [*STEPS, None]},
        "awaiting": {"oneOf": [{"type": "null"}, _object({
            "seats": _INTS, "decision": {"enum": sorted(set(DECISION.values()))}})]},
        "to_act": _INTS,
        "display": {"type": "array", "items": _DISPLAY_VIEW},
        "deck_size": _INT,
        "deck_sets": {"type": "object", "additionalProperties": _INT},
        "production_deck_size": _INT,
        "discard_pile": _INTS,
        "auction": {"oneOf": [{"type": "null"}, _object({
            "card": _DEV_CARD, "bid": _INT, "leader": _SEAT, "bidders": _INTS, "next": _SEAT_OR_NULL})]},
        "payment": {"oneOf": [{"type": "null"}, _object(
            {"seat": _SEAT, "price": _INT, "card": _DEV_CARD, "bid": _INT,
             "action": EVENT_FIELDS["payment_requested"]["action"]},
            required=["seat", "price"])]},
        "discard": {"oneOf": [{"type": "null"}, _object({
            "seats": {"type": "object", "additionalProperties": _INT}, "when": {"enum": ["turn", "admin"]}})]},
        "players": {"type": "array", "items": _PLAYER_VIEW},
        "result": {"oneOf": [{"type": "null"}, _object({
            "reason": {"enum": ["city_state", "exhausted"]}, "winners": _INTS, "overlord": _SEAT,
            "vp": _INTS, "money": _INTS})]},
    }),
}

_VP_SOURCE = {"oneOf": [
    _object({"source": {"const": "card"}, "card": _DEV_CARD, "copies": _INT, "vp_each": _INT, "vp": _INT}),
    _object({"source": {"const": "workers"}, "tableau": {"enum": sorted(TABLEAUS)}, "workers": _INT,
             "vp_each": _INT, "vp": _INT}),
    _object({"source": {"const": "city_center"}, "purchases": _INT, "vp_each": _INT, "vp": _INT}),
]}
# The game's outcome (Phoenicia.outcome): the final VP with the arithmetic behind them and the
# tie-breaks of seed-P Fin del juego.
OUTCOME_SCHEMA = {
    "$schema": _S,
    "title": "phoenicia outcome",
    **_object({
        "scores": {**_INTS, "description": "VP by seat"},
        "winners": _INTS,
        "details": {"type": "array", "items": _object({
            "seat": _SEAT, "vp": _INT, "production": _INT, "cards_vp": _INT, "workers_vp": _INT,
            "bought_vp": _INT, "last_overlord": {"type": "boolean"}, "money": _INT, "development_cards": _INT,
            "vp_sources": {"type": "array", "items": _VP_SOURCE,
                           "description": "the VP track as lines that add up to vp"},
            "vp_by_card": {"type": "object", "propertyNames": {"enum": sorted(CARD)}, "additionalProperties": _INT},
            "vp_by_tableau": {"type": "object", "propertyNames": {"enum": sorted(TABLEAUS)},
                              "additionalProperties": _INT},
            "vp_city_center": _INT,
            "tie_break": _object({"last_overlord": {"type": "boolean"}, "money": _INT, "disks": _INT,
                                  "production_cards": _INT, "production_card_value": _INT}),
        })},
        "reason": {"enum": ["city_state", "exhausted"]},
        "decided_by": {"enum": ["vp", "last_overlord", "money", "shared"],
                       "description": "which rule picked the winners"},
    }),
}
