"""The engines' schemas as other languages' generators take them (scripts/gen_ts_engines.py:
one document per engine whose `$defs` name each action, event, view and options type):
real games' actions, events and views fit the named types, and nothing else does."""

from __future__ import annotations

import re

import jsonschema
import pytest
from tablero.engines.core import registry
from tablero.engines.core.testkit import playthrough

from scripts.gen_ts_engines import generate, named_schemas, pascal


@pytest.mark.parametrize(("engine", "seats"), [("tic-tac-toe", 2), ("riverboat", 2), ("goofspiel", 2)])
def test_real_games_fit_the_named_types(engine, seats):
    e = registry.get(engine)
    doc, prefix = named_schemas(engine, e), pascal(engine)

    def fits(kind: str, value) -> bool:
        return jsonschema.Draft202012Validator({**doc, "$ref": f"#/$defs/{prefix}{kind}"}).is_valid(value)

    g = playthrough(e, seats, 7)
    # Events as they are sent (each seat's and a spectator's view: no secret, one seat's private
    # part, the start event's meta keys), which the event types declare whole.
    events = [e.event_view(ev, viewer) for ev in g.events for viewer in (None, *range(seats))]
    assert all(fits("Event", ev) for ev in events)
    assert fits("View", g.view(0)) and fits("View", g.view(None))
    fresh = type(g)(e, seats=seats, seed=7)
    legal = fresh.legal_actions(min(fresh.to_act()))
    assert legal and all(fits("Action", a) for a in legal)
    # Each action fits its own named variant, and a wrong field type fits none.
    first = legal[0]
    assert fits(f"{pascal(first['type'])}Action", first)
    assert not fits("Action", {**first, "type": "no_such_move"})


def test_every_engine_has_a_module_and_the_index_names_it():
    files = generate()
    for name in registry.names():
        module = files[f"{name}.ts"]
        assert f"export type {pascal(name)}Action =" in module and f"export type {pascal(name)}View =" in module
        assert f'"{name}": {{ action: {pascal(name)}Action;' in files["index.ts"]
    assert "Record<string, never>" not in "".join(files.values())


def test_no_engine_type_leaves_a_value_open():
    """Every engine field the schemas shape is typed: no JsonObject / JsonValue (what an
    object or a value of no declared shape becomes), no any or unknown, in any module."""
    files = generate()
    for name, text in files.items():
        if not name.endswith(".ts"):
            continue
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)  # doc comments (words, not types)
        code = "\n".join(line for line in text.splitlines() if not line.startswith(("import ", "//")))
        for word in ("JsonObject", "JsonValue", "any", "unknown", "object"):
            assert not re.search(rf"(?<![\"\w]){word}(?![\"\w])", code), f"{name}: {word}"


def test_every_engine_types_its_outcome():
    files = generate()
    assert "export type EndedEarlyOutcome = {" in files["platform.ts"]
    for name in registry.names():
        p = pascal(name)
        assert f"export type {p}FinishedOutcome = {{" in files[f"{name}.ts"]
        assert f"export type {p}Outcome = {p}FinishedOutcome | EndedEarlyOutcome;" in files[f"{name}.ts"]
        assert f"outcome: {p}Outcome }}" in files["index.ts"]


@pytest.mark.parametrize(("engine", "seats", "options"), [
    ("tic-tac-toe", 2, {}), ("goofspiel", 3, {}), ("riverboat", 2, {}), ("phoenicia", 3, {}),
    ("new-bedford", 2, {"captains": ["stubb"]}), ("founders-of-gloomhaven", 1, {}),
])
def test_real_outcomes_fit_the_named_outcome_type(engine, seats, options):
    """A finished game's outcome fits `<Engine>Outcome`; a game ended early (the platform's
    form) fits it too; a wrong outcome does not."""
    e = registry.get(engine)
    doc, prefix = named_schemas(engine, e), pascal(engine)
    validator = jsonschema.Draft202012Validator({**doc, "$ref": f"#/$defs/{prefix}Outcome"})
    out = playthrough(e, seats, 11, options).outcome()
    assert validator.is_valid(out), next(iter(validator.iter_errors(out))).message
    forfeited = {**out, "details": [{**d, "forfeited": "resigned"} if i == 0 else d
                                    for i, d in enumerate(out["details"])]}
    assert validator.is_valid(forfeited)
    ended = {"scores": [0, 1], "winners": [1], "details": [{"seat": 0, "forfeited": "timeout"}, {"seat": 1}],
             "endedBy": "forfeit"}
    assert validator.is_valid(ended)
    assert not validator.is_valid({**out, "details": [{**out["details"][0], "no_such_field": 1}]})
    assert not validator.is_valid({**ended, "endedBy": "boredom"})
