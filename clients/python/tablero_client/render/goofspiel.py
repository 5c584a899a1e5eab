"""Goofspiel: the prize up for bidding, your hand, the points and who has bid; past rounds
numbered from 1; the event log in words."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..models import Game


def render(game: Game) -> Group:
    from . import player_name

    v = game.view
    head = Text(f"Prize card up for bidding: {v.get('prize') if v.get('prize') is not None else '—'}"
                f"  prize cards left: {v.get('prizes_left')}", style="bold")
    hand = Text(f"Your hand: {', '.join(str(c) for c in v.get('hand') or []) or 'no cards'}"
                + (f"  (your bid: card {v['my_bid']})" if v.get("my_bid") is not None else ""))
    players = Table(title="Players", title_justify="left")
    for col in ("player", "points", "cards in hand", "bid this round"):
        players.add_column(col)
    bid = v.get("has_bid") or []
    for i, pts in enumerate(v.get("points") or []):
        sizes = v.get("hand_sizes") or []
        players.add_row(player_name(game, i), str(pts), str(sizes[i]) if i < len(sizes) else "—",
                        ("yes" if bid[i] else "not yet") if i < len(bid) else "—",
                        style="bold" if i == game.your_seat else "")
    parts: list[Any] = [head, hand, players]
    history = v.get("history") or []
    if history:
        rounds = Table(title="Rounds played", title_justify="left")
        for col in ("round", "prize", "bids", "won by"):
            rounds.add_column(col)
        for n, r in enumerate(history, 1):
            w = r.get("winner")
            rounds.add_row(str(n), str(r.get("prize")),
                           ", ".join(f"{player_name(game, i)} {b}" for i, b in enumerate(r.get("bids") or [])),
                           player_name(game, w) if w is not None else "nobody (a tie)")
        parts.append(rounds)
    return Group(*parts)
