"""Rulebook "Configuración inicial": the deck per player count, the first display,
the starting village, the Overlord and the first production card."""

import pytest
from tablero.engines.core import testkit
from tablero.engines.phoenicia import data
from tablero.engines.phoenicia.engine import first_display, scoring

from .helpers import ENGINE, game


@pytest.mark.parametrize(("seats", "size"), [(2, 19), (3, 29), (4, 38), (5, 48)])
def test_development_deck_uses_1_1_2_1_2_2_3_2_copies_of_a_and_b_cards(seats, size):
    g = game(seats)
    assert len(g.state["deck"]) + len(g.state["display"]) == size
    every = g.state["deck"] + g.state["display"]
    for c in data.CARDS:
        assert every.count(c["name"]) == data.COPIES[seats][c["ab"]]


def test_sets_are_stacked_with_set_1_on_top_and_set_4_at_the_bottom():
    g = game(5, seed=3)
    sets = [data.CARD[c]["set"] for c in g.state["deck"]]
    assert sets == sorted(sets)
    assert all(data.CARD[c]["set"] == 1 for c in g.state["display"])


def test_first_display_replaces_granaries_and_forts_at_once():
    set1 = ["Granary", "Dyer", "Fort", "Fort", "Tracker", "Prospector", "Glassmaking"]
    display, replaced, rest = first_display(set1, 3)
    assert display == ["Dyer", "Tracker", "Prospector"]
    assert replaced == ["Granary", "Fort", "Fort"]
    assert rest == ["Glassmaking"]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_no_granary_or_fort_can_be_auctioned_in_the_first_round_and_they_go_back_into_set_1(seats):
    for seed in range(30):
        g = game(seats, seed)
        assert not set(g.state["display"]) & {"Granary", "Fort"}
        first = g.events[0]
        set1_left = [c for c in g.state["deck"] if data.CARD[c]["set"] == 1]
        for c in first["replaced"]:
            assert c in set1_left


def test_starting_village_has_3_production_2_vp_2_storehouses_2_disks_and_an_untrained_worker():
    g = game(3)
    for p in g.state["players"]:
        assert (p["production"], p["vp"], p["storehouses"], p["disks"]) == (3, 2, 2, 2)
        assert (p["untrained"], p["trained"]) == (1, 0)
        assert [t["kind"] for t in p["tiles"]] == ["hunting", "farming"]
        assert scoring(p)["workers_vp"] == 2
        assert len(p["hand"]) == 1 and p["preset"] == 0


def test_the_overlord_is_drawn_at_random_and_starts_the_first_round():
    seen = {game(4, seed).state["overlord"] for seed in range(40)}
    assert seen == {0, 1, 2, 3}
    g = game(4, seed=5)
    assert g.to_act() == {g.state["overlord"]}
    assert g.state["order"][0] == g.state["overlord"]


def test_each_player_gets_one_secret_production_card():
    g = game(3, seed=2)
    first = g.events[0]
    for s in range(3):
        assert first["private"][str(s)]["hand"] == g.state["players"][s]["hand"]
        red = g.event_view(first, s)
        assert set(red["private"]) == {str(s)}
    assert len(g.state["production_deck"]) == 40 - 3


def test_introductory_game_gives_everyone_a_public_preset_card_of_5():
    g = game(4, seed=1, options={"preset_production": True})
    assert all(p["preset"] == 1 and p["hand"] == [] for p in g.state["players"])
    assert len(g.state["production_deck"]) == 40
    v = g.view(0)
    assert [q["preset_cards"] for q in v["players"]] == [1, 1, 1, 1]


def test_production_deck_has_40_cards_of_4_5_and_6():
    assert sum(data.PRODUCTION_DECK.values()) == 40
    assert set(data.PRODUCTION_DECK) == {4, 5, 6}


def test_card_table_has_ten_a_and_nine_b_cards_in_48_copies():
    a = [c for c in data.CARDS if c["ab"] == "A"]
    b = [c for c in data.CARDS if c["ab"] == "B"]
    assert (len(a), len(b), 3 * len(a) + 2 * len(b)) == (10, 9, 48)


def test_an_introductory_game_plays_to_the_end_replays_and_hides():
    g = testkit.run_all(ENGINE, 3, 5, {"preset_production": True})
    assert g.outcome()["winners"]
    assert "private" not in g.events[0]  # the preset 5s are known to everyone
