"""Phoenicia: round, phase and whose turn; the development cards on display; the auction;
each player's VP, production, hand (yours only), workers, tools and cards."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..models import Game


def render(game: Game) -> Group:
    v = game.view
    head = Text(f"Round {v.get('round')}  phase {v.get('phase')}  step {v.get('step')}  "
                f"overlord: seat {v.get('overlord')}  order: {v.get('order')}  active: seat {v.get('active')}")
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
        hand = p.get("hand")
        hand_text = ", ".join(str(x) for x in hand) if hand is not None else f"{p.get('hand_size')} cards"
        tiles = "\n".join(f"{t.get('title')}: {' '.join(s or '·' for s in t.get('slots') or [])}"
                          for t in p.get("tiles") or [])
        players.add_row(f"{i}{' (you)' if i == game.your_seat else ''}", str(p.get("vp")), str(p.get("production")),
                        hand_text, str(p.get("disks")), f"{p.get('untrained')}/{p.get('trained')}", tiles,
                        ", ".join(p.get("cards") or []) or "—", style="bold" if i == game.your_seat else "")
    parts: list[Any] = [head, display, players]
    for key in ("auction", "payment", "discard"):
        if v.get(key):
            parts.append(Text(f"{key}: {_fmt(v[key])}", style="yellow"))
    aw = v.get("awaiting")
    if isinstance(aw, dict):
        parts.append(Text(f"Waiting for {', '.join(f'seat {s}' for s in aw.get('seats') or [])}: {aw.get('decision')}",
                          style="yellow"))
    return Group(*parts)


def _fmt(x: Any) -> str:
    if isinstance(x, dict):
        return ", ".join(f"{k} {_fmt(v)}" for k, v in x.items())
    if isinstance(x, list):
        return "[" + ", ".join(_fmt(v) for v in x) + "]"
    return str(x)


def action_label(action: dict[str, Any], game: Game) -> str:
    t = action.get("type")
    if t == "open_auction":
        return f"open an auction for {action.get('card')} bidding {action.get('bid')}"
    if t == "end_turn":
        return "end your turn"
    return ""
