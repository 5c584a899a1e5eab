"""Scenarios for seed-P 2a and "Fin del juego" (shared/rules/003_511c13edd7374df3.txt l.282-285,
l.315-320) that the other end tests do not pin: what does not happen once the game ends, the
exact threshold, 32 VP reached by an auction winner in another player's turn, and the
tie-breaks where the money reading does not matter."""

from tablero.engines.core.messages import catalog

from .helpers import game, player, set_turn, set_vps, types


def _last_turn(seats=3, seed=5):
    g = game(seats, seed)
    set_turn(g, [1, 2, 0], turn=2)  # seat 1 is the Overlord, seat 0 plays last
    return g


def test_l317_the_game_ends_at_2a_without_a_new_overlord_a_refill_or_production():
    g = _last_turn()
    g.state["display"] = []
    set_vps(g, [32, 10, 10])
    deck, prod = list(g.state["deck"]), list(g.state["production_deck"])
    ev = g.act(0, {"type": "end_turn"})
    assert types(ev) == ["turn_ended", "game_ended"]
    assert g.state["overlord"] == 1 and g.state["display"] == []
    assert g.state["deck"] == deck and g.state["production_deck"] == prod
    assert g.outcome()["winners"] == [0] and g.to_act() == set()


def test_l284_exactly_32_ends_the_game_and_31_does_not():
    g = _last_turn()
    set_vps(g, [31, 31, 31])
    ev = g.act(0, {"type": "end_turn"})
    assert "game_ended" not in types(ev)
    g = _last_turn()
    set_vps(g, [31, 32, 31])
    g.act(0, {"type": "end_turn"})
    assert g.outcome()["winners"] == [1] and g.outcome()["reason"] == "city_state"


def test_l284_32_vp_won_at_auction_in_another_players_turn_ends_the_game_only_after_every_turn():
    """l.284: "Después de que todos los jugadores han realizado su turno, si alguno de ellos llega a
    los 32 puntos, el juego concluye" -- and the players still to play take their turns."""
    g = game(3, seed=5)
    set_turn(g, [0, 1, 2])
    g.state["display"] = ["Public Works"]  # 5 VP
    set_vps(g, [10, 28, 30])
    for s in range(3):
        player(g, s, hand=[6, 6], disks=3, storehouses=4)
    g.act(0, {"type": "open_auction", "card": "Public Works", "bid": 12})
    g.act(1, {"type": "bid", "amount": 13})
    g.act(2, {"type": "drop_out"})
    g.act(0, {"type": "drop_out"})
    g.act(1, {"type": "pay", "cards": [6, 6], "disks": 1})
    assert g.state["players"][1]["vp"] == 33 and g.outcome() is None
    g.act(0, {"type": "end_turn"})
    assert g.to_act() == {1}
    g.act(1, {"type": "end_turn"})
    assert g.to_act() == {2} and g.outcome() is None
    g.act(2, {"type": "end_turn"})
    assert g.outcome()["winners"] == [1]


def test_l319_the_last_rounds_overlord_wins_a_tie_even_with_less_money():
    g = _last_turn()
    set_vps(g, [33, 33, 20])
    player(g, 0, hand=[6, 6], disks=3)
    player(g, 1, hand=[], disks=0)  # the Overlord of this round, penniless
    g.act(0, {"type": "end_turn"})
    out = g.outcome()
    assert out["winners"] == [1] and out["decided_by"] == "last_overlord"


def test_l320_without_the_overlord_the_tied_player_with_more_disks_and_production_cards_wins():
    """l.320: "gana el que tenga más discos y Cartas de Producción". Seat 2 has more of both,
    counted as pieces (3 disks + 2 cards against 1 + 1) or as money (3 + 9 against 1 + 6)."""
    g = _last_turn()
    set_vps(g, [33, 10, 33])
    player(g, 0, hand=[6], disks=1)
    player(g, 2, hand=[4, 5], disks=3, storehouses=2)
    g.act(0, {"type": "end_turn"})
    out = g.outcome()
    assert out["winners"] == [2] and out["decided_by"] == "money"


def test_l284_the_new_overlord_is_whoever_leads_after_every_turn_not_at_the_start_of_the_round():
    g = game(3, seed=5)
    set_turn(g, [0, 1, 2])
    g.state["display"] = ["City Center"]  # 2 VP
    set_vps(g, [8, 7, 2])
    for s in range(3):
        player(g, s, hand=[6], disks=3, storehouses=4)
    g.act(0, {"type": "end_turn"})
    g.act(1, {"type": "open_auction", "card": "City Center", "bid": 4})
    g.act(2, {"type": "drop_out"})
    g.act(1, {"type": "pay", "cards": [6], "disks": 0})
    g.act(1, {"type": "end_turn"})
    ev = g.act(2, {"type": "end_turn"})
    assert next(e for e in ev if e["type"] == "overlord_changed")["seat"] == 1  # 9 VP against 8


def test_an_exhausted_game_is_not_told_as_the_deck_running_out_when_cards_are_still_in_it():
    """Our safety net (RULES.md "Exhausted game") ends a game nobody can win any more, also when
    the deck still holds cards behind a display nobody can ever pay; the words players read for
    that reason must not say the deck ran out."""
    g = _last_turn(seats=2, seed=3)
    set_turn(g, [1, 0], turn=1)
    g.state["display"] = ["City Walls", "City Walls"]
    for p in g.state["players"]:
        for t in p["tiles"]:
            t["slots"] = ["w"] * len(t["slots"])
    for s in range(2):
        player(g, s, untrained=0, trained=0)
    assert g.state["deck"]
    g.act(0, {"type": "end_turn"})
    assert g.outcome()["reason"] == "exhausted" and g.state["deck"]
    for lang, deck_words in (("en", "deck"), ("es", "mazo")):
        words = catalog("phoenicia", lang)["name.exhausted"]
        assert deck_words not in words.lower(), (lang, words)
