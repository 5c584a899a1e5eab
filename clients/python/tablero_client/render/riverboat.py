"""Riverboat: round, phase and crop card; each player's 5x7 hex mat (crops, features, workers),
coins, VP, harbor master and boats; the riverboats and opportunity cards on offer."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..models import Game

CROP = {"beet": ("B", "magenta"), "wheat": ("W", "yellow"), "corn": ("C", "bright_yellow"),
        "potato": ("P", "orange3"), "pumpkin": ("K", "dark_orange")}
FIELD = {"yellow": "yellow", "orange": "orange3", "green": "green", "blue": "blue", "purple": "magenta"}
FEATURE = {"barn": "b", "well": "w", "surveyor": "s"}


def mat(p: dict[str, Any], rows: int, cols: int, shifted: bool) -> Text:
    t = Text()
    fields = p.get("field_colours") or []
    for r in range(rows):
        if shifted and r % 2 == 1:
            t.append("  ")
        for c in range(cols):
            i = r * cols + c
            crop = (p.get("crop") or [None] * (rows * cols))[i]
            feat = (p.get("feature") or [None] * (rows * cols))[i]
            worker = (p.get("worker") or [False] * (rows * cols))[i]
            colour = FIELD.get(fields[i] if i < len(fields) else "", "white")
            if crop:
                sym, style = CROP.get(crop, (crop[:1].upper(), "white"))
                cell = sym + (FEATURE.get(feat, "") if feat else "")
            elif feat:
                cell, style = FEATURE.get(feat, str(feat)[:1]), colour
            else:
                cell, style = "·", colour
            if worker:
                cell, style = "@" + cell[:1] if cell != "·" else "@", "bold white on grey23"
            t.append(f"{cell:<3}", style=style)
            t.append(f"{i:<2} ", style="dim")
        t.append("\n")
    return t


def render(game: Game) -> Group:
    v = game.view
    grid = v.get("mat_grid") or {"rows": 5, "cols": 7, "odd_rows_shifted_right": True}
    head = Text(f"Round {v.get('round')}  phase {v.get('phase')}  first player: seat {v.get('first_player')}"
                f"  crop card: {v.get('crop_card') or '—'}  cards left this round: {v.get('cards_left_this_round')}")
    players = Table(title="Players", title_justify="left")
    for col in ("seat", "mat (@ worker, B/W/C/P/K crops, b/w/s barn/well/surveyor)", "coins", "VP", "harbor",
                "boats", "workers", "surveyors"):
        players.add_column(col)
    for i, p in enumerate(v.get("players") or []):
        players.add_row(f"{i}{' (you)' if i == game.your_seat else ''}{' passed' if p.get('passed') else ''}",
                        mat(p, grid["rows"], grid["cols"], grid.get("odd_rows_shifted_right", True)),
                        str(p.get("coins")), str(p.get("vp")), str(p.get("harbor")),
                        ", ".join(p.get("boats") or []) or "—", str(p.get("workers")), str(p.get("surveyors")),
                        style="bold" if i == game.your_seat else "")
    boats = Table(title="Riverboats", title_justify="left")
    for col in ("boat", "capacity", "benefit", "left"):
        boats.add_column(col)
    for name, b in (v.get("riverboats") or {}).items():
        benefit = ", ".join(f"{k} {x}" for k, x in (b.get("benefit") or {}).items())
        boats.add_row(name, str(b.get("capacity")), benefit, str(b.get("pile")))
    opps = Table(title="Opportunity spaces", title_justify="left")
    opps.add_column("card")
    opps.add_column("bonus")
    for o in v.get("opportunity_spaces") or []:
        opps.add_row(str(o.get("text") or o.get("card")), ", ".join(f"{k} {x}" for k, x in (o.get("bonus") or {}).items()))
    supply = v.get("crop_supply") or {}
    tiles = Text("Crop tiles on offer: " + "; ".join(f"size {k}: {', '.join(x or '(taken)' for x in t)}" for k, t in supply.items()))
    parts: list[Any] = [head, players, tiles, boats, opps]
    if v.get("held_tile"):
        parts.append(Text(f"Your held tile: {v['held_tile']}", style="yellow"))
    if v.get("pending"):
        parts.append(Text(f"Pending: {v['pending']}", style="yellow"))
    return Group(*parts)
