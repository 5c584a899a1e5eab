"""The generator an action's rules draw from is seeded from the OS only when it first draws,
and then behaves as random.Random does."""

import random

from tablero.server.app.chance import action_rng as _rng


def test_every_kind_of_draw_is_random_and_differs_between_actions():
    draws = []
    for _ in range(2):
        r = _rng()
        deck = list(range(52))
        r.shuffle(deck)
        draws.append((r.random(), deck, r.randint(1, 10**9), r.choice(range(10**9)), r.getrandbits(64)))
    a, b = draws
    assert a[0] != b[0] and a[1] != b[1] and a[4] != b[4]
    assert 0.0 < a[0] < 1.0 and sorted(a[1]) == list(range(52)) and a[1] != list(range(52))


def test_seeded_and_restored_states_are_reproducible():
    r = _rng()
    r.seed(7)
    assert [r.random() for _ in range(3)] == _seq(7)
    state = r.getstate()
    x = [r.randrange(100) for _ in range(5)]
    r.setstate(state)
    assert [r.randrange(100) for _ in range(5)] == x
    fresh = _rng()
    state = fresh.getstate()  # a state is a seeded one, never the all-zero generator
    assert any(state[1][:-1])


def _seq(seed: int) -> list[float]:
    g = random.Random(seed)
    return [g.random() for _ in range(3)]
