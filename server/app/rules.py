"""The game rules as the use cases apply them: start, play an action, let bots answer.

Pure functions over an engine and a state (no store, no transport)."""

from __future__ import annotations

import copy
import logging
import random
from typing import Any

from engines.core import Engine, IllegalAction, InvalidAction, InvalidOptions, check_action, start_event
from server.errors import FailedPrecondition, InvalidArgument

from .repository import Decision

log = logging.getLogger("tablero.app")


def start(engine: Engine, players: int, options: Any, kinds: list[str], rng: random.Random) -> Decision:
    """The first event, then whatever the bot seats play before a person must act."""
    try:
        first = start_event(engine, players, options, rng)
    except InvalidOptions as e:
        raise InvalidArgument(str(e)) from None
    state = engine.evolve(None, copy.deepcopy(first))
    state, bot_events = play_bots(engine, state, kinds, rng)
    return Decision([first, *bot_events], state)


def play(engine: Engine, state: Any, seat: int, action: Any, kinds: list[str], rng: random.Random) -> Decision:
    """The events `action` causes, and the bots' answers. Evolves `state` (the caller's)."""
    try:
        check_action(engine, state, seat, action)
        events = engine.decide(state, seat, action, rng)
    except InvalidAction as e:
        raise InvalidArgument(str(e)) from None
    except IllegalAction as e:
        raise FailedPrecondition(str(e)) from None
    for e in events:
        state = engine.evolve(state, e)
    state, bot_events = play_bots(engine, state, kinds, rng)
    return Decision(events + bot_events, state)


def play_bots(engine: Engine, state: Any, kinds: list[str], rng: random.Random) -> tuple[Any, list]:
    """The server plays bot seats: random legal actions, recorded as ordinary events."""
    out: list[dict] = []
    steps = 0
    while steps < engine.max_random_steps and engine.outcome(state) is None:
        bots = sorted(s for s in engine.to_act(state) if kinds[s] == "bot")
        if not bots:
            break
        seat = bots[0]
        actions = engine.legal_actions(state, seat)
        if not actions:
            log.error("bot seat %s of %s has no legal action", seat, engine.name)
            break
        for e in engine.decide(state, seat, engine.random_action(state, seat, actions, rng), rng):
            state = engine.evolve(state, e)
            out.append(e)
        steps += 1
    return state, out
