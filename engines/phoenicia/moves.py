"""Phoenicia's moves (seed-P "Etapas del juego" 1a-1c): what each checks, offers and decides,
as the `MOVES` table; every priced move is paid by a `pay` step (engine.py's docstring)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from tablero.engines.core import IllegalAction, InvalidAction, Move, array, integer, string

from . import data
from .data import CARD, CITY_CENTER, TABLEAUS, WORK_TABLEAUS
from .money import after_limits, discard_options, is_minimal_payment, payment_options, take_cards
from .state import GameState, Player
from .village import (
    discount,
    first,
    hand_size,
    money,
    move_gain,
    owned_kinds,
    tableau_level,
    training_cost,
    treasury_capacity,
)

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
    return _MOVE_BY_TYPE[pay["action"]["type"]] if "action" in pay else None


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

# The moves by type (the pending payment names the move it pays for).
_MOVE_BY_TYPE = {m.type: m for m in MOVES}
