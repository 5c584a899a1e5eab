"""Random play still reaches the rulebook's end (32 VP at step 2a): always at 3-5
players, nearly always at 2 (RULES.md "Random play": the rest are true dead ends of the
2-player deck, which no weighting of a random player removes because VP never go down)."""

import random

from .helpers import ENGINE, game


def _random_game(seats: int, seed: int, watch=None):
    g = game(seats, seed=seed)
    rng = random.Random(seed)
    while g.outcome() is None:
        seat = rng.choice(sorted(g.to_act()))
        g.act(seat, ENGINE.random_action(g.state, seat, g.legal_actions(seat), rng))
        if watch:
            watch(g)
    return g


def test_random_games_end_by_32_vp_at_3_to_5_players_and_nearly_always_at_2():
    for seats in (3, 4, 5):
        for seed in range(8):
            out = _random_game(seats, seed).outcome()
            assert out["reason"] == "city_state" and max(out["scores"]) >= 32, (seats, seed)
    reasons = [_random_game(2, seed).outcome()["reason"] for seed in range(20)]
    assert reasons.count("city_state") >= 18, reasons


def test_vp_never_go_down_so_a_dead_end_below_32_was_never_winnable():
    for seats, seed in ((2, 3), (4, 1)):
        last = [0] * seats

        def watch(g, last=last):
            vps = [p["vp"] for p in g.state["players"]]
            assert all(v >= old for v, old in zip(vps, last, strict=True)), (last, vps)
            last[:] = vps

        _random_game(seats, seed, watch)


def test_skipping_the_look_ahead_copy_changes_no_event():
    """Phoenicia.settle skips the core's look-ahead unless an event of LEAD_TO_AUTO may
    lead into an automatic step; the core's full settle gives the same events."""
    from tablero.engines.core import RulesEngine, testkit

    for seats in (2, 5):
        g = testkit.playthrough(ENGINE, seats, 77)
        state = None
        decisions = 0
        for e in g.events:
            state = ENGINE.evolve(state, e) if state is not None else ENGINE.evolve(None, dict(e))
            if ENGINE.outcome(state) is not None:
                break
            for seat in sorted(ENGINE.to_act(state)):
                actions = ENGINE.legal_actions(state, seat)
                for a in actions[:3] + actions[3:][-3:]:  # the last: end_turn, drop_out
                    m = ENGINE.move(a)
                    ctx = m.check(state, seat, a)
                    raw = list(m.resolve(state, seat, a, ctx, random.Random(1)))
                    ours = ENGINE.settle(state, [dict(x) for x in raw], random.Random(2))
                    core = RulesEngine.settle(ENGINE, state, [dict(x) for x in raw], random.Random(2))
                    assert ours == core, a
                    decisions += 1
        assert decisions > 300
