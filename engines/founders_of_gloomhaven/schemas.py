"""JSON Schemas of the Founders of Gloomhaven events (fields) and view."""

from __future__ import annotations

from tablero.engines.core.event_schema import private

from . import data as D

INT = {"type": "integer"}
NINT = {"type": "integer", "minimum": 0}
SEAT = {"type": "integer", "minimum": 0, "maximum": 3}
OPT_SEAT = {"type": ["integer", "null"]}
STR = {"type": "string"}
BOOL = {"type": "boolean"}
INTS = {"type": "array", "items": INT}
STRS = {"type": "array", "items": STR}
PAIRS = {"type": "array", "items": {"type": "array", "items": INT, "minItems": 2, "maxItems": 2},
         "description": "[seat, points] pairs"}
RES = {"type": "string", "enum": sorted(D.RESOURCES)}
PAY = {"type": "object", "properties": {"fleeting": NINT, "lasting": NINT}, "required": ["fleeting", "lasting"],
       "additionalProperties": False}
VOTE = {"type": "object", "properties": {"proposal": {"type": "integer", "minimum": 0, "maximum": 2},
                                         "fleeting": NINT, "lasting": NINT},
        "required": ["proposal", "fleeting", "lasting"], "additionalProperties": False}
EFFECT = {"type": "object", "properties": {k: NINT for k in D.EFFECT_KINDS}, "additionalProperties": False}
OPT_STR = {"type": ["string", "null"]}
CARD_ID = {"type": "string", "description": "a card id (a standard card, an adviser or a prestige building)"}
ACHIEVEMENTS = {"type": "object", "description": "the achievement drawn from each deck (achievements variant)",
                "properties": {deck: STR for deck in ("immediate", "mid", "end")},
                "required": ["immediate", "mid", "end"], "additionalProperties": False}
VARIANTS = {"type": "object", "properties": {k: BOOL for k in ("achievements", "no_workers", "shaping_history")},
            "required": ["achievements", "no_workers", "shaping_history"], "additionalProperties": False}
# Fixed-length lists are typed by their items, not as prefixItems tuples: openapi-typescript types
# a tuple one way in a response and another in the schema it names (tests/server/test_typescript_client.py).
PREREQ = {"type": "array", "items": {"type": ["integer", "null"]}, "minItems": 3, "maxItems": 3,
          "description": "[tile, owner or null (neutral), points]"}
SCORE_SOURCES = ("prerequisites", "deliveries", "advisers", "completions", "achievements", "actions")
DETAIL = {"type": "object", "description": "one seat's final score",
          "properties": {"seat": SEAT, "race": STR, "points": INT,
                         "by_source": {"type": "object",
                                       "properties": {k: INT for k in (*SCORE_SOURCES, "influence", "money")},
                                       "required": [*SCORE_SOURCES, "influence", "money"],
                                       "additionalProperties": False},
                         "money_left": NINT, "turn_distance": NINT},
          "required": ["seat", "race", "points", "by_source", "money_left", "turn_distance"],
          "additionalProperties": False}
# A section's id beside its (English) name, added where it is read (history.with_section_ids);
# words: the catalogs' label.section.
SECTION_ID = {"type": "string", "pattern": "^(left|middle|right)$"}
EVENT_CARD_BUILDING = {"type": "object", "properties": {
    "card": STR, "name": STR, "section": OPT_STR, "section_id": SECTION_ID, "deliveries": NINT, "complete": BOOL},
    "required": ["card", "name", "section", "deliveries", "complete"], "additionalProperties": False}
EVENT_CARD_FIELDS = {
    "seat": SEAT, "race": {"type": "string", "enum": sorted(D.RACES)}, "card": STR,
    "buildings": {"type": "array", "description": "candidates for the favourite building: those carrying the "
                  "winner's delivery tokens (most first), or every prestige building when none does",
                  "items": EVENT_CARD_BUILDING},
    "delivered_to": BOOL, "blanks": STRS}
HISTORY = {"type": "object", "description": "the winner's blanks of its event card, as it filled them in",
           "properties": {"seat": SEAT, "building": STR, "section": STR, "section_id": SECTION_ID, "governing_body": STR},
           "required": ["seat", "building", "section", "governing_body"], "additionalProperties": False}
RESULT = {"type": "object", "description": "the final scores (game_ended), with the winner's event card under "
          "'Shaping history'",
          "properties": {"reason": STR, "scores": INTS, "winners": INTS, "details": {"type": "array", "items": DETAIL},
                         "tie_break": STR,
                         "shaping_history": {"type": "object", "properties": EVENT_CARD_FIELDS,
                                             "required": list(EVENT_CARD_FIELDS), "additionalProperties": False}},
          "required": ["reason", "scores", "winners", "details", "tie_break"], "additionalProperties": False}
# The game's outcome (engine.outcome): the result, and the blanks the winner filled in.
OUTCOME_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "founders-of-gloomhaven outcome",
    **RESULT,
    "properties": {**RESULT["properties"], "history": HISTORY},
}

# Fields some events of a type leave out: a card played face down is not named to the others.
EVENT_OPTIONAL = {"card_played": frozenset({"card"}), "game_started": frozenset({"draft"}),
                  "reset_benefit": frozenset({"cell"})}
EVENT_FIELDS = {
    "game_started": {"map": STR, "variants": VARIANTS, "races": STRS,
                     "resources": {"type": "array", "items": {"type": "array", "items": RES},
                                   "description": "each seat's resources"},
                     "neutral": STRS,
                     "stalls": {"type": "array", "items": {"type": "array", "items": {"type": ["integer", "string"]},
                                                           "minItems": 3, "maxItems": 3},
                                "description": "starting stalls dealt: [seat, resource, cell]"},
                     "hands": {"type": "array", "items": STRS}, "offer": STRS,
                     "proposals": STRS, "achievements": {"anyOf": [ACHIEVEMENTS, {"type": "null"}]},
                     "draft": {"type": ["array", "null"], "items": SEAT,
                               "description": "the seats that draft a resource, in order (setup \"draft\")"}},
    "resource_drafted": {"seat": SEAT, "resource": RES},
    "start_stall_placed": {"seat": SEAT, "resource": RES, "cell": NINT},
    "card_played": {"seat": SEAT, "face_up": BOOL, "card": STR,
                    "private": private({"type": "object", "properties": {"card": STR}, "required": ["card"],
                                        "additionalProperties": False})},  # card: face up only (EVENT_OPTIONAL)
    "adviser_recruited": {"seat": SEAT, "slot": INT, "adviser": STR, "cost": NINT, "fleeting": NINT,
                          "lasting": NINT, "points": NINT},
    "stall_imported": {"seat": SEAT, "resource": RES, "cell": NINT, "cost": NINT, "owner": OPT_SEAT,
                       "claim": BOOL, "tile": NINT},
    "stall_site": {"seat": SEAT, "resource": RES, "access": BOOL},
    "access_bought": {"seat": SEAT, "tile": NINT, "cost": NINT, "to": OPT_SEAT},
    "building_upgraded": {"seat": SEAT, "resource": RES, "cells": INTS, "cost": NINT, "tile": NINT,
                          "prereqs": {"type": "array", "items": PREREQ}},
    "house_built": {"seat": SEAT, "cell": NINT, "cost": NINT, "tile": NINT},
    "bridge_built": {"seat": SEAT, "cell": NINT, "cost": NINT, "tile": NINT},
    "road_built": {"seat": SEAT, "cell": NINT},
    "roads_due": {"seat": SEAT, "queue": {"type": "array", "items": OPT_SEAT}},
    "roads_skipped": {"seat": SEAT},
    "basic_taken": {"seat": SEAT, "kind": {"enum": ["money", "influence"]}},
    "gained": {"seat": SEAT, "money": NINT, "fleeting": NINT, "lasting": NINT, "points": NINT, "source": STR},
    "worker_placed": {"seat": SEAT, "target": STR},
    "delivered": {"building": NINT, "requirement": NINT, "resource": RES, "tile": OPT_SEAT, "owner": INT,
                  "points": PAIRS},
    "completed": {"building": NINT, "card": STR, "points": PAIRS},
    "income_collected": {"seat": SEAT, "money": NINT, "fleeting": NINT},
    "follower_up": {"seat": SEAT},
    "offer_refilled": {},
    "achievement_scored": {"achievement": STR, "scorers": INTS, "value": NINT},
    "turn_passed": {"active": SEAT},
    "vote_called": {"seat": SEAT, "benefits": NINT},
    "reset_benefit": {"seat": SEAT, "kind": {"enum": ["money", "influence", "road"]}, "cell": NINT},
    "cards_returned": {"seat": SEAT},
    "claims_paid": {"seat": SEAT, "claims": NINT, "pay": PAY},
    "vote_opened": {"caller": SEAT},
    "vote_cast": {"seat": SEAT, "private": private(VOTE)},
    "votes_revealed": {"votes": {"type": "array", "items": VOTE}, "totals": INTS, "tied": INTS,
                       "winner": OPT_SEAT, "placer": OPT_SEAT, "decider": OPT_SEAT},
    "proposal_chosen": {"seat": SEAT, "proposal": NINT, "placer": SEAT, "pay": PAY},
    "prestige_unplaceable": {"card": STR},
    "proposals_drawn": {"cards": STRS, "returned": STRS, "reshuffled": BOOL},
    "prestige_placed": {"seat": SEAT, "card": STR, "cells": INTS, "tile": NINT},
    "vote_closed": {},
    "vote_skipped": {"seat": SEAT},
    "first_road_due": {"seat": SEAT},
    "first_road_built": {"seat": SEAT, "cell": NINT},
    "game_ended": {"reason": STR, "scores": INTS, "winners": INTS, "details": {"type": "array", "items": DETAIL},
                   "tie_break": STR},
    "history_recorded": {"seat": SEAT, "building": STR, "section": STR, "governing_body": STR},
    # v8 Shaping history (p. 19): the winner's race event card and what its blanks need
    "event_card_given": EVENT_CARD_FIELDS,
}

TILE = {
    "type": "object",
    "properties": {
        "id": NINT, "kind": {"enum": ["stall", "t2", "t3", "house", "bridge", "prestige"]},
        "resource": {"type": ["string", "null"]}, "owner": OPT_SEAT, "neutral": BOOL, "cells": INTS,
        "claims": INTS, "section": {"type": ["string", "null"]}, "card": STR,
        "prereqs": {"type": "array", "items": PREREQ},
    },
    "required": ["id", "kind", "resource", "owner", "neutral", "cells", "claims", "section"],
    "additionalProperties": False,
}

PLAYER = {
    "type": "object",
    "properties": {
        "seat": SEAT, "race": STR, "race_action": EFFECT, "resources": STRS, "money": NINT, "fleeting": NINT,
        "lasting": NINT, "points": INT, "score": {"type": "object", "additionalProperties": INT},
        "hand": {"type": ["array", "null"], "items": STR, "description": "your own hand (null for others)"},
        "hand_size": NINT,
        "played": {"type": "array", "items": {
            "type": "object", "properties": {"card": {"type": ["string", "null"]}, "face_up": BOOL},
            "required": ["card", "face_up"], "additionalProperties": False},
            "description": "face-down cards show null to others"},
        "workers": NINT, "workers_placed": STRS, "houses": NINT, "bridges": NINT, "roads": NINT,
        "advisers": NINT, "income": NINT,
    },
    "required": ["seat", "race", "resources", "money", "fleeting", "lasting", "points", "score", "hand",
                 "hand_size", "played", "workers", "workers_placed", "houses", "bridges", "roads", "income"],
    "additionalProperties": False,
}

PRESTIGE = {
    "type": "object",
    "properties": {
        "card": STR, "name": STR, "tile": NINT, "requires": STRS,
        "delivered": {"type": "array", "items": {"type": ["integer", "null"]},
                      "description": "per requirement: the delivering seat, -1 neutral, null not yet"},
        "complete": BOOL, "worker": OPT_SEAT, "neutral_claim": BOOL, "points": NINT, "action": EFFECT,
    },
    "required": ["card", "tile", "requires", "delivered", "complete", "worker", "neutral_claim"],
    "additionalProperties": False,
}

PRESTIGE_CARD = {"type": "object", "description": "a prestige building as printed",
                 "properties": {"kind": {"const": "prestige"}, "name": STR, "shape": STR, "colour": STR,
                                "requires": STRS, "points": NINT, "action": EFFECT, "spot": STR},
                 "required": ["kind", "name", "shape", "colour", "requires", "points", "action"],
                 "additionalProperties": False}
ADVISER_CARD = {"type": "object", "description": "an adviser as printed",
                "properties": {"kind": {"const": "adviser"}, "name": STR, "category": STR, "resource": RES,
                               "value": NINT, "discount": NINT, "bonus": EFFECT},
                "required": ["kind", "name", "category", "resource", "value", "discount", "bonus"],
                "additionalProperties": False}
CURRENT = {"type": "object", "description": "the seat acting now and in which role",
           "properties": {"seat": SEAT, "role": {"type": "string", "description": "play, basic, lead or follow"},
                          "category": STR, "card": CARD_ID, "discount": NINT, "bonus": EFFECT,
                          "stall": {"type": "object", "properties": {"resource": RES, "access": BOOL},
                                    "required": ["resource", "access"], "additionalProperties": False},
                          "first_road": {"type": ["boolean", "integer"],
                                         "description": "true while the first road is due, then its cell"}},
           "required": ["seat", "role"], "additionalProperties": False}
SETUP = {"type": "object",
         "properties": {"draft": {"type": "array", "items": SEAT, "description": "seats still to draft, in order"},
                        "pool": {"type": "array", "items": RES}, "place": {"type": "array", "items": SEAT},
                        "placed": {"type": "array", "items": {"type": "array", "items": RES}}},
         "required": ["draft", "pool", "place", "placed"], "additionalProperties": False}

VIEW_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "founders-of-gloomhaven view",
    "type": "object",
    "properties": {
        "type": {"const": "founders-of-gloomhaven"},
        "seat": OPT_SEAT,
        "phase": STR,
        "to_act": INTS,
        "map": {"type": "object", "properties": {"side": STR, "width": NINT, "height": NINT,
                                                 "colours": STRS,
                                                 "sections": {"type": "array", "items": {"type": ["integer", "null"]},
                                                              "description": "per square: its section, null on "
                                                                             "a river or wall"},
                                                 "section_names": STRS,
                                                 "numbered": {"type": "object", "additionalProperties": NINT,
                                                              "propertyNames": {"pattern": "^[0-9]+$"},
                                                              "description": "numbered spaces: square → number"}},
                "required": ["side", "width", "height", "colours", "sections"], "additionalProperties": False},
        "occupancy": {"type": "array", "items": INT,
                      "description": "per square: -1 empty, -2 road, else the tile id"},
        "tiles": {"type": "array", "items": TILE},
        "players": {"type": "array", "items": PLAYER},
        "neutral": STRS,
        "supply": {"type": "object", "additionalProperties": NINT},
        "roads_left": NINT,
        "offer": {"type": "array", "items": {"type": ["string", "null"]}},
        "offer_costs": INTS,
        "adviser_deck_size": NINT,
        "proposals": STRS,
        "cards": {"type": "object", "additionalProperties": {"oneOf": [PRESTIGE_CARD, ADVISER_CARD]},
                  "description": "what is printed on every card this seat can see (proposals, offer, "
                                 "own hand, cards played face up, removed advisers), by card id: a prestige "
                                 "building's name, shape, colour, requires, points, action; an adviser's "
                                 "name, category, resource, value, discount, bonus"},
        "proposal_deck_size": NINT,
        "prestige": {"type": "array", "items": PRESTIGE},
        "completions": NINT,
        "active": SEAT,
        "current": {"anyOf": [CURRENT, {"type": "null"}]},
        "roads_due": {"anyOf": [{"type": "object", "properties": {"seat": SEAT, "queue": {"type": "array",
                                                                                       "items": OPT_SEAT}},
                                 "required": ["seat", "queue"], "additionalProperties": False},
                                {"type": "null"}], "description": "a seat building the roads it is owed"},
        "reset": {"anyOf": [{"type": "object", "properties": {"seat": SEAT, "n": NINT},
                             "required": ["seat", "n"], "additionalProperties": False}, {"type": "null"}],
                  "description": "a seat taking its reset benefits (n left)"},
        "vote": {"type": ["object", "null"], "properties": {
            "caller": SEAT, "stage": STR, "voted": {"type": "array", "items": BOOL},
            "my_vote": {"anyOf": [VOTE, {"type": "null"}]},
            "votes": {"type": ["array", "null"], "items": VOTE}, "tied": INTS, "decider": OPT_SEAT,
            "placer": OPT_SEAT, "card": {"type": ["string", "null"]}}, "additionalProperties": False},
        "achievements": {"anyOf": [ACHIEVEMENTS, {"type": "null"}]},
        "achievements_scored": {"type": "object", "additionalProperties": INTS,
                                "description": "achievements scored so far, by id: the seats that scored"},
        "setup": {"anyOf": [SETUP, {"type": "null"}],
                  "description": "setup decisions still to make (draft, placing)"},
        "solo": {"anyOf": [{"type": "object", "properties": {"cycle": NINT, "costs": INTS},
                            "required": ["cycle", "costs"], "additionalProperties": False}, {"type": "null"}]},
        "removed": STRS,
        "result": {"anyOf": [RESULT, {"type": "null"}]},
        "history": {"anyOf": [HISTORY, {"type": "null"}]},
    },
    "required": ["type", "seat", "phase", "to_act", "map", "occupancy", "tiles", "players", "neutral", "supply",
                 "offer", "proposals", "prestige", "completions", "active", "vote", "solo", "result"],
    "additionalProperties": False,
}
