"""A whale sale in a game of two humans against a Captain (rulebook p.7: the others buy in turn
order after the seller, one whale at a time, at the full lay; solo p.15: Captains buy what the
players sell, without paying; p.16: with 1 Captain and 2-3 players the Captain is always first
and the humans alternate as next)."""

from .captain_helpers import cap, hold, solo
from .helpers import player


def _returning(g, seat, **whales):
    g.state["phase"] = "movement"
    g.state["track"][0] = [[seat, 1]]
    player(g, seat)["ships"][0].update(at="returning", row=0, hold=hold(**whales))


def test_the_other_human_and_the_captain_buy_in_turn_order_after_the_seller():
    g = solo(["starbuck"], seats=2)
    s = cap(g, "starbuck")
    assert g.state["captain_game"]["order"] == [s, 0, 1]
    _returning(g, 0, right=2, sperm=1)
    player(g, 0)["money"] = 0
    player(g, 1)["money"] = 10
    events = g.act(0, {"type": "return_ship", "pay": hold(), "sell": hold(right=2, sperm=1)})
    assert player(g, 0)["money"] == 1 + 1 + 4  # half of each lay, first
    # After seat 0 comes seat 1, then the Captain (the order wraps round).
    assert g.state["sale"]["queue"] == [1, s] and g.to_act() == {1}
    assert not [e for e in events if e["type"] == "whale_bought"]
    events = g.act(1, {"type": "buy_whale", "kind": "sperm"})
    assert player(g, 1)["money"] == 2 and player(g, 1)["returned"]["sperm"] == 1
    buys = [(e["seat"], e["kind"], e["price"]) for e in events if e["type"] == "whale_bought"]
    assert buys == [(1, "sperm", 8), (s, "right", 0)]  # then the Captain's turn: the best left, free
    assert g.to_act() == {1}
    g.act(1, {"type": "buy_whale", "kind": "right"})
    assert g.state["sale"] is None and player(g, 1)["money"] == 0
    assert player(g, s)["returned"]["right"] == 1 and player(g, s)["money"] == 0


def test_the_captain_buys_first_when_he_follows_the_seller():
    g = solo(["starbuck"], seats=2)
    s = cap(g, "starbuck")
    _returning(g, 1, bowhead=1, right=1)
    player(g, 0)["money"] = 10
    player(g, 1)["money"] = 0
    events = g.act(1, {"type": "return_ship", "pay": hold(), "sell": hold(bowhead=1, right=1)})
    assert g.state["sale"]["queue"] == [s, 0]
    buys = [(e["seat"], e["kind"]) for e in events if e["type"] == "whale_bought"]
    assert buys == [(s, "bowhead")] and g.to_act() == {0}
    assert g.legal_actions(0) == [{"type": "buy_whale", "kind": "right"}, {"type": "pass"}]
