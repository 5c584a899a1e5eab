"""Phoenicia (Tom Lehmann), 2-5 players: auctions of development cards, workers
trained and employed on village tableaus, production cards as money, first to 32 VP.

The round (seed-P "Etapas del juego"):
  1. player turns, clockwise from the Overlord: a) open auctions, b) train, employ
     and move workers, c) buy tools and VP, adjust the treasury;
  2. administration: a) 32-VP check and new Overlord, b) refill the display,
     c) deal production, d) storage and treasury limits.

State is plain JSON. Hidden: the values of production cards in hand (their number
is public), the production deck order and the development deck order.
"""

from __future__ import annotations

import json
import random
from typing import Any

from engines.core import (
    Engine,
    IllegalAction,
    InvalidAction,
    reject_unknown_fields,
    require_action_type,
    require_fields,
    require_int,
    require_str,
)

from . import data
from .data import CARD, CITY_CENTER, TABLEAUS, WORK_TABLEAUS
from .money import (
    after_limits,
    discard_options,
    income,
    is_minimal_payment,
    payment_options,
    take_cards,
    wealth,
)

# Every action type with exactly the fields it carries (the shapes `legal_actions` lists):
# an action with a field missing or a field its type doesn't have is malformed.
PAYMENT = ("cards", "disks")
FIELDS: dict[str, tuple[str, ...]] = {
    "open_auction": ("card", "bid"),
    "bid": ("amount",),
    "drop_out": (),
    "pay": PAYMENT,
    "train": PAYMENT,
    "employ": ("tableau", *PAYMENT),
    "move": ("from_tile", "from_slot", "to", *PAYMENT),
    "buy_tool": ("tableau", *PAYMENT),
    "buy_vp": PAYMENT,
    "convert": ("card",),
    "end_turn": (),
    "discard": ("cards",),
}
ACTIONS = set(FIELDS)
# Steps of a player turn in rulebook order; an action of a later step closes the earlier ones.
STEPS = ("auctions", "workers", "tools", "converted")


def check_shape(action: dict) -> None:
    """Malformed unless the action has exactly its type's fields (no defaults)."""
    t = action["type"]
    reject_unknown_fields(action, FIELDS[t])
    require_fields(action, FIELDS[t])


def _clone(state: Any) -> Any:
    return json.loads(json.dumps(state))


# --- derived values of a player (everything on the tracks is derived from the village) ---
def count(player: dict, card: str) -> int:
    return player["cards"].count(card)


def tableau_level(player: dict, kind: str) -> int:
    """0 printed side, 1 improved, 2 advanced (one or two Trackers / Smelters, P-AID)."""
    t = TABLEAUS[kind]
    if not t["level_card"]:
        return 0
    return min(len(t["production"]) - 1, count(player, t["level_card"]))


def slot_production(player: dict, kind: str, index: int) -> int:
    pattern = TABLEAUS[kind]["production"][tableau_level(player, kind)]
    return pattern[index % len(pattern)]


def treasury_capacity(player: dict) -> int:
    caps = [CARD[c]["treasury"] for c in player["cards"] if CARD[c]["treasury"]]
    return max([data.TREASURY_SPACES, *caps])


def training_cost(player: dict) -> int:
    costs = [CARD[c]["training_cost"] for c in player["cards"] if CARD[c]["training_cost"]]
    return min([data.TRAINING_COST, *costs])


def discount(player: dict, card: str) -> int:
    """Seed-P 1a: cubes bought earlier give a discount; only the largest in a row applies."""
    best = 0
    for row in data.DISCOUNTS:
        k = count(player, row["holder"])
        if k and card in row["on"]:
            best = max(best, row["amounts"][min(k, len(row["amounts"])) - 1])
    return best


def scoring(player: dict) -> dict[str, int]:
    """VP and production by source; the tracks always equal these sums."""
    cards_vp = sum(CARD[c]["vp"] for c in player["cards"])
    cards_prod = sum(CARD[c]["production"] for c in player["cards"])
    workers_vp = workers_prod = bought_vp = 0
    for tile in player["tiles"]:
        kind = tile["kind"]
        if kind == "city_center":
            bought_vp += sum(1 for s in tile["slots"] if s == "t")
            continue
        for i, s in enumerate(tile["slots"]):
            if s == "w":
                workers_vp += TABLEAUS[kind]["vp"]
                workers_prod += slot_production(player, kind, i)
    return {
        "vp": cards_vp + workers_vp + bought_vp, "production": cards_prod + workers_prod,
        "cards_vp": cards_vp, "workers_vp": workers_vp, "bought_vp": bought_vp,
        "cards_production": cards_prod, "workers_production": workers_prod,
    }


def vp_sources(player: dict) -> list[dict]:
    """The VP track as lines a player can add up (outcome details): each development
    card owned (copies x printed VP), the workers on each work tableau (workers x VP per
    worker; the starting village's two workers are counted there, 1 VP each on Hunting
    and Farming) and the City Center purchases (1 VP each). The lines sum to `vp`."""
    lines = []
    for name in sorted(set(player["cards"])):
        k, each = count(player, name), CARD[name]["vp"]
        lines.append({"source": "card", "card": name, "copies": k, "vp_each": each, "vp": k * each})
    for kind in _owned_kinds(player):
        k = sum(1 for _, _, s in _slots_of(player, kind) if s == "w")
        each = TABLEAUS[kind]["vp"]
        lines.append({"source": "workers", "tableau": kind, "workers": k, "vp_each": each, "vp": k * each})
    bought = sum(1 for _, _, s in _slots_of(player, "city_center") if s == "t")
    if any(t["kind"] == "city_center" for t in player["tiles"]):
        lines.append({"source": "city_center", "purchases": bought, "vp_each": 1, "vp": bought})
    return lines


def _refresh(player: dict) -> None:
    sc = scoring(player)
    player["vp"] = sc["vp"]
    player["production"] = sc["production"]


def hand_size(player: dict) -> int:
    return len(player["hand"]) + player["preset"]


def money(player: dict) -> int:
    return wealth(player["hand"], player["preset"], player["disks"])


def _slots_of(player: dict, kind: str):
    """(tile index, slot index, content) over a kind's tiles, in placing order."""
    for ti, tile in enumerate(player["tiles"]):
        if tile["kind"] == kind:
            for si, s in enumerate(tile["slots"]):
                yield ti, si, s


def _first(player: dict, kind: str, content: str | None) -> tuple[int, int] | None:
    for ti, si, s in _slots_of(player, kind):
        if s == content:
            return ti, si
    return None


def _owned_kinds(player: dict) -> list[str]:
    kinds = {t["kind"] for t in player["tiles"]}
    return [k for k in WORK_TABLEAUS if k in kinds]


def _new_tile(kind: str) -> dict:
    n = CITY_CENTER["spaces"] if kind == "city_center" else TABLEAUS[kind]["slots"]
    return {"kind": kind, "slots": [None] * n}


def max_wealth(player: dict) -> int:
    """The most a player can ever hold when bidding: a full hand of the highest cards
    plus a full treasury (total wealth never grows during the turns; seed-P 2d caps it)."""
    top = max([*data.PRODUCTION_DECK, data.PRESET_CARD_VALUE])
    return top * player["storehouses"] + treasury_capacity(player)


def _may_still_gain_vp(player: dict) -> bool:
    """Could this village still gain VP without any new development card? (A worker that
    can be placed or moved, or a City Center space.) Deliberately generous: cost is ignored."""
    kinds = _owned_kinds(player)
    if player["untrained"] + player["trained"] and any(
            s != "w" for k in kinds for _, _, s in _slots_of(player, k)):
        return True
    free = [k for k in kinds if _first(player, k, None) is not None]
    for k in kinds:
        if _first(player, k, "w") is not None and any(
                TABLEAUS[d]["tool_cost"] > TABLEAUS[k]["tool_cost"] for d in free):
            return True
    return _first(player, "city_center", None) is not None


def dead_end(state: dict) -> bool:
    """Our safety net (RULES.md "Exhausted game"): True when no VP can ever change again,
    so that nobody can ever reach 32 and the rulebook's end can never come. That needs:
    no card that anyone could ever pay for on display, no new card to come (the deck is
    empty, or the display is full of such cards and so never changes), and no village
    that could still place or move a worker or buy VP at a City Center."""
    players = state["players"]
    if state["deck"] and len(state["display"]) < state["seats"]:
        return False  # 2b will turn up new cards
    for card in state["display"]:
        if any(CARD[card]["min_bid"] - discount(p, card) <= max_wealth(p) for p in players):
            return False
    return not any(_may_still_gain_vp(p) for p in players)


def card_facts(name: str) -> dict:
    """What a development card shows face up (data.CARDS, the tableau upgrades it
    makes and its discount row), for views."""
    c = CARD[name]
    facts = {k: c[k] for k in ("set", "ab", "min_bid", "vp", "production", "storehouses", "untrained",
                                "trained", "tile", "treasury", "training_cost")}
    facts["improves"] = [k for k, t in TABLEAUS.items() if t["level_card"] == name]
    facts["discounts"] = [{"on": list(r["on"]), "amounts": list(r["amounts"])}
                          for r in data.DISCOUNTS if r["holder"] == name]
    return facts


def first_display(set1: list[str], n: int) -> tuple[list[str], list[str], list[str]]:
    """Seed-P setup: turn up one set-1 card per player; a Granary or Fort revealed is
    replaced at once and shuffled back into set 1. Returns (display, replaced, rest of
    set 1 before that shuffle)."""
    display, replaced, rest = [], [], list(set1)
    while len(display) < n and rest:
        c = rest.pop(0)
        (replaced if c in data.NOT_IN_FIRST_DISPLAY else display).append(c)
    return display, replaced, rest


class Phoenicia(Engine):
    name = "phoenicia"
    title = "Phoenicia"
    min_seats = 2
    max_seats = 5
    version = 1
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
    max_random_steps = 5_000  # kit games end in at most ~700 actions

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

    def _initial_player(self, hand: list[int], preset: int) -> dict:
        p = {
            "hand": sorted(hand), "preset": preset, "disks": data.START["disks"],
            "origins": [[v, 0] for v in sorted(hand)],  # [value, reshuffle epoch] of each card in hand
            "storehouses": data.START["storehouses"],
            "untrained": data.START["untrained"], "trained": data.START["trained"],
            "cards": [], "tiles": [], "vp": 0, "production": 0,
        }
        for kind in ("hunting", "farming"):
            tile = _new_tile(kind)
            for i in range(data.START["workers"][kind]):
                tile["slots"][i] = "w"
            p["tiles"].append(tile)
        _refresh(p)
        return p

    # --- evolve --------------------------------------------------------------
    def evolve(self, state, event):
        t = event["type"]
        if t == "game_started":
            n = event["seats"]
            preset = 1 if event["preset_production"] else 0
            private = event.get("private") or {}
            overlord = event["overlord"]
            return {
                "seats": n,
                "round": 1,
                "overlord": overlord,
                "last_overlord": overlord,
                "order": [(overlord + i) % n for i in range(n)],
                "turn": 0,
                "active": overlord,
                "phase": "turn",
                "step": "auctions",
                "auction": None,
                "payment": None,
                "discard": None,
                "display": list(event["display"]),
                "deck": list(event["secret"]["deck"]),
                "production_deck": list(event["secret"]["production_deck"]),
                "discard_pile": [],
                # Hidden bookkeeping for resample_hidden: how many reshuffles made the
                # production deck, and how many cards on top of it are from the deck before.
                "production_epoch": 0,
                "production_old": 0,
                "players": [
                    self._initial_player(list(private.get(str(s), {}).get("hand", [])), preset) for s in range(n)
                ],
                "result": None,
            }
        handler = getattr(self, "_on_" + t)
        handler(state, event)
        return state

    @staticmethod
    def _spend(state: dict, p: dict, cards: list[int]) -> None:
        """Production cards leave a hand (paid, converted or discarded): their values go
        face up on the discard pile; preset 5s go back to the box (seed-P setup)."""
        p["hand"], p["preset"], spent = take_cards(p["hand"], p["preset"], cards)
        state["discard_pile"].extend(spent)
        for v in spent:
            tag = next((t for t in p["origins"] if t[0] == v), None)
            if tag is not None:
                p["origins"].remove(tag)

    def _pay(self, state: dict, seat: int, event: dict) -> None:
        p = state["players"][seat]
        self._spend(state, p, event["cards"])
        p["disks"] += event["change"] - event["disks"]

    def _on_auction_opened(self, state, e):
        state["step"] = "auctions"
        bidders = list(e["bidders"])
        state["auction"] = {
            "card": e["card"], "bid": e["bid"], "leader": e["seat"], "bidders": bidders,
            "next": bidders[1] if len(bidders) > 1 else None,
        }

    def _on_bid_raised(self, state, e):
        a = state["auction"]
        a["bid"], a["leader"] = e["amount"], e["seat"]
        b = a["bidders"]
        a["next"] = b[(b.index(e["seat"]) + 1) % len(b)]

    def _on_dropped_out(self, state, e):
        a = state["auction"]
        b = a["bidders"]
        i = b.index(e["seat"])
        b.pop(i)
        a["next"] = b[i % len(b)] if len(b) > 1 else None

    def _on_auction_won(self, state, e):
        state["auction"] = None
        state["display"].remove(e["card"])
        state["payment"] = {"seat": e["seat"], "card": e["card"], "bid": e["bid"], "price": e["price"]}

    def _on_development_bought(self, state, e):
        seat = e["seat"]
        self._pay(state, seat, e)
        state["payment"] = None
        p = state["players"][seat]
        c = CARD[e["card"]]
        p["cards"].append(c["name"])
        p["storehouses"] += c["storehouses"]
        p["untrained"] += c["untrained"]
        p["trained"] += c["trained"]
        if c["tile"]:
            p["tiles"].append(_new_tile(c["tile"]))
        _refresh(p)

    def _on_worker_trained(self, state, e):
        state["step"] = "workers"
        self._pay(state, e["seat"], e)
        p = state["players"][e["seat"]]
        p["untrained"] -= 1
        p["trained"] += 1

    def _place(self, p: dict, kind: str, tile: int, slot: int) -> None:
        p["tiles"][tile]["slots"][slot] = "w"
        p["storehouses"] += TABLEAUS[kind]["storehouse_per_worker"]

    def _on_worker_employed(self, state, e):
        state["step"] = "workers"
        self._pay(state, e["seat"], e)
        p = state["players"][e["seat"]]
        p["trained"] -= 1
        self._place(p, e["tableau"], e["tile"], e["slot"])
        _refresh(p)

    def _on_worker_moved(self, state, e):
        state["step"] = "workers"
        self._pay(state, e["seat"], e)
        p = state["players"][e["seat"]]
        # Seed-P 1b: the vacated space keeps a tool disk from the supply.
        p["tiles"][e["from_tile"]]["slots"][e["from_slot"]] = "t"
        self._place(p, e["tableau"], e["tile"], e["slot"])
        _refresh(p)

    def _on_tool_bought(self, state, e):
        state["step"] = "tools"
        self._pay(state, e["seat"], e)
        p = state["players"][e["seat"]]
        p["tiles"][e["tile"]]["slots"][e["slot"]] = "t"

    def _on_vp_bought(self, state, e):
        state["step"] = "tools"
        self._pay(state, e["seat"], e)
        p = state["players"][e["seat"]]
        p["tiles"][e["tile"]]["slots"][e["slot"]] = "t"
        _refresh(p)

    def _on_card_converted(self, state, e):
        state["step"] = "converted"
        p = state["players"][e["seat"]]
        self._spend(state, p, [e["card"]])
        p["disks"] += e["disks_gained"]

    def _on_discard_required(self, state, e):
        state["phase"] = "limits"
        state["discard"] = {"seats": dict(e["seats"]), "when": e["when"]}

    def _on_limits_applied(self, state, e):
        p = state["players"][e["seat"]]
        self._spend(state, p, e["discarded"])
        p["disks"] = e["disks"]
        d = state["discard"]
        if d is not None:
            d["seats"].pop(str(e["seat"]), None)
            if not d["seats"]:
                state["discard"] = None
                # After 2d the next round starts (decide emits round_started).
                state["phase"] = "turn" if d["when"] == "turn" else "round_end"

    def _on_turn_ended(self, state, e):
        state["turn"] += 1
        if state["turn"] < state["seats"]:
            state["active"] = state["order"][state["turn"]]
            state["step"] = "auctions"
        else:
            state["active"] = None
            state["phase"] = "admin"

    def _on_game_ended(self, state, e):
        state["phase"] = "over"
        state["result"] = {k: v for k, v in e.items() if k not in ("type", "seat")}

    def _on_overlord_changed(self, state, e):
        state["last_overlord"] = state["overlord"]
        state["overlord"] = e["seat"]

    def _on_display_refilled(self, state, e):
        k = len(e["cards"])
        state["display"].extend(state["deck"][:k])
        del state["deck"][:k]

    def _on_production_reshuffled(self, state, e):
        state["production_old"] = len(state["production_deck"])
        state["production_epoch"] += 1
        state["production_deck"].extend(e["secret"]["deck"])
        state["discard_pile"] = []

    def _on_production_dealt(self, state, e):
        p = state["players"][e["seat"]]
        k = e["cards"]
        drawn = state["production_deck"][:k]
        del state["production_deck"][:k]
        p["hand"] = sorted(p["hand"] + drawn)
        old, epoch = state["production_old"], state["production_epoch"]
        p["origins"] = sorted(p["origins"] + [[v, epoch - 1 if i < old else epoch] for i, v in enumerate(drawn)])
        state["production_old"] = max(0, old - k)
        p["disks"] = e["disks"]

    def _on_round_started(self, state, e):
        state["round"] = e["round"]
        state["order"] = list(e["order"])
        state["turn"] = 0
        state["active"] = e["order"][0]
        state["phase"] = "turn"
        state["step"] = "auctions"

    # --- whose move ----------------------------------------------------------
    def to_act(self, state):
        phase = state["phase"]
        if phase == "over":
            return set()
        if phase == "limits":
            return {int(s) for s in state["discard"]["seats"]}
        if state["payment"] is not None:
            return {state["payment"]["seat"]}
        if state["auction"] is not None:
            return {state["auction"]["next"]}
        if phase == "turn":
            return {state["active"]}
        return set()

    # --- decide ---------------------------------------------------------------
    def decide(self, state, seat, action, rng):
        t = require_action_type(action, ACTIONS)
        check_shape(action)
        if state["phase"] == "over":
            raise IllegalAction("the game is over")
        if seat not in self.to_act(state):
            raise IllegalAction(f"seat {seat} may not act now; waiting for {sorted(self.to_act(state))}")
        work = _clone(state)
        events: list[dict] = []

        def emit(e: dict) -> None:
            events.append(e)
            self.evolve(work, e)

        getattr(self, "_do_" + t)(work, seat, action, emit)
        self._advance(work, emit, rng)
        return events

    # Validation helpers ------------------------------------------------------
    def _payment(self, p: dict, action: dict, amount: int, what: str) -> tuple[list[int], int]:
        cards = action["cards"]
        disks = action["disks"]
        if not isinstance(cards, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in cards):
            raise InvalidAction(f"{action['type']}: 'cards' must be a list of card values")
        if not isinstance(disks, int) or isinstance(disks, bool) or disks < 0:
            raise InvalidAction(f"{action['type']}: 'disks' must be a non-negative integer")
        cards = sorted(cards, reverse=True)
        if disks > p["disks"]:
            raise IllegalAction(f"{what}: you have only {p['disks']} disks")
        if take_cards(p["hand"], p["preset"], cards) is None:
            raise IllegalAction(f"{what}: you do not hold the cards {cards}")
        if sum(cards) + disks < amount:
            raise IllegalAction(f"{what}: costs {amount}, you offered {sum(cards) + disks}")
        if not is_minimal_payment(cards, disks, amount):
            raise IllegalAction(f"{what}: costs {amount}; hand over no card or disk that is not needed")
        return cards, disks

    def _paid(self, cards: list[int], disks: int, amount: int) -> dict:
        return {"cards": cards, "disks": disks, "change": sum(cards) + disks - max(amount, 0)}

    def _my_turn(self, state: dict, seat: int, what: str) -> dict:
        if state["phase"] != "turn" or state["active"] != seat or state["auction"] or state["payment"]:
            raise IllegalAction(f"{what}: only the active player may do that, between auctions")
        return state["players"][seat]

    def _step_at_most(self, state: dict, last: str, what: str) -> None:
        if STEPS.index(state["step"]) > STEPS.index(last):
            raise IllegalAction(f"{what}: too late in your turn (you are past step {last})")

    # 1a: auctions ----------------------------------------------------------------
    def _do_open_auction(self, state, seat, action, emit):
        p = self._my_turn(state, seat, "Auction")
        if state["step"] != "auctions":
            raise IllegalAction("Auction: auctions come first in your turn (step 1a)")
        card = require_str(action, "card", CARD)
        bid = require_int(action, "bid", 0, 1000)
        if card not in state["display"]:
            raise IllegalAction(f"Auction: {card} is not on display")
        if bid < CARD[card]["min_bid"]:
            raise IllegalAction(f"Auction: the minimum bid for {card} is {CARD[card]['min_bid']}")
        if bid - discount(p, card) > money(p):
            raise IllegalAction(f"Auction: you cannot pay {bid} for {card}")
        # Seed-P 1b: players whose turn is over take no part in later auctions.
        bidders = [seat] + state["order"][state["turn"] + 1:]
        emit({"type": "auction_opened", "seat": seat, "card": card, "bid": bid, "bidders": bidders})

    def _do_bid(self, state, seat, action, emit):
        a = state["auction"]
        if a is None or a["next"] != seat or state["payment"]:
            raise IllegalAction("Bid: there is no auction waiting for your bid")
        amount = require_int(action, "amount", 0, 1000)
        if amount <= a["bid"]:
            raise IllegalAction(f"Bid: you must raise the bid of {a['bid']}")
        p = state["players"][seat]
        if amount - discount(p, a["card"]) > money(p):
            raise IllegalAction(f"Bid: you cannot pay {amount} for {a['card']}")
        emit({"type": "bid_raised", "seat": seat, "card": a["card"], "amount": amount})

    def _do_drop_out(self, state, seat, action, emit):
        a = state["auction"]
        if a is None or a["next"] != seat or state["payment"]:
            raise IllegalAction("Drop out: there is no auction waiting for you")
        emit({"type": "dropped_out", "seat": seat, "card": a["card"]})

    def _do_pay(self, state, seat, action, emit):
        pay = state["payment"]
        if pay is None or pay["seat"] != seat:
            raise IllegalAction("Pay: you have nothing to pay for")
        cards, disks = self._payment(state["players"][seat], action, pay["price"], pay["card"])
        emit({"type": "development_bought", "seat": seat, "card": pay["card"], "price": pay["price"],
              **self._paid(cards, disks, pay["price"])})

    # 1b: workers ---------------------------------------------------------------
    def _do_train(self, state, seat, action, emit):
        p = self._my_turn(state, seat, "Train")
        self._step_at_most(state, "workers", "Train")
        if p["untrained"] < 1:
            raise IllegalAction("Train: you have no untrained worker")
        cost = training_cost(p)
        cards, disks = self._payment(p, action, cost, "Train")
        emit({"type": "worker_trained", "seat": seat, **self._paid(cards, disks, cost)})

    def _tableau(self, p: dict, action: dict, key: str, what: str) -> str:
        kind = require_str(action, key, WORK_TABLEAUS)
        if kind not in _owned_kinds(p):
            raise IllegalAction(f"{what}: you have no {TABLEAUS[kind]['title'][0]} tableau")
        return kind

    def _do_employ(self, state, seat, action, emit):
        p = self._my_turn(state, seat, "Employ")
        self._step_at_most(state, "workers", "Employ")
        kind = self._tableau(p, action, "tableau", "Employ")
        if p["trained"] < 1:
            raise IllegalAction("Employ: you have no trained worker")
        # Seed-P 1b: a trained worker takes a tool disk left by a move for free.
        where = _first(p, kind, "t")
        cost = 0
        if where is None:
            where = _first(p, kind, None)
            cost = TABLEAUS[kind]["tool_cost"]
            if where is None:
                raise IllegalAction(f"Employ: {TABLEAUS[kind]['title'][0]} is full")
        cards, disks = self._payment(p, action, cost, "Employ")
        emit({"type": "worker_employed", "seat": seat, "tableau": kind, "tile": where[0], "slot": where[1],
              "tool_taken": cost == 0, **self._paid(cards, disks, cost)})

    def _do_move(self, state, seat, action, emit):
        p = self._my_turn(state, seat, "Move")
        self._step_at_most(state, "workers", "Move")
        ti = require_int(action, "from_tile", 0, len(p["tiles"]) - 1)
        tile = p["tiles"][ti]
        si = require_int(action, "from_slot", 0, len(tile["slots"]) - 1)
        src = tile["kind"]
        if src not in TABLEAUS or tile["slots"][si] != "w":
            raise IllegalAction("Move: no worker stands on that space")
        dst = self._tableau(p, action, "to", "Move")
        if TABLEAUS[dst]["tool_cost"] <= TABLEAUS[src]["tool_cost"]:
            raise IllegalAction("Move: a worker moves only to a more costly activity")
        where = _first(p, dst, None)
        if where is None:
            raise IllegalAction(f"Move: {TABLEAUS[dst]['title'][0]} has no free space")
        cost = TABLEAUS[dst]["tool_cost"]
        cards, disks = self._payment(p, action, cost, "Move")
        emit({"type": "worker_moved", "seat": seat, "from": src, "from_tile": ti, "from_slot": si,
              "tableau": dst, "tile": where[0], "slot": where[1], **self._paid(cards, disks, cost)})

    # 1c: tools, City Center, treasury --------------------------------------------
    def _do_buy_tool(self, state, seat, action, emit):
        p = self._my_turn(state, seat, "Buy tool")
        self._step_at_most(state, "tools", "Buy tool")
        kind = self._tableau(p, action, "tableau", "Buy tool")
        where = _first(p, kind, None)
        if where is None:
            raise IllegalAction(f"Buy tool: {TABLEAUS[kind]['title'][0]} has no free space")
        cost = TABLEAUS[kind]["tool_cost"]
        cards, disks = self._payment(p, action, cost, "Buy tool")
        emit({"type": "tool_bought", "seat": seat, "tableau": kind, "tile": where[0], "slot": where[1],
              **self._paid(cards, disks, cost)})

    def _do_buy_vp(self, state, seat, action, emit):
        p = self._my_turn(state, seat, "City Center")
        self._step_at_most(state, "tools", "City Center")
        where = _first(p, "city_center", None) if any(t["kind"] == "city_center" for t in p["tiles"]) else None
        if where is None:
            raise IllegalAction("City Center: you have no City Center space left")
        cost = CITY_CENTER["vp_price"]
        cards, disks = self._payment(p, action, cost, "City Center")
        emit({"type": "vp_bought", "seat": seat, "tile": where[0], "slot": where[1],
              **self._paid(cards, disks, cost)})

    def _do_convert(self, state, seat, action, emit):
        p = self._my_turn(state, seat, "Convert")
        self._step_at_most(state, "tools", "Convert")
        card = require_int(action, "card", 0, 100)
        if take_cards(p["hand"], p["preset"], [card]) is None:
            raise IllegalAction(f"Convert: you hold no production card of value {card}")
        # FAQ: one card, voluntarily, once per turn, in your own 1c; disks without a
        # treasury space are lost at once (seed-P 1c).
        room = max(0, treasury_capacity(p) - p["disks"])
        gained = min(card, room)
        emit({"type": "card_converted", "seat": seat, "card": card, "disks_gained": gained, "lost": card - gained})

    def _do_end_turn(self, state, seat, action, emit):
        p = self._my_turn(state, seat, "End turn")
        # FAQ: the storage and treasury limits are checked at the end of every 1c.
        excess = hand_size(p) - p["storehouses"]
        if excess > 0:
            emit({"type": "discard_required", "seats": {str(seat): excess}, "when": "turn"})
            return
        self._trim(state, seat, emit)
        self._finish_turn(state, seat, emit)

    def _do_discard(self, state, seat, action, emit):
        d = state["discard"]
        if state["phase"] != "limits" or d is None or str(seat) not in d["seats"]:
            raise IllegalAction("Discard: you have nothing to discard")
        cards = action.get("cards")
        if not isinstance(cards, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in cards):
            raise InvalidAction("discard: 'cards' must be a list of card values")
        cards = sorted(cards, reverse=True)
        p = state["players"][seat]
        excess = d["seats"][str(seat)]
        if len(cards) != excess:
            raise IllegalAction(f"Discard: you must discard exactly {excess} production card(s)")
        if take_cards(p["hand"], p["preset"], cards) is None:
            raise IllegalAction(f"Discard: you do not hold the cards {cards}")
        disks, lost = after_limits(p["disks"], treasury_capacity(p), sum(cards))
        when = d["when"]
        emit({"type": "limits_applied", "seat": seat, "discarded": cards, "disks": disks, "lost": lost})
        if when == "turn":
            self._finish_turn(state, seat, emit)
        elif state["discard"] is None:
            self._start_round(state, emit)

    # Automatic steps -------------------------------------------------------------
    def _trim(self, state: dict, seat: int, emit) -> None:
        p = state["players"][seat]
        cap = treasury_capacity(p)
        if p["disks"] > cap:
            emit({"type": "limits_applied", "seat": seat, "discarded": [], "disks": cap, "lost": p["disks"] - cap})

    def _finish_turn(self, state: dict, seat: int, emit) -> None:
        nxt = state["order"][state["turn"] + 1] if state["turn"] + 1 < state["seats"] else None
        emit({"type": "turn_ended", "seat": seat, "next": nxt})

    def _advance(self, state: dict, emit, rng: random.Random) -> None:
        while True:
            if state["phase"] == "over":
                return
            a = state["auction"]
            if a is not None:
                if len(a["bidders"]) > 1:
                    return
                p = state["players"][a["leader"]]
                price = max(0, a["bid"] - discount(p, a["card"]))
                emit({"type": "auction_won", "seat": a["leader"], "card": a["card"], "bid": a["bid"],
                      "discount": a["bid"] - price, "price": price})
                continue
            pay = state["payment"]
            if pay is not None:
                if pay["price"] > 0:
                    return  # the winner chooses the cards and disks (their values are secret)
                emit({"type": "development_bought", "seat": pay["seat"], "card": pay["card"], "price": 0,
                      "cards": [], "disks": 0, "change": 0})
                continue
            if state["phase"] == "admin":
                self._administration(state, emit, rng)
                continue
            return

    def _administration(self, state: dict, emit, rng: random.Random) -> None:
        n = state["seats"]
        players = state["players"]
        # 2a: 32 VP ends the game.
        if max(p["vp"] for p in players) >= data.VP_TO_WIN:
            emit(self._end_event(state, "city_state"))
            return
        # Ours, a safety net only: when no VP can ever change again, nobody can reach 32
        # and the game could never end; it ends here with the rulebook's ranking.
        if dead_end(state):
            emit(self._end_event(state, "exhausted"))
            return
        emit({"type": "overlord_changed", "seat": self.next_overlord(state)})
        # 2b: refill the display to one card per player.
        take = state["deck"][: max(0, n - len(state["display"]))]
        if take:
            emit({"type": "display_refilled", "cards": take})
        # 2c: production, in turn order from the new Overlord.
        ov = state["overlord"]
        for s in [(ov + i) % n for i in range(n)]:
            p = players[s]
            k, rest = income(p["production"], p["disks"])
            if len(state["production_deck"]) < k and state["discard_pile"]:
                pile = list(state["discard_pile"])
                rng.shuffle(pile)
                emit({"type": "production_reshuffled", "count": len(pile), "secret": {"deck": pile}})
            got = state["production_deck"][:k]
            undealt = k - len(got)
            # Ours: a card the empty decks cannot supply is paid as 4 disks (then 2d applies).
            emit({"type": "production_dealt", "seat": s, "cards": len(got), "undealt": undealt,
                  "disks": rest + data.CARD_POINTS * undealt, "private": {str(s): {"cards": list(got)}}})
        # 2d: storage and treasury limits for everyone.
        waiting = {}
        for s in range(n):
            excess = hand_size(players[s]) - players[s]["storehouses"]
            if excess > 0:
                waiting[str(s)] = excess
            else:
                self._trim(state, s, emit)
        if waiting:
            emit({"type": "discard_required", "seats": waiting, "when": "admin"})
            return
        self._start_round(state, emit)

    def _start_round(self, state: dict, emit) -> None:
        n = state["seats"]
        ov = state["overlord"]
        emit({"type": "round_started", "round": state["round"] + 1, "overlord": ov,
              "order": [(ov + i) % n for i in range(n)]})

    @staticmethod
    def next_overlord(state: dict) -> int:
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

    def _end_event(self, state: dict, reason: str) -> dict:
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

    # --- legal actions ----------------------------------------------------------
    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        p = state["players"][seat]
        if state["phase"] == "limits":
            excess = state["discard"]["seats"][str(seat)]
            return [{"type": "discard", "cards": c} for c in discard_options(p["hand"], p["preset"], excess)]
        pay = state["payment"]
        if pay is not None:
            return [{"type": "pay", "cards": c, "disks": d}
                    for c, d in payment_options(p["hand"], p["preset"], p["disks"], pay["price"])]
        a = state["auction"]
        if a is not None:
            top = money(p) + discount(p, a["card"])
            return [{"type": "bid", "amount": b} for b in range(a["bid"] + 1, top + 1)] + [{"type": "drop_out"}]
        return self._turn_actions(state, p)

    def _turn_actions(self, state: dict, p: dict) -> list[dict]:
        out: list[dict] = []
        cache: dict[int, list] = {}
        cash = money(p)

        def priced(base: dict, amount: int) -> None:
            if amount > cash:
                return
            if amount not in cache:
                cache[amount] = payment_options(p["hand"], p["preset"], p["disks"], amount)
            for c, d in cache[amount]:
                out.append({**base, "cards": c, "disks": d})

        step = STEPS.index(state["step"])
        if step == 0:
            for card in sorted(set(state["display"])):
                lo, hi = CARD[card]["min_bid"], cash + discount(p, card)
                out.extend({"type": "open_auction", "card": card, "bid": b} for b in range(lo, hi + 1))
        kinds = _owned_kinds(p)
        if step <= 1:
            if p["untrained"]:
                priced({"type": "train"}, training_cost(p))
            if p["trained"]:
                for k in kinds:
                    if _first(p, k, "t") is not None:
                        out.append({"type": "employ", "tableau": k, "cards": [], "disks": 0})
                    elif _first(p, k, None) is not None:
                        priced({"type": "employ", "tableau": k}, TABLEAUS[k]["tool_cost"])
            for ti, tile in enumerate(p["tiles"]):
                src = tile["kind"]
                if src not in TABLEAUS:
                    continue
                targets = [dst for dst in kinds if TABLEAUS[dst]["tool_cost"] > TABLEAUS[src]["tool_cost"]
                           and _first(p, dst, None) is not None]
                for si, content in enumerate(tile["slots"]):
                    if content == "w":
                        for dst in targets:
                            priced({"type": "move", "from_tile": ti, "from_slot": si, "to": dst},
                                   TABLEAUS[dst]["tool_cost"])
        if step <= 2:
            for k in kinds:
                if _first(p, k, None) is not None:
                    priced({"type": "buy_tool", "tableau": k}, TABLEAUS[k]["tool_cost"])
            if _first(p, "city_center", None) is not None:
                priced({"type": "buy_vp"}, CITY_CENTER["vp_price"])
            values = set(p["hand"]) | ({data.PRESET_CARD_VALUE} if p["preset"] else set())
            out.extend({"type": "convert", "card": v} for v in sorted(values))
        out.append({"type": "end_turn"})
        return out

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
            sc = scoring(p)
            tiles = []
            for tile in p["tiles"]:
                kind = tile["kind"]
                title = CITY_CENTER["title"] if kind == "city_center" else \
                    TABLEAUS[kind]["title"][min(tableau_level(p, kind), len(TABLEAUS[kind]["title"]) - 1)]
                entry = {"kind": kind, "title": title, "slots": list(tile["slots"])}
                if kind == "city_center":
                    entry["vp_price"] = CITY_CENTER["vp_price"]
                else:  # what a worker on each space brings, and the tool cost (seed-P 1b)
                    entry["tool_cost"] = TABLEAUS[kind]["tool_cost"]
                    entry["vp_per_worker"] = TABLEAUS[kind]["vp"]
                    entry["production"] = [slot_production(p, kind, i) for i in range(len(tile["slots"]))]
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
                "discounts": {c: discount(p, c) for row in data.DISCOUNTS for c in row["on"] if discount(p, c)},
                "scoring": sc,
            })
        deck_sets: dict[str, int] = {}
        for c in state["deck"]:
            k = str(CARD[c]["set"])
            deck_sets[k] = deck_sets.get(k, 0) + 1
        return {
            "type": "phoenicia",
            "you": seat,
            "round": state["round"],
            "phase": state["phase"],
            "overlord": state["overlord"],
            "order": list(state["order"]),
            "active": state["active"],
            # The step of the active player's turn (1a auctions, 1b workers, 1c tools, after
            # the conversion) and the kind of decision the game waits for.
            "step": state["step"] if state["active"] is not None else None,
            "awaiting": self._awaiting(state),
            "to_act": sorted(self.to_act(state)),
            # Everything printed on the face-up cards, so a player can judge them.
            "display": [{"card": c, **card_facts(c),
                         "your_discount": discount(state["players"][seat], c) if seat is not None else 0}
                        for c in state["display"]],
            "deck_size": len(state["deck"]),
            "deck_sets": deck_sets,
            "production_deck_size": len(state["production_deck"]),
            "discard_pile": sorted(state["discard_pile"]),
            "auction": _clone(state["auction"]),
            "payment": _clone(state["payment"]),
            "discard": _clone(state["discard"]),
            "players": players,
            "result": _clone(state["result"]),
        }

    @staticmethod
    def _hand_origins(p: dict, epoch: int) -> list[list[int]]:
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

    def _awaiting(self, state: dict) -> dict | None:
        """The decision the game waits for and who must take it."""
        if state["phase"] == "over":
            return None
        if state["phase"] == "limits":
            decision = "discard"
        elif state["payment"] is not None:
            decision = "pay"
        elif state["auction"] is not None:
            decision = "bid"  # raise or drop out
        else:
            decision = "turn"
        return {"seats": sorted(self.to_act(state)), "decision": decision}

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
                "details": details, "reason": r["reason"], "decided_by": self._decided_by(state)}

    @staticmethod
    def _decided_by(state: dict) -> str:
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

    def resample_hidden(self, state, viewer, rng):
        """Re-deal what `viewer` cannot see: the values of other players' production
        cards and the production deck order, and the order within each set of the
        development deck. Consistent with what the viewer knows: cards are swapped only
        within one reshuffle epoch (after a reshuffle the deck holds only cards of the
        old discard pile, and a hand keeps how many cards it drew from each deck)."""
        s = _clone(state)
        epoch, old = s["production_epoch"], s["production_old"]
        deck = s["production_deck"]
        pools: dict[int, list[int]] = {epoch: list(deck[old:])}
        if old:
            pools[epoch - 1] = list(deck[:old])
        others = [p for i, p in enumerate(s["players"]) if i != viewer]
        tags = {}
        for i, p in enumerate(others):
            tags[i] = self._hand_origins(p, epoch)
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
