"""Hidden information: production card values are secret (their number is public),
deck orders are secret; a value becomes public only when paid or discarded."""

import copy
import random

import pytest
from tablero.engines.core import testkit
from tablero.engines.core.local import canonical_json

from .helpers import ENGINE, game


def _random_game(seats, seed):
    return testkit.playthrough(ENGINE, seats, seed)


@pytest.mark.parametrize("seats", [2, 5])
def test_no_seat_ever_sees_another_seats_card_values(seats):
    g = _random_game(seats, 42)
    for e in g.events:
        for viewer in [None, *range(seats)]:
            red = g.event_view(e, viewer)
            assert "secret" not in red
            assert set(red.get("private") or {}) <= ({str(viewer)} if viewer is not None else set())
    # Along the game: views show own hand only, and hand sizes for everyone.
    live = None
    for i, e in enumerate(g.events):
        live = ENGINE.evolve(live, e) if i else ENGINE.evolve(None, copy.deepcopy(e))
        if i % 7:
            continue
        for viewer in [None, *range(seats)]:
            v = ENGINE.view(live, viewer)
            for q in v["players"]:
                p = live["players"][q["seat"]]
                assert q["hand_size"] == len(p["hand"]) + p["preset"]
                assert q["hand"] == (sorted(p["hand"]) if q["seat"] == viewer else None)
            text = canonical_json(v)
            assert "production_deck\"" not in text and "\"deck\"" not in text


def test_dealt_cards_are_private_to_their_owner_and_counted_in_public():
    g = _random_game(3, 7)
    dealt = [e for e in g.events if e["type"] == "production_dealt"]
    assert dealt
    for e in dealt:
        owner = e["seat"]
        assert len(e["private"][str(owner)]["cards"]) == e["cards"]
        for viewer in range(3):
            red = g.event_view(e, viewer)
            assert ("private" in red) == (viewer == owner)
            assert red["cards"] == e["cards"]


def test_paid_and_discarded_values_are_public():
    g = _random_game(3, 8)
    paid = [e for e in g.events if e["type"] in ("development_bought", "worker_employed", "limits_applied")]
    assert paid
    for e in paid:
        red = g.event_view(e, None)
        assert red == e  # nothing redacted: the values are on the table


def test_resampling_keeps_the_viewers_hand_and_every_hand_size_and_redeals_the_rest():
    g = game(5, seed=9)
    for _ in range(60):
        if g.outcome() is not None:
            break
        s = min(g.to_act())
        g.act(s, ENGINE.random_action(g.state, s, g.legal_actions(s), random.Random(_)))
    st = g.state
    changed = False
    for k in range(20):
        alt = ENGINE.resample_hidden(st, 0, random.Random(k))
        assert alt["players"][0]["hand"] == st["players"][0]["hand"]
        pool = sorted(st["production_deck"] + [v for p in st["players"][1:] for v in p["hand"]])
        alt_pool = sorted(alt["production_deck"] + [v for p in alt["players"][1:] for v in p["hand"]])
        assert pool == alt_pool
        for a, b in zip(alt["players"], st["players"], strict=True):
            assert len(a["hand"]) == len(b["hand"])
        assert sorted(alt["deck"]) == sorted(st["deck"])
        assert canonical_json(ENGINE.view(alt, 0)) == canonical_json(ENGINE.view(st, 0))
        changed |= alt["production_deck"] != st["production_deck"]
    assert changed


def test_resampling_after_a_reshuffle_keeps_the_deck_within_the_old_discard_pile():
    # Seed-P 2c: the new deck is the shuffled discard pile, whose values everybody saw.
    # A re-dealt world must respect that: the deck holds only cards of that pile, and every
    # hand keeps how many cards it drew from the old deck and from the new one.
    for seed in range(3, 40):
        g = _random_game(5, seed)
        cut = next((i for i, e in enumerate(g.events) if e["type"] == "production_reshuffled"), None)
        if cut is not None:
            break
    pile = sorted(g.events[cut]["secret"]["deck"])
    log = g.events[: cut + 2]  # the reshuffle and the deal that follows it
    st = None
    for i, e in enumerate(log):
        st = ENGINE.evolve(st, e) if i else ENGINE.evolve(None, copy.deepcopy(e))
    assert st["production_epoch"] == 1
    for k in range(30):
        for viewer in (None, 0, 2):
            alt = ENGINE.resample_hidden(st, viewer, random.Random(k))
            left = list(pile)
            for v in alt["production_deck"]:
                left.remove(v)  # raises if the deck holds a card the pile never had
            for a, b in zip(alt["players"], st["players"], strict=True):
                assert sorted(e for _, e in a["origins"]) == sorted(e for _, e in b["origins"])
                assert sorted(v for v, _ in a["origins"]) == a["hand"]
            assert canonical_json(ENGINE.view(alt, viewer)) == canonical_json(ENGINE.view(st, viewer))


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_40_production_cards_are_always_in_the_deck_the_discard_pile_or_a_hand(seats):
    g = _random_game(seats, 100 + seats)
    st = None
    for i, e in enumerate(g.events):
        st = ENGINE.evolve(st, e) if i else ENGINE.evolve(None, copy.deepcopy(e))
        held = [v for p in st["players"] for v in p["hand"]]
        assert len(st["production_deck"]) + len(st["discard_pile"]) + len(held) == 40, e["type"]
        for p in st["players"]:
            assert sorted(v for v, _ in p["origins"]) == p["hand"]
