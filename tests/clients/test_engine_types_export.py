"""The engines' schemas as other languages' generators take them (scripts/gen_ts_engines.py:
one document per engine whose `$defs` name each action, event, view and options type):
real games' actions, events and views fit the named types, and nothing else does."""

from __future__ import annotations

import jsonschema
import pytest

from engines.core import START_META_KEYS, registry
from engines.core.testkit import playthrough
from scripts.gen_ts_engines import generate, named_schemas, pascal


@pytest.mark.parametrize(("engine", "seats"), [("tic-tac-toe", 2), ("riverboat", 2), ("goofspiel", 2)])
def test_real_games_fit_the_named_types(engine, seats):
    e = registry.get(engine)
    doc, prefix = named_schemas(engine, e), pascal(engine)

    def fits(kind: str, value) -> bool:
        return jsonschema.Draft202012Validator({**doc, "$ref": f"#/$defs/{prefix}{kind}"}).is_valid(value)

    g = playthrough(e, seats, 7)
    events = [{k: v for k, v in ev.items() if k not in START_META_KEYS} for ev in g.events]
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
