"""New Bedford: round and phase, each player's goods, ships and workers, the town's buildings,
the whaling track and the running score, as the seat knows them."""

from __future__ import annotations

from typing import Any

from rich.columns import Columns
from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..models import Game


def _ship(s: dict[str, Any]) -> str:
    hold = ", ".join(f"{n} {k}" for k, n in (s.get("hold") or {}).items() if n)
    where = s.get("at") or "?"
    if s.get("row") is not None:
        where += f" row {s['row']}"
    return f"ship {s.get('ship')}: {where}" + (f" ({hold})" if hold else "")


def render(game: Game) -> Group:
    v = game.view
    names = v.get("building_names") or {}
    head = Text()
    head.append(f"Round {v.get('round')}  phase {v.get('phase')}  first player: seat {v.get('first_player')}")
    if v.get("final"):
        head.append("  (final round)", style="bold red")

    players = Table(title="Players", title_justify="left")
    for col in ("seat", "$", "lumber", "food", "brick", "ships", "workers placed", "buildings", "score"):
        players.add_column(col)
    preview = {p.get("seat"): p for p in v.get("score_preview") or []}
    owned: dict[int, list[str]] = {}
    for key, b in (v.get("buildings") or {}).items():
        if b.get("owner") is not None:
            owned.setdefault(b["owner"], []).append(names.get(key, key))
    for i, p in enumerate(v.get("players") or []):
        style = "bold cyan" if i == game.your_seat else ""
        players.add_row(
            f"{i}{' (you)' if i == game.your_seat else ''}", str(p.get("money")), str(p.get("lumber")),
            str(p.get("food")), str(p.get("brick")), "\n".join(_ship(s) for s in p.get("ships") or []),
            ", ".join(names.get(w, w) for w in p.get("workers") or []) or "—",
            ", ".join(owned.get(i, [])) or "—", str(preview.get(i, {}).get("total", "")), style=style)

    town = Table(title="Town spaces (who is there)", title_justify="left", show_header=False)
    town.add_column("space")
    town.add_column("workers")
    for space, seats in (v.get("occupancy") or {}).items():
        b = (v.get("buildings") or {}).get(space)
        if b is not None and b.get("owner") is None:
            continue  # not built yet
        owner = f" (owner seat {b['owner']})" if b and b.get("owner") is not None else ""
        town.add_row(names.get(space, space) + owner, ", ".join(f"seat {s}" for s in seats) or "—")

    sea = Table(title="Whaling track", title_justify="left", show_header=False)
    sea.add_column("row")
    sea.add_column("ships")
    for row in v.get("whaling_track") or []:
        ships = ", ".join(f"seat {s.get('seat')} ship {s.get('ship')}" if isinstance(s, dict) else str(s)
                          for s in row.get("ships") or [])
        sea.add_row(str(row.get("name")), ships or "—")
    bag = v.get("bag") or {}
    bag_text = Text("Whale bag: " + ", ".join(f"{n} {k}" for k, n in bag.items()))

    unbuilt = [names.get(k, k) for k, b in (v.get("buildings") or {}).items() if b.get("owner") is None]
    parts: list[Any] = [head, players, Columns([town, Group(sea, bag_text)])]
    if unbuilt:
        parts.append(Text("Buildings still for sale: " + ", ".join(unbuilt), style="dim"))
    pend = v.get("pending") or v.get("awaiting")
    if isinstance(pend, dict) and pend.get("decision"):
        parts.append(Text(f"Waiting for seat {pend.get('seat')}: {pend['decision']}", style="yellow"))
    return Group(*parts)


def action_label(action: dict[str, Any], game: Game) -> str:
    pend = game.view.get("pending") or {}
    for opt in pend.get("options") or [] if isinstance(pend, dict) else []:
        if isinstance(opt, dict) and opt.get("action") == action and opt.get("text"):
            return str(opt["text"])
    return ""
