"""Scenarios for seed-P 1a (shared/rules/003_511c13edd7374df3.txt l.182-207, l.266) that the
other auction tests do not pin: a discount from a card bought earlier in the same turn, an
active player auctioning every face-up card, the opening minimum as money runs down, and a
later player using at once what he won in another player's turn."""

import pytest
from tablero.engines import IllegalAction

from .helpers import game, player, set_turn, tile, types


def _openable(g, seat):
    return {a["card"] for a in g.legal_actions(seat) if a["type"] == "open_auction"}


def test_l200_a_dyer_bought_earlier_in_the_same_turn_discounts_the_dye_house_auctioned_after_it():
    """l.200: the discount applies "si el jugador tiene desde antes un cubo ... producto de una Carta
    de Desarrollo adquirida con anterioridad a esta particular subasta" -- earlier in the same
    turn is before this auction."""
    g = game(3, seed=4)
    set_turn(g, [1, 2, 0], turn=2)  # seat 0 plays last: nobody bids against him
    g.state["display"] = ["Dyer", "Dye House", "Ships"]
    player(g, 0, hand=[6, 6], disks=2, storehouses=4)  # 14 in all
    g.act(0, {"type": "open_auction", "card": "Dyer", "bid": 2})
    g.act(0, {"type": "pay", "cards": [], "disks": 2})
    ev = g.act(0, {"type": "open_auction", "card": "Dye House", "bid": 14})
    won = ev[-1]
    assert (won["type"], won["discount"], won["price"]) == ("auction_won", 4, 10)
    g.act(0, {"type": "pay", "cards": [6, 6], "disks": 0})
    p = g.state["players"][0]
    assert sorted(p["cards"]) == ["Dye House", "Dyer"] and p["disks"] == 2  # 12 for 10: 2 back


def test_l207_the_active_player_may_auction_every_face_up_card_and_none_is_replaced_before_2b():
    """l.207: "incluso hasta subastar todas las que estaban bocarriba"; l.205: "La carta subastada
    no se reemplaza por una nueva"; 2b (l.289) turns up as many as are missing."""
    g = game(3, seed=4)
    set_turn(g, [1, 2, 0], turn=2)
    g.state["display"] = ["Dyer", "Prospector", "Tracker"]
    player(g, 0, hand=[6, 6], disks=3, storehouses=4)
    for card, bid in (("Dyer", 2), ("Prospector", 2), ("Tracker", 3)):
        g.act(0, {"type": "open_auction", "card": card, "bid": bid})
        g.act(0, g.legal_actions(0)[0])
    assert g.state["display"] == []
    assert not _openable(g, 0)
    top = g.state["deck"][:3]
    for s in (1, 2):
        player(g, s, hand=[], disks=0)
    g.act(0, {"type": "end_turn"})
    while g.state["phase"] == "limits":
        s = min(g.to_act())
        g.act(s, g.legal_actions(s)[0])
    assert g.state["display"] == top


def test_l207_a_card_whose_minimum_he_can_no_longer_pay_is_not_offered_after_an_earlier_purchase():
    """l.207: new auctions "en la medida que tenga la puja mínima inicial para cada una de ellas"."""
    g = game(3, seed=4)
    set_turn(g, [1, 2, 0], turn=2)
    g.state["display"] = ["Caravan", "Glassmaking", "Dyer"]
    player(g, 0, hand=[6, 6], disks=0, storehouses=4)  # 12
    assert _openable(g, 0) == {"Caravan", "Glassmaking", "Dyer"}
    g.act(0, {"type": "open_auction", "card": "Glassmaking", "bid": 5})
    g.act(0, {"type": "pay", "cards": [6], "disks": 0})  # 6 + 1 disk left: 7
    assert _openable(g, 0) == {"Dyer"}  # Caravan's minimum is 9
    with pytest.raises(IllegalAction, match="cannot pay"):
        g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 9})


def test_l198_a_later_player_who_wins_a_worker_in_anothers_turn_employs_it_in_his_own():
    """l.198: the winner receives the card's pawns at once; l.266: his own turn comes later."""
    g = game(2, seed=11)
    set_turn(g, [0, 1])
    g.state["display"] = ["Indentured Worker"]
    player(g, 0, hand=[], disks=3)
    player(g, 1, hand=[6], disks=3, storehouses=2)
    g.act(0, {"type": "open_auction", "card": "Indentured Worker", "bid": 3})
    g.act(1, {"type": "bid", "amount": 4})
    ev = g.act(0, {"type": "drop_out"})
    assert ev[-1]["seat"] == 1
    g.act(1, {"type": "pay", "cards": [6], "disks": 0})  # 6 for 4: 2 disks back
    assert g.state["players"][1]["trained"] == 1 and g.state["players"][1]["disks"] == 5
    g.act(0, {"type": "end_turn"})
    assert g.to_act() == {1}
    vp = g.state["players"][1]["vp"]
    ev = g.act(1, {"type": "employ", "tableau": "farming", "cards": [], "disks": 5})
    assert types(ev) == ["worker_employed"]
    assert tile(g, 1, "farming")["slots"][:2] == ["w", "w"]
    assert g.state["players"][1]["vp"] == vp + 1


def test_l188_a_raise_must_beat_the_bid_by_at_least_one_and_each_bidder_raises_or_passes_in_turn():
    """l.188: "en sentido horario los jugadores deben subirla o pasar definitivamente"."""
    g = game(4, seed=3)
    set_turn(g, [0, 1, 2, 3])
    g.state["display"] = ["Caravan"]
    for s in range(4):
        player(g, s, hand=[6, 6], disks=3, storehouses=4)
    g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 9})
    assert {a["type"] for a in g.legal_actions(1)} == {"bid", "drop_out"}
    assert min(a["amount"] for a in g.legal_actions(1) if a["type"] == "bid") == 10
    with pytest.raises(IllegalAction, match="raise"):
        g.act(1, {"type": "bid", "amount": 9})
    for s in (2, 3, 0):  # only the bidder named may act
        assert g.legal_actions(s) == []
        for action in ({"type": "bid", "amount": 10}, {"type": "drop_out"}):
            with pytest.raises(IllegalAction, match="may not act now"):
                g.act(s, action)
