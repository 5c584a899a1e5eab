"""Solo Founders of Gloomhaven: the hard bot's cycle planner (not rules).

The solo game is won only by completing every prestige building by the end of the 7th cycle,
paying each vote's claim tokens in influence on the way (RULES.md, "Solo"). A one-move search
with a progress evaluation does not find that plan (bench/bots_results.md, sixth and seventh
passes: 0 wins of 48); a search over whole hand cycles does. So in solo, `hard` plans by cycles:

- **Lines of a cycle.** From the state, the engine's own solo player (`solo_play.py`, random
  choices weighted toward deliveries) plays the rest of the cycle many times with different
  random numbers; each play-out is a *line*: its actions and the state it ends in (after the
  vote, its income and its claims).
- **A beam over cycles** (receding horizon): the best `BEAM` lines are each continued by
  `SPREAD` lines of the next cycle, and so on for `HORIZON` cycles or to the game's end; lines
  are ranked by `score` (a won end first, a lost one last; then completions, deliveries, the
  requirements still missing, lasting influence, houses and money). The line of *this* cycle
  under the best line found is the plan.
- **Following the plan.** The plan's actions are remembered by the state each is played in, as
  its seat sees it (`search.canonical`: hidden cards in a canonical order), so the next decisions
  of the cycle cost a lookup. When the game leaves the plan (an adviser or a proposal drawn
  other than the planning assumed, a clock's move) the cycle is planned again from there.

Never cheating: planning starts from `search.determinize` (the decks redrawn from what the seat
sees), and plans are found by what the seat sees; a worker that never planned this game plans
again, so any worker can take any turn.

Measured in bench/bots_results.md ("Eighth pass").
"""

from __future__ import annotations

import hashlib
import json
import random
import threading
from collections import OrderedDict

from tablero.engines.core.engine import Action, Engine, State, clone
from tablero.engines.core.errors import EngineError
from tablero.engines.core.search import Limit, canonical, determinize

BEAM = 8  # lines kept after each cycle
SPREAD = 12  # lines of the next cycle played from each kept line
HORIZON = 3  # cycles looked ahead (fewer when the game ends first)
# What a line's end is worth (`score`): per completion, delivery, missing requirement, lasting
# influence, house (1 fleeting at every vote to come) and $.
WEIGHTS = {"completion": 100.0, "delivered": 10.0, "missing": -15.0, "lasting": 2.0, "house": 3.0, "money": 0.25}
_REMEMBERED = 4096  # plan steps kept per process (a lookup by what the seat sees)

_plans: OrderedDict[str, Action] = OrderedDict()
_lock = threading.Lock()  # bot workers may think on several threads


def score(engine: Engine, s: State) -> float:
    """How good the end of a line is: a won game first, a lost one last (the further it got,
    the better), then completions, deliveries, missing requirements, influence, houses, money."""
    out = engine.outcome(s)
    if out is not None:
        return 1e6 if out["winners"] == [0] else -1e6 + 100 * s["completions"]
    delivered = missing = 0
    for pb in s["prestige"]:
        for d in pb["delivered"]:
            if d is None:
                missing += 1
            else:
                delivered += 1
    pl, w = s["players"][0], WEIGHTS
    return (w["completion"] * s["completions"] + w["delivered"] * delivered + w["missing"] * missing
            + w["lasting"] * pl["lasting"] + w["house"] * pl["houses"] + w["money"] * pl["money"])


def _line(engine: Engine, state: State, seed: float,
          keys: list[str] | None = None) -> tuple[State, list[Action]]:
    """The rest of this cycle played by the engine's solo player on a copy of `state`, with the
    random numbers of `seed` (the same seed plays the same line); `keys`, when given, gets the
    key of the state each action is played in."""
    rng = random.Random(seed)
    s = clone(state)
    cycle, actions = s["cycle"], []
    while engine.outcome(s) is None and s["cycle"] == cycle:
        legal = engine.legal_actions(s, 0)
        if not legal:
            break
        a = engine.random_action(s, 0, legal, rng)
        if keys is not None:
            keys.append(_key(engine, s))
        try:
            events = engine.decide(s, 0, a, rng)
        except EngineError:
            break
        for e in events:
            s = engine.evolve(s, e)
        actions.append(a)
    return s, actions


def search(engine: Engine, state: State, rng: random.Random, limit: Limit | None = None,
           beam: int | None = None, spread: int | None = None, horizon: int | None = None) -> float | None:
    """The seed of this cycle's line (`_line`) under the best line found over `horizon` cycles
    (a beam search; stops early, with the best so far, when `limit` is over); None if no line
    was played. The sizes default to BEAM, SPREAD and HORIZON."""
    beam, spread, horizon = beam or BEAM, spread or SPREAD, horizon or HORIZON
    kept: list[tuple[State, float | None]] = [(state, None)]
    best: tuple[float, float] | None = None
    for _ in range(horizon):
        kids: list[tuple[float, State, float]] = [(score(engine, s), s, first) for s, first in kept
                                                  if first is not None and engine.outcome(s) is not None]
        going = [(s, first) for s, first in kept if engine.outcome(s) is None]
        # round by round over the kept lines, so that a search cut short by `limit` has played
        # about as many continuations of each
        for _ in range(spread):
            for s, first in going:
                seed = rng.random()
                end, _actions = _line(engine, s, seed)
                kids.append((score(engine, end), end, first if first is not None else seed))
                if limit is not None and limit.over():
                    break
            if limit is not None and limit.over():
                break
        if not kids:
            break
        kids.sort(key=lambda k: k[0], reverse=True)
        best = (kids[0][0], kids[0][2])
        kept = [(s, first) for _, s, first in kids[:beam]]
        if (limit is not None and limit.over()) or all(engine.outcome(s) is not None for s, _ in kept):
            break
    return None if best is None else best[1]


def _key(engine: Engine, state: State) -> str:
    seen = canonical(engine, state, 0)
    return hashlib.blake2b(json.dumps(seen if seen is not None else state, sort_keys=True).encode(),
                           digest_size=16).hexdigest()


def _remember(engine: Engine, start: State, seed: float) -> list[Action]:
    """Play the chosen line again and remember each of its actions by its state's key."""
    keys: list[str] = []
    _end, actions = _line(engine, start, seed, keys)
    with _lock:
        for k, a in zip(keys, actions, strict=False):  # a refused last action has a key only
            _plans[k] = a
            _plans.move_to_end(k)
        while len(_plans) > _REMEMBERED:
            _plans.popitem(last=False)
    return actions


def plan(engine: Engine, state: State, seat: int, rng: random.Random, limit: Limit | None,
         iterations: int | None = None, actions: list[Action] | None = None) -> Action | None:
    """The hard bot's move in a solo game (None in a game of several seats: not planned here).
    `iterations` (tests) fixes the search's size: the beam and spread it names, no time limit;
    `actions`: the seat's legal actions when the caller has them."""
    if not state["solo"] or engine.outcome(state) is not None:
        return None
    legal = actions if actions is not None else engine.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    key = _key(engine, state)
    with _lock:
        got = _plans.get(key)
    if got is not None and got in legal:
        return got
    start = determinize(engine, state, seat, rng)
    if iterations is not None:
        seed = search(engine, start, rng, None, beam=iterations, spread=iterations)
    else:
        seed = search(engine, start, rng, limit)
    if seed is None:
        return None
    actions = _remember(engine, start, seed)
    return actions[0] if actions and actions[0] in legal else None


def forget() -> None:
    """Drop every remembered plan (tests)."""
    with _lock:
        _plans.clear()

