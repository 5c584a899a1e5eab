"""What each seat sees and is offered, in situations the other view tests do not pin (seed-P
Etiqueta l.324-327: card values secret unless used or discarded, their number public; the
development deck face down; setup l.138: the preset 5s go back to the box once used)."""

import copy

from tablero.engines.core.local import canonical_json

from .helpers import ENGINE, game, player, set_turn


def test_2d_each_seat_over_its_storehouses_is_offered_only_discards_of_its_own_cards():
    g = game(3, seed=5)
    set_turn(g, [1, 2, 0], turn=2)
    g.state["display"] = []
    player(g, 0, hand=[4, 6], disks=3, storehouses=2)  # 3 + 3: one more card -> 3 cards
    player(g, 1, hand=[5], disks=0, storehouses=2)     # 3 + 0: no card -> within the limit
    player(g, 2, hand=[5, 5], disks=1, storehouses=2)  # 3 + 1: one more card -> 3 cards
    g.state["production_deck"][:2] = [4, 6]
    g.act(0, {"type": "end_turn"})
    assert g.state["phase"] == "limits" and g.to_act() == {0, 2}
    assert g.legal_actions(1) == []
    for s in (0, 2):
        hand = g.state["players"][s]["hand"]
        offered = g.legal_actions(s)
        assert offered and all(a["type"] == "discard" and len(a["cards"]) == 1 for a in offered)
        assert sorted(a["cards"][0] for a in offered) == sorted(set(hand))
    v = g.view(1)
    assert v["discard"]["seats"] == {"0": 1, "2": 1}  # who must discard how many: public
    assert [q["hand"] for q in v["players"]] == [None, g.state["players"][1]["hand"], None]
    assert [q["hand_size"] for q in v["players"]] == [3, 1, 3]


def test_the_development_deck_order_is_not_in_any_view():
    """Two worlds that differ only in the order of the face-down deck look the same to everyone."""
    g = game(4, seed=2)
    other = copy.deepcopy(g.state)
    deck = other["deck"]
    first_set_2 = next(i for i, c in enumerate(deck) if c in ("Caravan", "Dye House", "City Center", "Smelter",
                                                                "Shipyard"))
    other["deck"] = list(reversed(deck[:first_set_2])) + deck[first_set_2:]
    assert other["deck"] != g.state["deck"]
    for seat in (None, 0, 1, 2, 3):
        assert canonical_json(ENGINE.view(other, seat)) == canonical_json(ENGINE.view(g.state, seat))


def test_a_bidders_offers_stop_at_what_he_could_pay_and_reveal_nothing_to_the_others():
    g = game(3, seed=4)
    set_turn(g, [0, 1, 2])
    g.state["display"] = ["Caravan"]
    player(g, 0, hand=[6, 6], disks=3, storehouses=4)
    player(g, 1, hand=[6, 4], disks=1, storehouses=4)  # 11
    player(g, 2, hand=[6, 6], disks=3, storehouses=4)
    g.act(0, {"type": "open_auction", "card": "Caravan", "bid": 9})
    assert [a.get("amount") for a in g.legal_actions(1)] == [10, 11, None]
    assert g.legal_actions(0) == g.legal_actions(2) == []
    for seat in (0, 2):
        assert g.view(seat)["players"][1]["hand"] is None


def test_a_paid_preset_5_goes_back_to_the_box_and_a_paid_card_of_the_deck_to_the_open_discard_pile():
    g = game(2, seed=11, options={"preset_production": True})
    set_turn(g, [1, 0], turn=1)
    g.state["display"] = ["Glassmaking", "Dyer"]
    player(g, 0, hand=[6], preset=1, disks=0, storehouses=2)
    g.act(0, {"type": "open_auction", "card": "Glassmaking", "bid": 5})
    assert {"type": "pay", "cards": [5], "disks": 0} in g.legal_actions(0)
    g.act(0, {"type": "pay", "cards": [5], "disks": 0})
    p = g.state["players"][0]
    assert (p["preset"], p["hand"], g.state["discard_pile"]) == (0, [6], [])
    g.act(0, {"type": "open_auction", "card": "Dyer", "bid": 2})
    g.act(0, {"type": "pay", "cards": [6], "disks": 0})
    assert g.state["discard_pile"] == [6]
    assert g.view(1)["discard_pile"] == [6] and g.view(1)["players"][0]["hand_size"] == 0
