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
A state of a v2 game carries `"version": 2`; v1 states are as v1 wrote them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from engines.core import IllegalAction, InvalidAction, Move, Phase, RulesEngine, array, clone, integer, string

from . import data
from .data import CARD, CITY_CENTER, TABLEAUS, WORK_TABLEAUS
from .money import after_limits, discard_options, income, is_minimal_payment, payment_options, take_cards
from .state import GameState, Player
from .village import (
    card_facts,
    dead_end,
    discount,
    first,
    first_display,
    hand_size,
    max_wealth,
    money,
    move_gain,
    new_tile,
    owned_kinds,
    refresh,
    scoring,
    slot_production,
    tableau_level,
    training_cost,
    treasury_capacity,
    vp_sources,
)

__all__ = ["FIELDS", "Phoenicia", "dead_end", "discount", "first_display", "max_wealth", "scoring", "vp_sources"]

# Old names kept for readers of v1 (and tests).
_refresh, _new_tile = refresh, new_tile

VERSION = 2
# Steps of a player turn in rulebook order; an action of a later step closes the earlier ones.
STEPS = ("auctions", "workers", "tools", "converted")

# --- field schemas -------------------------------------------------------------------------
_CARD_VALUE = integer(0, 100)
_CARDS = array(_CARD_VALUE, max_items=100, description="production card values handed over")
_DISKS = integer(0, 1000, description="disks handed over")
_AMOUNT = integer(0, 1000)
_TABLEAU = string(WORK_TABLEAUS)
_DEV_CARD = string(CARD)
PAYMENT = ("cards", "disks")


def _rules_version(state: GameState) -> int:
    return state.get("version", 1)


def _me(state: GameState, seat: int) -> Player:
    return state["players"][seat]


# --- payments (seed-P 1a: cards and disks, change only in disks) -----------------------------
def _paid(cards: list[int], disks: int, amount: int) -> dict:
    return {"cards": cards, "disks": disks, "change": sum(cards) + disks - max(amount, 0)}


def _check_payment(p: Player, cards: list[int], disks: int, amount: int, what: str) -> dict:
    """A payment the player names: he holds it, it covers the price, and nothing
    handed over is superfluous (ours: keeps the choice finite)."""
    cards = sorted(cards, reverse=True)
    if disks > p["disks"]:
        raise IllegalAction(f"{what}: you have only {p['disks']} disks")
    if take_cards(p["hand"], p["preset"], cards) is None:
        raise IllegalAction(f"{what}: you do not hold the cards {cards}")
    if sum(cards) + disks < amount:
        raise IllegalAction(f"{what}: costs {amount}, you offered {sum(cards) + disks}")
    if not is_minimal_payment(cards, disks, amount):
        raise IllegalAction(f"{what}: costs {amount}; hand over no card or disk that is not needed")
    return _paid(cards, disks, amount)


def _payments(p: Player, amount: int) -> Iterator[dict]:
    for cards, disks in payment_options(p["hand"], p["preset"], p["disks"], amount):
        yield {"type": "pay", "cards": cards, "disks": disks}


# --- priced moves: grouped form + pay step, or the single-action form ------------------------
Target = Callable[[GameState, int, dict], tuple[int, dict]]
Effect = Callable[[int, dict, dict, dict], dict]


def priced(type_: str, what: str, fields: dict, phases: set[str], target: Target, effect: Effect,
           candidates: Callable[[GameState, int], Any], rule: str, doc: str) -> Move:
    """A move with a price. `target(state, seat, action) -> (price, facts)` is the rule's
    legality (IllegalAction with the reason); `effect(seat, action, facts, paid)` the event.
    Without `cards`/`disks` the move asks for the payment (`payment_requested`, then `pay`);
    with both it is paid at once."""

    def check(state, seat, action):
        has = [k for k in PAYMENT if k in action]
        if len(has) == 1:  # malformed whatever the rules say
            raise InvalidAction(f"{type_}: give both 'cards' and 'disks' (the single-action form) or neither")
        price, facts = target(state, seat, action)
        p = _me(state, seat)
        if has:
            return price, facts, _check_payment(p, action["cards"], action["disks"], price, what)
        if price > money(p):
            raise IllegalAction(f"{what}: costs {price}, you have only {money(p)}")
        return price, facts, None

    def resolve(state, seat, action, ctx, rng):
        price, facts, paid = ctx
        if paid is None and price > 0:
            return [{"type": "payment_requested", "seat": seat, "price": price,
                     "action": {k: v for k, v in action.items() if k not in PAYMENT}}]
        return [effect(seat, action, facts, paid or _paid([], 0, 0))]

    return Move(type_, resolve, fields={**fields, "cards": _CARDS, "disks": _DISKS}, optional=frozenset(PAYMENT),
                phases=frozenset(phases), check=check, candidates=candidates, rule=rule,
                doc=doc + " Without 'cards' and 'disks' the payment is chosen next (pay).")


# --- 1a: auctions ---------------------------------------------------------------------------
def _check_open_auction(state: GameState, seat: int, action: dict):
    p = _me(state, seat)
    card, bid = action["card"], action["bid"]
    if card not in state["display"]:
        raise IllegalAction(f"Auction: {card} is not on display")
    if bid < CARD[card]["min_bid"]:
        raise IllegalAction(f"Auction: the minimum bid for {card} is {CARD[card]['min_bid']}")
    if bid - discount(p, card) > money(p):
        raise IllegalAction(f"Auction: you cannot pay {bid} for {card}")


def _open_auction(state: GameState, seat: int, action: dict, ctx: Any, rng: random.Random) -> list[dict]:
    # Seed-P 1b: players whose turn is over take no part in later auctions.
    bidders = [seat] + state["order"][state["turn"] + 1:]
    return [{"type": "auction_opened", "seat": seat, "card": action["card"], "bid": action["bid"],
             "bidders": bidders}]


def _auction_openings(state: GameState, seat: int):
    p = _me(state, seat)
    cash = money(p)
    for card in sorted(set(state["display"])):
        for b in range(CARD[card]["min_bid"], cash + discount(p, card) + 1):
            yield {"type": "open_auction", "card": card, "bid": b}


def _check_bid(state: GameState, seat: int, action: dict):
    a = state["auction"]
    amount = action["amount"]
    if amount <= a["bid"]:
        raise IllegalAction(f"Bid: you must raise the bid of {a['bid']}")
    p = _me(state, seat)
    if amount - discount(p, a["card"]) > money(p):
        raise IllegalAction(f"Bid: you cannot pay {amount} for {a['card']}")


def _bid(state: GameState, seat: int, action: dict, ctx: Any, rng: random.Random) -> list[dict]:
    return [{"type": "bid_raised", "seat": seat, "card": state["auction"]["card"], "amount": action["amount"]}]


def _raises(state: GameState, seat: int):
    a = state["auction"]
    p = _me(state, seat)
    top = money(p) + discount(p, a["card"])
    return ({"type": "bid", "amount": b} for b in range(a["bid"] + 1, top + 1))


def _drop_out(state: GameState, seat: int, action: dict, ctx: Any, rng: random.Random) -> list[dict]:
    return [{"type": "dropped_out", "seat": seat, "card": state["auction"]["card"]}]


def _pending_move(state) -> Move | None:
    pay = state["payment"]
    return Phoenicia._move_by_type[pay["action"]["type"]] if "action" in pay else None


def _check_pay(state: GameState, seat: int, action: dict):
    pay = state["payment"]
    what = pay["card"] if "card" in pay else pay["action"]["type"]
    paid = _check_payment(_me(state, seat), action["cards"], action["disks"], pay["price"], what)
    m = _pending_move(state)
    if m is None:
        return paid
    # The pending turn action, now with its payment: the same rule, the same event.
    full = {**pay["action"], "cards": paid["cards"], "disks": paid["disks"]}
    return m, full, m.check(state, seat, full)


def _pay(state: GameState, seat: int, action: dict, ctx: Any, rng: random.Random) -> list[dict]:
    pay = state["payment"]
    if "action" in pay:
        m, full, inner = ctx
        return m.resolve(state, seat, full, inner, rng)
    return [{"type": "development_bought", "seat": seat, "card": pay["card"], "price": pay["price"], **ctx}]


# --- 1b: workers ------------------------------------------------------------------------------
def _owned(p: Player, kind: str, what: str) -> None:
    if kind not in owned_kinds(p):
        raise IllegalAction(f"{what}: you have no {TABLEAUS[kind]['title'][0]} tableau")


def _train_target(state: GameState, seat: int, action: dict):
    p = _me(state, seat)
    if p["untrained"] < 1:
        raise IllegalAction("Train: you have no untrained worker")
    return training_cost(p), {}


def _employ_target(state: GameState, seat: int, action: dict):
    p = _me(state, seat)
    kind = action["tableau"]
    _owned(p, kind, "Employ")
    if p["trained"] < 1:
        raise IllegalAction("Employ: you have no trained worker")
    # Seed-P 1b: a trained worker takes a tool disk left by a move for free.
    where = first(p, kind, "t")
    if where is not None:
        return 0, {"where": where, "price": 0}
    where = first(p, kind, None)
    if where is None:
        raise IllegalAction(f"Employ: {TABLEAUS[kind]['title'][0]} is full")
    return TABLEAUS[kind]["tool_cost"], {"where": where, "price": TABLEAUS[kind]["tool_cost"]}


def _move_target(state: GameState, seat: int, action: dict):
    p = _me(state, seat)
    ti, si, dst = action["from_tile"], action["from_slot"], action["to"]
    if ti >= len(p["tiles"]) or si >= len(p["tiles"][ti]["slots"]):
        raise IllegalAction("Move: your village has no such space")
    tile = p["tiles"][ti]
    src = tile["kind"]
    if src not in TABLEAUS or tile["slots"][si] != "w":
        raise IllegalAction("Move: no worker stands on that space")
    _owned(p, dst, "Move")
    if TABLEAUS[dst]["tool_cost"] <= TABLEAUS[src]["tool_cost"]:
        raise IllegalAction("Move: a worker moves only to a more costly activity")
    where = first(p, dst, None)
    if where is None:
        raise IllegalAction(f"Move: {TABLEAUS[dst]['title'][0]} has no free space")
    if _rules_version(state) >= 2:
        # v2, seed-P 1b: "a una actividad más costosa y lucrativa" -- the move must gain
        # production or VP (a storehouse from Clothmaking is not income: RULES.md).
        prod, vp = move_gain(p, src, si, dst, where[1])
        if prod <= 0 and vp <= 0:
            raise IllegalAction(
                f"Move: a worker moves only to a more costly and more lucrative activity; from "
                f"{_title(p, src)} to {_title(p, dst)} it would gain no production and no VP")
    return TABLEAUS[dst]["tool_cost"], {"src": src, "where": where}


def _title(p: Player, kind: str) -> str:
    titles = TABLEAUS[kind]["title"]
    return titles[min(tableau_level(p, kind), len(titles) - 1)]


def _trainings(state: GameState, seat: int):
    yield {"type": "train"}


def _employments(state: GameState, seat: int):
    for k in owned_kinds(_me(state, seat)):
        yield {"type": "employ", "tableau": k}


def _moves(state: GameState, seat: int):
    p = _me(state, seat)
    kinds = owned_kinds(p)
    for ti, tile in enumerate(p["tiles"]):
        src = tile["kind"]
        if src not in TABLEAUS:
            continue
        targets = [d for d in kinds if TABLEAUS[d]["tool_cost"] > TABLEAUS[src]["tool_cost"]]
        for si, content in enumerate(tile["slots"]):
            if content == "w":
                for dst in targets:
                    yield {"type": "move", "from_tile": ti, "from_slot": si, "to": dst}


# --- 1c: tools, City Center, treasury ---------------------------------------------------------
def _tool_target(state: GameState, seat: int, action: dict):
    p = _me(state, seat)
    kind = action["tableau"]
    _owned(p, kind, "Buy tool")
    where = first(p, kind, None)
    if where is None:
        raise IllegalAction(f"Buy tool: {TABLEAUS[kind]['title'][0]} has no free space")
    return TABLEAUS[kind]["tool_cost"], {"where": where}


def _tools(state: GameState, seat: int):
    for k in owned_kinds(_me(state, seat)):
        yield {"type": "buy_tool", "tableau": k}


def _vp_target(state: GameState, seat: int, action: dict):
    where = first(_me(state, seat), "city_center", None)
    if where is None:
        raise IllegalAction("City Center: you have no City Center space left")
    return CITY_CENTER["vp_price"], {"where": where}


def _vp_purchases(state: GameState, seat: int):
    yield {"type": "buy_vp"}


def _check_convert(state: GameState, seat: int, action: dict):
    p = _me(state, seat)
    if take_cards(p["hand"], p["preset"], [action["card"]]) is None:
        raise IllegalAction(f"Convert: you hold no production card of value {action['card']}")


def _convert(state: GameState, seat: int, action: dict, ctx: Any, rng: random.Random) -> list[dict]:
    # FAQ: one card, voluntarily, once per turn, in your own 1c; disks without a
    # treasury space are lost at once (seed-P 1c).
    p = _me(state, seat)
    card = action["card"]
    gained = min(card, max(0, treasury_capacity(p) - p["disks"]))
    return [{"type": "card_converted", "seat": seat, "card": card, "disks_gained": gained, "lost": card - gained}]


def _conversions(state: GameState, seat: int):
    p = _me(state, seat)
    values = set(p["hand"]) | ({data.PRESET_CARD_VALUE} if p["preset"] else set())
    return ({"type": "convert", "card": v} for v in sorted(values))


def _trim(state: GameState, seat: int) -> list[dict]:
    """Treasury limit: disks beyond the spaces are lost."""
    p = _me(state, seat)
    cap = treasury_capacity(p)
    if p["disks"] > cap:
        return [{"type": "limits_applied", "seat": seat, "discarded": [], "disks": cap, "lost": p["disks"] - cap}]
    return []


def _turn_over(state: GameState, seat: int) -> dict:
    t = state["turn"] + 1
    return {"type": "turn_ended", "seat": seat, "next": state["order"][t] if t < state["seats"] else None}


def _end_turn(state: GameState, seat: int, action: dict, ctx: Any, rng: random.Random) -> list[dict]:
    # FAQ: the storage and treasury limits are checked at the end of every 1c.
    excess = hand_size(_me(state, seat)) - _me(state, seat)["storehouses"]
    if excess > 0:
        return [{"type": "discard_required", "seats": {str(seat): excess}, "when": "turn"}]
    return [*_trim(state, seat), _turn_over(state, seat)]


def _check_discard(state: GameState, seat: int, action: dict):
    d = state["discard"]
    if str(seat) not in d["seats"]:
        raise IllegalAction("Discard: you have nothing to discard")
    cards = sorted(action["cards"], reverse=True)
    p = _me(state, seat)
    excess = d["seats"][str(seat)]
    if len(cards) != excess:
        raise IllegalAction(f"Discard: you must discard exactly {excess} production card(s)")
    if take_cards(p["hand"], p["preset"], cards) is None:
        raise IllegalAction(f"Discard: you do not hold the cards {cards}")
    return cards


def _discard(state: GameState, seat: int, action: dict, cards: list[int], rng: random.Random) -> list[dict]:
    p = _me(state, seat)
    disks, lost = after_limits(p["disks"], treasury_capacity(p), sum(cards))
    events = [{"type": "limits_applied", "seat": seat, "discarded": cards, "disks": disks, "lost": lost}]
    if state["discard"]["when"] == "turn":
        events.append(_turn_over(state, seat))
    return events


def _discards(state: GameState, seat: int):
    p = _me(state, seat)
    excess = state["discard"]["seats"].get(str(seat), 0)
    return ({"type": "discard", "cards": c} for c in discard_options(p["hand"], p["preset"], excess))


TURN = {"auctions", "workers", "tools", "converted"}
TO_WORKERS = {"auctions", "workers"}
TO_TOOLS = {"auctions", "workers", "tools"}

MOVES = (
    Move("open_auction", _open_auction, fields={"card": _DEV_CARD, "bid": _AMOUNT}, phases={"auctions"},
         check=_check_open_auction, options=_auction_openings,
         rule="seed-P 1a: any face-up card, opening bid at least its minimum, while you can pay",
         doc="Open an auction for a face-up development card."),
    Move("bid", _bid, fields={"amount": _AMOUNT}, phases={"auction"}, check=_check_bid, options=_raises,
         rule="seed-P 1a: bidding goes clockwise from the opener; nobody bids more than he could pay",
         doc="Raise the bid of the open auction."),
    Move("drop_out", _drop_out, phases={"auction"}, options=lambda s, seat: [{"type": "drop_out"}],
         rule="seed-P 1a: a player who passes is out of this auction", doc="Leave the open auction for good."),
    Move("pay", _pay, fields={"cards": _CARDS, "disks": _DISKS}, phases={"payment"}, check=_check_pay,
         options=lambda s, seat: _payments(_me(s, seat), s["payment"]["price"]),
         rule="seed-P 1a: pay with production cards and disks, change only in disks; "
              "ours: nothing superfluous handed over",
         doc="Pay the price now due (a won auction or the priced action just chosen)."),
    priced("train", "Train", {}, TO_WORKERS, _train_target,
           lambda seat, a, f, paid: {"type": "worker_trained", "seat": seat, **paid}, _trainings,
           rule="seed-P 1b: an untrained worker is trained for 2 (1 with Public Works)",
           doc="Train an untrained worker."),
    priced("employ", "Employ", {"tableau": _TABLEAU}, TO_WORKERS, _employ_target,
           lambda seat, a, f, paid: {"type": "worker_employed", "seat": seat, "tableau": a["tableau"],
                                     "tile": f["where"][0], "slot": f["where"][1],
                                     "tool_taken": f["price"] == 0, **paid},
           _employments,
           rule="seed-P 1b: a trained worker to the first free space for the tool cost 2/5/8/11, "
                "or onto a tool disk for free",
           doc="Employ a trained worker on one of your tableaus."),
    priced("move", "Move", {"from_tile": integer(0, 50), "from_slot": integer(0, 50), "to": _TABLEAU},
           TO_WORKERS, _move_target,
           lambda seat, a, f, paid: {"type": "worker_moved", "seat": seat, "from": f["src"],
                                     "from_tile": a["from_tile"], "from_slot": a["from_slot"],
                                     "tableau": a["to"], "tile": f["where"][0], "slot": f["where"][1], **paid},
           _moves,
           rule="seed-P 1b: a worker to a more costly and more lucrative activity (v2; v1: more costly), "
                "paying its full tool cost; a tool disk stays on the vacated space",
           doc="Move a worker to a costlier, more lucrative tableau."),
    priced("buy_tool", "Buy tool", {"tableau": _TABLEAU}, TO_TOOLS, _tool_target,
           lambda seat, a, f, paid: {"type": "tool_bought", "seat": seat, "tableau": a["tableau"],
                                     "tile": f["where"][0], "slot": f["where"][1], **paid},
           _tools, rule="seed-P 1c: a tool disk on the first free space of a tableau for its tool cost",
           doc="Buy a tool for a future worker."),
    priced("buy_vp", "City Center", {}, TO_TOOLS, _vp_target,
           lambda seat, a, f, paid: {"type": "vp_bought", "seat": seat, "tile": f["where"][0],
                                     "slot": f["where"][1], **paid},
           _vp_purchases, rule="seed-P 1c, P-AID: City Center, 1 VP for 3, three spaces per tile",
           doc="Buy 1 VP at your City Center."),
    Move("convert", _convert, fields={"card": _CARD_VALUE}, phases=frozenset(TO_TOOLS), check=_check_convert,
         options=_conversions, rule="seed-P 1c, P-FAQ: one production card to disks, once, in your own 1c",
         doc="Turn one production card into disks (those without a treasury space are lost)."),
    Move("end_turn", _end_turn, phases=frozenset(TURN), options=lambda s, seat: [{"type": "end_turn"}],
         rule="P-FAQ: storage and treasury limits at the end of every 1c", doc="End your turn."),
    Move("discard", _discard, fields={"cards": _CARDS}, phases={"limits"}, check=_check_discard,
         options=_discards, rule="seed-P 2d, P-FAQ: excess production cards are discarded by choice; "
                                 "their value refills free treasury spaces",
         doc="Discard the production cards beyond your storehouses."),
)
# Every action type with its fields (a payment's `cards` and `disks` are optional together).
FIELDS: dict[str, tuple[str, ...]] = {m.type: tuple(m.fields) for m in MOVES}


# --- events: the only way the state changes ---------------------------------------------------
def _initial_player(hand: list[int], preset: int) -> Player:
    p: Player = {
        "hand": sorted(hand), "preset": preset, "disks": data.START["disks"],
        "origins": [[v, 0] for v in sorted(hand)],  # [value, reshuffle epoch] of each card in hand
        "storehouses": data.START["storehouses"],
        "untrained": data.START["untrained"], "trained": data.START["trained"],
        "cards": [], "tiles": [], "vp": 0, "production": 0,
    }
    for kind in ("hunting", "farming"):
        tile = new_tile(kind)
        for i in range(data.START["workers"][kind]):
            tile["slots"][i] = "w"
        p["tiles"].append(tile)
    refresh(p)
    return p


def _on_game_started(state: None, e: dict) -> GameState:
    n = e["seats"]
    preset = 1 if e["preset_production"] else 0
    private = e.get("private") or {}
    overlord = e["overlord"]
    st: GameState = {
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
        "display": list(e["display"]),
        "deck": list(e["secret"]["deck"]),
        "production_deck": list(e["secret"]["production_deck"]),
        "discard_pile": [],
        # Hidden bookkeeping for resample_hidden: how many reshuffles made the
        # production deck, and how many cards on top of it are from the deck before.
        "production_epoch": 0,
        "production_old": 0,
        "players": [_initial_player(list(private.get(str(s), {}).get("hand", [])), preset) for s in range(n)],
        "result": None,
    }
    if e.get("engine_version", 1) >= 2:
        st["version"] = e["engine_version"]
    return st


def _spend(state: GameState, p: Player, cards: list[int]) -> None:
    """Production cards leave a hand (paid, converted or discarded): their values go
    face up on the discard pile; preset 5s go back to the box (seed-P setup)."""
    p["hand"], p["preset"], spent = take_cards(p["hand"], p["preset"], cards)
    state["discard_pile"].extend(spent)
    for v in spent:
        tag = next((t for t in p["origins"] if t[0] == v), None)
        if tag is not None:
            p["origins"].remove(tag)


def _settle_payment(state: GameState, e: dict) -> Player:
    """A priced event: the cards and disks handed over leave, the change comes back,
    and no payment is due any more."""
    p = state["players"][e["seat"]]
    _spend(state, p, e["cards"])
    p["disks"] += e["change"] - e["disks"]
    state["payment"] = None
    return p


def _place(p: Player, kind: str, tile: int, slot: int) -> None:
    p["tiles"][tile]["slots"][slot] = "w"
    p["storehouses"] += TABLEAUS[kind]["storehouse_per_worker"]


def _on_auction_opened(state: GameState, e: dict) -> None:
    state["step"] = "auctions"
    bidders = list(e["bidders"])
    state["auction"] = {"card": e["card"], "bid": e["bid"], "leader": e["seat"], "bidders": bidders,
                        "next": bidders[1] if len(bidders) > 1 else None}


def _on_bid_raised(state: GameState, e: dict) -> None:
    a = state["auction"]
    a["bid"], a["leader"] = e["amount"], e["seat"]
    b = a["bidders"]
    a["next"] = b[(b.index(e["seat"]) + 1) % len(b)]


def _on_dropped_out(state: GameState, e: dict) -> None:
    a = state["auction"]
    b = a["bidders"]
    i = b.index(e["seat"])
    b.pop(i)
    a["next"] = b[i % len(b)] if len(b) > 1 else None


def _on_auction_won(state: GameState, e: dict) -> None:
    state["auction"] = None
    state["display"].remove(e["card"])
    state["payment"] = {"seat": e["seat"], "card": e["card"], "bid": e["bid"], "price": e["price"]}


def _on_payment_requested(state: GameState, e: dict) -> None:
    state["payment"] = {"seat": e["seat"], "price": e["price"], "action": clone(e["action"])}


def _on_development_bought(state: GameState, e: dict) -> None:
    p = _settle_payment(state, e)
    c = CARD[e["card"]]
    p["cards"].append(c["name"])
    p["storehouses"] += c["storehouses"]
    p["untrained"] += c["untrained"]
    p["trained"] += c["trained"]
    if c["tile"]:
        p["tiles"].append(new_tile(c["tile"]))
    refresh(p)


def _on_worker_trained(state: GameState, e: dict) -> None:
    state["step"] = "workers"
    p = _settle_payment(state, e)
    p["untrained"] -= 1
    p["trained"] += 1


def _on_worker_employed(state: GameState, e: dict) -> None:
    state["step"] = "workers"
    p = _settle_payment(state, e)
    p["trained"] -= 1
    _place(p, e["tableau"], e["tile"], e["slot"])
    refresh(p)


def _on_worker_moved(state: GameState, e: dict) -> None:
    state["step"] = "workers"
    p = _settle_payment(state, e)
    # Seed-P 1b: the vacated space keeps a tool disk from the supply.
    p["tiles"][e["from_tile"]]["slots"][e["from_slot"]] = "t"
    _place(p, e["tableau"], e["tile"], e["slot"])
    refresh(p)


def _on_tool_bought(state: GameState, e: dict) -> None:
    state["step"] = "tools"
    p = _settle_payment(state, e)
    p["tiles"][e["tile"]]["slots"][e["slot"]] = "t"


def _on_vp_bought(state: GameState, e: dict) -> None:
    state["step"] = "tools"
    p = _settle_payment(state, e)
    p["tiles"][e["tile"]]["slots"][e["slot"]] = "t"
    refresh(p)


def _on_card_converted(state: GameState, e: dict) -> None:
    state["step"] = "converted"
    p = state["players"][e["seat"]]
    _spend(state, p, [e["card"]])
    p["disks"] += e["disks_gained"]


def _on_discard_required(state: GameState, e: dict) -> None:
    state["phase"] = "limits"
    state["discard"] = {"seats": dict(e["seats"]), "when": e["when"]}


def _on_limits_applied(state: GameState, e: dict) -> None:
    p = state["players"][e["seat"]]
    _spend(state, p, e["discarded"])
    p["disks"] = e["disks"]
    d = state["discard"]
    if d is not None:
        d["seats"].pop(str(e["seat"]), None)
        if not d["seats"]:
            state["discard"] = None
            # After 2d the next round starts (the round_end phase emits round_started).
            state["phase"] = "turn" if d["when"] == "turn" else "round_end"


def _on_turn_ended(state: GameState, e: dict) -> None:
    state["turn"] += 1
    if state["turn"] < state["seats"]:
        state["active"] = state["order"][state["turn"]]
        state["step"] = "auctions"
    else:
        state["active"] = None
        state["phase"] = "admin"


def _on_game_ended(state: GameState, e: dict) -> None:
    state["phase"] = "over"
    state["result"] = {k: v for k, v in e.items() if k not in ("type", "seat")}


def _on_overlord_changed(state: GameState, e: dict) -> None:
    state["last_overlord"] = state["overlord"]
    state["overlord"] = e["seat"]


def _on_display_refilled(state: GameState, e: dict) -> None:
    k = len(e["cards"])
    state["display"].extend(state["deck"][:k])
    del state["deck"][:k]


def _on_production_reshuffled(state: GameState, e: dict) -> None:
    state["production_old"] = len(state["production_deck"])
    state["production_epoch"] += 1
    state["production_deck"].extend(e["secret"]["deck"])
    state["discard_pile"] = []


def _on_production_dealt(state: GameState, e: dict) -> None:
    p = state["players"][e["seat"]]
    k = e["cards"]
    drawn = state["production_deck"][:k]
    del state["production_deck"][:k]
    p["hand"] = sorted(p["hand"] + drawn)
    old, epoch = state["production_old"], state["production_epoch"]
    p["origins"] = sorted(p["origins"] + [[v, epoch - 1 if i < old else epoch] for i, v in enumerate(drawn)])
    state["production_old"] = max(0, old - k)
    p["disks"] = e["disks"]


def _on_round_started(state: GameState, e: dict) -> None:
    state["round"] = e["round"]
    state["order"] = list(e["order"])
    state["turn"] = 0
    state["active"] = e["order"][0]
    state["phase"] = "turn"
    state["step"] = "auctions"


ON = {
    "game_started": _on_game_started,
    "auction_opened": _on_auction_opened,
    "bid_raised": _on_bid_raised,
    "dropped_out": _on_dropped_out,
    "auction_won": _on_auction_won,
    "payment_requested": _on_payment_requested,
    "development_bought": _on_development_bought,
    "worker_trained": _on_worker_trained,
    "worker_employed": _on_worker_employed,
    "worker_moved": _on_worker_moved,
    "tool_bought": _on_tool_bought,
    "vp_bought": _on_vp_bought,
    "card_converted": _on_card_converted,
    "discard_required": _on_discard_required,
    "limits_applied": _on_limits_applied,
    "turn_ended": _on_turn_ended,
    "overlord_changed": _on_overlord_changed,
    "display_refilled": _on_display_refilled,
    "production_reshuffled": _on_production_reshuffled,
    "production_dealt": _on_production_dealt,
    "round_started": _on_round_started,
    "game_ended": _on_game_ended,
}


# --- automatic steps ----------------------------------------------------------------------------
def _auction_won(state: GameState, rng: random.Random) -> list[dict] | None:
    """Seed-P 1a: the last bidder left wins and owes his bid less his discount."""
    a = state["auction"]
    if len(a["bidders"]) > 1:
        return None
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


def _administration(state: GameState, rng: random.Random) -> list[dict] | None:
    """Seed-P 2: a) 32 VP ends the game, else a new Overlord; b) refill the display;
    c) production in turn order from the new Overlord; d) storage and treasury limits."""
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
    waiting = {}
    for s in range(n):
        excess = hand_size(players[s]) - players[s]["storehouses"]
        if excess > 0:
            waiting[str(s)] = excess
        else:
            for e in _trim(work, s):
                emit(e)
    if waiting:
        emit({"type": "discard_required", "seats": waiting, "when": "admin"})
    else:
        emit(_round_start(work))
    return events


def _the_active(state) -> set[int]:
    return {state["active"]}


PHASES = (
    Phase("auctions", _the_active, rule="seed-P 1a",
          doc="step 1a of the active player's turn: auctions"),
    Phase("workers", _the_active, rule="seed-P 1b",
          doc="step 1b of the active player's turn, workers: auctions come first in your turn (step 1a)"),
    Phase("tools", _the_active, rule="seed-P 1c",
          doc="step 1c of the active player's turn, tools and City Center: too late in your turn "
              "to auction, train, employ or move"),
    Phase("converted", _the_active, rule="P-FAQ (one conversion, then the turn ends)",
          doc="the active player has converted a card: too late in your turn for anything but end_turn"),
    Phase("auction", lambda s: {s["auction"]["next"]} if s["auction"]["next"] is not None else set(),
          auto=_auction_won, rule="seed-P 1a",
          doc="an auction is open: the next bidder raises or drops out"),
    Phase("payment", lambda s: {s["payment"]["seat"]}, auto=_free_purchase, rule="seed-P 1a",
          doc="a price is due: its payer chooses the cards and disks"),
    Phase("limits", lambda s: {int(k) for k in s["discard"]["seats"]}, rule="seed-P 2d, P-FAQ",
          doc="storage limits: players over their storehouses discard"),
    Phase("admin", lambda s: set(), auto=_administration, rule="seed-P 2a-2d",
          doc="administration between rounds"),
    Phase("round_end", lambda s: set(), auto=lambda s, rng: [_round_start(s)], rule="seed-P 2 (end)",
          doc="the round is over; the next one starts"),
    Phase("over", lambda s: set(), doc="the game is over"),
)

# The events after which an automatic step may follow (`Phoenicia.auto_after`).
LEAD_TO_AUTO = frozenset({"auction_opened", "dropped_out", "turn_ended", "limits_applied"})

# The kind of decision each phase waits for (the view's `awaiting`).
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
                     "preset_production": {"type": "boolean"}},
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
    "production_dealt": {"seat": _SEAT, "cards": _INT, "undealt": _INT, "disks": _INT},
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
_DISPLAY_VIEW = {"type": "object", "properties": {"card": _DEV_CARD, "min_bid": _INT, "vp": _INT,
                                                  "production": _INT, "your_discount": _INT},
                 "required": ["card", "min_bid", "vp", "production", "your_discount"]}
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


class Phoenicia(RulesEngine):
    name = "phoenicia"
    title = "Phoenicia"
    min_seats = 2
    max_seats = 5
    version = VERSION
    supported_versions = (1,)
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
                "discounts": {c: discount(p, c) for row in data.DISCOUNTS for c in row["on"] if discount(p, c)},
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
