"""The kit's fast schema check (jsonschema_rs) passes only what jsonschema passes: on the views,
events and legal actions of a random game of each engine, and on the same values broken (a key
removed, a key added, a value of the wrong type), the two agree. (What the fast check refuses,
jsonschema decides again, so only its passes could hide an error.)"""

from __future__ import annotations

import random

import jsonschema
import pytest
from tablero.engines.core import registry, testkit


def _samples(engine, rng: random.Random) -> list[tuple[dict, object]]:
    g = testkit.playthrough(engine, max(2, engine.min_seats) if engine.max_seats > 1 else 1, 3)
    out: list[tuple[dict, object]] = []
    state = None
    picks = set(rng.sample(range(len(g.events)), min(8, len(g.events))))
    for i, e in enumerate(g.events):
        state = engine.evolve(state, e)
        if i in picks:
            for v in [None, *range(g.seats)]:
                out.append((engine.view_schema, engine.view(state, v)))
                out.append((engine.event_schema, engine.event_view(e, v)))
            for s in engine.to_act(state):
                for a in engine.legal_actions(state, s)[:5]:
                    out.append((engine.action_schema, a))
    return out


def _broken(value: object, rng: random.Random) -> list[object]:
    if not isinstance(value, dict) or not value:
        return [None]
    key = rng.choice(sorted(value))
    missing = {k: v for k, v in value.items() if k != key}
    return [missing, {**value, "zz_not_declared": 1}, {**value, key: {"nested": ["garbage"]}}, [value]]


@pytest.mark.parametrize("name", registry.names())
def test_the_fast_check_passes_only_what_jsonschema_passes(name):
    engine = registry.get(name)
    rng = random.Random(name)
    checked = refused = 0
    for schema, value in _samples(engine, rng):
        for candidate in [value, *_broken(value, rng)]:
            slow = not any(True for _ in jsonschema.validators.validator_for(schema)(schema).iter_errors(candidate))
            fast = testkit._fits_fast(schema, candidate)
            assert not (fast and not slow), f"{name}: jsonschema_rs passes what jsonschema refuses: {candidate!r:.300}"
            checked += 1
            refused += not slow
    assert checked > 20 and refused > 0, (checked, refused)


@pytest.mark.parametrize("schema", [{"type": "object", "properties": {"a": {"minimum": "five"}}},
                                    {"type": "object", "required": "a"}])
def test_a_schema_that_is_no_json_schema_is_refused_before_any_value_is_checked(schema):
    with pytest.raises(jsonschema.SchemaError):
        testkit.schema_errors(schema, {})
