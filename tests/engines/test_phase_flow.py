"""Phases declare their end and what follows (issue 37): the core refuses a table whose `then`
names an unknown phase, the settle loop runs an end as declared, and in every engine each phase
change seen in games (random ones and the golden logs) is one its table declares."""

import importlib
import json
import random
from pathlib import Path

import pytest
from tablero.engines.core import IllegalAction, Move, Phase, RulesEngine, branch, golden, testkit

from tablero import engines

LOGS = sorted(p for p in golden.GOLDEN_DIR.glob("*/*.json") if "decisions" in json.loads(p.read_text()))


# --- the core: declarations checked, ends run as declared -----------------------------------------
def _count_to(limit: int):
    """A toy game: seat 0 ticks until the count reaches `limit`; every third tick earns an
    automatic "bonus" (the phase's `auto`); at `limit` the phase ends: "scored" (`on_end`), then
    a new round ("round_started", entered by `enter_phase`), or after round 2 the game's end."""

    def check(s, seat, a):
        if s["count"] >= limit:
            raise IllegalAction("the count is full")

    def on_started(s, e):
        return {"count": 0, "round": 1, "phase": "count", "log": [], "bonus": 0}

    def log(s, e):
        s["log"].append(e["type"])

    def on_tick(s, e):
        s["count"] += 1
        log(s, e)

    def on_bonus(s, e):
        s["bonus"] += 1
        log(s, e)

    def on_round(s, e):
        s.update(count=0, bonus=0, round=s["round"] + 1)
        log(s, e)

    def on_over(s, e):
        s["phase"] = "over"
        log(s, e)

    class Toy(RulesEngine):
        name = "toy-count"
        moves = (Move("tick", resolve=lambda s, seat, a, ctx, rng: [{"type": "ticked"}], check=check,
                      options=lambda s, seat: [{"type": "tick"}], phases={"count"}),)
        phases = (
            Phase("count", to_act=lambda s: {0} if s["count"] < limit else set(),
                  auto=lambda s, rng: [{"type": "bonus"}] if s["count"] // 3 > s["bonus"] else None,
                  ends=lambda s: s["count"] >= limit, on_end=lambda s, rng: [{"type": "scored", "round": s["round"]}],
                  then=branch(lambda s: "over" if s["round"] >= 2 else "count", "count", "over")),
            Phase("over", to_act=lambda s: ()),
        )
        on = {"game_started": on_started, "ticked": on_tick, "bonus": on_bonus, "scored": log,
              "round_started": on_round, "game_over": on_over}

        def enter_phase(self, state, name, rng):
            return [{"type": "round_started"}] if name == "count" else [{"type": "game_over"}]

        def outcome(self, state):
            return {"scores": [state["count"]]} if state["phase"] == "over" else None

    return Toy()


def test_an_end_runs_auto_first_then_on_end_then_the_entry_into_then():
    toy = _count_to(3)
    state = toy.evolve(None, {"type": "game_started"})
    rng = random.Random(1)
    seen = []
    while toy.outcome(state) is None:
        for e in toy.decide(state, 0, {"type": "tick"}, rng):
            state = toy.evolve(state, e)
            seen.append(e["type"])
    assert seen == ["ticked", "ticked", "ticked", "bonus", "scored", "round_started",
                    "ticked", "ticked", "ticked", "bonus", "scored", "game_over"]


def test_a_then_naming_an_unknown_phase_is_refused():
    with pytest.raises(TypeError, match="names unknown phase 'scoring' to follow"):
        class Bad(RulesEngine):
            name = "bad"
            phases = (Phase("play", to_act=lambda s: {0}, ends=lambda s: True, then="scoring"),)
    with pytest.raises(TypeError, match="names unknown phase 'nowhere' to follow"):
        class BadBranch(RulesEngine):
            name = "bad-branch"
            phases = (Phase("play", to_act=lambda s: {0}, ends=lambda s: True,
                            then=branch(lambda s: "play", "play", "nowhere")),)
    with pytest.raises(TypeError, match="names unknown phase 'lead' to follow"):
        class BadMoves(RulesEngine):
            name = "bad-moves"
            phases = (Phase("play", to_act=lambda s: {0}, then=("lead",)),)


def test_an_engine_whose_phases_end_must_say_how_the_next_begins():
    with pytest.raises(TypeError, match=r"phase\(s\) \['play'\] declare an end: the engine needs enter_phase"):
        class NoEntry(RulesEngine):
            name = "no-entry"
            phases = (Phase("play", to_act=lambda s: {0}, ends=lambda s: True, then="over"),
                      Phase("over", to_act=lambda s: ()))


def test_malformed_phase_declarations_are_refused():
    with pytest.raises(TypeError, match="needs then="):
        Phase("play", to_act=lambda s: {0}, ends=lambda s: True)
    with pytest.raises(TypeError, match="on_end= needs ends="):
        Phase("play", to_act=lambda s: {0}, on_end=lambda s, rng: [], then="over")
    with pytest.raises(TypeError, match="a step is left by event handlers"):
        Phase("choose", to_act=lambda s: {0}, step=True, then="play")


def test_a_branch_may_only_choose_a_declared_phase():
    b = branch(lambda s: s["next"], "draft", "over")
    assert b({"next": "over"}) == "over" and b.to == ("draft", "over")
    with pytest.raises(RuntimeError, match="not one of"):
        b({"next": "scoring"})


@pytest.mark.parametrize("name", engines.names())
def test_every_engine_declares_its_flow(name):
    e = engines.get(name)
    rows = [r for r in e.rules_table() if r["kind"] == "phase"]
    assert rows and all({"ends", "then", "automatic", "step"} <= set(r) for r in rows)
    # Every phase leads somewhere, or is a step inside another, or is the game's end.
    for p in e.phases:
        assert p.successors() or p.step or p.name == "over", f"{name}: phase {p.name} declares nothing to follow"
    assert e.flow().count("\n") == len(e.phases) + 2  # the header, the rule, a row a phase


# --- every engine: the phase changes seen in games are declared ---------------------------------
def _valid(e, seats, options) -> bool:
    try:
        e.start(seats, options, random.Random(0))
    except engines.InvalidOptions:
        return False  # e.g. New Bedford: 2 players and 3 Captains are 5
    return True


def _walks():
    for name in engines.names():
        e = engines.get(name)
        for options in getattr(e, "kit_options", [{}]):
            for seats in filter(lambda n: _valid(e, n, options), range(e.min_seats, e.max_seats + 1)):
                for seed in (1, 2, 3):
                    tag = json.dumps(options, sort_keys=True) if options else ""
                    yield pytest.param(name, seats, seed, options, id=f"{name}-{seats}p-seed{seed}{tag}")


@pytest.mark.parametrize(("name", "seats", "seed", "options"), list(_walks()))
def test_the_phase_changes_of_random_games_are_declared(name, seats, seed, options):
    e = engines.get(name)
    steps = testkit.phase_steps(e, seats, seed, options)
    assert testkit.check_phase_flow(e, steps, f"{seats}p seed {seed} {options}")


@pytest.mark.parametrize("path", LOGS, ids=[f"{p.parent.name}/{p.name}" for p in LOGS])
def test_the_phase_changes_of_the_golden_logs_are_declared(path):
    doc = json.loads(path.read_text())
    engine = engines.get(doc["engine"])
    testkit.check_phase_flow(engine, testkit.logged_phase_steps(doc), path.name)


def test_the_flow_check_can_fail():
    """A transition the table does not declare fails the walk: Riverboat without harvest → opportunity."""
    rb = engines.get("riverboat")
    steps = [("draft", "cultivation", "automatic"), ("harvest", "scoring", "automatic")]
    with pytest.raises(AssertionError, match="harvest declares then=\\('opportunity',\\)"):
        testkit.check_phase_flow(rb, steps, "made up")
    with pytest.raises(AssertionError, match="goes back to the phase it interrupted"):
        testkit.check_phase_flow(rb, [("planting", "choose_from_pile", "pile_search"),
                                      ("choose_from_pile", "scoring", "choose_tile")], "made up")


def _rules_docs():
    for name in engines.names():
        module = type(engines.get(name)).__module__.rsplit(".", 1)[0]
        path = Path(importlib.import_module(module).__file__).parent / "RULES.md"
        if path.exists():
            yield pytest.param(name, path, id=name)


@pytest.mark.parametrize(("name", "path"), list(_rules_docs()))
def test_each_rules_md_shows_the_declared_flow(name, path):
    """RULES.md keeps the table `python -m tablero.engines.core.flow NAME` prints."""
    assert engines.get(name).flow() in path.read_text(), (
        f"{path}: the flow table differs from the engine's; paste python -m tablero.engines.core.flow {name}")
