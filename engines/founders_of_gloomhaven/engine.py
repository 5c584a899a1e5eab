"""Founders of Gloomhaven (2-4 players and the solo variant) as a RulesEngine.

Sources: seed-FoG = the rulebook pages 11-20 (../shared/rules/002_24ae600459e7675b.txt),
facts = ../shared/rules/founders-of-gloomhaven.md. Card and map values that neither gives
are our edition, kept as data in edition.json (RULES.md lists every rule and its source).

The turn (seed-FoG p. 11): the active player plays one card, face up (Call to Work: the
main action, then every other player in turn order follows or takes a basic action) or
face down (a basic action), or calls a vote (reset, income, secret simultaneous vote,
placement of the winning prestige building). Everything automatic (followers coming up,
refilling the adviser offer, achievements, the end) happens in the phase `advance`.

This module holds the engine class (setup, view, hidden information); the rules are split by
concern, each module importing only those below it (no cycle):
common (helpers, versions) < placement (prestige placement) < events (`ON`, the handlers) <
delivery (effects, deliveries, the look-ahead `_apply`) < build (houses, bridges, roads, basic
actions, workers) < trade (Recruit, Trade) < upgrade < turn (play a card, Call to Vote, reset,
income, achievements) < vote (vote, tie, placement, solo costs) < history < setup < phases
(automatic steps, `PHASES`) < moves (`MOVES`) < play (the random player) < engine.
"""

from __future__ import annotations

import random
from typing import Any

from tablero.engines.core import InvalidOptions, RulesEngine, clone

from . import data as D
from .board import board_of
from .common import Action, State, _owned_types, _p
from .delivery import _fork
from .events import ON
from .history import _history_due, with_section_ids
from .moves import MOVES
from .phases import PHASES, _draw_proposals, enter_phase
from .schemas import EVENT_FIELDS, EVENT_OPTIONAL, OUTCOME_SCHEMA, VIEW_SCHEMA
from .solo_play import weighted_choice
from .vote import _solo_cost

# ============================================================================================
# the engine
# ============================================================================================
# "x-players": the player counts (CreateGame's `players`) an option applies to; start() refuses it
# at the others, and a lobby shows it only for these (docs/api.md, "Options a lobby shows").
SOLO, SEVERAL = [1], [2, 3, 4]
OPTIONS_SCHEMA = {
    "type": "object",
    "properties": {
        "map": {"enum": sorted(D.BOARDS), "default": "thematic", "description": "side of the map board"},
        "achievements": {"type": "boolean", "default": False, "description": "achievements variant (p. 19)"},
        "no_workers": {"type": "boolean", "default": False, "description": "no-workers variant (p. 19)",
                       "x-players": SEVERAL},
        "shaping_history": {"type": "boolean", "default": False,
                            "description": "'Shaping history' variant (p. 19): at the end the winner gets its race's "
                                           "Gloomhaven event card, named in the outcome with the buildings and "
                                           "sections for its blanks (filled in on the card); thematic side, "
                                           "2-4 players",
                            "x-players": SEVERAL},
        "races": {"type": "array", "items": {"enum": sorted(D.RACES)}, "uniqueItems": True, "minItems": 1,
                  "maxItems": 4, "description": "races by seat (default: dealt at random)"},
        "setup": {"enum": ["draft", "dealt"], "default": "draft",
                  "description": "draft the extra resources and place the starting stalls (ours), or deal both"},
        "solo_section": {"enum": ["left", "middle", "right"], "default": "left",
                         "description": "solo: the section of the race resource (difficulty, p. 17)",
                         "x-players": SOLO},
    },
    "additionalProperties": False,
}


class FoundersOfGloomhaven(RulesEngine):
    name = "founders-of-gloomhaven"
    title = "Founders of Gloomhaven"
    min_seats = 1
    max_seats = 4
    version = 11
    supported_versions = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    max_random_steps = 20_000
    options_schema = OPTIONS_SCHEMA
    moves = MOVES
    phases = PHASES
    on = ON
    event_fields = EVENT_FIELDS
    event_optional = EVENT_OPTIONAL
    view_schema = VIEW_SCHEMA
    outcome_schema = OUTCOME_SCHEMA

    def fork(self, state: State):
        """The look-ahead copy of `settle`: a `_fork` instead of a full clone (the handlers only
        touch what `_fork` copies; decide() still never mutates `state`)."""
        return _fork(state)

    def enter_phase(self, state: State, name: str, rng: random.Random) -> list[dict]:
        """The events that start a phase after an automatic phase ended (phases.enter_phase)."""
        return enter_phase(state, name)

    # --- phases derived from the state ----------------------------------------------------
    def phase_of(self, s: State) -> str:
        if s["over"] is not None:
            return "history" if _history_due(s) else "over"
        if s["setup"]:
            return "draft" if s["setup"]["draft"] else "setup_place"
        if s["roads"]:
            return "roads"
        if s["reset"]:
            return "reset" if s["reset"]["n"] > 0 else "reset_end"
        v = s["vote"]
        if v:
            st = v["stage"]
            if st == "voting":
                return "vote"
            if st == "tie":
                return "tie"
            if st == "choose":
                return "solo_choose"
            if st == "placing" and v["card"] is not None and not v["stuck"]:
                return "place"
            return "vote_end"
        cur = s["cur"]
        if cur is None:
            return "advance"
        if "stall" in cur:
            return "site"
        if cur.get("first_road") is True:
            return "lead_road"
        if cur["role"] == "play":
            if s["solo"] and _p(s, 0)["hand"] == ["vote"]:
                return "solo_call"
            return "play"
        return cur["role"]

    # --- setup ---------------------------------------------------------------------------
    def start(self, seats: int, options: dict[str, Any] | None, rng: random.Random):
        side = options.get("map", "thematic")
        variants = {k: bool(options.get(k, False)) for k in ("achievements", "no_workers", "shaping_history")}
        if variants["shaping_history"] and side != "thematic":
            raise InvalidOptions("'Shaping history' is played on the thematic side of the map")
        if variants["shaping_history"] and seats == 1:
            raise InvalidOptions("'Shaping history' needs a winner among several players")
        if variants["no_workers"] and seats == 1:
            raise InvalidOptions("the no-workers variant cannot be combined with the solo game (p. 19)")
        if "solo_section" in options and seats > 1:
            raise InvalidOptions("solo_section sets the solo game's difficulty: it does not apply with several players")
        if options.get("solo_section", "left") != "left" and side == "symmetric":
            raise InvalidOptions("on the symmetric side the solo game is always of normal difficulty (p. 17): "
                                 "solo_section does not apply")
        # the v1-4 map: the start draws alike for every version (old logs re-decide their setup);
        # a v5 state puts the stalls on the same numbered spaces of its own map (_on_started)
        board = D.BOARDS[side]
        races = list(options.get("races") or [])
        if races and len(races) != seats:
            raise InvalidOptions(f"races: give one race per seat ({seats})")
        if len({D.RACES[r]["resource"] for r in races}) != len(races):
            raise InvalidOptions("races: two races with the same basic resource cannot play together")
        if not races:
            pool = sorted(D.RACES)
            rng.shuffle(pool)
            for r in pool:
                if len(races) < seats and D.RACES[r]["resource"] not in {D.RACES[x]["resource"] for x in races}:
                    races.append(r)
        own = [D.RACES[r]["resource"] for r in races]
        rest = [r for r in D.BASIC if r not in own]
        rng.shuffle(rest)
        if seats == 1:
            resources = [[own[0], *[r for r in D.BASIC if r != own[0]]]]
            neutral = []
        else:
            extra = 2 if seats == 2 else 1  # 2 players control 3 resources each, otherwise 2 (facts B.2)
            resources = [[own[i], *rest[i * extra:(i + 1) * extra]] for i in range(seats)]
            neutral = sorted(rest[seats * extra:])
        stalls = []
        draft = None
        if seats == 1:
            sec = board.sections.index(options.get("solo_section", "left"))
            stalls.append([0, own[0], board.numbered_by_section[sec][0]])
        elif options.get("setup", "draft") == "draft":
            # ours: the second (and third) resource drafted in reverse turn order (snake with 2 players),
            # then each player places its starting stalls on grey numbered spaces, in turn order
            resources = [[r] for r in own]
            neutral = []
            order = list(range(seats - 1, -1, -1))
            draft = order + order[::-1] if seats == 2 else order
        else:
            spaces = sorted(board.numbered)
            rng.shuffle(spaces)
            k = 0
            for i in range(seats):
                for res in resources[i]:
                    stalls.append([i, res, spaces[k]])
                    k += 1
        hand = ["recruit", "trade", "upgrade", "build", "vote"] + (["income"] if seats == 2 else [])
        advisers = sorted(D.ADVISERS)
        rng.shuffle(advisers)
        n_offer = len(D.OFFER_COSTS)
        deck = sorted(D.PRESTIGE)
        rng.shuffle(deck)
        fake = {"proposal_deck": deck, "proposal_discard": []}
        first = _draw_proposals(fake, rng, 3, [])
        deck = first["secret"]["deck"]
        ach = None
        if variants["achievements"]:
            ach = {}
            for deck_name in ("immediate", "mid", "end"):
                cards = sorted(a for a, spec in D.ACHIEVEMENTS.items() if spec["deck"] == deck_name)
                ach[deck_name] = rng.choice(cards)
        return {
            "type": "game_started", "map": side, "variants": variants, "races": races, "resources": resources,
            "neutral": neutral, "stalls": stalls, "draft": draft, "hands": [list(hand) for _ in range(seats)],
            "offer": advisers[:n_offer], "proposals": first["cards"], "achievements": ach,
            "secret": {"adviser_deck": advisers[n_offer:], "proposal_deck": deck},
        }

    # --- views ---------------------------------------------------------------------------
    def view(self, s: State, seat: int):
        b = board_of(s)
        phase = self.phase_of(s)
        players = []
        for i, pl in enumerate(s["players"]):
            mine = seat == i
            players.append({
                "seat": i, "race": pl["race"], "race_action": dict(D.RACES[pl["race"]]["action"]),
                "resources": list(pl["resources"]), "money": pl["money"], "fleeting": pl["fleeting"],
                "lasting": pl["lasting"], "points": sum(pl["score"].values()), "score": dict(pl["score"]),
                "hand": list(pl["hand"]) if mine else None, "hand_size": len(pl["hand"]),
                "played": [{"card": c["card"] if (c["face_up"] or mine) else None, "face_up": c["face_up"]}
                           for c in pl["played"]],
                "workers": pl["workers"], "workers_placed": list(pl["placed"]), "houses": pl["houses"],
                "bridges": pl["bridges"], "roads": pl["roads"], "advisers": pl["advisers"],
                "income": len(_owned_types(s, i)),
            })
        tiles = []
        for i, t in enumerate(s["tiles"]):
            vt = {"id": i, "kind": t["kind"], "resource": t["res"], "owner": t["owner"],
                  "neutral": t["owner"] is None and t["kind"] == "stall", "cells": list(t["cells"]),
                  "claims": list(t["claims"]),
                  "section": b.sections[t["section"]] if t["section"] is not None else None}
            if "card" in t:
                vt["card"] = t["card"]
            if t["prereq"]:
                vt["prereqs"] = clone(t["prereq"])
            tiles.append(vt)
        spec = D.edition(s).PRESTIGE
        prestige = [{"card": pb["card"], "name": spec[pb["card"]]["name"], "tile": pb["tile"],
                     "requires": list(spec[pb["card"]]["requires"]), "delivered": list(pb["delivered"]),
                     "complete": pb["complete"], "worker": pb["worker"], "neutral_claim": pb["claim"],
                     "points": spec[pb["card"]]["points"], "action": dict(spec[pb["card"]]["action"])}
                    for pb in s["prestige"]]
        vote = None
        v = s["vote"]
        if v is not None:
            secret = v["stage"] == "voting"
            vote = {"caller": v["caller"], "stage": v["stage"], "voted": [x is not None for x in v["votes"]],
                    "my_vote": (dict(v["votes"][seat]) if seat is not None and v["votes"][seat] else None),
                    "votes": None if secret or s["solo"] else [dict(x) for x in v["votes"]],
                    "tied": list(v["tied"]), "decider": v["decider"], "placer": v["placer"], "card": v["card"]}
        cur = s["cur"]
        # What a player reads on the cards it can see (proposals, the offer, its hand, cards
        # played face up, advisers removed): a person chooses by them. Hidden cards stay out.
        seen = {*s["proposals"], *(c for c in s["offer"] if c), *s["removed"]}
        if v is not None and v["card"]:
            seen.add(v["card"])
        for p in players:
            seen.update(p["hand"] or ())
            seen.update(c["card"] for c in p["played"] if c["card"])
        cards = {}
        for c in sorted(seen):
            if c in spec:
                cards[c] = {"kind": "prestige", **clone(spec[c])}
            elif c in D.ADVISERS:
                cards[c] = {"kind": "adviser", "name": c.replace("_", " ").title(), **clone(D.ADVISERS[c])}
        return {
            "type": "founders-of-gloomhaven", "seat": seat, "phase": phase, "to_act": sorted(self.to_act(s)),
            "cards": cards,
            "map": {"side": s["map"], "width": b.w, "height": b.h, "colours": list(b.colour),
                    "sections": list(b.section), "section_names": [b.section_names[x] for x in b.sections],
                    "numbered": {str(c): k for c, k in b.numbered.items()}},
            "occupancy": list(s["occ"]), "tiles": tiles, "players": players, "neutral": list(s["neutral"]),
            "supply": dict(s["supply"]), "roads_left": s["roads_left"], "offer": list(s["offer"]),
            "offer_costs": list(D.OFFER_COSTS), "adviser_deck_size": len(s["adviser_deck"]),
            "proposals": list(s["proposals"]), "proposal_deck_size": len(s["proposal_deck"]),
            "prestige": prestige, "completions": s["completions"], "active": s["active"],
            "current": ({k: clone(x) for k, x in cur.items() if k != "card" or cur.get("role") == "lead"}
                        if cur else None),
            "roads_due": clone(s["roads"]), "reset": clone(s["reset"]), "vote": vote,
            "achievements": clone(s["achievements"]), "achievements_scored": clone(s["ach_scored"]),
            "solo": ({"cycle": s["cycle"], "costs": [_solo_cost(s, i) for i in range(3)]} if s["solo"] else None),
            "removed": list(s["removed"]), "result": with_section_ids(clone(s["over"])),
            "history": with_section_ids(clone(s["history"])),
            "setup": clone(s["setup"]),
        }

    def outcome(self, s: State):
        if s["over"] is None or _history_due(s):
            return None
        out = clone(s["over"])
        if s["history"]:
            out["history"] = clone(s["history"])
        return with_section_ids(out)

    def event_view(self, event, seat):
        event = super().event_view(event, seat)
        if event.get("type") == "event_card_given":  # its buildings' sections, as ids too
            return with_section_ids(event)
        return event

    def to_act(self, s: State):
        if s["over"] is not None and not _history_due(s):
            return set()
        return super().to_act(s)

    # --- hidden information --------------------------------------------------------------
    def resample_hidden(self, s: State, viewer: int | None, rng: random.Random):
        s = clone(s)
        rng.shuffle(s["adviser_deck"])
        rng.shuffle(s["proposal_deck"])
        for i, pl in enumerate(s["players"]):
            if i == viewer:
                continue
            down = [k for k, c in enumerate(pl["played"]) if not c["face_up"]]
            pool = [c for c in pl["hand"] if c != "vote"] + [pl["played"][k]["card"] for k in down]
            rng.shuffle(pool)
            for k in down:
                pl["played"][k]["card"] = pool.pop()
            pl["hand"] = pool + (["vote"] if "vote" in pl["hand"] else [])
        v = s["vote"]
        if v is not None and v["stage"] == "voting":
            for i, x in enumerate(v["votes"]):
                if x is not None and i != viewer:
                    pl = s["players"][i]
                    v["votes"][i] = {"proposal": rng.randrange(len(s["proposals"])), "fleeting": rng.randint(0, pl["fleeting"]),
                                     "lasting": rng.randint(0, pl["lasting"])}
        return s

    # --- the random player ----------------------------------------------------------------
    def random_action(self, s: State, seat: int, actions: list[Action], rng: random.Random):
        return weighted_choice(self, s, seat, actions, rng)


ENGINE = FoundersOfGloomhaven()
