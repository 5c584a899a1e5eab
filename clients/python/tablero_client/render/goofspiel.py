"""Goofspiel: no specific board (the generic view); the event log in words."""

from __future__ import annotations

from typing import Any

from ..models import Game
from .words import only_you_see


def action_label(a: dict[str, Any], game: Game) -> str:
    if a.get("type") == "bid":
        return f"bid card {a.get('card')} (in secret)"
    return ""


def describe_event(e: dict[str, Any], game: Game) -> str | None:
    from . import player_name

    t = e.get("type")
    if t == "game_started":
        return f"The game starts: {e.get('cards')} prize cards, each player holding cards 1 to {e.get('cards')}."
    if t == "bid_placed":
        private = e.get("private")
        mine = next(iter(private.values()), None) if isinstance(private, dict) and private else None
        if isinstance(mine, dict) and "card" in mine:
            return f"{player_name(game, e.get('seat'))} bids (only you see: card {mine['card']})."
        return f"{player_name(game, e.get('seat'))} bids in secret{only_you_see(e)}."
    if t == "bids_revealed":
        bids = ", ".join(f"{player_name(game, i)} {b}" for i, b in enumerate(e.get("bids") or []))
        w = e.get("winner")
        won = f"{player_name(game, w)} wins the prize" if w is not None else "a tie for highest: nobody wins the prize"
        return f"Bids revealed: {bids}; {won}."
    return None
