"""Goofspiel (the Game of Pure Strategy): chance, hidden information and
simultaneous decisions in one small game. The platform tests use it to exercise
all three.

Each player holds the cards 1..N. A shuffled prize deck of 1..N is turned one
card at a time; every player bids one card from hand in secret, all at once.
The highest bid wins the prize (ties: nobody wins it); bids are discarded.
After N prizes, the most prize points wins.
"""

from __future__ import annotations

from tablero.engines.core import IllegalAction, Move, Phase, RulesEngine, clone, integer, obj
from tablero.engines.core.event_schema import private

_CARD = integer(1, 13)
_SEAT = integer(0, 3)


# --- the move: every player bids one card from hand, in secret, all at once -----------------
def _check_bid(state, seat, action) -> None:
    if state["bids"][seat] is not None:
        raise IllegalAction("you have already bid for this prize")
    if action["card"] not in state["hands"][seat]:
        raise IllegalAction(f"card {action['card']} is not in your hand")


def _bid(state, seat, action, ctx, rng):
    card = action["card"]
    events = [{"type": "bid_placed", "seat": seat, "private": {str(seat): {"card": card}}}]
    bids = list(state["bids"])
    bids[seat] = card
    if all(b is not None for b in bids):
        # The highest bid wins the prize; a tie for highest: nobody wins it.
        top = max(bids)
        winner = bids.index(top) if bids.count(top) == 1 else None
        events.append({"type": "bids_revealed", "bids": bids, "winner": winner})
    return events


def _hand(state, seat):
    return ({"type": "bid", "card": c} for c in state["hands"][seat])


# --- the events -------------------------------------------------------------------------------
def _on_started(state, event):
    n, seats = event["cards"], event["seats"]
    deck = list(event["secret"]["prize_deck"])
    return {
        "seats": seats,
        "hands": [list(range(1, n + 1)) for _ in range(seats)],
        "deck": deck[1:],
        "prize": deck[0],
        "bids": [None] * seats,
        "points": [0] * seats,
        "history": [],
        "over": False,
    }


def _on_bid(state, event):
    state["bids"][event["seat"]] = event["private"][str(event["seat"])]["card"]


def _on_revealed(state, event):
    for s, card in enumerate(event["bids"]):
        state["hands"][s].remove(card)
    if event["winner"] is not None:
        state["points"][event["winner"]] += state["prize"]
    state["history"].append({"prize": state["prize"], "bids": event["bids"], "winner": event["winner"]})
    state["bids"] = [None] * state["seats"]
    if state["deck"]:
        state["prize"] = state["deck"].pop(0)
    else:
        state["prize"] = None
        state["over"] = True


_INTS = {"type": "array", "items": {"type": "integer"}}


class Goofspiel(RulesEngine):
    name = "goofspiel"
    title = "Goofspiel"
    min_seats = 2
    max_seats = 4
    version = 1
    options_schema = {
        "type": "object",
        "properties": {"cards": {"type": "integer", "minimum": 3, "maximum": 13, "default": 6}},
        "additionalProperties": False,
    }
    moves = (
        Move("bid", fields={"card": _CARD}, phases={"bidding"}, check=_check_bid, resolve=_bid, options=_hand,
             doc="Bid one card from your hand for the prize, in secret.",
             rule="all players bid at once; the highest bid wins the prize"),
    )
    phases = (
        Phase("bidding", to_act=lambda s: {i for i, b in enumerate(s["bids"]) if b is None}, then="over",
              ends_doc="the bids for the last prize are revealed (the last bid's events)",
              doc="every player who has not bid yet bids for the prize"),
        Phase("over", to_act=lambda s: (), doc="the game is over"),
    )
    on = {"game_started": _on_started, "bid_placed": _on_bid, "bids_revealed": _on_revealed}
    event_fields = {
        "game_started": {"cards": _CARD},
        "bid_placed": {"seat": _SEAT, "private": private(obj({"card": _CARD}, ["card"]))},
        "bids_revealed": {"bids": _INTS, "winner": {"type": ["integer", "null"]}},
    }
    outcome_schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "goofspiel outcome",
        "type": "object",
        "properties": {
            "scores": {**_INTS, "description": "prize points won, by seat"},
            "winners": {**_INTS, "description": "the seats with the most points (all of them on a tie)"},
            "details": {"type": "array", "items": {
                "type": "object", "properties": {"seat": {"type": "integer", "minimum": 0},
                                                 "prize_points": {"type": "integer", "minimum": 0}},
                "required": ["seat", "prize_points"], "additionalProperties": False}},
        },
        "required": ["scores", "winners", "details"],
        "additionalProperties": False,
    }
    view_schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "goofspiel view",
        "type": "object",
        "properties": {
            "type": {"const": "goofspiel"},
            "prize": {"type": ["integer", "null"], "description": "the prize card up for bidding"},
            "prizes_left": {"type": "integer"},
            "hand": {"type": ["array", "null"], "items": {"type": "integer"}, "description": "your cards (null for a spectator)"},
            "hand_sizes": _INTS,
            "my_bid": {"type": ["integer", "null"]},
            "has_bid": {"type": "array", "items": {"type": "boolean"}},
            "points": _INTS,
            "history": {"type": "array", "items": {
                "type": "object",
                "properties": {"prize": {"type": "integer"}, "bids": _INTS, "winner": {"type": ["integer", "null"]}},
                "required": ["prize", "bids", "winner"],
                "additionalProperties": False,
            }},
        },
        "required": ["type", "prize", "prizes_left", "hand", "hand_sizes", "my_bid", "has_bid", "points", "history"],
        "additionalProperties": False,
    }

    def phase_of(self, state) -> str:
        return "over" if state["over"] else "bidding"

    def start(self, seats, options, rng):
        n = options.get("cards", 6)
        deck = list(range(1, n + 1))
        rng.shuffle(deck)
        # The prize deck order is a chance outcome no player may see.
        return {"type": "game_started", "cards": n, "secret": {"prize_deck": deck}}

    def view(self, state, seat):
        return {
            "type": "goofspiel",
            "prize": state["prize"],
            "prizes_left": len(state["deck"]),
            "hand": list(state["hands"][seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in state["hands"]],
            "my_bid": state["bids"][seat] if seat is not None else None,
            "has_bid": [b is not None for b in state["bids"]],
            "points": list(state["points"]),
            "history": clone(state["history"]),
        }

    def outcome(self, state):
        if not state["over"]:
            return None
        pts = state["points"]
        best = max(pts)
        winners = [s for s, p in enumerate(pts) if p == best]
        return {
            "scores": list(pts),
            "winners": winners,
            "details": [{"seat": s, "prize_points": p} for s, p in enumerate(pts)],
        }

    def resample_hidden(self, state, viewer, rng):
        # Hidden from `viewer`: the prize deck order and other seats' pending bids.
        s = clone(state)
        rng.shuffle(s["deck"])
        for other, bid in enumerate(s["bids"]):
            if other != viewer and bid is not None:
                s["bids"][other] = rng.choice(s["hands"][other])
        return s
