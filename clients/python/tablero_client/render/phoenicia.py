"""Phoenicia: round, phase and whose turn; the development cards on display; the auction;
each player's VP, production, hand (yours only), workers, tools and cards."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..models import Game
from .fit import Fit
from .words import name, only_you_see, plural

PRESET_CARD_VALUE = 5  # option preset_production: the introductory production cards are all 5s


def _seat(s: Any) -> str:
    return "—" if s is None else f"seat {s}"


def _head(v: dict[str, Any]) -> Text:
    """Round, phase and turn; what does not apply now (no step or active seat once the game is over)
    is left out rather than shown as an absent value."""
    bits = [f"Round {v.get('round')}", f"phase {v.get('phase')}"]
    if v.get("step") is not None:
        bits.append(f"step {v['step']}")
    if v.get("overlord") is not None:
        bits.append(f"overlord: {_seat(v['overlord'])}")
    if v.get("order"):
        bits.append("order: " + ", ".join(_seat(s) for s in v["order"]))
    if v.get("active") is not None:
        bits.append(f"active: {_seat(v['active'])}")
    return Text("  ".join(bits))


def hand_text(p: dict[str, Any]) -> str:
    """A player's production cards: the values of the viewer's own (with the introductory 5s of option
    preset_production, counted apart in `preset_cards`), only how many for the others."""
    hand, preset = p.get("hand"), p.get("preset_cards") or 0
    if hand is None:
        n = p.get("hand_size")
        return f"{plural(n, 'card')}" + (f" ({preset} introductory)" if preset else "")
    values = [str(x) for x in hand] + [f"{PRESET_CARD_VALUE} (introductory)"] * preset
    return ", ".join(values) or "no cards"


def render(game: Game) -> Group:
    v = game.view
    head = _head(v)
    display = Table(title="Display (development cards for auction)", title_justify="left")
    for col in ("card", "set", "min bid", "VP", "production", "storehouses", "workers", "your discount"):
        display.add_column(col)
    for c in v.get("display") or []:
        display.add_row(str(c.get("card")), str(c.get("set")), str(c.get("min_bid")), str(c.get("vp")),
                        str(c.get("production")), str(c.get("storehouses")),
                        str((c.get("untrained") or 0) + (c.get("trained") or 0)), str(c.get("your_discount") or ""))
    players = Table(title="Players", title_justify="left")
    for col in ("seat", "VP", "production", "hand", "disks", "workers (untrained/trained)", "tiles", "cards"):
        players.add_column(col)
    for p in v.get("players") or []:
        i = p.get("seat")
        tiles = "\n".join(f"{t.get('title')}: {' '.join(s or '·' for s in t.get('slots') or [])}"
                          for t in p.get("tiles") or [])
        players.add_row(f"{i}{' (you)' if i == game.your_seat else ''}", str(p.get("vp")), str(p.get("production")),
                        hand_text(p), str(p.get("disks")), f"{p.get('untrained')}/{p.get('trained')}", tiles,
                        ", ".join(p.get("cards") or []) or "—", style="bold" if i == game.your_seat else "")
    parts: list[Any] = [head, Fit(display), Fit(players)]
    for key in ("auction", "payment"):
        if v.get(key):
            parts.append(Text(f"{key}: {_people(game, v[key])}", style="yellow"))
    if v.get("discard"):
        parts.append(Text(_discard_text(game, v["discard"]), style="yellow"))
    aw = v.get("awaiting")
    if isinstance(aw, dict):
        parts.append(Text(f"Waiting for {', '.join(_seat(s) for s in aw.get('seats') or []) or 'nobody'}: "
                          f"{name(aw.get('decision')) or '—'}", style="yellow"))
    return Group(*parts)


def _discard_text(game: Game, d: Any) -> str:
    """`Too many cards: seat 0 (you) discards 8 cards` (the view: {"seats": {"0": 8}, "when": ...})."""
    from . import player_name

    seats = d.get("seats") if isinstance(d, dict) else None
    if not isinstance(seats, dict):
        return f"discard: {_people(game, d)}"
    who = [f"{player_name(game, int(s))} discards {plural(n, 'card')}" for s, n in seats.items()
           if str(s).isdigit() and isinstance(n, int)]
    return "Too many cards: " + (", ".join(who) or "nobody discards")


PEOPLE = {"seat", "leader", "next", "winner", "bidders", "seats"}


def _people(game: Game, x: Any) -> str:
    """The auction, a payment or a discard in words: players by name (`leader seat 2 (bot)`, `bidders
    seat 1 (bot), seat 0 (you)`), the action paid for as the choices word it."""
    from . import action_label, player_name

    if not isinstance(x, dict):
        return _fmt(x)
    parts = []
    for k, y in x.items():
        if k in PEOPLE and isinstance(y, dict):  # {"0": 1}: how many for whom
            y = ", ".join(f"{player_name(game, int(s))} {n}" for s, n in y.items() if str(s).isdigit())
        elif k in PEOPLE and isinstance(y, list):
            y = ", ".join(player_name(game, s) for s in y) or "nobody"
        elif k in PEOPLE:
            y = player_name(game, y) if y is not None else "—"
        elif k == "action" and isinstance(y, dict):
            y = action_label(y, game)
        else:
            y = _fmt(y)
        parts.append(f"{name(k)} {y}")
    return ", ".join(parts)


def _fmt(x: Any) -> str:
    if x is None:
        return "—"
    if isinstance(x, dict):
        return ", ".join(f"{k} {_fmt(v)}" for k, v in x.items())
    if isinstance(x, list):
        return "[" + ", ".join(_fmt(v) for v in x) + "]"
    return str(x)


def _pay(a: dict[str, Any]) -> str:
    parts = []
    if a.get("cards"):
        parts.append("cards " + " + ".join(str(c) for c in a["cards"]))
    if a.get("disks"):
        parts.append(plural(a["disks"], "disk"))
    return f"paying {' and '.join(parts)}" if parts else "for free"


PRICED = {"train", "employ", "buy_tool", "buy_vp", "move"}


def price_of(action: dict[str, Any], game: Game) -> int | None:
    """What a priced move costs the viewer, from the view (the price the engine asks in the payment
    step that follows it): the training cost, the tool cost of the tableau (employing onto a tool disk
    is free), the City Center's VP price. None when the view does not tell."""
    v = game.view or {}
    me = next((p for p in v.get("players") or [] if isinstance(p, dict) and p.get("seat") == game.your_seat), None)
    if me is None:
        return None
    t = action.get("type")
    if t == "train":
        return me.get("training_cost")
    tiles = [x for x in me.get("tiles") or [] if isinstance(x, dict)]
    if t == "buy_vp":
        return next((x.get("vp_price") for x in tiles if x.get("kind") == "city_center"), None)
    kind = action.get("to") if t == "move" else action.get("tableau")
    mine = [x for x in tiles if x.get("kind") == kind]
    if not mine:
        return None
    if t == "employ" and any("t" in (x.get("slots") or []) for x in mine):
        return 0  # a trained worker takes a tool disk left by a move for free
    return mine[0].get("tool_cost")


def _cost(a: dict[str, Any], game: Game) -> str:
    """How a move is paid: the cards and disks it hands over, or (a move chosen without them) its
    price, paid in the payment step that follows; "for free" only for what costs nothing."""
    if "cards" in a or "disks" in a or a.get("type") not in PRICED:
        return _pay(a)
    price = price_of(a, game)
    if price == 0:
        return "for free"
    return f"costs {price}, paid at the next step" if price is not None else "paid at the next step"


def action_label(action: dict[str, Any], game: Game) -> str:
    a, t = action, action.get("type")
    if t == "open_auction":
        return f"open an auction for {a.get('card')} bidding {a.get('bid')}"
    if t == "end_turn":
        return "end your turn"
    if t == "bid":
        return f"bid {a.get('amount')}"
    if t == "drop_out":
        return "drop out of the auction"
    if t == "pay":
        return "pay " + _pay(a).removeprefix("paying ")
    if t == "buy_tool":
        return f"tool for {name(a.get('tableau'))}, {_cost(a, game)}"
    if t == "employ":
        return f"employ a worker in {name(a.get('tableau'))}, {_cost(a, game)}"
    if t == "train":
        return f"train a worker, {_cost(a, game)}"
    if t == "buy_vp":
        return f"buy a VP, {_cost(a, game)}"
    if t == "convert":
        return f"turn a {a.get('card')} card into disks"
    if t == "discard":
        return f"discard {', '.join(str(c) for c in a.get('cards') or [])}"
    if t == "move":
        return (f"move the worker from tile {a.get('from_tile')} slot {a.get('from_slot')} to {name(a.get('to'))}, "
                f"{_cost(a, game)}")
    return ""


def _purpose(a: Any) -> str:
    """What a requested payment is for, as the browser says it."""
    a = a if isinstance(a, dict) else {}
    t = a.get("type")
    if t == "train":
        return "train a worker"
    if t == "employ":
        return f"employ a worker in {name(a.get('tableau'))}"
    if t == "buy_tool":
        return f"buy a tool for {name(a.get('tableau'))}"
    if t == "buy_vp":
        return "buy a victory point"
    if t == "move":
        return f"move a worker to {name(a.get('to'))}"
    if t in ("open_auction", "bid"):
        return f"pay for {a.get('card') or 'the card'}"
    return name(t) if t else "pay"


def describe_event(e: dict[str, Any], game: Game) -> str | None:
    from . import player_name

    t = e.get("type")
    who = player_name(game, e.get("seat"))
    if t == "game_started":
        return f"The game starts; {player_name(game, e.get('overlord'))} is overlord{only_you_see(e)}."
    if t == "round_started":
        return f"Round {e.get('round')} begins; {player_name(game, e.get('overlord'))} is overlord."
    if t == "auction_opened":
        return f"{who} puts {e.get('card')} up for auction at {e.get('bid')}."
    if t == "bid_raised":
        return f"{who} bids {e.get('amount')} for {e.get('card')}."
    if t == "dropped_out":
        return f"{who} drops out of the auction for {e.get('card')}."
    if t == "auction_won":
        return f"{who} wins {e.get('card')} for {e.get('price')}."
    if t == "payment_requested":
        return f"{who} must pay {e.get('price')} to {_purpose(e.get('action'))}."
    if t == "development_bought":
        return f"{who} pays for {e.get('card')} ({_pay(e).removeprefix('paying ')})."
    if t == "worker_trained":
        return f"{who} trains a worker."
    if t == "worker_employed":
        return f"{who} employs a worker in {name(e.get('tableau'))}."
    if t == "worker_moved":
        return f"{who} moves a worker from {name(e.get('from'))} to {name(e.get('tableau'))}."
    if t == "tool_bought":
        return f"{who} buys a tool for {name(e.get('tableau'))}."
    if t == "vp_bought":
        return f"{who} buys a victory point."
    if t == "turn_ended":
        return f"{who} ends the turn."
    if t == "overlord_changed":
        return f"{who} becomes overlord."
    if t == "production_dealt":
        disks = f" and {e['disks']} disks" if e.get("disks") else ""
        return f"{who} receives {plural(e.get('cards'), 'production card')}{disks}{only_you_see(e)}."
    if t == "production_reshuffled":
        return f"The production deck is reshuffled ({e.get('count')} cards)."
    if t == "display_refilled":
        return f"New development cards: {', '.join(str(c) for c in e.get('cards') or [])}."
    if t == "card_converted":
        return f"{who} converts a card into disks."
    if t == "discard_required":
        seats = e.get("seats") or {}
        return "Too many cards: " + ", ".join(f"{player_name(game, int(s))} discards {n}" for s, n in seats.items()) + "."
    if t == "limits_applied":
        return f"{who} is held to the storage limits."
    if t == "game_ended":
        vp = ", ".join(f"{player_name(game, s)} {x}" for s, x in enumerate(e.get("vp") or []))
        return f"The game ends ({name(e.get('reason'))}). VP: {vp}."
    return None
