"""An outside tester's findings in Phoenicia's words (the catalogs both clients read): storage-limit
discards that differ only in the cards discarded said which cards (seed-P 2d: "pudiendo elegir con
cuales cartas quedarse"); a development card's payment says the discs paid too; the final breakdown
names every key ("purchases" was shown raw) and the tie-break's production cards are plural
(seed-P Fin del juego: "más discos y Cartas de Producción")."""

from __future__ import annotations

import pytest
from tablero.engines.core.messages import catalog
from tablero_client.models import Game, SeatInfo
from tablero_client.render import action_label, describe_event, i18n, messages
from tablero_client.render.scores import _part, _record

from tablero import engines

from .helpers import game, player, set_turn


def _game(g) -> Game:
    return Game(id="g1", engine="phoenicia", version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                to_act=sorted(g.to_act()), view=g.view(0),
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(g.seats)], your_seat=0, outcome=None)


@pytest.fixture(params=["en", "es"])
def lang(request):
    before = i18n.current_language()
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language(before)


def _discard_options():
    g = game(2, seed=3)
    set_turn(g, [0, 1], turn=0)
    player(g, 0, hand=[4, 4, 4, 5, 5, 5], storehouses=4)
    g.act(0, {"type": "end_turn"})
    return g, [a for a in g.legal_actions(0) if a["type"] == "discard"]


def test_each_discard_option_says_which_cards_it_discards(lang):
    g, options = _discard_options()
    assert sorted(tuple(a["cards"]) for a in options) == [(4, 4), (5, 4), (5, 5)]
    labels = [action_label(a, _game(g)) for a in options]
    assert len(set(labels)) == len(labels), labels
    want = {"en": "Discard 2 cards: 5 and 4", "es": "Descartar 2 cartas: 5 y 4"}[lang]
    assert want in labels, labels


def test_a_development_bought_with_cards_and_discs_says_both(lang):
    g = _game(engines.LocalGame("phoenicia", seats=2, seed=1))
    e = {"type": "development_bought", "seat": 1, "card": "Fort", "price": 7, "cards": [5], "disks": 2, "change": 0}
    only_disks = {**e, "price": 2, "cards": [], "disks": 2}
    want = {"en": ("(card 5 plus 2 disks)", "(2 disks)"), "es": ("(carta 5 más 2 discos)", "(2 discos)")}[lang]
    assert want[0] in describe_event(e, g), describe_event(e, g)
    assert describe_event(only_disks, g).endswith(f"{want[1]}."), describe_event(only_disks, g)


def test_every_key_of_the_final_breakdown_is_worded(lang):
    cat = messages(_game(engines.LocalGame("phoenicia", seats=2, seed=1)))
    line = {"source": "city_center", "purchases": 1, "vp_each": 1, "vp": 1}
    said = _record(cat, line)
    assert {"en": "purchases 1", "es": "compras 1"}[lang] in said, said
    assert _part(cat, "production_card_value") == {"en": "Value of the production cards",
                                                   "es": "Valor de las cartas de producción"}[lang]


def test_the_catalogs_word_the_tie_break_as_the_rulebook_does():
    assert "Valor de las cartas de producción" in catalog("phoenicia", "es")["label.details"]
