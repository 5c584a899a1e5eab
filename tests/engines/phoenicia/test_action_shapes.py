"""Every action carries exactly the fields of its type (the shapes legal_actions lists):
a field the type doesn't have, or a missing one, is malformed (InvalidAction) -- no
field is ever filled in by default."""

import random

import pytest
from tablero.engines.core import InvalidAction
from tablero.engines.core.local import state_hash
from tablero.engines.phoenicia.engine import FIELDS

from .helpers import ENGINE, game, player, set_turn, tile


def _state_after_winning_caravan():
    g = game(3, seed=4)
    set_turn(g, [0, 1, 2])
    g.state["display"] = ["Caravan", "Dyer", "Fort"]
    player(g, 0, hand=[6, 6], disks=3)
    g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 9})
    g.act(1, {"type": "drop_out"})
    g.act(2, {"type": "drop_out"})
    assert g.to_act() == {0} and g.state["payment"] is not None
    return g


def test_a_payment_without_its_disks_field_is_malformed_not_filled_in():
    g = _state_after_winning_caravan()
    before = state_hash(g.state)
    with pytest.raises(InvalidAction, match="missing field.*'disks'"):
        g.act(0, {"type": "pay", "cards": [6, 6]})
    with pytest.raises(InvalidAction, match="missing field.*'cards'"):
        g.act(0, {"type": "pay", "disks": 3})
    assert state_hash(g.state) == before
    g.act(0, {"type": "pay", "cards": [6, 6], "disks": 0})  # the full shape is accepted


def test_an_action_with_a_field_its_type_does_not_have_is_malformed():
    g = _state_after_winning_caravan()
    with pytest.raises(InvalidAction, match="unknown field.*'tip'"):
        g.act(0, {"type": "pay", "cards": [6, 6], "disks": 0, "tip": 1})
    set_turn(g, [1, 2, 0])
    g.state["payment"] = None
    with pytest.raises(InvalidAction, match="unknown field.*'card'"):
        g.act(1, {"type": "end_turn", "card": "Dyer"})
    with pytest.raises(InvalidAction, match="unknown field.*'cards'"):
        g.act(1, {"type": "drop_out", "cards": []})


def _sample(schema):
    return {"string": lambda: schema["enum"][0], "integer": lambda: 0, "array": lambda: []}[schema["type"]]()


@pytest.mark.parametrize("kind", sorted(k for k in FIELDS if FIELDS[k]))
def test_every_action_type_refuses_each_missing_field(kind):
    move = ENGINE._move_by_type[kind]
    full = {"type": kind, **{k: _sample(s) for k, s in move.fields.items()}}
    g = game(2, seed=1)
    for k in FIELDS[kind]:
        if k in move.optional:
            continue
        broken = {f: v for f, v in full.items() if f != k}
        with pytest.raises(InvalidAction, match="missing field"):
            ENGINE.decide(g.state, g.to_act().pop(), broken, random.Random(0))


@pytest.mark.parametrize("kind", ["train", "employ", "move", "buy_tool", "buy_vp"])
def test_a_priced_action_names_both_cards_and_disks_or_neither(kind):
    move = ENGINE._move_by_type[kind]
    assert move.optional == {"cards", "disks"}
    g = game(2, seed=1)
    seat = g.to_act().pop()
    base = {"type": kind, **{k: _sample(s) for k, s in move.fields.items() if k not in move.optional}}
    for half in ({"cards": []}, {"disks": 0}):
        with pytest.raises(InvalidAction, match="both 'cards' and 'disks'"):
            g.act(seat, {**base, **half})


def test_employing_on_a_tool_disk_is_free_in_both_forms():
    g = game(2, seed=1)
    set_turn(g, [0, 1])
    player(g, 0, trained=1)
    tile(g, 0, "hunting")["slots"][1] = "t"
    assert {"type": "employ", "tableau": "hunting"} in g.legal_actions(0)
    # Grouped form: nothing to pay, so no pay step.
    ev = ENGINE.decide(g.state, 0, {"type": "employ", "tableau": "hunting"}, random.Random(0))
    assert [e["type"] for e in ev] == ["worker_employed"] and ev[0]["tool_taken"]
    # The single-action form of v1 names the empty payment and gives the same event.
    assert ENGINE.decide(g.state, 0, {"type": "employ", "tableau": "hunting", "cards": [], "disks": 0},
                         random.Random(0)) == ev


def test_every_listed_action_has_exactly_the_required_fields_of_its_type():
    """Priced actions are listed in their grouped form (no payment); `pay` lists the
    ways to pay."""
    rng = random.Random(3)
    for seats in (2, 4):
        g = game(seats, seed=seats)
        while g.outcome() is None:
            seat = rng.choice(sorted(g.to_act()))
            actions = g.legal_actions(seat)
            for a in actions:
                m = ENGINE._move_by_type[a["type"]]
                assert set(a) == {"type", *(f for f in FIELDS[a["type"]] if f not in m.optional)}, a
            g.act(seat, ENGINE.random_action(g.state, seat, actions, rng))
