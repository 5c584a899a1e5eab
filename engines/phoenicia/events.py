"""Phoenicia's events: how each changes the state (the `ON` table; state.GameState)."""

from __future__ import annotations

from tablero.engines.core import clone

from . import data
from .data import CARD, TABLEAUS
from .money import take_cards
from .state import GameState, Player
from .village import new_tile, refresh


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
