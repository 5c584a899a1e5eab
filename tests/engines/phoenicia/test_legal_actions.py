"""legal_actions is complete and exact: over a wide set of candidate actions (every
action type, payments of up to two cards and four disks, every bid up to 30, every
move), decide accepts exactly those that legal_actions lists -- and the single-action
form of a priced action (payment included) exactly when its grouped form is listed and
its payment is one the `pay` step then offers."""

import itertools
import json
import random

from tablero.engines.core import IllegalAction, InvalidAction, check_action, testkit

from .helpers import ENGINE

KINDS = ("hunting", "farming", "mining", "clothmaking")
PAYS = [(sorted(cs, reverse=True), d) for n in range(3) for cs in itertools.combinations_with_replacement((4, 5, 6), n)
        for d in range(5)]


def _candidates(st, seat):
    out = [{"type": "end_turn"}, {"type": "drop_out"}] + [{"type": "convert", "card": v} for v in (3, 4, 5, 6)]
    for cards, d in PAYS:
        for t in ("pay", "train", "buy_vp"):
            out.append({"type": t, "cards": cards, "disks": d})
        for k in KINDS:
            out.append({"type": "employ", "tableau": k, "cards": cards, "disks": d})
            out.append({"type": "buy_tool", "tableau": k, "cards": cards, "disks": d})
    out += [{"type": "train"}, {"type": "buy_vp"}] + [{"type": t, "tableau": k} for t in ("employ", "buy_tool")
                                                     for k in KINDS]
    for ti, tile in enumerate(st["players"][seat]["tiles"]):
        for si in range(len(tile["slots"])):
            for k in KINDS:
                out.append({"type": "move", "from_tile": ti, "from_slot": si, "to": k})
                out += [{"type": "move", "from_tile": ti, "from_slot": si, "to": k, "cards": c, "disks": d}
                        for c, d in PAYS[::4]]
    for card in {*st["display"], "Dyer", "City Walls"}:
        out += [{"type": "open_auction", "card": card, "bid": b} for b in range(31)]
    out += [{"type": "bid", "amount": b} for b in range(31)]
    out += [{"type": "discard", "cards": list(cs)} for n in range(4)
            for cs in itertools.combinations_with_replacement((4, 5, 6), n)]
    return out


def _key(action):
    a = dict(action)
    if "cards" in a:
        a["cards"] = sorted(a["cards"], reverse=True)
    return json.dumps(a, sort_keys=True)


PRICED = {"train", "employ", "move", "buy_tool", "buy_vp"}


def _accepted(st, seat, action):
    try:
        check_action(ENGINE, st, seat, action)
        return ENGINE.decide(st, seat, action, random.Random(0))
    except (IllegalAction, InvalidAction):
        return None


def _single_form_is_legal(st, seat, action, legal):
    grouped = {k: v for k, v in action.items() if k not in ("cards", "disks")}
    if action["type"] not in PRICED or _key(grouped) not in legal:
        return False
    events = ENGINE.decide(st, seat, grouped, random.Random(0))
    if events[0]["type"] != "payment_requested":  # free: only the empty payment
        return action["cards"] == [] and action["disks"] == 0
    pay = {"type": "pay", "cards": action["cards"], "disks": action["disks"]}
    return _key(pay) in {_key(a) for a in ENGINE.legal_actions(ENGINE.simulate(st, events), seat)}


def test_decide_accepts_exactly_the_actions_legal_actions_lists():
    g = testkit.playthrough(ENGINE, 3, 21)
    st = None
    checked = single = 0
    for i, e in enumerate(g.events):
        st = ENGINE.evolve(st, e) if i else ENGINE.evolve(None, json.loads(json.dumps(e)))
        if i % 23 or ENGINE.outcome(st) is not None:
            continue
        for seat in range(3):
            legal = {_key(a) for a in ENGINE.legal_actions(st, seat)}
            for a in _candidates(st, seat):
                accepted = _accepted(st, seat, a) is not None
                if _key(a) in legal:
                    assert accepted, (a, st["phase"], st["step"])
                elif a["type"] in PRICED and "cards" in a:
                    expected = _single_form_is_legal(st, seat, a, legal)
                    assert accepted == expected, (a, st["phase"], st["step"])
                    single += expected
                else:
                    assert not accepted, (a, st["phase"], st["step"])
                checked += 1
    assert checked > 10_000 and single > 20


def test_a_priced_action_lists_once_and_its_payments_come_next():
    """A priced action is one listed action; the single-action form of v1 gives the
    same final event as the grouped form followed by `pay`."""
    g = testkit.playthrough(ENGINE, 2, 5)
    st = None
    compared = 0
    for i, e in enumerate(g.events):
        st = ENGINE.evolve(st, e) if i else ENGINE.evolve(None, json.loads(json.dumps(e)))
        if ENGINE.outcome(st) is not None:
            break
        for seat in ENGINE.to_act(st):
            for a in ENGINE.legal_actions(st, seat):
                if a["type"] not in PRICED:
                    continue
                first = ENGINE.decide(st, seat, a, random.Random(0))
                if first[0]["type"] != "payment_requested":
                    continue
                after = ENGINE.simulate(st, first)
                for pay in ENGINE.legal_actions(after, seat):
                    two_step = ENGINE.decide(after, seat, pay, random.Random(0))
                    single = ENGINE.decide(st, seat, {**a, "cards": pay["cards"], "disks": pay["disks"]},
                                           random.Random(0))
                    assert two_step == single
                    compared += 1
    assert compared > 50
