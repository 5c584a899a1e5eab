"""Decisions of the platform's own events (server/portal/table.py), not of a player's action:
a seat leaves (resigns, times out, abandons), a bot takes a late seat's turn. Pure functions
of a loaded game, like server/app/rules.py."""

from __future__ import annotations

from typing import Any

from tablero.engines.core import clone
from tablero.server.errors import FailedPrecondition
from tablero.server.portal.table import TURN_TIMED_OUT

from . import rules
from .chance import action_rng
from .repository import Decision, LoadedGame


def waiting(game: LoadedGame) -> set[int]:
    """Seats a person must act for now (the ones the clock record follows)."""
    kinds = game.kinds
    return {s for s in game.to_act if kinds[s] != "bot"}


def unclaimed(meta: dict[str, Any]) -> set[int]:
    """Open seats nobody has taken yet: while there is one, the game has not started: no turn
    clock runs (clockless), and it is not abandoned (TABLERO_ABANDON_AFTER) either."""
    claimed = meta.get("claimed", ())
    return {s for s, k in enumerate(meta["seats"]) if k == "open" and s not in claimed}


def may_play(game: LoadedGame, seat: int) -> None:
    """FailedPrecondition unless `seat` may still act in `game` (not over, not left)."""
    if game.finished:
        raise FailedPrecondition("the game is over", "GAME_OVER")
    left = game.table
    if seat in left.bots and game.meta["seats"][seat] != "bot":
        raise FailedPrecondition(f"seat {seat} has left this game"
                                 + (" (forfeited)" if seat in left.forfeited else "; a bot plays it now"), "SEAT_LEFT")


def leave(game: LoadedGame, seats: list[int], reason: str, then: str) -> Decision:
    """`seats` leave (one, or several at once): the events, then whatever the bots play
    before a person must act."""
    table = game.table.copy()
    events = []
    open_seats = sorted(unclaimed(game.meta))
    for seat in seats:
        event = table.leave(seat, reason, then, open_seats)
        table.apply(event)
        events.append(event)
    if table.ended is not None:
        return Decision(events, game.state)
    kinds = ["bot" if s in table.bots else k for s, k in enumerate(game.meta["seats"])]
    state, bot_events = rules.play_bots(game.engine, clone(game.state), kinds, action_rng(), None, game.levels)
    return Decision([*events, *bot_events], state)


def timed_out_turns(game: LoadedGame, seats: list[int]) -> Decision:
    """A bot plays the turn of each of `seats`, whose deadlines passed (each recorded first),
    in seat order, of those still to act then; then the bots."""
    engine, rng = game.engine, action_rng()
    state = clone(game.state)
    events: list[dict[str, Any]] = []
    for seat in seats:
        if events and seat not in engine.to_act(state):
            continue  # the turns taken before it moved the game past this seat's
        actions = engine.legal_actions(state, seat)
        if not actions:
            raise FailedPrecondition(f"seat {seat} has no legal action")
        events.append({"type": TURN_TIMED_OUT, "seat": seat, "then": "bot"})
        for e in engine.decide(state, seat, engine.random_action(state, seat, actions, rng), rng):
            state = engine.evolve(state, e)
            events.append(e)
    state, bot_events = rules.play_bots(engine, state, game.kinds, rng, None, game.levels)
    return Decision(events + bot_events, state)
