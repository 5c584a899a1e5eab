"""Phoenicia (Tom Lehmann), 2-5 players: auctions of development cards, workers
trained and employed on village tableaus, production cards as money, first to 32 VP.

The rules as tables, in the rulebook's order (seed-P "Etapas del juego"):
  1. player turns, clockwise from the Overlord: a) open auctions, b) train, employ
     and move workers, c) buy tools and VP, adjust the treasury -> `MOVES`, one
     `Phase` per step;
  2. administration: a) 32-VP check and new Overlord, b) refill the display,
     c) deal production, d) storage and treasury limits -> the automatic phase `admin`.
Events change the state through the `ON` table only.

Every priced move is offered in its grouped form (`{"type": "employ", "tableau":
"farming"}`) followed by a `pay` step that lists the ways to pay; the single-action
form with `cards` and `disks` (v1 logs and clients) stays accepted.

State is plain JSON (`state.GameState`). Hidden: the values of production cards in
hand (their number is public), the production deck order and the development deck order.

Versions: v1 offered every move to a more costly tableau; v2 (seed-P 1b "a una
actividad más costosa y lucrativa") only moves that also gain production or VP.
A state of a v2 game carries `"version": 2`; v1 states are as v1 wrote them. v3: the
exhausted-game safety net counts only the moves v2 allows (before, a game whose remaining moves
to costlier activities gained nothing could never end).
"""

from __future__ import annotations

import random

from tablero.engines.core import Phase, RulesEngine, branch, clone

from . import data
from .data import CARD, CITY_CENTER, TABLEAUS
from .events import ON
from .money import income
from .moves import FIELDS, MOVES, _title, _trim
from .schemas import DECISION, EVENT_FIELDS, OUTCOME_SCHEMA, VIEW_SCHEMA
from .state import GameState, Player
from .village import (
    card_facts,
    dead_end,
    discount,
    discounts,
    first_display,
    hand_size,
    max_wealth,
    money,
    new_tile,
    refresh,
    scoring,
    slot_production,
    training_cost,
    treasury_capacity,
    vp_sources,
)

__all__ = ["FIELDS", "Phoenicia", "dead_end", "discount", "first_display", "max_wealth", "scoring", "vp_sources"]

# Old names kept for readers of v1 (and tests).
_refresh, _new_tile = refresh, new_tile

VERSION = 3


# --- automatic steps and the ends of phases ------------------------------------------------------
def _one_bidder_left(state: GameState) -> bool:
    """one bidder is left"""
    return len(state["auction"]["bidders"]) <= 1


def _auction_won(state: GameState, rng: random.Random) -> list[dict]:
    """the last bidder left wins and owes his bid less his discount (`auction_won`; seed-P 1a)"""
    a = state["auction"]
    p = state["players"][a["leader"]]
    price = max(0, a["bid"] - discount(p, a["card"]))
    return [{"type": "auction_won", "seat": a["leader"], "card": a["card"], "bid": a["bid"],
             "discount": a["bid"] - price, "price": price}]


def _free_purchase(state: GameState, rng: random.Random) -> list[dict] | None:
    """A card the discount makes free is bought without a payment; any other price
    waits for the winner's `pay` (even when one way exists: his hand stays secret)."""
    pay = state["payment"]
    if pay["price"] > 0 or "action" in pay:
        return None
    return [{"type": "development_bought", "seat": pay["seat"], "card": pay["card"], "price": 0,
             "cards": [], "disks": 0, "change": 0}]


def next_overlord(state: GameState) -> int:
    """Seed-P 2a: most VP; a tie goes to the tied player furthest left (clockwise
    first) of the previous Overlord, the previous Overlord himself last."""
    n = state["seats"]
    old = state["overlord"]
    vps = [p["vp"] for p in state["players"]]
    best = max(vps)
    for i in range(1, n + 1):
        s = (old + i) % n
        if vps[s] == best:
            return s
    raise AssertionError("unreachable")


def _end_event(state: GameState, reason: str) -> dict:
    players = state["players"]
    vps = [p["vp"] for p in players]
    best = max(vps)
    tied = [s for s in range(state["seats"]) if vps[s] == best]
    overlord = state["overlord"]
    if len(tied) > 1 and overlord in tied:
        winners = [overlord]  # tie-break 1: the Overlord of the last round
    elif len(tied) > 1:
        most = max(money(players[s]) for s in tied)  # tie-break 2: most disks and production cards
        winners = [s for s in tied if money(players[s]) == most]
    else:
        winners = tied
    return {"type": "game_ended", "reason": reason, "winners": winners, "overlord": overlord,
            "vp": vps, "money": [money(p) for p in players]}


def _round_start(state: GameState) -> dict:
    n, ov = state["seats"], state["overlord"]
    return {"type": "round_started", "round": state["round"] + 1, "overlord": ov,
            "order": [(ov + i) % n for i in range(n)]}


def _at_once(state: GameState) -> bool:
    """at once (an automatic phase)"""
    return True


def _administration(state: GameState, rng: random.Random) -> list[dict]:
    """seed-P 2a-2d: 32 VP ends the game; else a new Overlord, the display refilled, production, treasury limits

    Seed-P 2: a) 32 VP ends the game, else a new Overlord; b) refill the display;
    c) production in turn order from the new Overlord; d) the treasury limits of the players
    within their storage limits (those over it discard next: `_after_administration`)."""
    work = clone(state)
    events: list[dict] = []

    def emit(e: dict) -> None:
        events.append(e)
        ON[e["type"]](work, e)

    n = work["seats"]
    players = work["players"]
    if max(p["vp"] for p in players) >= data.VP_TO_WIN:
        return [_end_event(work, "city_state")]
    # Ours, a safety net only: when no VP can ever change again, nobody can reach 32
    # and the game could never end; it ends here with the rulebook's ranking.
    if dead_end(work):
        return [_end_event(work, "exhausted")]
    emit({"type": "overlord_changed", "seat": next_overlord(work)})
    take = work["deck"][: max(0, n - len(work["display"]))]
    if take:
        emit({"type": "display_refilled", "cards": take})
    ov = work["overlord"]
    for s in [(ov + i) % n for i in range(n)]:
        p = players[s]
        k, rest = income(p["production"], p["disks"])
        if len(work["production_deck"]) < k and work["discard_pile"]:
            pile = list(work["discard_pile"])
            rng.shuffle(pile)
            emit({"type": "production_reshuffled", "count": len(pile), "secret": {"deck": pile}})
        got = work["production_deck"][:k]
        undealt = k - len(got)
        # Ours: a card the empty decks cannot supply is paid as 4 disks (then 2d applies).
        emit({"type": "production_dealt", "seat": s, "cards": len(got), "undealt": undealt,
              "disks": rest + data.CARD_POINTS * undealt, "private": {str(s): {"cards": list(got)}}})
    for s in range(n):
        if hand_size(players[s]) <= players[s]["storehouses"]:
            for e in _trim(work, s):
                emit(e)
    return events


def _over_storage(state: GameState) -> dict[str, int]:
    players = state["players"]
    return {str(s): hand_size(p) - p["storehouses"] for s, p in enumerate(players)
            if hand_size(p) > p["storehouses"]}


def _after_administration(state: GameState) -> str:
    """The game's end (its event was the administration's), the storage limits (someone holds
    more cards than his storehouses) or the next round."""
    if state["result"] is not None:
        return "over"
    return "limits" if _over_storage(state) else "auctions"


def enter_phase(state: GameState, name: str) -> list[dict]:
    """The events that enter a phase after a declared end (`Phoenicia.enter_phase`): the next
    round's first turn, the storage limits after administration, or none (the payment of a
    won auction; the game's end, whose event ended the administration)."""
    if name == "auctions":
        return [_round_start(state)]
    if name == "limits":
        return [{"type": "discard_required", "seats": _over_storage(state), "when": "admin"}]
    return []


def _the_active(state) -> set[int]:
    return {state["active"]}


_TURN_STEPS = ("auctions", "workers", "tools", "converted")

PHASES = (
    Phase("auctions", _the_active, then=("auction", "payment", "workers", "tools", "converted", "limits", "admin"),
          rule="seed-P 1a", doc="step 1a of the active player's turn: auctions"),
    Phase("workers", _the_active, then=("payment", "tools", "converted", "limits", "auctions", "admin"),
          rule="seed-P 1b",
          doc="step 1b of the active player's turn, workers: auctions come first in your turn (step 1a)"),
    Phase("tools", _the_active, then=("payment", "converted", "limits", "auctions", "admin"), rule="seed-P 1c",
          doc="step 1c of the active player's turn, tools and City Center: too late in your turn "
              "to auction, train, employ or move"),
    Phase("converted", _the_active, then=("limits", "auctions", "admin"),
          rule="P-FAQ (one conversion, then the turn ends)",
          doc="the active player has converted a card: too late in your turn for anything but end_turn"),
    Phase("auction", lambda s: {s["auction"]["next"]} if s["auction"]["next"] is not None else set(),
          ends=_one_bidder_left, on_end=_auction_won, then="payment", rule="seed-P 1a",
          doc="an auction is open: the next bidder raises or drops out; the last one left wins"),
    Phase("payment", lambda s: {s["payment"]["seat"]}, auto=_free_purchase, then=_TURN_STEPS, rule="seed-P 1a",
          doc="a price is due: its payer chooses the cards and disks (a free card is bought at once)"),
    Phase("limits", lambda s: {int(k) for k in s["discard"]["seats"]}, then=("round_end", *_TURN_STEPS),
          rule="seed-P 2d, P-FAQ", doc="storage limits: players over their storehouses discard"),
    Phase("admin", lambda s: set(), ends=_at_once, on_end=_administration,
          then=branch(_after_administration, "over", "limits", "auctions"), rule="seed-P 2a-2d",
          doc="administration between rounds (or the game's end)"),
    Phase("round_end", lambda s: set(), ends=_at_once, then="auctions", rule="seed-P 2 (end)",
          doc="the round is over; the next one starts"),
    Phase("over", lambda s: set(), doc="the game is over"),
)

# The events after which an automatic step may follow (`Phoenicia.auto_after`).
LEAD_TO_AUTO = frozenset({"auction_opened", "dropped_out", "turn_ended", "limits_applied"})

# The kind of decision each phase waits for (the view's `awaiting`).


class Phoenicia(RulesEngine):
    name = "phoenicia"
    title = "Phoenicia"
    min_seats = 2
    max_seats = 5
    version = VERSION
    supported_versions = (1, 2)
    options_schema = {
        "type": "object",
        "properties": {
            "preset_production": {
                "type": "boolean", "default": False,
                "description": "First game: every player starts with a preset production card of value 5",
            },
        },
        "additionalProperties": False,
    }
    max_random_steps = 8_000  # kit games end in at most ~1,000 decisions
    moves = MOVES
    phases = PHASES
    on = ON
    event_fields = EVENT_FIELDS
    view_schema = VIEW_SCHEMA
    outcome_schema = OUTCOME_SCHEMA

    def phase_of(self, state: GameState) -> str:
        ph = state["phase"]
        if ph != "turn":
            return ph
        if state["payment"] is not None:
            return "payment"
        if state["auction"] is not None:
            return "auction"
        return state["step"]

    next_overlord = staticmethod(next_overlord)

    def enter_phase(self, state: GameState, name: str, rng: random.Random) -> list[dict]:
        return enter_phase(state, name)

    # Only these events can lead into a phase with an automatic step (`auction` with one
    # bidder left, `admin`, `round_end`; `payment` is entered by `auction_won`, itself
    # automatic): after any other the core's look-ahead copy is skipped.
    auto_after = LEAD_TO_AUTO

    # --- setup ---------------------------------------------------------------
    def start(self, seats, options, rng):
        preset = bool(options.get("preset_production", False))
        sets = data.deck_for(seats)
        for k in sets:
            rng.shuffle(sets[k])
        display, replaced, rest1 = first_display(sets[1], seats)
        rest1 += replaced
        rng.shuffle(rest1)
        deck = rest1 + sets[2] + sets[3] + sets[4]
        production = [v for v, k in sorted(data.PRODUCTION_DECK.items()) for _ in range(k)]
        rng.shuffle(production)
        hands: dict[str, dict] = {}
        if not preset:
            for s in range(seats):
                hands[str(s)] = {"hand": [production.pop(0)]}
        event = {
            "type": "game_started",
            "overlord": rng.randrange(seats),
            "display": display,
            "replaced": replaced,
            "preset_production": preset,
            "secret": {"deck": deck, "production_deck": production},
        }
        if hands:
            event["private"] = hands
        return event

    # --- the random player ---------------------------------------------------------
    def random_action(self, state, seat, actions, rng):
        """Uniform play passes too often to end; this player buys and bids modestly."""
        by_type: dict[str, list] = {}
        for a in actions:
            by_type.setdefault(a["type"], []).append(a)
        if "bid" in by_type or "drop_out" in by_type:
            bids = by_type.get("bid", [])
            if not bids or rng.random() < 0.5:
                return {"type": "drop_out"}
            return rng.choice(bids[:3])
        if len(by_type) == 1:
            return rng.choice(actions)
        weights = {"open_auction": 6, "train": 3, "employ": 6, "move": 2, "buy_tool": 0.5, "buy_vp": 4,
                   "convert": 0.3, "end_turn": 1.5}
        kinds = sorted(by_type)
        kind = rng.choices(kinds, [weights.get(k, 1) for k in kinds])[0]
        pool = by_type[kind]
        if kind == "open_auction":
            cards = sorted({a["card"] for a in pool})
            card = rng.choice(cards)
            pool = [a for a in pool if a["card"] == card][:3]
        return rng.choice(pool)

    # --- views -------------------------------------------------------------------
    def view(self, state, seat):
        players = []
        for s, p in enumerate(state["players"]):
            tiles = []
            for tile in p["tiles"]:
                kind = tile["kind"]
                if kind == "city_center":
                    entry = {"kind": kind, "title": CITY_CENTER["title"], "slots": list(tile["slots"]),
                             "vp_price": CITY_CENTER["vp_price"]}
                else:  # what a worker on each space brings, and the tool cost (seed-P 1b)
                    entry = {"kind": kind, "title": _title(p, kind), "slots": list(tile["slots"]),
                             "tool_cost": TABLEAUS[kind]["tool_cost"], "vp_per_worker": TABLEAUS[kind]["vp"],
                             "production": [slot_production(p, kind, i) for i in range(len(tile["slots"]))]}
                tiles.append(entry)
            players.append({
                "seat": s,
                "vp": p["vp"], "production": p["production"],
                "hand_size": hand_size(p), "preset_cards": p["preset"],
                "hand": sorted(p["hand"]) if seat == s else None,
                "disks": p["disks"], "treasury_spaces": treasury_capacity(p),
                "storehouses": p["storehouses"],
                "untrained": p["untrained"], "trained": p["trained"],
                "training_cost": training_cost(p),
                "cards": sorted(p["cards"]),
                "tiles": tiles,
                "discounts": discounts(p),
                "scoring": scoring(p),
            })
        deck_sets: dict[str, int] = {}
        for c in state["deck"]:
            k = str(CARD[c]["set"])
            deck_sets[k] = deck_sets.get(k, 0) + 1
        to_act = sorted(self.to_act(state))
        phase = self.phase_of(state)
        viewer = state["players"][seat] if seat is not None else None
        return {
            "type": "phoenicia",
            "you": seat,
            "round": state["round"],
            "phase": state["phase"],
            "overlord": state["overlord"],
            "order": list(state["order"]),
            "active": state["active"],
            # The step of the active player's turn (1a auctions, 1b workers, 1c tools, after
            # the conversion) and the kind of decision the game waits for (None between
            # the events of one action or automatic step).
            "step": state["step"] if state["active"] is not None else None,
            "awaiting": {"seats": to_act, "decision": DECISION[phase]} if to_act else None,
            "to_act": to_act,
            # Everything printed on the face-up cards, so a player can judge them.
            "display": [{"card": c, **_facts(c), "your_discount": discount(viewer, c) if viewer else 0}
                        for c in state["display"]],
            "deck_size": len(state["deck"]),
            "deck_sets": deck_sets,
            "production_deck_size": len(state["production_deck"]),
            "discard_pile": sorted(state["discard_pile"]),
            "auction": clone(state["auction"]),
            "payment": clone(state["payment"]),
            "discard": clone(state["discard"]),
            "players": players,
            "result": clone(state["result"]),
        }

    def outcome(self, state):
        r = state["result"]
        if r is None:
            return None
        details = []
        for s, p in enumerate(state["players"]):
            sc = scoring(p)
            lines = vp_sources(p)
            details.append({
                "seat": s, "vp": sc["vp"], "production": sc["production"],
                "cards_vp": sc["cards_vp"], "workers_vp": sc["workers_vp"], "bought_vp": sc["bought_vp"],
                "last_overlord": s == r["overlord"], "money": money(p),
                "development_cards": len(p["cards"]),
                # The arithmetic behind `vp`, line by line (vp_sources), and by category.
                "vp_sources": lines,
                "vp_by_card": {ln["card"]: ln["vp"] for ln in lines if ln["source"] == "card"},
                "vp_by_tableau": {ln["tableau"]: ln["vp"] for ln in lines if ln["source"] == "workers"},
                "vp_city_center": sc["bought_vp"],
                # Seed-P Fin del juego: tie-break 1 the last round's Overlord, 2 the most
                # money (disks + the values of the production cards in hand).
                "tie_break": {
                    "last_overlord": s == r["overlord"],
                    "money": money(p), "disks": p["disks"],
                    "production_cards": hand_size(p), "production_card_value": money(p) - p["disks"],
                },
            })
        return {"scores": [p["vp"] for p in state["players"]], "winners": list(r["winners"]),
                "details": details, "reason": r["reason"], "decided_by": _decided_by(state)}

    def resample_hidden(self, state, viewer, rng):
        """Re-deal what `viewer` cannot see: the values of other players' production
        cards and the production deck order, and the order within each set of the
        development deck. Consistent with what the viewer knows: cards are swapped only
        within one reshuffle epoch (after a reshuffle the deck holds only cards of the
        old discard pile, and a hand keeps how many cards it drew from each deck)."""
        s = clone(state)
        epoch, old = s["production_epoch"], s["production_old"]
        deck = s["production_deck"]
        pools: dict[int, list[int]] = {epoch: list(deck[old:])}
        if old:
            pools[epoch - 1] = list(deck[:old])
        others = [p for i, p in enumerate(s["players"]) if i != viewer]
        tags = {}
        for i, p in enumerate(others):
            tags[i] = _hand_origins(p, epoch)
            for v, e in tags[i]:
                pools.setdefault(e, []).append(v)
        for e in sorted(pools):
            rng.shuffle(pools[e])
        for i, p in enumerate(others):
            new = []
            for _, e in tags[i]:
                new.append([pools[e].pop(), e])
            p["origins"] = sorted(new)
            p["hand"] = sorted(v for v, _ in new)
        s["production_deck"] = pools.get(epoch - 1, []) + pools[epoch] if old else pools[epoch]
        deck = []
        for n in (1, 2, 3, 4):
            part = [c for c in s["deck"] if CARD[c]["set"] == n]
            rng.shuffle(part)
            deck.extend(part)
        s["deck"] = deck
        return s


# `discard_required.seats` shares its name with the start event's stamped `seats`, which
# the kit strips from every event before checking it: published, but not required.
for _sub in Phoenicia.event_schema["oneOf"]:
    if _sub["title"] == "discard_required":
        _sub["required"] = [k for k in _sub["required"] if k != "seats"]

_FACTS = {name: card_facts(name) for name in CARD}


def _facts(name: str) -> dict:
    return clone(_FACTS[name])


def _hand_origins(p: Player, epoch: int) -> list[list[int]]:
    """The [value, epoch] of every card in hand (a card without a record, e.g. set
    up by a test, counts as from the current deck)."""
    left: dict[int, int] = {}
    for v in p["hand"]:
        left[v] = left.get(v, 0) + 1
    out = []
    for v, e in p["origins"]:
        if left.get(v, 0):
            out.append([v, e])
            left[v] -= 1
    out += [[v, epoch] for v, k in sorted(left.items()) for _ in range(k)]
    return out


def _decided_by(state: GameState) -> str:
    """Which rule of seed-P Fin del juego picked the winners: "vp", "last_overlord",
    "money", or "shared" (still tied after both tie-breaks)."""
    r = state["result"]
    vps = [p["vp"] for p in state["players"]]
    tied = [s for s in range(state["seats"]) if vps[s] == max(vps)]
    if len(tied) == 1:
        return "vp"
    if r["overlord"] in tied:
        return "last_overlord"
    return "money" if len(r["winners"]) == 1 else "shared"
