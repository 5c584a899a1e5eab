"""Goofspiel: the prize up for bidding, your hand, the points and who has bid; past rounds
numbered from 1; the event log in words."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..models import Game


def render(game: Game) -> Group:
    from . import messages, player_name

    v = game.view
    m = messages(game)
    head = Text(m.format("label.term_prize", {"prize": v.get("prize") if v.get("prize") is not None else "—", "n": v.get("prizes_left") or 0}),
                style="bold")
    hand = Text(m.format("label.your_hand") + " " + (", ".join(str(c) for c in v.get("hand") or []) or m.format("label.no_cards"))
                + (f"  ({m.format('label.your_bid')} {v['my_bid']})" if v.get("my_bid") is not None else ""))
    players = Table(title=m.format("label.term_players"), title_justify="left")
    for col in ("player", "points", "hand", "bid"):
        players.add_column(m.format("label.term_column", {"column": col}))
    bid = v.get("has_bid") or []
    for i, pts in enumerate(v.get("points") or []):
        sizes = v.get("hand_sizes") or []
        players.add_row(player_name(game, i), str(pts), str(sizes[i]) if i < len(sizes) else "—",
                        m.format("label.has_bid" if bid[i] else "label.not_yet") if i < len(bid) else "—",
                        style="bold" if i == game.your_seat else "")
    parts: list[Any] = [head, hand, players]
    history = v.get("history") or []
    if history:
        rounds = Table(title=m.format("label.prizes_so_far"), title_justify="left")
        for col in ("round", "prize", "bids", "won_by"):
            rounds.add_column(m.format("label.term_column", {"column": col}))
        for n, r in enumerate(history, 1):
            w = r.get("winner")
            rounds.add_row(str(n), str(r.get("prize")),
                           ", ".join(f"{player_name(game, i)} {b}" for i, b in enumerate(r.get("bids") or [])),
                           player_name(game, w) if w is not None else m.format("label.nobody_tie"))
        parts.append(rounds)
    return Group(*parts)
