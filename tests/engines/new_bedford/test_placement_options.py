"""The placements listed without re-checking (`spaces._ALWAYS_VALID`: their options are valid by
construction, launches included) are exactly those the resolvers accept: at every decision
of random games, each space's options filtered through its resolver equal `placements`."""

import random

import pytest
from tablero.engines.core import IllegalAction, LocalGame
from tablero.engines.new_bedford import spaces


def _reference(state, seat):
    """`placements` with every option checked by its resolver (nothing trusted)."""
    out = []
    for sid in spaces.placeable_space_ids(state):
        try:
            ctx = spaces.context(state, seat, sid)
        except IllegalAction:
            continue
        _, resolver, options = spaces.EFFECTS[ctx.space["effect"]]
        if ctx.space["effect"] == "sell":
            if ctx.avail["money"] >= 0 and any(ctx.avail[g] > 0 for g in ctx.space["prices"]):
                out.append({"type": "place_worker", "space": sid})
            continue
        for params in options(ctx):
            action = {"type": "place_worker", "space": sid, **params}
            try:
                resolver(ctx, action)
            except IllegalAction:
                continue
            out.append(action)
    return out


def _every_launch(state, seat):
    """Every launch candidate, ship × track space, that `spaces.resolve` accepts."""
    out = []
    for sid in spaces.placeable_space_ids(state):
        space = spaces.SPACES.get(sid)
        if space is None or space["effect"] != "launch":
            continue
        for n in (1, 2):
            for row in range(1, 7):
                a = {"type": "place_worker", "space": sid, "ship": n, "to": row}
                try:
                    spaces.resolve(state, seat, a)
                except IllegalAction:
                    continue
                out.append(a)
    return out


@pytest.mark.parametrize(("seats", "options"), [(2, {}), (3, {}), (1, {"captains": ["stubb", "flask"]})])
def test_trusted_options_are_exactly_the_accepted_ones(seats, options):
    rng = random.Random(seats)
    launches = 0
    for seed in range(3):
        g = LocalGame("new-bedford", seats=seats, seed=seed, options=options)
        while g.outcome() is None:
            seat = rng.choice(sorted(g.to_act()))
            actions = g.legal_actions(seat)
            if g.state["phase"] in ("actions", "inn"):
                listed = spaces.placements(g.state, seat)
                assert listed == _reference(g.state, seat)
                mine = [a for a in listed if a.get("to") is not None]
                assert mine == _every_launch(g.state, seat)
                launches += len(mine)
            g.act(seat, g.engine.random_action(g.state, seat, actions, rng))
    assert launches > 0
