"""Step-by-step choice: every legal action is reachable exactly once, each step lists few options."""

from __future__ import annotations

import json
import random

from tablero_client.choose import flatten, options

from engines.core.local import LocalGame


def leaves(actions, page):
    """Every action reachable by walking all choices, and the longest list shown on the way."""
    path, opts = options(actions, page)
    if path is None:
        return [o.actions[0] for o in opts], len(opts)
    found, widest = [], len(opts)
    for o in opts:
        assert 0 < len(o.actions) < len(actions)  # each step narrows
        sub, w = leaves(o.actions, page)
        found += sub
        widest = max(widest, w)
    return found, widest


def big_action_lists():
    """The largest legal-action lists met in random games of the board games."""
    out = []
    for engine in ("new-bedford", "riverboat", "phoenicia"):
        g = LocalGame(engine, seats=3, seed=11)
        rng = random.Random(5)
        best: list = []
        while g.outcome() is None:
            seat = rng.choice(sorted(g.to_act()))
            acts = g.legal_actions(seat)
            if len(acts) > len(best):
                best = acts
            g.act(seat, g.engine.random_action(g.state, seat, acts, rng))
        out.append((engine, best))
    return out


def test_every_action_reachable_once_and_steps_stay_short():
    for engine, actions in big_action_lists():
        assert len(actions) > 24, engine
        found, widest = leaves(actions, page=24)
        key = lambda a: json.dumps(a, sort_keys=True)  # noqa: E731
        assert sorted(map(key, found)) == sorted(map(key, actions)), engine
        assert widest < len(actions), engine


def test_small_lists_are_listed_whole_and_paths_flatten():
    acts = [{"type": "place", "cell": i} for i in range(9)]
    path, opts = options(acts, page=24)
    assert path is None and [o.actions[0] for o in opts] == acts
    assert flatten({"type": "x", "sell": {"right": 1, "sperm": 0}}) == {"type": "x", "sell.right": 1, "sell.sperm": 0}
    # Grouping starts with the type, then the first field that differs; absent fields group as "(none)".
    mixed = [{"type": "a", "n": i} for i in range(30)] + [{"type": "b"}]
    path, opts = options(mixed, page=24)
    assert path == "type" and [len(o.actions) for o in opts] == [30, 1]
    path, opts = options(opts[0].actions, page=24)
    assert path == "n" and len(opts) == 30


def test_the_prompt_hint_lists_b_where_it_goes_back():
    """`b` (or 0) steps back out of a step-by-step choice: the hint printed above `choose>` says so
    there, and not at the first step, where there is nothing to go back to."""
    from tablero_client.play import BACK_WORDS, choose_hint

    assert "b" in BACK_WORDS
    assert choose_hint(12, back=True) == "type a number from 1 to 12, b to go back a step, or q to quit"
    assert choose_hint(3, back=False) == "type a number from 1 to 3, or q to quit"
