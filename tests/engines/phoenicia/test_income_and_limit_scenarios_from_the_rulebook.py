"""Scenarios for seed-P 2c and 2d (shared/rules/003_511c13edd7374df3.txt l.291-313) that the other
treasury tests do not pin: a Granary's six disks in the 4-for-a-card count, a refill into a
six-space treasury, the last card of the old deck dealt before the reshuffled one, and a 2d
discard choice that keeps the best cards."""

from .helpers import game, player, set_turn, types


def _last_turn(seats=2, seed=11):
    g = game(seats, seed)
    set_turn(g, [1, 0], turn=1)
    g.state["display"] = []
    return g


def test_l293_six_granary_disks_and_6_production_make_three_cards_and_no_disk():
    """l.293: "por cada 4 discos, se le entrega 1 Carta de Producción (se consideran también ...
    aquellos discos que se encuentren en su tesorería)"."""
    g = _last_turn()
    g.state["players"][0]["tiles"][1]["slots"][1] = "w"  # a second farmer: production 5
    p = player(g, 0, hand=[], disks=6, cards=["Granary", "Glassmaking"], storehouses=4)
    assert p["production"] == 6
    player(g, 1, hand=[], disks=0)
    ev = g.act(0, {"type": "end_turn"})
    mine = next(e for e in ev if e["type"] == "production_dealt" and e["seat"] == 0)
    assert (mine["cards"], mine["disks"]) == (3, 0)
    assert types(ev)[-1] == "round_started"  # 3 cards, 4 storehouses: nothing to discard


def test_l309_a_discarded_card_refills_a_granary_treasury_up_to_six():
    g = _last_turn()
    player(g, 0, hand=[6, 6], disks=0, cards=["Granary"], storehouses=1)  # one card too many
    player(g, 1, hand=[], disks=0)
    ev = g.act(0, {"type": "end_turn"})
    assert types(ev) == ["discard_required"]
    ev = g.act(0, {"type": "discard", "cards": [6]})
    assert ev[0] == {"type": "limits_applied", "seat": 0, "discarded": [6], "disks": 6, "lost": 0}


def test_l299_the_last_card_of_the_old_deck_is_dealt_first_then_the_reshuffled_discards():
    g = _last_turn()
    g.state["players"][0]["tiles"][1]["slots"][1] = "w"  # hunter 1 + two farmers 4 + Caravan 2
    p = player(g, 0, hand=[], disks=1, cards=["Caravan"], storehouses=3)
    assert p["production"] == 7  # 7 + 1 disk: two cards
    player(g, 1, hand=[], disks=0)  # 3: no card
    g.state["production_deck"] = [5]
    g.state["discard_pile"] = [4, 4]
    ev = g.act(0, {"type": "end_turn"})
    assert "production_reshuffled" in types(ev)
    assert sorted(g.state["players"][0]["hand"]) == [4, 5]
    assert g.state["production_deck"] == [4] and g.state["discard_pile"] == []


def test_l308_the_player_chooses_which_cards_to_keep_at_2d():
    """l.308: "debe descartar las cartas en exceso, pudiendo elegir con cuales cartas quedarse"."""
    g = _last_turn()
    player(g, 0, hand=[4, 6], disks=3, storehouses=2)  # 3 + 3: one more card
    player(g, 1, hand=[], disks=0)
    g.state["production_deck"][:1] = [5]
    g.act(0, {"type": "end_turn"})
    assert g.state["players"][0]["hand"] == [4, 5, 6]
    g.act(0, {"type": "discard", "cards": [4]})
    p = g.state["players"][0]
    assert (p["hand"], p["disks"]) == ([5, 6], 3)  # 2 disks after 2c, one refilled from the 4
