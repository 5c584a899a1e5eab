"""The decide loop checks each action field with a predicate compiled once from the field's
JSON schema (`rules.accepts`); `validate_value` only words the refusal. The two must agree on
every value: legal ones from random games, and malformed ones built from them."""

import random

import pytest
from tablero.engines.core import InvalidAction, LocalGame, RulesEngine, validate_value
from tablero.engines.core.rules import accepts, array, counts, integer, obj, string

from tablero import engines

ODD = [None, True, False, 0, 1, -1, 2, 7, 10**9, 1.5, -0.5, "", "x", "farm", "wheat", [], [1], [1, 1], ["a", "a"],
       [{}], {}, {"a": 1}, {"wheat": -1}, {"wheat": 2}, {"type": "x"}, [[0, 1]], {"space": "farm"}]


def _variants(value, rng):
    """Malformed neighbours of a legal value."""
    out = [value]
    if isinstance(value, dict):
        for k in value:
            out.append({x: y for x, y in value.items() if x != k})
            out.append({**value, k: None})
            out.append({**value, k: "bad"})
            out.append({**value, k: -5})
            out.append({**value, k: [value[k]]})
        out.append({**value, "no_such_key": 1})
    elif isinstance(value, list):
        out += [value[:-1], value + value, value + [None], [*value, "x"], list(reversed(value))]
        if value:
            out.append([*value[1:], value[0], value[0]])
    elif isinstance(value, int) and not isinstance(value, bool):
        out += [value - 1, value + 1, value + 100, -value - 1, float(value), str(value)]
    elif isinstance(value, str):
        out += [value + "x", value[:-1], value.upper(), [value]]
    return out


def _agree(schema, value, where):
    try:
        validate_value(schema, value, where)
        valid = True
    except InvalidAction:
        valid = False
    assert accepts(schema)(value) == valid, f"{where}: accepts says {not valid} for {value!r}, validate_value {valid}"


def _rules_engines():
    return [n for n in engines.names() if isinstance(engines.get(n), RulesEngine)]


@pytest.mark.parametrize("name", _rules_engines())
def test_compiled_acceptance_agrees_with_validate_value(name):
    engine = engines.get(name)
    rng = random.Random(5)
    seen = {m.type: {k: [] for k in m.fields} for m in engine.moves}
    for seats in range(engine.min_seats, engine.max_seats + 1):
        g = LocalGame(name, seats=seats, seed=seats)
        steps = 0
        while g.outcome() is None and steps < 400:
            seat = rng.choice(sorted(g.to_act()))
            actions = g.legal_actions(seat)
            for a in actions[:50]:
                for k, v in a.items():
                    if k != "type" and len(seen[a["type"]][k]) < 40:
                        seen[a["type"]][k].append(v)
            g.act(seat, engine.random_action(g.state, seat, actions, rng))
            steps += 1
    checked = 0
    for m in engine.moves:
        for k, schema in m.fields.items():
            for v in seen[m.type][k] + ODD:
                for x in _variants(v, rng):
                    _agree(schema, x, f"{name} {m.type}.{k}")
                    checked += 1
    assert checked > 100


def test_every_schema_keyword_is_compiled():
    schemas = [
        integer(0, 3), string(["a", "b"], minLength=1, maxLength=1), array(integer(0), 1, 2, uniqueItems=True),
        counts(["wood", "brick"], 0, 2), obj({"a": integer(), "b": string()}, required=["a"]),
        {"type": ["integer", "null"]}, {"const": 3}, {"enum": [1, "1", None]},
        {"anyOf": [integer(0, 1), string(["x"])]}, {"oneOf": [integer(5), {"type": "null"}]},
        {"type": "object", "additionalProperties": integer(0, 1)}, {"type": "number", "minimum": 0.5},
        {"minimum": 1}, {}, {"type": "boolean"}, {"type": "array", "items": obj({"n": integer()}, ["n"])},
    ]
    values = [None, True, False, 0, 1, 2, 3, 4, 5, 0.5, 0.4, 1.0, "", "a", "b", "ab", "x", [], [0], [0, 0], [0, 1],
              [0, 1, 2], ["a"], {}, {"a": 1}, {"a": 1, "b": "x"}, {"b": "x"}, {"a": "1"}, {"a": 1, "c": 1},
              {"wood": 2}, {"wood": 3}, {"stone": 1}, {"q": 0}, {"q": 2}, [{"n": 1}], [{"m": 1}], [{"n": "1"}]]
    refused = 0
    for i, schema in enumerate(schemas):
        for v in values:
            _agree(schema, v, f"schema {i}")
            refused += not accepts(schema)(v)
    assert refused > 100  # the predicates do refuse


def test_refusal_wording_is_unchanged():
    # The fast check decides, but a refused action reads exactly as before.
    engine = engines.get("riverboat")
    m = engine.moves[0]
    bad = {"type": m.type, "no_such_field": 1}
    with pytest.raises(InvalidAction, match="unknown field 'no_such_field'"):
        m.validate_shape(bad)
    if m.fields:
        k = next(iter(m.fields))
        with pytest.raises(InvalidAction, match=f"field '{k}'|missing"):
            m.validate_shape({"type": m.type, **{f: {"bad": [None]} for f in m.fields}})
