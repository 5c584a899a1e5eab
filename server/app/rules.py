"""The game rules as the use cases apply them: start, play an action, let bots answer.

Pure functions over an engine and a state (no store, no transport)."""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import Any

from tablero.engines.core import Engine, IllegalAction, InvalidAction, InvalidOptions, clone, decide_action, start_event
from tablero.engines.core.search import DEFAULT_LEVEL
from tablero.server.errors import FailedPrecondition, InvalidArgument

from .repository import Decision

log = logging.getLogger("tablero.app")


# Bot turns played inside the request that caused them (the rest: the background bot worker);
# TABLERO_BOT_INLINE_STEPS sets it at start-up.
INLINE_BOT_STEPS = 32


def bot_only(meta: dict[str, Any]) -> bool:
    """Whether every seat of a game was a bot at its creation (`meta["seats"]`, the kinds it was
    created with; "me" is stored as "human"): its thinking bots' turns wait behind those of every
    game a person waits in (server/app/thinkers.py, BOT_ONLY_LANE). A seat created human, open
    or "me" makes it a person's game for good: a player who left it to a bot (onLeave "bot") may
    still be watching, and a game keeps its lane."""
    seats = meta.get("seats") or ()
    return bool(seats) and all(k == "bot" for k in seats)


def start(engine: Engine, players: int, options: Any, kinds: list[str], rng: random.Random,
          bot_steps: int | None = None, levels: Sequence[str | None] | None = None) -> Decision:
    """The first event, then at most `bot_steps` turns of the bot seats (the bot worker plays
    the rest)."""
    try:
        first = start_event(engine, players, options, rng)
    except InvalidOptions as e:
        raise InvalidArgument(str(e)) from None
    state = engine.evolve(None, clone(first))
    bot_steps = INLINE_BOT_STEPS if bot_steps is None else bot_steps
    state, bot_events = play_bots(engine, state, kinds, rng, bot_steps, levels)
    return Decision([first, *bot_events], state)


def play(engine: Engine, state: Any, seat: int, action: Any, kinds: list[str], rng: random.Random,
         bot_steps: int | None = None, levels: Sequence[str | None] | None = None) -> Decision:
    """The events `action` causes, and at most `bot_steps` turns of the bots' answers.

    Without bot seats the state is not touched and the Decision's state is None (the
    repository evolves it once the append succeeded); with bots it evolves `state` (the
    caller's)."""
    try:
        events = decide_action(engine, state, seat, action, rng)
    except InvalidAction as e:
        raise InvalidArgument(str(e), "MALFORMED_ACTION") from None
    except IllegalAction as e:
        raise FailedPrecondition(str(e), _illegal_reason(engine, state, seat)) from None
    bot_steps = INLINE_BOT_STEPS if bot_steps is None else bot_steps
    if "bot" not in kinds or bot_steps <= 0:
        return Decision(events, None)
    for e in events:
        state = engine.evolve(state, e)
    state, bot_events = play_bots(engine, state, kinds, rng, bot_steps, levels)
    return Decision(events + bot_events, state)


def _illegal_reason(engine: Engine, state: Any, seat: int) -> str:
    """Why a well-formed action was refused: the game is over, the seat may not act now, or
    the action is against the rules (engines raise one IllegalAction for all three)."""
    if engine.outcome(state) is not None:
        return "GAME_OVER"
    if seat not in engine.to_act(state):
        return "NOT_YOUR_TURN"
    return "ILLEGAL_ACTION"


def bots_to_act(engine: Engine, state: Any, kinds: list[str]) -> bool:
    """Whether a bot seat must act now (the game waits for the server)."""
    return engine.outcome(state) is None and any(kinds[s] == "bot" for s in engine.to_act(state))


def level_of(levels: Sequence[str | None] | None, seat: int) -> str:
    """A bot seat's level: plain "bot" seats (and seats that left) play `easy`."""
    if not levels or seat >= len(levels) or not levels[seat]:
        return DEFAULT_LEVEL
    return levels[seat]  # type: ignore[return-value]


def next_bot(engine: Engine, state: Any, kinds: list[str]) -> int | None:
    """The bot seat that plays next (the lowest of those who must act), or None."""
    if engine.outcome(state) is not None:
        return None
    bots = [s for s in engine.to_act(state) if kinds[s] == "bot"]
    return min(bots) if bots else None


def thinking_bot(engine: Engine, state: Any, kinds: list[str], levels: Sequence[str | None] | None) -> int | None:
    """The bot seat that must act next when it thinks (medium or hard: a bot worker's turn,
    server/app/thinkers.py), else None."""
    if not levels:
        return None
    seat = next_bot(engine, state, kinds)
    return seat if seat is not None and level_of(levels, seat) != DEFAULT_LEVEL else None


def play_bots(engine: Engine, state: Any, kinds: list[str], rng: random.Random,
              limit: int | None = None, levels: Sequence[str | None] | None = None) -> tuple[Any, list]:
    """The server plays bot seats: the easy bots' moves (the engine's random player),
    recorded as ordinary events; at most `limit` turns (None: until a person must act, bounded
    by the engine). It stops before a thinking bot's turn (`levels`): a bot worker plays it."""
    out: list[dict] = []
    steps = 0
    bound = engine.max_random_steps if limit is None else min(limit, engine.max_random_steps)
    while steps < bound and engine.outcome(state) is None:
        bots = sorted(s for s in engine.to_act(state) if kinds[s] == "bot")
        if not bots:
            break
        seat = bots[0]
        if levels and level_of(levels, seat) != DEFAULT_LEVEL:
            break
        actions = engine.legal_actions(state, seat)
        if not actions:
            log.error("bot seat %s of %s has no legal action", seat, engine.name)
            break
        for e in engine.decide(state, seat, engine.random_action(state, seat, actions, rng), rng):
            state = engine.evolve(state, e)
            out.append(e)
        steps += 1
    return state, out
