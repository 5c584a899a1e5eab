"""Riverboat (Michael Kiesling, Lookout 2017) written as rules: a move table and a phase table.

Four rounds; each round the five phase tiles are drafted, then the phases run in order:
Cultivation, Planting, Harvest & Shipping, Opportunity, Scoring. Then the final scoring.
Rule sources are cited as seed-R (the rulebook text), facts (shared/rules/riverboat.md) or
"our edition" (see RULES.md and data.py).

The rules are three tables, which `engines.core.RulesEngine` interprets:
- `events.ON`: each event and what it does to the state, the only code that changes a state;
- `moves.MOVES`: the moves, grouped by the phase of the rulebook that allows them, each
  declared once: fields, phases, `check` (legality, raising the reason a player reads),
  `resolve` (the events), `options` (its legal instances) and its rulebook reference;
- `phases.PHASES_TABLE`: who acts (`to_act`) and what happens without a decision (`auto`:
  phase-tile bonuses, revealing crop cards, refills, ends of phases and rounds).
This module ties them together with the setup, the views and the hidden information;
`schemas.py` holds the event and view schemas, `state.py` the state's typed definitions.

Turn structure. Sequential phases keep a pointer `turn`; the seat to act is the first
*eligible* seat scanning clockwise from it (players with nothing left to do are skipped, as
the rulebook skips them). Cultivation is simultaneous: every seat that must place a worker
for the revealed card is in `waiting`. Decisions a single seat owes right now (place the
round-track worker, choose the scoring bonus, place an estate feature, send agents, choose
from a searched pile) queue in `pending`; the first one is the current step of the phase
table, and its seat alone acts.

Versions. v2 fixes the coin paid for a riverboat from its pile: it is back in the general
supply before the boat's benefit is taken (seed-R "Coge 1 moneda del suministro general (si
queda alguna)"). Games started under v1 keep the v1 reading (their state has no "version").
"""

from __future__ import annotations

import random

from tablero.engines.core import Move, RulesEngine, clone

from . import board, scoring
from .data import (
    BOATS,
    CARD_SPACE_BONUSES,
    CROP_CARDS,
    CROP_TILES,
    FIELD_COLOURS,
    HARBOR_LAST_SPACE,
    MAT_COLS,
    MAT_ROWS,
    MATS,
    OPPORTUNITY,
    OPPORTUNITY_CARDS,
    PHASES,
    SUPPLY_SLOTS,
    TILE_KINDS,
)
from .events import ON
from .moves import (
    ACTION_FIELDS,
    ACTION_TYPES,
    COIN_TYPES,
    MOVES,
    PHASE_TITLE,
    STEP_OF,
    _claim_limit,
    _survey_limit,
    _where,
)
from .phases import PHASES_TABLE, enter_phase
from .schemas import EVENT_FIELDS, EVENT_OPTIONAL, OUTCOME_SCHEMA, VIEW_SCHEMA
from .state import Action, Event, State
from .state import fork as fork_state

__all__ = ["ACTION_FIELDS", "ACTION_TYPES", "Riverboat"]

_RIVERBOATS_STATIC = {b["id"]: {"capacity": b["capacity"], "benefit": dict(b["benefit"])} for b in BOATS}
_CARD_TEXTS = {c["id"]: c["text"] for c in OPPORTUNITY_CARDS}
_NOT_PLAIN = frozenset(("pass", "skip", "decline", "return_workers", *COIN_TYPES))


class Riverboat(RulesEngine):
    name = "riverboat"
    title = "Riverboat"
    min_seats = 2
    max_seats = 4
    # v2: the coin paid for a riverboat from its pile is in the supply for the boat's benefit.
    version = 2
    supported_versions = (1,)
    # coin_draws: "choose" (seed-R: the coin lets you choose from the pile / deck) or "blind"
    # (the reading of issue 4: the coin draws the top tile or card unseen). See RULES.md.
    options_schema = {
        "type": "object",
        "properties": {"coin_draws": {"enum": ["choose", "blind"], "default": "choose"}},
        "additionalProperties": False,
    }
    max_random_steps = 3000

    moves = MOVES
    phases = PHASES_TABLE
    on = ON
    event_fields = EVENT_FIELDS
    event_optional = EVENT_OPTIONAL
    view_schema = VIEW_SCHEMA
    outcome_schema = OUTCOME_SCHEMA

    def phase_of(self, state: State) -> str:
        # A decision a seat owes comes first: it is the current step.
        return state["pending"][0]["kind"] if state["pending"] else state["phase"]

    def enter_phase(self, state: State, name: str, rng: random.Random) -> list[Event]:
        # A phase begins after the one before it ended (phases.enter_phase).
        return enter_phase(state, name)

    def fork(self, state: State) -> State:
        # The decide loop's look-ahead copy, written out by the state's shape (state.fork).
        return fork_state(state)

    def wrong_phase(self, state: State, seat: int, move: Move, action: Action) -> str:
        s = state
        if s["phase"] == "over":
            return "the game is over"
        if s["pending"]:
            kind = s["pending"][0]["kind"]
            answers = [m.type for m in self.moves if m.phases is not None and kind in m.phases]
            return (f"{_where(s)}: first resolve your pending decision "
                    f"({kind.replace('_', ' ')}: {' / '.join(answers)})")
        homes = {STEP_OF.get(p, p) for p in move.phases or ()} & set(PHASE_TITLE)
        if len(homes) == 1 and s["phase"] not in homes:
            home = next(iter(homes))
            return f"{_where(s)}: {move.type.replace('_', ' ')} belongs to the {PHASE_TITLE[home]} phase"
        return super().wrong_phase(state, seat, move, action)

    # ------------------------------------------------------------------ setup
    def start(self, seats, options, rng):
        # seed-R setup: shuffle the crop cards, the opportunity cards and the three tile piles;
        # fill the crop supply spaces and the four card spaces; one boat of each type on the board;
        # a random mat per player; a random first player.
        mats = sorted(MATS)
        rng.shuffle(mats)
        crop_deck = [colour for colour, k in CROP_CARDS.items() for _ in range(k)]
        rng.shuffle(crop_deck)
        piles: dict[str, list[str]] = {str(size): [] for size in (1, 2, 3)}
        for t in CROP_TILES:
            piles[str(t["size"])].extend([t["kind"]] * t["count"])
        for pile in piles.values():
            rng.shuffle(pile)
        slots = {size: pile[: SUPPLY_SLOTS[size]] for size, pile in piles.items()}
        piles = {size: pile[SUPPLY_SLOTS[size]:] for size, pile in piles.items()}
        opp = [c["id"] for c in OPPORTUNITY_CARDS]
        rng.shuffle(opp)
        return {
            "type": "game_started",
            "first_player": rng.randrange(seats),
            "mats": mats[:seats],
            "crop_supply": slots,
            "opportunity_spaces": opp[: len(CARD_SPACE_BONUSES)],
            "secret": {"crop_deck": crop_deck, "piles": piles, "opportunity_deck": opp[len(CARD_SPACE_BONUSES):]},
        }

    # ------------------------------------------------------------------ views
    def view(self, state, seat):
        s = state
        harvest, scoring_phase = s["phase"] == "harvest", s["phase"] == "scoring"
        players = []
        for i, p in enumerate(s["players"]):
            q = clone(p)
            q["field_colours"] = board.COLOUR[p["mat"]]
            q["boats_reached"] = len(scoring.reached_boats(p))
            q["fields_covered"] = board.complete_fields(p)
            q["boats_claimed_this_round"] = s["claims"][i] if harvest else 0
            q["surveyors_placed_this_round"] = s["surveyed"][i] if scoring_phase else 0
            q["passed"] = bool(s["done"][i]) if harvest or scoring_phase else False
            players.append(q)
        pending = s["pending"][0] if s["pending"] else None
        return {
            "type": "riverboat",
            "seat": seat,
            "round": s["round"],
            "phase": s["phase"],
            "first_player": s["first_player"],
            "phase_tiles": dict(zip(PHASES, s["phase_tiles"], strict=True)),
            "to_act": sorted(self.to_act(s)),
            "pending": clone(pending),
            "crop_card": s["card"],
            "cards_left_this_round": s["cards_left"],
            "waiting": list(s["waiting"]),
            "crop_deck_size": len(s["crop_deck"]),
            "round_track": s["round_track"],
            "crop_supply": clone(s["slots"]),
            "pile_sizes": {k: len(v) for k, v in s["piles"].items()},
            "riverboats": {b: {"capacity": x["capacity"], "benefit": dict(x["benefit"]),
                               "on_board": s["boat_board"][b], "pile": s["boat_piles"][b]}
                           for b, x in _RIVERBOATS_STATIC.items()},
            "boat_claims_this_round": _claim_limit(s),
            "surveyors_this_round": _survey_limit(s),
            "opportunity_spaces": [{"card": c, "text": OPPORTUNITY[c]["text"] if c else None,
                                    "bonus": CARD_SPACE_BONUSES[i]} for i, c in enumerate(s["opp_spaces"])],
            "opportunity_card_texts": dict(_CARD_TEXTS),
            "opportunity_deck_size": len(s["opp_deck"]),
            "opportunity_deck_bottom": s["opp_deck"][len(s["opp_deck"]) - s["opp_known_bottom"]:],
            "held_tile": self._held_view(s, seat),
            "search": self._search_view(s, seat),
            "harbor_track": {"last_space": HARBOR_LAST_SPACE,
                             "slot_spaces": [scoring.slot_space(i) for i in range(len(BOATS))]},
            "supply": dict(s["supply"]),
            "field_colours": list(FIELD_COLOURS.values()),
            # Cells are numbered row * cols + col; odd rows are shifted half a hex to the right.
            "mat_grid": {"rows": MAT_ROWS, "cols": MAT_COLS, "odd_rows_shifted_right": True},
            "players": players,
            "result": clone(s["result"]),
        }

    def _search_view(self, s: State, seat: int | None) -> dict | None:
        """A pile or deck being searched with a coin: everyone sees who searches which pile; only
        the searcher sees its contents (sorted, never its order)."""
        item = s["pending"][0] if s["pending"] else None
        if item is None or item["kind"] not in ("choose_from_pile", "choose_from_deck"):
            return None
        mine = seat == item["seat"]
        if item["kind"] == "choose_from_pile":
            return {"seat": item["seat"], "pile": f"{item['size']}-hex tiles",
                    "contents": sorted(s["piles"][item["size"]]) if mine else None}
        return {"seat": item["seat"], "pile": "opportunity deck", "contents": sorted(s["opp_deck"]) if mine else None}

    def _held_view(self, s: State, seat: int | None) -> dict | None:
        held = s["held"]
        if held is None:
            return None
        size = TILE_KINDS[held["kind"]]["size"]
        return {"seat": held["seat"], "size": size, "kind": held["kind"] if seat == held["seat"] else None}

    def outcome(self, state):
        # The game_ended event keeps the scoring rows; the outcome shows each seat's by
        # `scoring.summary` (the lines that add up to the total first, RULES.md "Outcome details").
        if state["phase"] != "over":
            return None
        result = clone(state["result"])
        result["details"] = [scoring.summary(row) for row in result["details"]]
        return result

    def resample_hidden(self, state, viewer, rng):
        # Hidden from everyone: the crop-card deck order, the three tile piles' order and the
        # order of the unseen part of the opportunity deck (the leftovers put under it are public).
        s = clone(state)
        rng.shuffle(s["crop_deck"])
        for pile in s["piles"].values():
            rng.shuffle(pile)
        deck = s["opp_deck"]
        k = len(deck) - s["opp_known_bottom"]
        top = deck[:k]
        rng.shuffle(top)
        s["opp_deck"] = top + deck[k:]
        held = s["held"]
        if held is not None and viewer != held["seat"]:
            # A tile drawn blind is known only to its drawer: anyone else sees one unknown tile
            # of that size, drawn from the same pool as the pile.
            size = str(TILE_KINDS[held["kind"]]["size"])
            pool = [held["kind"], *s["piles"][size]]
            rng.shuffle(pool)
            held["kind"] = pool[0]
            s["piles"][size] = pool[1:]
        return s

    def random_action(self, state, seat, actions, rng):
        # Random play: mostly the plain actions, now and then a coin, a pass or a skip.
        plain = [a for a in actions if not a.get("coin") and a["type"] not in _NOT_PLAIN]
        if plain and rng.random() < 0.85:
            return rng.choice(plain)
        return rng.choice(actions)
