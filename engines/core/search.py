"""Bot players of three levels, written once for every engine.

- `easy`: the engine's `random_action` (today's player; plain `"bot"` seats play it, so old
  games replay).
- `medium`: one step ahead. Every legal action (a time-boxed sample of them when there are many)
  is decided and applied to a *determinization* of the state, and the engine's evaluation
  (`engines/<pkg>/evaluation.py`, next to its rules) scores the result for the bot's seat.
  Per engine (`Budget`): the engine's own random player's picks may count some points on top
  (`prior_picks`, `prior_weight`), and a decision after which the same seat decides again (a
  card, then its action) may be judged by the best of that next decision (`chain_actions`).
- `hard`: determinized flat Monte-Carlo search (perfect-information Monte-Carlo, "PIMC") within a
  time budget: the medium player's best few actions are the candidates; each iteration draws a
  fresh determinization and one seed of chance and plays *every* candidate on it (common random
  numbers: candidates are compared on the same deals and dice, so a handful of iterations
  already separates them), each followed by a short rollout in which every seat plays medium's
  judgement (over a few of the engine's own picks when there are many actions), and scores the
  end with the evaluation. The candidate with the best total wins; when the deadline comes the
  best over the whole iterations so far is played (medium's choice if none). Where an engine
  has its own planner (`Evaluation.plan`: solo Founders of Gloomhaven plans whole hand cycles,
  `engines/founders_of_gloomhaven/planner.py`), hard plays the planner's move instead.

Why written here rather than OpenSpiel's IS-MCTS: OpenSpiel's algorithms search over its own
`pyspiel.State` (C++ games, or Python games implementing its full game/state API with
information-state strings and chance outcomes listed explicitly). Our engines are event-sourced
reducers whose chance happens inside `decide`, with thousands of parameterised actions in New
Bedford; wrapping every engine in that API would be larger than this module, and a C++ wheel
would not run our Python rules any faster. PIMC over `resample_hidden` needs only the engine
contract we already have.

**Never cheating.** A bot never reads the real state's hidden parts: it first replaces them by
a canonical arrangement (the engine's own `resample_hidden` run with a "random" generator whose
shuffles sort and whose draws are the lowest value, so the result depends only on what the seat
sees), then redraws them with the bot's own generator. Every later step works on that copy.
Two states that differ only in what the seat may not see therefore give the same decision for
the same generator (tests/engines/test_bots_fair.py).

Budgets are per engine data (`Budget`, declared in the engine's `evaluation.py`).
"""

from __future__ import annotations

import importlib
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .engine import Action, Engine, State, clone
from .errors import EngineError

LEVELS = ("easy", "medium", "hard")
DEFAULT_LEVEL = "easy"

WIN = 10_000.0  # a won end is worth this much more than any standing


@dataclass(frozen=True)
class Budget:
    """How much a level may think, per engine (seconds of CPU on one core)."""

    medium_seconds: float = 0.03  # one-step evaluations stop here (the best so far is played)
    medium_actions: int = 2000  # at most this many actions evaluated by medium
    hard_seconds: float = 0.7  # hard's search per move
    hard_candidates: int = 6  # medium's best actions that hard searches between
    rollout_plies: int = 8  # decisions (of any seat) played after the candidate
    rollout_actions: int = 8  # actions the rollout policy looks at per decision
    rollout_epsilon: float = 0.1  # chance the rollout policy plays the engine's random move
    # Hard leaves medium's choice only for a candidate better on the paired iterations by this
    # many standard errors (0: the best mean). New Bedford, 100 games against medium: 63 % at 0,
    # 57.5 % (80 games) at 1, so 0 for every engine now.
    hard_confidence: float = 0.0
    # Medium leans on what the engine's own random player (its progress weighting) picks: this
    # many picks, each worth `prior_weight` points on top of the evaluation. 0 by default: from
    # 524eab1 to the fix of the `prior` parameter shadowed in `one_step`, no engine's picks were
    # counted, and every figure of New Bedford, Riverboat and Phoenicia was measured so.
    prior_picks: int = 0
    prior_weight: float = 0.05
    # Medium judges only among those picks (games where the engine's random player carries the
    # long-term plan the evaluation cannot see, as Founders' roads toward deliveries).
    picks_only: bool = False
    # A decision after which the same seat decides again (a card, then its action; an import,
    # then its square) is judged by the best of that seat's next decision: at most this many of
    # its actions (the engine's own picks first when there are more). 0: the state itself.
    chain_actions: int = 0
    # Hard's planner (`Evaluation.plan`), when the engine has one: CPU seconds a plan may take.
    plan_seconds: float = 1.0


@dataclass
class Evaluation:
    """An engine's judgement: `standing(state, seat)` — higher is better for `seat` — of a
    running game (points now plus the engine's own scoring of what is on the table)."""

    standing: Callable[[State, int], float]
    budget: Budget = field(default_factory=Budget)
    # `unfinished(state, seat)`: True while `seat`'s move is still under way after a decision
    # (New Bedford: a sale of goods said kind by kind, goods bought before the placement). Medium
    # and hard then judge such a decision by the state once that move is finished (greedily, by
    # this evaluation; `_finish`), so that it is compared with decisions after which the game
    # went on (others moved, a round ended). None (the default): decisions are judged as they
    # leave the state, as before.
    unfinished: Callable[[State, int], bool] | None = None
    # `plies(state, budget)`: hard's rollout length at this decision, when it depends on the table
    # (New Bedford: `budget.rollout_plies` at 2-4 seats, 1 in solo). None: `budget.rollout_plies`.
    plies: Callable[[State, Budget], int] | None = None
    # `plan(engine, state, seat, rng, limit, iterations, actions=...)`: hard's move from the engine's own
    # planner where one search move by move does not find the game's plan (solo Founders: whole
    # hand cycles), or None to search as usual. Plans start from `determinize` like the search.
    plan: Callable[..., Action | None] | None = None


def _random_standing(state: State, seat: int) -> float:
    return 0.0


_EVALUATIONS: dict[str, Evaluation] = {}


def evaluation(engine: Engine) -> Evaluation:
    """The engine's Evaluation: `EVALUATION` in `engines/<pkg>/evaluation.py`, else none (a
    flat standing: medium and hard then judge by wins only)."""
    got = _EVALUATIONS.get(engine.name)
    if got is None:
        pkg = type(engine).__module__.rsplit(".", 1)[0]
        try:
            mod = importlib.import_module(f"{pkg}.evaluation")
        except ModuleNotFoundError as e:
            if e.name != f"{pkg}.evaluation":
                raise
            mod = None
        got = getattr(mod, "EVALUATION", None) or Evaluation(_random_standing)
        _EVALUATIONS[engine.name] = got
    return got


def value(engine: Engine, ev: Evaluation, state: State, seat: int) -> float:
    """The worth of `state` to `seat`: a finished game by its result, else the standing."""
    out = engine.outcome(state)
    if out is not None:
        winners = out.get("winners") or []
        base = WIN / len(winners) if seat in winners else -WIN
        return base + ev.standing(state, seat)
    return ev.standing(state, seat)


# --- determinization ------------------------------------------------------------------------

def _sort_key(x: Any) -> str:
    return json.dumps(x, sort_keys=True)


class _Canonical(random.Random):
    """A generator for `resample_hidden` that draws nothing: shuffles sort, draws are the
    lowest value. The engine's redraw then puts every hidden thing in an order that depends
    only on what the viewer sees (the multisets it knows)."""

    def __init__(self) -> None:
        super().__init__(0)

    def shuffle(self, x, *args) -> None:  # type: ignore[override]
        x.sort(key=_sort_key)

    def random(self) -> float:
        return 0.0

    def getrandbits(self, k: int) -> int:
        return 0

    def randrange(self, start, stop=None, step=1):  # type: ignore[override]
        return 0 if stop is None else start

    def randint(self, a, b):  # type: ignore[override]
        return a

    def choice(self, seq):  # type: ignore[override]
        return sorted(seq, key=_sort_key)[0]

    def sample(self, population, k, *, counts=None):  # type: ignore[override]
        return sorted(population, key=_sort_key)[:k]


def canonical(engine: Engine, state: State, seat: int) -> State | None:
    """`state` with everything hidden from `seat` in a canonical arrangement (None: nothing is
    hidden in this engine)."""
    return engine.resample_hidden(state, seat, _Canonical())


def determinize(engine: Engine, state: State, seat: int, rng: random.Random,
                base: State | None = None) -> State:
    """A copy of `state` whose hidden parts are drawn by `rng` from what `seat` sees; `base` is
    its `canonical` form when the caller has it already."""
    if base is None:
        base = canonical(engine, state, seat)
    if base is None:
        return _fork(engine, state)
    got = engine.resample_hidden(base, seat, rng)
    return got if got is not None else _fork(engine, base)


def _fork(engine: Engine, state: State) -> State:
    fork = getattr(engine, "fork", None)
    return fork(state) if fork is not None else clone(state)


def apply(engine: Engine, state: State, seat: int, action: Action, rng: random.Random) -> State | None:
    """The state after `seat` plays `action` (a copy), or None if the engine refuses it."""
    try:
        events = engine.decide(state, seat, action, rng)
    except EngineError:
        return None
    s = _fork(engine, state)
    for e in events:
        s = engine.evolve(s, e)
    return s


# --- the players ----------------------------------------------------------------------------

class Limit:
    """When thinking stops: after `cpu` seconds of this thread's CPU (the level's budget: the
    same thought on a busy machine as on an idle one), or at `wall` (time.perf_counter; a
    turn clock's end), whichever comes first. None: no such bound."""

    __slots__ = ("cpu_end", "wall")

    def __init__(self, cpu: float | None = None, wall: float | None = None) -> None:
        self.cpu_end = None if cpu is None else time.thread_time() + cpu
        self.wall = wall

    def over(self) -> bool:
        return (self.cpu_end is not None and time.thread_time() > self.cpu_end) or \
            (self.wall is not None and time.perf_counter() > self.wall)

    def share(self, cpu: float) -> Limit:
        """A sub-limit: at most `cpu` more seconds, within this one."""
        sub = Limit(cpu, self.wall)
        if self.cpu_end is not None and sub.cpu_end is not None:
            sub.cpu_end = min(sub.cpu_end, self.cpu_end)
        return sub


@dataclass
class Choice:
    action: Action
    considered: int = 0  # actions evaluated (medium) or iterations played (hard)


def choose(engine: Engine, state: State, seat: int, level: str, rng: random.Random,
           actions: list[Action] | None = None, *, deadline: float | None = None,
           iterations: int | None = None) -> Choice:
    """The action a bot of `level` plays for `seat`. The level's budget is CPU seconds of this
    thread; `deadline` (time.perf_counter) caps the thinking too (a clock's end); `iterations`
    fixes the search's size instead of the budget (tests: the same decision every run)."""
    if actions is None:
        actions = engine.legal_actions(state, seat)
    if not actions:
        raise EngineError(f"{engine.name}: seat {seat} has no legal action")
    if level == "easy" or len(actions) == 1:
        return Choice(engine.random_action(state, seat, actions, rng), 1)
    ev = evaluation(engine)
    if level == "medium":
        limit = Limit(ev.budget.medium_seconds if iterations is None else None, deadline)
        ranked = one_step(engine, ev, state, seat, actions, rng, limit)
        return Choice(ranked[0][1], len(ranked))
    if level == "hard":
        if ev.plan is not None:
            limit = Limit(ev.budget.plan_seconds if iterations is None else None, deadline)
            planned = ev.plan(engine, state, seat, rng, limit, iterations, actions=actions)
            if planned is not None:
                return Choice(planned, 1)
        limit = Limit(ev.budget.hard_seconds if iterations is None else None, deadline)
        return _paired_search(engine, ev, state, seat, actions, rng, limit, iterations)
    raise ValueError(f"unknown bot level {level!r}; expected one of {', '.join(LEVELS)}")


def one_step(engine: Engine, ev: Evaluation, state: State, seat: int, actions: list[Action],
             rng: random.Random, deadline: Limit | None, limit: int | None = None,
             det: State | None = None, use_prior: bool = True, chain: bool = True) -> list[tuple[float, Action]]:
    """(value, action) of the actions evaluated one step ahead on a determinization, best
    first (ties in a random order). Stops at `deadline` once one action is evaluated."""
    if det is None:
        det = determinize(engine, state, seat, rng)
    chance = rng.getrandbits(64)  # the same chance outcomes for every action compared
    b = ev.budget
    prior: dict[int, float] = {}
    if use_prior and b.prior_picks and len(actions) > 1:
        index = {id(a): i for i, a in enumerate(actions)}
        for _ in range(b.prior_picks):
            pick = engine.random_action(det, seat, actions, rng)
            k = index.get(id(pick))
            if k is None:  # a copy of a listed action (some engines build their pick anew)
                k = next((i for i, a in enumerate(actions) if a == pick), None)
            if k is not None:
                prior[k] = prior.get(k, 0.0) + b.prior_weight
    order = sorted(prior, key=prior.__getitem__, reverse=True)
    if not (prior and b.picks_only and order):
        rest = [i for i in range(len(actions)) if i not in prior]
        rng.shuffle(rest)
        order += rest
    cap = min(len(order), limit or b.medium_actions)
    scored: list[tuple[float, float, int]] = []
    for i in order[:cap]:
        after = apply(engine, det, seat, actions[i], random.Random(chance))
        if after is not None and ev.unfinished is not None:
            after = _finish(engine, ev, after, seat, chance)
        if after is not None:
            worth = _chained(engine, ev, after, seat, rng, chance) if chain and b.chain_actions \
                else value(engine, ev, after, seat)
            scored.append((worth + prior.get(i, 0.0), rng.random(), i))
        if deadline is not None and scored and deadline.over():
            break
    if not scored:  # every evaluated action was refused on the determinization
        return [(0.0, engine.random_action(det, seat, actions, rng))]
    scored.sort(reverse=True)
    return [(v, actions[i]) for v, _, i in scored]


FINISH_STEPS = 6  # at most this many decisions finish an unfinished move (Evaluation.unfinished)


def _finish(engine: Engine, ev: Evaluation, state: State, seat: int, chance: int) -> State:
    """`state` with `seat`'s unfinished move (Evaluation.unfinished) played to its end: at each
    step the action the evaluation likes best, one step ahead. Deterministic for `chance`."""
    for _ in range(FINISH_STEPS):
        if engine.outcome(state) is not None or engine.to_act(state) != {seat} or not ev.unfinished(state, seat):
            break
        best = None
        for a in engine.legal_actions(state, seat):
            nxt = apply(engine, state, seat, a, random.Random(chance))
            if nxt is not None:
                v = value(engine, ev, nxt, seat)
                if best is None or v > best[0]:
                    best = (v, nxt)
        if best is None:
            break
        state = best[1]
    return state


def _chained(engine: Engine, ev: Evaluation, state: State, seat: int, rng: random.Random, chance: int) -> float:
    """The worth of `state` to `seat`; when `seat` alone decides next, the best of (at most
    `chain_actions` of) its next actions, one step each (Budget.chain_actions)."""
    here = value(engine, ev, state, seat)
    if engine.outcome(state) is not None or engine.to_act(state) != {seat}:
        return here
    nxt = engine.legal_actions(state, seat)
    k = ev.budget.chain_actions
    if len(nxt) > k:
        picks: list[Action] = []
        for _ in range(2 * k):
            a = engine.random_action(state, seat, nxt, rng)
            if a not in picks:
                picks.append(a)
                if len(picks) >= k:
                    break
        nxt = picks
    best = None
    for a in nxt:
        after = apply(engine, state, seat, a, random.Random(chance))
        if after is not None:
            v = value(engine, ev, after, seat)
            best = v if best is None or v > best else best
    return here if best is None else best


def _rollout_move(engine: Engine, ev: Evaluation, state: State, seat: int, rng: random.Random) -> Action | None:
    """The rollout policy: medium's judgement (one step ahead, on the rollout's own state) over
    all actions when they are few, else over a few of the engine's own random picks (its
    progress weighting); the engine's random move with probability `rollout_epsilon`."""
    b = ev.budget
    actions = engine.legal_actions(state, seat)
    if not actions:
        return None
    if len(actions) == 1 or (b.rollout_epsilon and rng.random() < b.rollout_epsilon):
        return engine.random_action(state, seat, actions, rng)
    if len(actions) > b.rollout_actions:
        actions = [engine.random_action(state, seat, actions, rng) for _ in range(b.rollout_actions)]
    ranked = one_step(engine, ev, state, seat, actions, rng, None, det=state, use_prior=False, chain=False)
    return ranked[0][1]


def rollout(engine: Engine, ev: Evaluation, state: State, plies: int, rng: random.Random) -> State:
    """`state` (mutated) played on by the rollout policy for up to `plies` decisions."""
    for _ in range(plies):
        if engine.outcome(state) is not None:
            break
        acting = sorted(engine.to_act(state))
        if not acting:
            break
        who = acting[0] if len(acting) == 1 else rng.choice(acting)
        action = _rollout_move(engine, ev, state, who, rng)
        if action is None:
            break
        try:
            events = engine.decide(state, who, action, rng)
        except EngineError:
            break
        for e in events:
            state = engine.evolve(state, e)
    return state


def _paired_search(engine: Engine, ev: Evaluation, state: State, seat: int, actions: list[Action],
                   rng: random.Random, deadline: Limit, iterations: int | None) -> Choice:
    """Hard: medium's best few actions are the candidates; every iteration draws one
    determinization and one seed of chance and plays *every* candidate on them (common random
    numbers: the candidates are compared on the same deals and dice, so a few iterations tell
    them apart), each followed by a rollout; the best mean wins. An iteration the deadline cuts
    short is not counted; with no whole iteration, medium's choice is played."""
    b = ev.budget
    base = canonical(engine, state, seat)
    first = determinize(engine, state, seat, rng, base)
    ranked = one_step(engine, ev, state, seat, actions, rng,
                      None if iterations is not None else deadline.share(b.medium_seconds * 2), det=first,
                      chain=False)
    cands = [a for _, a in ranked[: b.hard_candidates]]
    if len(cands) == 1:
        return Choice(cands[0], 0)
    plies = b.rollout_plies if ev.plies is None else ev.plies(state, b)
    rows: list[list[float]] = []
    while iterations is None or len(rows) < iterations:
        if iterations is None and deadline.over():
            break
        det = determinize(engine, state, seat, rng, base)
        seed = rng.getrandbits(64)
        got = []
        for a in cands:
            r = random.Random(seed)
            after = apply(engine, det, seat, a, r)
            if after is not None and ev.unfinished is not None:
                after = _finish(engine, ev, after, seat, seed)
            got.append(-2 * WIN if after is None else value(engine, ev, rollout(engine, ev, after, plies, r), seat))
            if iterations is None and rows and deadline.over():
                break
        if len(got) < len(cands):
            break
        rows.append(got)
    return Choice(cands[_surely_best(rows, b.hard_confidence)], len(rows))


def _surely_best(rows: list[list[float]], z: float) -> int:
    """The candidate with the best total over the iterations `rows`, if it beats the first
    (medium's choice) by `z` standard errors of their paired differences; else the first."""
    if not rows:
        return 0
    totals = [sum(col) for col in zip(*rows, strict=True)]
    best = max(range(len(totals)), key=lambda k: (totals[k], -k))
    if best == 0 or z <= 0:
        return best
    diffs = [r[best] - r[0] for r in rows]
    n = len(diffs)
    if n < 2:
        return 0
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return best if mean > z * (var / n) ** 0.5 else 0
