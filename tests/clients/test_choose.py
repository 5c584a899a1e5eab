"""Step-by-step choice: every legal action is reachable exactly once, each step lists few options."""

from __future__ import annotations

import json
import random
import re

from tablero.engines.core.local import LocalGame
from tablero_client.choose import flatten, options


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
    assert choose_hint(12, back=True) == "type a number from 1 to 12, b to go back a step, ? for help, or q to quit"
    assert choose_hint(3, back=False) == "type a number from 1 to 3, ? for help, or q to quit"


def _view_game(g, engine, seat):
    from tablero_client.models import Game

    return Game(id="g", engine=engine, version=1, players=len(g.view(seat).get("players") or [0, 1]),
                status="GAME_STATUS_RUNNING", to_act=[seat], view=g.view(seat), seats=[], your_seat=seat)


def _steps(engine, paths, seats=2, when=lambda acts: True):
    """{path: (game, options)} for the first step-by-step choice on each of `paths` met in a random
    game (among action lists for which `when` holds)."""
    g = LocalGame(engine, seats=seats, seed=3)
    rng = random.Random(1)
    found = {}
    while g.outcome() is None and len(found) < len(paths):
        seat = sorted(g.to_act())[0]
        acts = g.legal_actions(seat)
        path, opts = options(acts, 24)
        if path in paths and path not in found and when(acts):
            found[path] = (_view_game(g, engine, seat), opts)
        g.act(seat, g.engine.random_action(g.state, seat, acts, rng))
    return found


def test_step_options_are_worded_and_a_single_action_shows_its_cost():
    """An outside pass chose "8. cell = 0 (1 actions)" in Riverboat and paid a coin it was not shown:
    an option leading to one action is that action's words; other values are named as the board does."""
    from tablero_client.play import option_label

    paying = lambda acts: any(a.get("coin") for a in acts)  # noqa: E731
    (game, opts), = _steps("riverboat", {"cell"}, when=paying).values()
    labels = [option_label("cell", o, game) for o in opts]
    assert all(" = " not in x for x in labels), labels
    assert any(x.endswith("(pay a coin)") for x in labels), labels
    cells = [o.value for o in opts]
    assert cells == sorted(cells), cells  # in the mat's order
    from tablero_client.render import step_label

    assert step_label("slot", 0, game) == "tile #1" and step_label("cells", [3, 4], game) == "cells 4, 5"
    found = _steps("founders-of-gloomhaven", {"cells", "proposal"})
    game, opts = found["cells"]
    labels = [option_label("cells", o, game) for o in opts]
    assert all(re.search(r"squares [A-Z]+\d+, [A-Z]+\d+", x) for x in labels), labels[:5]
    game, opts = found["proposal"]
    assert [option_label("proposal", o, game)[:10] for o in opts][:2] == ["proposal 1", "proposal 2"]


def test_riverboat_cells_are_numbered_from_1_on_the_mat_and_in_every_label():
    """An outside pass typed the 9 it saw on the mat and placed a worker on the mat's cell 8: the
    mat numbered its cells from 0 while the list was numbered from 1. The mat and every label
    now number cells from 1, so "worker on cell 9" is the cell the mat labels 9."""
    from tablero_client.play import option_label
    from tablero_client.render import describe_event
    from tablero_client.render.riverboat import mat

    (game, opts), = _steps("riverboat", {"cell"}).values()
    grid = game.view["mat_grid"]
    me = game.view["players"][game.your_seat]
    numbers = [int(t) for t in mat(me, grid["rows"], grid["cols"], grid["odd_rows_shifted_right"]).plain.split()
               if t.isdigit()]
    assert numbers == list(range(1, grid["rows"] * grid["cols"] + 1)), numbers
    for o in opts:
        assert re.search(rf"\bcell {o.value + 1}\b", option_label("cell", o, game)), (o.value, option_label("cell", o, game))
    said = describe_event({"type": "worker_placed", "seat": 0, "cell": 8}, game)
    assert "cell 9" in said, said
