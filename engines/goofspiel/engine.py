"""Goofspiel (the Game of Pure Strategy): chance, hidden information and
simultaneous decisions in one small game. The platform tests use it to exercise
all three.

Each player holds the cards 1..N. A shuffled prize deck of 1..N is turned one
card at a time; every player bids one card from hand in secret, all at once.
The highest bid wins the prize (ties: nobody wins it); bids are discarded.
After N prizes, the most prize points wins.
"""

from __future__ import annotations

import copy

from engines.core import Engine, IllegalAction, reject_unknown_fields, require_action_type, require_int


class Goofspiel(Engine):
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

    def start(self, seats, options, rng):
        n = options.get("cards", 6)
        deck = list(range(1, n + 1))
        rng.shuffle(deck)
        # The prize deck order is a chance outcome no player may see.
        return {"type": "game_started", "cards": n, "secret": {"prize_deck": deck}}

    def evolve(self, state, event):
        t = event["type"]
        if t == "game_started":
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
        if t == "bid_placed":
            state["bids"][event["seat"]] = event["private"][str(event["seat"])]["card"]
        elif t == "bids_revealed":
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
        return state

    def decide(self, state, seat, action, rng):
        require_action_type(action, {"bid"})
        reject_unknown_fields(action, {"card"})
        card = require_int(action, "card", 1, 13)
        if state["bids"][seat] is not None:
            raise IllegalAction("you have already bid for this prize")
        if card not in state["hands"][seat]:
            raise IllegalAction(f"card {card} is not in your hand")
        events = [{"type": "bid_placed", "seat": seat, "private": {str(seat): {"card": card}}}]
        bids = list(state["bids"])
        bids[seat] = card
        if all(b is not None for b in bids):
            top = max(bids)
            winner = bids.index(top) if bids.count(top) == 1 else None
            events.append({"type": "bids_revealed", "bids": bids, "winner": winner})
        return events

    def to_act(self, state):
        if state["over"]:
            return set()
        return {s for s, b in enumerate(state["bids"]) if b is None}

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [{"type": "bid", "card": c} for c in state["hands"][seat]]

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
            "history": copy.deepcopy(state["history"]),
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
        s = copy.deepcopy(state)
        rng.shuffle(s["deck"])
        for other, bid in enumerate(s["bids"]):
            if other != viewer and bid is not None:
                s["bids"][other] = rng.choice(s["hands"][other])
        return s
