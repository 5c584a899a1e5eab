"""Every engine's JSON Schemas give every object and array its shape (issue 31: no field is
`Record<string, never>`, `object` or `any` in the generated types where the engine knows it),
and what the engines really emit fits them.

1. A walk over each registered engine's schemas (options, actions, view, events, outcome)
   fails on an object with neither `properties` nor a typed `additionalProperties` /
   `patternProperties`, an array without `items`, and a schema that allows anything (`{}`,
   `true`), except the paths in OPEN, each with the reason its content is open.
2. Random games of every engine (with the option sets that change what it emits: Captains,
   solo, achievements, Shaping history, ...) are played; every event as each seat and a
   spectator sees it, views along the game, sampled legal actions and the outcome are
   validated against the schemas with `jsonschema`.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from tablero.engines.core import registry, testkit
from tablero.engines.core.local import LocalGame

KINDS = ("options_schema", "action_schema", "view_schema", "event_schema", "outcome_schema")

# (engine, schema, JSON pointer) → why its content is open. Each entry must still be open (a
# stale exception fails the walk too).
OPEN: dict[tuple[str, str, str], str] = {}


def _typed(sub: Any) -> bool:
    return isinstance(sub, dict) and sub != {}


def unshaped(schema: Any, where: str = "") -> list[tuple[str, str]]:
    """(pointer, what) of every place in `schema` that leaves a value's shape open."""
    out: list[tuple[str, str]] = []
    if schema is True or schema == {}:
        return [(where or "/", "any value")]
    if not isinstance(schema, dict):
        return out
    t = schema.get("type")
    types = t if isinstance(t, list) else [t]
    if "object" in types:
        extra = schema.get("additionalProperties", True)
        if not schema.get("properties") and extra is not False and not _typed(extra) \
                and not schema.get("patternProperties"):
            out.append((where or "/", "object without properties"))
    if "array" in types and "items" not in schema and "prefixItems" not in schema:
        out.append((where or "/", "array without items"))
    if t is None and "properties" not in schema and not any(
            k in schema for k in ("oneOf", "anyOf", "allOf", "const", "enum", "$ref")):
        out.append((where or "/", "no type"))
    for key, value in schema.items():
        if key in ("properties", "patternProperties", "$defs"):
            for name, sub in value.items():
                out += unshaped(sub, f"{where}/{key}/{name}")
        elif key in ("items", "additionalProperties", "contains", "not") and value is not False:
            if key == "additionalProperties" and value is True:
                continue  # listed properties with others allowed: typed by what it lists
            out += unshaped(value, f"{where}/{key}")
        elif key in ("oneOf", "anyOf", "allOf", "prefixItems"):
            for i, sub in enumerate(value):
                out += unshaped(sub, f"{where}/{key}/{i}")
    return out


def test_the_walk_finds_what_it_should():
    """The walk itself can fail: each kind of hole is found where it is."""
    schema = {"type": "object", "properties": {
        "a": {"type": "object"}, "b": {"type": "array"}, "c": {},
        "d": {"type": ["object", "null"]}, "e": {"anyOf": [{"type": "object", "additionalProperties": {}}]},
        "ok": {"type": "object", "additionalProperties": {"type": "integer"}},
        "empty": {"type": "object", "properties": {}, "additionalProperties": False},
    }}
    assert {p for p, _ in unshaped(schema)} == {
        "/properties/a", "/properties/b", "/properties/c", "/properties/d", "/properties/e/anyOf/0",
        "/properties/e/anyOf/0/additionalProperties"}


def test_every_engine_declares_every_schema():
    for name in registry.names():
        e = registry.get(name)
        for kind in KINDS:
            assert isinstance(getattr(e, kind), dict), f"{name} publishes no {kind}"


@pytest.mark.parametrize("name", registry.names())
def test_every_object_in_the_schemas_has_a_shape(name):
    e = registry.get(name)
    found = {(name, kind, p): what for kind in KINDS for p, what in unshaped(getattr(e, kind))}
    holes = {k: v for k, v in found.items() if k not in OPEN}
    assert not holes, "declare the shape of:\n" + "\n".join(f"  {k[1]}{k[2]}: {v}" for k, v in holes.items())
    stale = [k for k in OPEN if k[0] == name and k not in found]
    assert not stale, f"exceptions that are no longer open: {stale}"


# Option sets that change what an engine emits (seat counts each allows).
GAMES: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "tic-tac-toe": [(2, {})],
    "goofspiel": [(2, {}), (3, {})],
    "riverboat": [(2, {}), (4, {})],
    "phoenicia": [(2, {}), (4, {"preset_production": True})],
    "new-bedford": [(2, {}), (4, {}), (1, {}), (2, {"captains": ["ahab", "stubb"], "expert": True}),
                    (1, {"captains": ["flask"], "turners_mill": True}), (3, {"captains": ["starbuck"]})],
    "founders-of-gloomhaven": [(2, {}), (3, {"achievements": True, "setup": "dealt"}),
                               (4, {"shaping_history": True}), (1, {"achievements": True}),
                               (2, {"no_workers": True, "map": "symmetric"}), (2, {"shaping_history": True, "setup": "dealt"})],
}


def test_every_engine_is_played():
    assert set(GAMES) == set(registry.names())


class Checker:
    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.counts = dict.fromkeys(KINDS, 0)

    def fits(self, kind: str, value: Any, context: str) -> None:
        self.counts[kind] += 1
        # (a value that fitted once is not checked again: testkit.schema_errors)
        err = next(iter(testkit.schema_errors(getattr(self.engine, kind), value)), None)
        if err is not None:
            where = "/".join(map(str, err.absolute_path)) or "(top)"
            pytest.fail(f"{self.engine.name} {kind} ({context}) does not fit at {where}: {err.message[:400]}")


@pytest.mark.slow  # whole random games of the heavy engines
@pytest.mark.parametrize("name", sorted(GAMES))
def test_real_games_fit_the_schemas(name):
    engine = registry.get(name)
    check = Checker(engine)
    for k, (seats, options) in enumerate(GAMES[name]):
        seed = 100 + k
        rng = random.Random(seed)
        g = LocalGame(engine, seats=seats, seed=seed, options=options)
        check.fits("options_schema", options, "created with")
        steps = 0
        while g.outcome() is None and steps < engine.max_random_steps:
            to_act = sorted(g.to_act())
            assert to_act, f"{name}: nobody to act in an unfinished game"
            seat = rng.choice(to_act)
            actions = g.legal_actions(seat)
            for a in rng.sample(actions, min(3, len(actions))):
                check.fits("action_schema", a, f"legal, step {steps}")
            if rng.random() < 0.08:
                for viewer in [None, *range(seats)]:
                    check.fits("view_schema", g.view(viewer), f"step {steps}, seat {viewer}")
            g.act(seat, engine.random_action(g.state, seat, actions, rng))
            steps += 1
        outcome = g.outcome()
        assert outcome is not None, f"{name} {options}: no end in {steps} steps"
        check.fits("outcome_schema", outcome, f"{seats} seats {options}")
        for viewer in [None, *range(seats)]:
            check.fits("view_schema", g.view(viewer), f"the end, seat {viewer}")
        for event in g.events:
            for viewer in [None, *range(seats)]:
                seen = engine.event_view(event, viewer)
                check.fits("event_schema", seen, f"{event.get('type')}, seat {viewer}")
    assert all(check.counts[k] for k in KINDS), check.counts


def test_a_view_checked_property_by_property_still_fails_where_it_breaks():
    """testkit.schema_errors checks an object's properties apart (and remembers those that fit):
    a break deep in one property, an unknown key and a missing one are still found, each at its
    place in the whole value, also after the same property fitted in another view."""
    import copy

    engine = registry.get("founders-of-gloomhaven")
    g = LocalGame("founders-of-gloomhaven", seats=2, seed=3)
    view = g.view(0)
    assert testkit.schema_errors(engine.view_schema, view) == []
    nested = next(k for k, v in view.items() if isinstance(v, list) and v and isinstance(v[0], dict))
    field = next(iter(view[nested][0]))
    bad = copy.deepcopy(view)
    bad[nested][0][field] = {"not": "this"}
    errors = testkit.schema_errors(engine.view_schema, bad)
    assert errors and list(errors[0].absolute_path)[:3] == [nested, 0, field], [list(e.absolute_path) for e in errors]
    assert "nonsense" in testkit.schema_errors(engine.view_schema, {**view, "nonsense": 1})[0].message
    missing = {k: v for k, v in view.items() if k != "seat"}
    assert "'seat' is a required property" in [e.message for e in testkit.schema_errors(engine.view_schema, missing)]
