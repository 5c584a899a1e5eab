"""Riverboat as rules: every move and phase is declared once with its rulebook reference, a move's
check agrees with its listed options, checking one action never lists the legal actions, and the
published schemas cover every declaration."""

import random

import jsonschema
import pytest
from tablero.engines.core import IllegalAction, LocalGame, Move
from tablero.engines.riverboat import ENGINE, board
from tablero.engines.riverboat.data import BOAT_TYPES, CROPS, OPPORTUNITY, PHASES, TILE_KINDS


def test_every_move_and_phase_is_declared_once_with_its_rulebook_reference():
    for m in ENGINE.moves:
        assert m.rule and m.doc, f"move {m.type} has no rulebook reference or doc"
    for p in ENGINE.phases:
        assert p.rule and p.doc, f"phase {p.name} has no rulebook reference or doc"
    assert len({m.type for m in ENGINE.moves}) == len(ENGINE.moves)
    # The six phases of the rulebook, the decisions owed inside them, and the end.
    assert {"draft", *PHASES, "over"} <= {p.name for p in ENGINE.phases}


def test_the_action_schema_has_one_form_per_move_and_every_schema_is_valid():
    forms = ENGINE.action_schema["oneOf"]
    assert [f["title"] for f in forms] == [m.type for m in ENGINE.moves]
    for schema in (ENGINE.action_schema, ENGINE.view_schema, ENGINE.event_schema):
        jsonschema.validators.validator_for(schema).check_schema(schema)
    assert {f["title"] for f in ENGINE.event_schema["oneOf"]} == set(ENGINE.on)
    assert ENGINE.view_schema["additionalProperties"] is False
    assert set(ENGINE.view_schema["required"]) == set(ENGINE.view(LocalGame(ENGINE, seats=2, seed=1).state, 0))


def _neighbourhood(m: Move, rng: random.Random) -> list[dict]:
    """Well-formed instances of `m`, legal or not."""
    cells = range(board.CELLS)
    values = {
        "phase": PHASES, "cell": cells, "coin": (True, False), "size": (1, 2, 3) if m.type == "plant" else (1, 2),
        "slot": range(7), "kind": sorted(TILE_KINDS), "boat": sorted(BOAT_TYPES), "crop": CROPS,
        "space": range(4), "card": sorted(OPPORTUNITY), "feature": ("barn", "well"),
        "bonus": ("coin", "harbor", "agent"), "count": range(4),
    }
    out = []
    for _ in range(40):
        a = {"type": m.type}
        for f in m.fields:
            a[f] = [rng.choice(cells) for _ in range(rng.randint(1, 3))] if f == "cells" else rng.choice(list(values[f]))
        out.append(a)
    return out


@pytest.mark.parametrize(("seats", "options"), [(2, None), (4, None), (3, {"coin_draws": "blind"})])
def test_a_moves_check_accepts_exactly_the_actions_its_options_list(seats, options):
    g = LocalGame(ENGINE, seats=seats, seed=seats + 11, options=options)
    rng = random.Random(seats)
    while g.outcome() is None:
        seat = rng.choice(sorted(g.to_act()))
        phase = ENGINE.phase_of(g.state)
        for m in ENGINE.moves:
            if m.phases is not None and phase not in m.phases:
                continue
            listed = m.legal(g.state, seat)
            for a in listed + _neighbourhood(m, rng):
                try:
                    m.check(g.state, seat, a)
                    accepted = True
                except IllegalAction as e:
                    accepted = False
                    assert str(e).strip(), "a refusal gives a reason"
                assert accepted == (a in listed), (phase, a, accepted)
        acts = g.legal_actions(seat)
        g.act(seat, ENGINE.random_action(g.state, seat, acts, rng))


def test_checking_an_action_never_lists_the_legal_actions(monkeypatch):
    g = LocalGame(ENGINE, seats=3, seed=4)
    rng = random.Random(4)
    plays = []
    while g.outcome() is None and len(plays) < 150:
        seat = rng.choice(sorted(g.to_act()))
        plays.append((seat, ENGINE.random_action(g.state, seat, g.legal_actions(seat), rng)))
        g.act(*plays[-1])

    def forbidden(*args, **kw):
        raise AssertionError("decide listed legal actions")

    monkeypatch.setattr(Move, "legal", forbidden)
    monkeypatch.setattr(type(ENGINE), "legal_actions", forbidden)
    again = LocalGame(ENGINE, seats=3, seed=4)
    for seat, a in plays:
        again.act(seat, a)
    assert again.events == g.events


def test_rules_md_documents_every_move_and_phase_of_the_tables():
    from pathlib import Path

    from tablero.engines import riverboat

    text = (Path(riverboat.__file__).parent / "RULES.md").read_text()
    actions = text[text.index("## Actions"):]
    for m in ENGINE.moves:
        assert f'"type":"{m.type}"' in actions or f"`{m.type}" in actions, f"RULES.md: no action {m.type}"
    for p in ENGINE.phases:
        assert f"`{p.name}`" in text, f"RULES.md: no phase or step {p.name}"
    assert f"version {ENGINE.version}" in text
