"""legal_actions is complete and exact: over a wide set of candidate actions (every
action type, payments of up to two cards and four disks, every bid up to 30, every
move), decide accepts exactly those that legal_actions lists."""

import itertools
import json
import random

from engines.core import IllegalAction, InvalidAction, testkit

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
    for ti, tile in enumerate(st["players"][seat]["tiles"]):
        for si in range(len(tile["slots"])):
            for k in KINDS:
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


def test_decide_accepts_exactly_the_actions_legal_actions_lists():
    g = testkit.playthrough(ENGINE, 3, 21)
    st = None
    checked = 0
    for i, e in enumerate(g.events):
        st = ENGINE.evolve(st, e) if i else ENGINE.evolve(None, json.loads(json.dumps(e)))
        if i % 23 or ENGINE.outcome(st) is not None:
            continue
        for seat in range(3):
            legal = {_key(a) for a in ENGINE.legal_actions(st, seat)}
            for a in _candidates(st, seat):
                try:
                    ENGINE.decide(st, seat, a, random.Random(0))
                    accepted = True
                except (IllegalAction, InvalidAction):
                    accepted = False
                assert accepted == (_key(a) in legal), (a, st["phase"], st["step"])
                checked += 1
    assert checked > 10_000
