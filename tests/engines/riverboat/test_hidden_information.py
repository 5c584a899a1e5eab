"""Hidden information: the crop-card deck, the tile draw piles and the opportunity deck are
hidden from everyone; views and redacted events never show their order."""

import json
import random

from tablero.engines.core import testkit
from tablero.engines.riverboat import ENGINE

from .helpers import at_phase, new_game


def test_views_show_pile_sizes_but_never_the_order_of_decks_and_piles():
    g = at_phase("planting", seats=3)
    for seat in (None, 0, 1, 2):
        v = g.view(seat)
        text = json.dumps(v)
        assert "crop_deck\"" not in text and "opp_deck" not in text and "piles" not in text
        assert v["crop_deck_size"] == len(g.state["crop_deck"])
        assert v["pile_sizes"] == {k: len(p) for k, p in g.state["piles"].items()}
        assert v["opportunity_deck_size"] == len(g.state["opp_deck"])


def test_the_start_event_keeps_every_order_secret_and_shows_the_face_up_components():
    g = new_game(2)
    for seat in (None, 0, 1):
        e = ENGINE.event_view(g.events[0], seat)
        assert "secret" not in e
        assert e["crop_supply"] and len(e["opportunity_spaces"]) == 4


def test_resampling_hidden_information_never_changes_a_view():
    g = testkit.playthrough(ENGINE, 4, 77)
    testkit.check_views(g, random.Random(3), samples=60)


def test_resampling_keeps_the_public_bottom_of_the_opportunity_deck():
    g = at_phase("scoring")
    s = g.state
    k = s["opp_known_bottom"]
    assert k > 0, "the opportunity leftovers went under the deck"
    for i in range(5):
        alt = ENGINE.resample_hidden(s, 0, random.Random(i))
        assert alt["opp_deck"][-k:] == s["opp_deck"][-k:]
        assert sorted(alt["opp_deck"]) == sorted(s["opp_deck"])
        assert sorted(alt["crop_deck"]) == sorted(s["crop_deck"])
