"""JSON Schemas of the Founders of Gloomhaven events (fields) and view."""

from __future__ import annotations

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
PAY = {"type": "object", "properties": {"fleeting": NINT, "lasting": NINT}, "required": ["fleeting", "lasting"]}
VOTE = {"type": "object", "properties": {"proposal": {"type": "integer", "minimum": 0, "maximum": 2},
                                         "fleeting": NINT, "lasting": NINT},
        "required": ["proposal", "fleeting", "lasting"], "additionalProperties": False}
EFFECT = {"type": "object", "properties": {k: NINT for k in D.EFFECT_KINDS}, "additionalProperties": False}

EVENT_FIELDS = {
    "game_started": {"map": STR, "variants": {"type": "object"}, "races": STRS, "resources": {"type": "array"},
                     "neutral": STRS, "stalls": {"type": "array"}, "hands": {"type": "array"}, "offer": STRS,
                     "proposals": STRS, "achievements": {"type": ["object", "null"]}},
    "resource_drafted": {"seat": SEAT, "resource": RES},
    "start_stall_placed": {"seat": SEAT, "resource": RES, "cell": NINT},
    "card_played": {"seat": SEAT, "face_up": BOOL},
    "adviser_recruited": {"seat": SEAT, "slot": INT, "adviser": STR, "cost": NINT, "fleeting": NINT,
                          "lasting": NINT, "points": NINT},
    "stall_imported": {"seat": SEAT, "resource": RES, "cell": NINT, "cost": NINT, "owner": OPT_SEAT,
                       "claim": BOOL, "tile": NINT},
    "stall_site": {"seat": SEAT, "resource": RES, "access": BOOL},
    "access_bought": {"seat": SEAT, "tile": NINT, "cost": NINT, "to": OPT_SEAT},
    "building_upgraded": {"seat": SEAT, "resource": RES, "cells": INTS, "cost": NINT, "tile": NINT,
                          "prereqs": {"type": "array", "description": "[tile, owner or null (neutral), points]"}},
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
    "reset_benefit": {"seat": SEAT, "kind": {"enum": ["money", "influence", "road"]}},
    "cards_returned": {"seat": SEAT},
    "claims_paid": {"seat": SEAT, "claims": NINT, "pay": PAY},
    "vote_opened": {"caller": SEAT},
    "vote_cast": {"seat": SEAT},
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
    "game_ended": {"reason": STR, "scores": INTS, "winners": INTS, "details": {"type": "array"},
                   "tie_break": STR},
    "history_recorded": {"seat": SEAT, "building": STR, "section": STR, "governing_body": STR},
    # v8 Shaping history (p. 19): the winner's race event card and what its blanks need
    "event_card_given": {
        "seat": SEAT, "race": {"type": "string", "enum": sorted(D.RACES)}, "card": STR,
        "buildings": {"type": "array", "description": "candidates for the favourite building: those carrying the "
                      "winner's delivery tokens (most first), or every prestige building when none does",
                      "items": {"type": "object", "properties": {
                          "card": STR, "name": STR, "section": {"type": ["string", "null"]},
                          "deliveries": NINT, "complete": BOOL},
                          "required": ["card", "name", "section", "deliveries", "complete"]}},
        "delivered_to": BOOL, "blanks": STRS},
}

TILE = {
    "type": "object",
    "properties": {
        "id": NINT, "kind": {"enum": ["stall", "t2", "t3", "house", "bridge", "prestige"]},
        "resource": {"type": ["string", "null"]}, "owner": OPT_SEAT, "neutral": BOOL, "cells": INTS,
        "claims": INTS, "section": {"type": ["string", "null"]}, "card": STR,
        "prereqs": {"type": "array"},
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
            "required": ["card", "face_up"]}, "description": "face-down cards show null to others"},
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
                                                 "colours": STRS, "sections": {"type": "array"},
                                                 "section_names": STRS, "numbered": {"type": "object"}},
                "required": ["side", "width", "height", "colours", "sections"]},
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
        "cards": {"type": "object", "additionalProperties": {"type": "object"},
                  "description": "what is printed on every card this seat can see (proposals, offer, "
                                 "own hand, cards played face up, removed advisers), by card id: a prestige "
                                 "building's name, shape, colour, requires, points, action; an adviser's "
                                 "name, category, resource, value, discount, bonus"},
        "proposal_deck_size": NINT,
        "prestige": {"type": "array", "items": PRESTIGE},
        "completions": NINT,
        "active": SEAT,
        "current": {"type": ["object", "null"]},
        "roads_due": {"type": ["object", "null"]},
        "reset": {"type": ["object", "null"]},
        "vote": {"type": ["object", "null"], "properties": {
            "caller": SEAT, "stage": STR, "voted": {"type": "array", "items": BOOL},
            "my_vote": {"anyOf": [VOTE, {"type": "null"}]},
            "votes": {"type": ["array", "null"]}, "tied": INTS, "decider": OPT_SEAT,
            "placer": OPT_SEAT, "card": {"type": ["string", "null"]}}},
        "achievements": {"type": ["object", "null"]},
        "achievements_scored": {"type": "object"},
        "setup": {"type": ["object", "null"], "description": "setup decisions still to make (draft, placing)"},
        "solo": {"type": ["object", "null"]},
        "removed": STRS,
        "result": {"type": ["object", "null"]},
        "history": {"type": ["object", "null"]},
    },
    "required": ["type", "seat", "phase", "to_act", "map", "occupancy", "tiles", "players", "neutral", "supply",
                 "offer", "proposals", "prestige", "completions", "active", "vote", "solo", "result"],
    "additionalProperties": False,
}
