"""Phoenicia: round, phase and whose turn; the development cards on display; the auction;
each player's VP, production, hand (yours only), workers, tools and cards."""

from __future__ import annotations

import re
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..models import Game
from .fit import Fit
from .words import name

PRESET_CARD_VALUE = 5  # option preset_production: the introductory production cards are all 5s


def _m(game: Game | None = None) -> Any:
    from . import i18n, messages

    return messages(game) if game is not None else (i18n.catalog("phoenicia") or i18n.Catalog({}, i18n.current_language()))


def _seat(s: Any) -> str:
    from . import shown_seat

    return "—" if s is None else _m().format("seat.number", {"n": shown_seat(s)})


def _head(v: dict[str, Any]) -> Text:
    """Round, phase and turn; what does not apply now (no step or active seat once the game is over)
    is left out rather than shown as an absent value."""
    from .i18n import value

    m = _m()
    bits = [m.format("label.round", {"round": v.get("round")}), m.format("label.term_phase", {"phase": value(m, str(v.get("phase") or ""))})]
    if v.get("step") is not None:
        bits.append(m.format("label.term_step", {"step": value(m, str(v["step"]))}))
    if v.get("overlord") is not None:
        bits.append(m.format("label.term_overlord", {"who": _seat(v["overlord"])}))
    if v.get("order"):
        bits.append(m.format("label.term_order", {"who": ", ".join(_seat(s) for s in v["order"])}))
    if v.get("active") is not None:
        bits.append(m.format("label.term_active", {"who": _seat(v["active"])}))
    return Text("  ".join(bits))


def hand_text(p: dict[str, Any]) -> str:
    """A player's production cards: the values of the viewer's own (with the introductory 5s of option
    preset_production, counted apart in `preset_cards`), only how many for the others."""
    m = _m()
    hand, preset = p.get("hand"), p.get("preset_cards") or 0
    if hand is None:
        return m.format("label.term_cards", {"n": p.get("hand_size") or 0}) + (f" ({m.format('label.term_introductory_n', {'n': preset})})" if preset else "")
    values = [str(x) for x in hand] + [f"{PRESET_CARD_VALUE} ({m.format('label.term_introductory')})"] * preset
    return ", ".join(values) or m.format("label.term_cards", {"n": 0})


def render(game: Game) -> Group:
    v = game.view
    head = _head(v)
    from . import shown_seat  # seats counted from 1, as the header and the log count them
    from .i18n import value

    m = _m(game)
    display = Table(title=m.format("label.term_display"), title_justify="left")
    for col in ("card", "set", "min_bid", "vp", "production", "storehouses", "workers", "discount"):
        display.add_column(m.format("label.term_column", {"column": col}))
    for c in v.get("display") or []:
        display.add_row(str(value(m, c.get("card"))), str(c.get("set")), str(c.get("min_bid")), str(c.get("vp")),
                        str(c.get("production")), str(c.get("storehouses")),
                        str((c.get("untrained") or 0) + (c.get("trained") or 0)), str(c.get("your_discount") or ""))
    players = Table(title=m.format("label.term_players"), title_justify="left",
                    caption=m.format("label.term_slots_legend"), caption_justify="left")
    for col in ("seat", "vp", "production", "hand", "disks", "untrained_trained", "tiles", "cards"):
        players.add_column(m.format("label.term_column", {"column": col}))
    for p in v.get("players") or []:
        i = p.get("seat")
        tiles = "\n".join(f"{_tableau_name(m, t)}: {' '.join(m.format('label.term_slot', {'slot': s or 'free'}) for s in t.get('slots') or [])}"
                          for t in p.get("tiles") or [])
        players.add_row(f"{'—' if i is None else shown_seat(i)}{' (' + m.format('label.term_you') + ')' if i == game.your_seat else ''}", str(p.get("vp")), str(p.get("production")),
                        hand_text(p), str(p.get("disks")), f"{p.get('untrained')}/{p.get('trained')}", tiles,
                        ", ".join(str(value(m, c)) for c in p.get("cards") or []) or "—", style="bold" if i == game.your_seat else "")
    parts: list[Any] = [head, Fit(display), Fit(players)]
    for key in ("auction", "payment"):
        if v.get(key):
            parts.append(Text(f"{m.format('label.term_part', {'part': key, 'text': key})}: {_people(game, v[key])}", style="yellow"))
    if v.get("discard"):
        parts.append(Text(_discard_text(game, v["discard"]), style="yellow"))
    aw = v.get("awaiting")
    if isinstance(aw, dict):
        from . import seats_args

        seats = aw.get("seats") or []
        parts.append(Text(m.format("label.term_waiting", {**seats_args(game, seats, _seat),
                                                          "who": ", ".join(_seat(s) for s in seats) or m.format("web.nobody"),
                                                          "decision": str(value(m, str(aw.get("decision") or ""))) or "—"}), style="yellow"))
    return Group(*parts)


def _tableau_name(m: Any, t: dict[str, Any]) -> str:
    """A tableau by its kind and level (the view's title is English: \"Improved Hunting\")."""
    from .i18n import value

    level = re.match(r"(improved|advanced) ", str(t.get("title") or ""), re.I)
    return m.format("label.tableau_level", {"kind": value(m, str(t.get("kind") or "")), "level": level.group(1).lower() if level else "basic"})


def _discard_text(game: Game, d: Any) -> str:
    """`Too many cards: seat 0 (you) discards 8 cards` in the game's language (the view:
    {"seats": {"0": 8}, "when": ...})."""
    from . import player_name

    m = _m(game)
    seats = d.get("seats") if isinstance(d, dict) else None
    if not isinstance(seats, dict):
        return f"{m.format('name.discard', default='discard')}: {_people(game, d)}"
    who = [m.format("label.term_discards", {"who": player_name(game, int(s)), "n": n}) for s, n in seats.items()
           if str(s).isdigit() and isinstance(n, int)]
    return m.format("label.term_too_many_cards", {"what": m.list(who) or m.format("label.term_nobody_discards")})


PEOPLE = {"seat", "leader", "next", "winner", "bidders", "seats"}


def _people(game: Game, x: Any) -> str:
    """The auction, a payment or a discard in words: players by name (`leader seat 2 (bot)`, `bidders
    seat 1 (bot), seat 0 (you)`), the action paid for as the choices word it."""
    from . import action_label, player_name
    from .i18n import value

    m = _m(game)
    if not isinstance(x, dict):
        return _fmt(x)
    parts = []
    for k, y in x.items():
        if k in PEOPLE and isinstance(y, dict):  # {"0": 1}: how many for whom
            y = ", ".join(f"{player_name(game, int(s))} {n}" for s, n in y.items() if str(s).isdigit())
        elif k in PEOPLE and isinstance(y, list):
            y = ", ".join(player_name(game, s) for s in y) or m.format("web.nobody")
        elif k in PEOPLE:
            y = player_name(game, y) if y is not None else "—"
        elif k == "action" and isinstance(y, dict):
            y = action_label(y, game)
        elif isinstance(y, str):
            y = str(value(m, y))
        else:
            y = _fmt(y)
        if k in ("seat", "seats"):  # a player's name already says "seat 0 (you)"
            parts.append(str(y))
        else:
            parts.append(f"{m.format('label.term_part', {'part': k, 'text': name(k)})} {y}")
    return ", ".join(parts)


def _fmt(x: Any) -> str:
    if x is None:
        return "—"
    if isinstance(x, dict):
        return ", ".join(f"{k} {_fmt(v)}" for k, v in x.items())
    if isinstance(x, list):
        return "[" + ", ".join(_fmt(v) for v in x) + "]"
    return str(x)


def field_value(key: str, value: Any, game: Game) -> str | None:
    """A move's source as the mover's village shows it: the tableau by name, its space counted from 1
    (as the browser's render/phoenicia.js fieldValue)."""
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    if key == "from_slot":
        return str(value + 1)
    if key != "from_tile":
        return None
    me = next((p for p in (game.view or {}).get("players") or [] if isinstance(p, dict) and p.get("seat") == game.your_seat), None)
    tiles = (me or {}).get("tiles") or []
    return _tableau_name(_m(game), tiles[value]) if 0 <= value < len(tiles) and isinstance(tiles[value], dict) else None


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


def action_effect(action: dict[str, Any], game: Game) -> str | None:
    """What a priced move will cost (paid at the payment step that follows it)."""
    from . import messages

    auction = (game.view or {}).get("auction") or {}
    if action.get("type") in ("bid", "drop_out") and auction.get("card"):  # which card is auctioned
        from .i18n import value

        return messages(game).format("label.auction_for", {"card": value(messages(game), auction["card"])})
    if action.get("type") == "pay":  # the change, given back in disks only (seed-P 1a)
        due = ((game.view or {}).get("payment") or {}).get("price")
        back = sum(action.get("cards") or []) + (action.get("disks") or 0) - due if isinstance(due, int) else 0
        return messages(game).format("label.change", {"n": back}) if back > 0 else None
    if action.get("type") not in PRICED:
        return None
    price = price_of(action, game)
    if price == 0:
        return messages(game).format("label.free")
    return messages(game).format("label.costs", {"price": price}) if price else None
