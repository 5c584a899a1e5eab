"""JSON Schemas (2020-12) of Riverboat's events and views; the action schema comes from `MOVES`."""

from __future__ import annotations

from tablero.engines.core import boolean, document, integer, obj, string
from tablero.engines.core.event_schema import private

from .data import (
    BOAT_TYPES,
    CROPS,
    FIELD_COLOURS,
    MAT_COLS,
    MAT_ROWS,
    MATS,
    PHASES,
    ROUNDS,
    SUPPLY,
    TILE_KINDS,
    WILD,
)
from .moves import _CARD, _CELL, _PENDING_STEPS, FEATURES, SCORING_BONUSES
from .scoring import FINAL_CATEGORIES

_SEAT = integer(0, 3)
_GAINS = {"type": "object", "additionalProperties": {"type": "integer"},
          "description": "coins, surveyors, harbor steps and vp actually gained"}
_PENDING = {
    "type": "object",
    "properties": {
        "seat": _SEAT,
        "kind": {"enum": sorted(_PENDING_STEPS)},
        "options": {"type": "array", "items": {"enum": list(FEATURES)}},
        "reason": {"type": "string"},
        "optional": {"type": "boolean"},
        "substitute": {"type": "boolean"},
        "size": {"enum": ["1", "2"]},
        "max": {"type": "integer"},
    },
    "required": ["seat", "kind"],
    "additionalProperties": False,
}
_INTS = {"type": "array", "items": {"type": "integer"}}
_FILLS = {"type": "object", "additionalProperties": {"type": "array", "items": {
    "type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "minItems": 2, "maxItems": 2}},
    "description": "per tile size, [slot, tile kind] laid face up"}
_NULL_STR = {"type": ["string", "null"]}
_NULL_INT = {"type": ["integer", "null"]}
_INT = {"type": "integer"}
_BENEFIT = {"type": "object", "properties": {
    "coins": _INT, "vp": _INT, "harbor": _INT, "surveyors": _INT, "agents": _INT,
    "feature": {"enum": ["barn", "surveyor", "any"]}}, "additionalProperties": False,
    "description": "what a riverboat or a card space gives: coins, vp, harbor steps, surveyors, an estate "
                   "feature, agents"}
_CROP_SUPPLY = {"type": "object", "additionalProperties": {"type": "array", "items": _NULL_STR},
                "description": "face-up tiles by size, null for an empty space"}


def _obj(props: dict, **extra) -> dict:
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False,
            **extra}


_VP_EACH = {"count": _INT, "vp_each": _INT, "vp": _INT}
_SCORE_ROW = _obj({
    "seat": _SEAT,
    "in_game": _obj({"vp": _INT, "by_source": {"type": "object", "additionalProperties": _INT}}),
    "coins": _obj(_VP_EACH),
    "complete_fields": _obj({"colours": {"type": "array", "items": {"type": "string"}}, **_VP_EACH}),
    "unscored_features": _obj({"barns": _INT, "wells": _INT, "surveyors_in_supply": _INT, **_VP_EACH}),
    "harbor": _obj({"position": _INT, "farthest": {"type": "boolean"},
                    "boats": {"type": "array", "items": _obj({"boat": {"type": "string"}, "capacity": _INT,
                                                              "slot_space": _INT, "reached": {"type": "boolean"}})},
                    "boats_value": _INT, "full_or_half": {"enum": ["full", "half"]}, "vp": _INT}),
    "agents": _obj({"count": _INT, "rank": _NULL_INT, "vp": _INT}),
    "final_vp": _INT,
    "total": _INT,
    "tiebreak": _obj({"phase_tiles_held": {"type": "array", "items": string(PHASES)},
                      "earliest_phase_tile": {"anyOf": [{"type": "null"}, string(PHASES)]}, "rank": _INT}),
    "harvested": {"type": "object", "properties": {c: _INT for c in CROPS}, "required": list(CROPS),
                  "additionalProperties": False},
}, description="one seat's final scoring, category by category")
_DETAILS = {"type": "array", "items": _SCORE_ROW}
_ROW = _SCORE_ROW["properties"]


def _record(row: dict, drop: str = "vp") -> dict:
    """One line's record in the outcome's breakdown: a list holding the row's object without `drop`."""
    props = {k: v for k, v in row["properties"].items() if k != drop}
    return {"type": "array", "items": _obj(props), "minItems": 1, "maxItems": 1}


# The outcome's details (`scoring.summary`): the lines that add up to the total, then what they count.
_SUMMARY_ROW = _obj({
    "seat": _SEAT, "in_game": _obj({"vp": _INT}), **{k: _INT for k in FINAL_CATEGORIES}, "total": _INT,
    "breakdown": _obj({
        "in_game": {"type": "array", "items": _ROW["in_game"]["properties"]["by_source"], "minItems": 1, "maxItems": 1},
        **{k: _record(_ROW[k]) for k in FINAL_CATEGORIES},
        "final_vp": {"type": "array", "items": _obj({"vp": _INT}), "minItems": 1, "maxItems": 1},
        "tiebreak": _record(_ROW["tiebreak"], drop=""),
        "harvested": {"type": "array", "items": _ROW["harvested"], "minItems": 1, "maxItems": 1},
    }),
}, description="one seat's score: the lines that add up to its total, then what each counts")

EVENT_FIELDS = {
    "game_started": {"first_player": _SEAT, "mats": {"type": "array", "items": {"enum": sorted(MATS)}},
                     "crop_supply": _CROP_SUPPLY, "opportunity_spaces": {"type": "array", "items": _CARD}},
    "phase_chosen": {"seat": _SEAT, "phase": string(PHASES)},
    "phase_started": {"phase": string(PHASES), "holder": _SEAT, "pending": {"type": "array", "items": _PENDING}},
    "gained": {"seat": _SEAT, "gains": _GAINS, "reason": string(("phase_bonus",))},
    "round_track_worker_taken": {"seat": _SEAT, "place": boolean()},
    "worker_placed": {"seat": _SEAT, "cell": _CELL, "coin": boolean(), "bonus": boolean()},
    "placement_skipped": {"seat": _SEAT},
    "crop_card_revealed": {"card": string([*FIELD_COLOURS.values(), WILD]), "must_place": _INTS},
    "crop_tiles_refilled": {"seat": _SEAT, "fills": _FILLS},
    "tile_planted": {"seat": _SEAT, "kind": string(TILE_KINDS), "slot": _NULL_INT, "cells": _INTS,
                     "crops": {"type": "array", "items": string(CROPS)}, "vp": integer(0), "coin": boolean()},
    "pile_searched": {"seat": _SEAT, "size": integer(1, 2),
                      "private": private(obj({"tiles": {"type": "array", "items": string(TILE_KINDS)}}, ["tiles"]))},
    "opportunity_deck_searched": {"seat": _SEAT,
                                  "private": private(obj({"cards": {"type": "array", "items": _CARD}}, ["cards"]))},
    "tile_drawn": {"seat": _SEAT, "size": integer(1, 2), "private": private(obj({"kind": string(TILE_KINDS)}, ["kind"]))},
    "workers_returned": {"seat": _SEAT, "cells": _INTS},
    "boat_claimed": {"seat": _SEAT, "boat": string(BOAT_TYPES), "crop": string(CROPS), "cells": _INTS,
                     "coin": boolean(), "gains": _GAINS, "pending": {"type": "array", "items": _PENDING},
                     "harvest_bonus": boolean()},
    "passed": {"seat": _SEAT, "phase": string(PHASES)},
    "barn_placed": {"seat": _SEAT, "cell": _CELL},
    "well_placed": {"seat": _SEAT, "cell": _CELL},
    "surveyor_taken": {"seat": _SEAT},
    "pending_dropped": {"seat": _SEAT, "reason": string(("unavailable", "declined"))},
    "agents_sent": {"seat": _SEAT, "count": integer(0, 3)},
    "bonus_chosen": {"seat": _SEAT, "bonus": string(SCORING_BONUSES), "gains": _GAINS},
    "opportunity_taken": {"seat": _SEAT, "card": _CARD, "space": _NULL_INT, "gains": _GAINS,
                          "pending": {"type": "array", "items": _PENDING}, "drawn": boolean()},
    "opportunities_returned": {"cards": {"type": "array", "items": _CARD}},
    "surveyed": {"seat": _SEAT, "feature": string(("barn", "well", "opportunity")), "cell": _NULL_INT,
                 "card": _NULL_STR, "vp": integer(0)},
    "round_scored": {"round": integer(1, ROUNDS), "vp": _INTS, "order": _INTS},
    "round_ended": {"round": integer(1, ROUNDS), "first_player": _SEAT},
    "round_started": {"round": integer(1, ROUNDS), "fills": _FILLS, "boats": {"type": "array", "items": string(BOAT_TYPES)},
                      "opportunity_spaces": {"type": "array", "items": _NULL_STR}},
    "game_ended": {"scores": _INTS, "winners": _INTS, "details": _DETAILS},
}

# Fields some events of a type leave out: a card taken from a space brings its space's benefit
# (`pending`); one drawn blind from the deck (`drawn`) or searched for in it brings none.
EVENT_OPTIONAL = {"opportunity_taken": frozenset({"pending", "drawn"})}

_BOOLS = {"type": "array", "items": {"type": "boolean"}}
_PLAYER_VIEW = {
    "type": "object",
    "properties": {
        "mat": {"enum": sorted(MATS)},
        "worker": _BOOLS,
        "crop": {"type": "array", "items": {"enum": [*CROPS, None]}},
        "feature": {"type": "array", "items": {"enum": ["barn", "well", None]}},
        "scored": _BOOLS,
        "workers": {"type": "integer"}, "coins": {"type": "integer"}, "surveyors": {"type": "integer"},
        "active_surveyors": {"type": "integer"}, "vp": {"type": "integer"},
        "vp_by": {"type": "object", "additionalProperties": {"type": "integer"}}, "vp_at": {"type": "integer"},
        "harbor": {"type": "integer"}, "harbor_start": {"type": "integer"},
        "boats": {"type": "array", "items": string(BOAT_TYPES)},
        "harvested": {"type": "object", "additionalProperties": {"type": "integer"}},
        "harvest_bonus": {"type": "array", "items": string(CROPS)},
        "agents": {"type": "integer"},
        "opps": {"type": "array", "items": {"type": "object", "properties": {"id": _CARD, "scored": boolean()},
                                           "required": ["id", "scored"], "additionalProperties": False}},
        "field_colours": {"type": "array", "items": string(FIELD_COLOURS.values())},
        "boats_reached": {"type": "integer"},
        "fields_covered": {"type": "array", "items": string(FIELD_COLOURS.values())},
        "boats_claimed_this_round": {"type": "integer"},
        "surveyors_placed_this_round": {"type": "integer"},
        "passed": {"type": "boolean"},
    },
    "additionalProperties": False,
}
_PLAYER_VIEW["required"] = list(_PLAYER_VIEW["properties"])

# The final scoring (the game_ended event), in the view once the game is over and the game's outcome.
RESULT = {"type": "object", "properties": {"scores": _INTS, "winners": _INTS, "details": _DETAILS},
          "required": ["scores", "winners", "details"], "additionalProperties": False}
OUTCOME_SCHEMA = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "riverboat outcome",
                  **RESULT, "properties": {**RESULT["properties"], "details": {"type": "array", "items": _SUMMARY_ROW}}}

VIEW_SCHEMA = document("riverboat view", {
    "type": {"const": "riverboat"},
    "seat": {"type": ["integer", "null"], "description": "the viewer (null: spectator)"},
    "round": integer(1, ROUNDS),
    "phase": {"enum": ["draft", *PHASES, "over"]},
    "first_player": _SEAT,
    "phase_tiles": {"type": "object", "properties": {p: _NULL_INT for p in PHASES}, "required": list(PHASES),
                    "additionalProperties": False, "description": "holder of each phase tile"},
    "to_act": _INTS,
    "pending": {"anyOf": [{"type": "null"}, _PENDING], "description": "the decision owed first, if any"},
    "crop_card": _NULL_STR,
    "cards_left_this_round": {"type": "integer"},
    "waiting": _INTS,
    "crop_deck_size": {"type": "integer"},
    "round_track": {"type": "integer"},
    "crop_supply": _CROP_SUPPLY,
    "pile_sizes": {"type": "object", "additionalProperties": {"type": "integer"}},
    "riverboats": {"type": "object", "additionalProperties": {
        "type": "object",
        "properties": {"capacity": {"type": "integer"}, "benefit": _BENEFIT,
                       "on_board": {"type": "boolean"}, "pile": {"type": "integer"}},
        "required": ["capacity", "benefit", "on_board", "pile"], "additionalProperties": False}},
    "boat_claims_this_round": {"type": "integer"},
    "surveyors_this_round": {"type": "integer"},
    "opportunity_spaces": {"type": "array", "items": {
        "type": "object", "properties": {"card": _NULL_STR, "text": _NULL_STR, "bonus": _BENEFIT},
        "required": ["card", "text", "bonus"], "additionalProperties": False}},
    "opportunity_card_texts": {"type": "object", "additionalProperties": {"type": "string"}},
    "opportunity_deck_size": {"type": "integer"},
    "opportunity_deck_bottom": {"type": "array", "items": _CARD,
                                "description": "the leftovers put under the deck, in their public order"},
    "held_tile": {"anyOf": [{"type": "null"}, {
        "type": "object", "properties": {"seat": _SEAT, "size": integer(1, 2), "kind": _NULL_STR},
        "required": ["seat", "size", "kind"], "additionalProperties": False}],
        "description": "a tile drawn blind; its kind only for its drawer"},
    "search": {"anyOf": [{"type": "null"}, {
        "type": "object",
        "properties": {"seat": _SEAT, "pile": {"type": "string"},
                       "contents": {"type": ["array", "null"], "items": {"type": "string"}}},
        "required": ["seat", "pile", "contents"], "additionalProperties": False}],
        "description": "a pile or deck being searched; its contents only for the searcher"},
    "harbor_track": {"type": "object", "properties": {"last_space": {"type": "integer"}, "slot_spaces": _INTS},
                     "required": ["last_space", "slot_spaces"], "additionalProperties": False},
    "supply": {"type": "object", "properties": {k: {"type": "integer"} for k in SUPPLY},
               "required": list(SUPPLY), "additionalProperties": False},
    "field_colours": {"type": "array", "items": {"type": "string"}},
    "mat_grid": {"type": "object", "properties": {"rows": {"const": MAT_ROWS}, "cols": {"const": MAT_COLS},
                                                  "odd_rows_shifted_right": {"const": True}},
                 "required": ["rows", "cols", "odd_rows_shifted_right"], "additionalProperties": False},
    "players": {"type": "array", "items": _PLAYER_VIEW},
    "result": {"anyOf": [{"type": "null"}, RESULT]},
})
