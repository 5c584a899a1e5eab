"""A step of a step-by-step choice names its field in the game's language. Found playing
Phoenicia in Spanish to its end: `elige paso a paso por carta:` and then `1. card: Murallas`,
the field's own (English) name beside each option."""

from __future__ import annotations

import pytest
from tablero_client.models import Game, SeatInfo
from tablero_client.render import i18n, step_label

from tablero import engines


def _game(engine: str, seats: int) -> Game:
    g = engines.LocalGame(engine, seats=seats, seed=1)
    return Game(id="g1", engine=engine, version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                to_act=sorted(g.to_act()), view=g.view(0),
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(g.seats)], your_seat=0, outcome=None)


@pytest.fixture
def spanish():
    before = i18n.current_language()
    i18n.set_language("es")
    yield
    i18n.set_language(before)


def test_phoenicias_card_step_is_worded_in_spanish(spanish):
    assert step_label("card", "Temple", _game("phoenicia", 3)) == "carta: Templo"


def test_a_field_the_catalog_does_not_word_keeps_its_name(spanish):
    label = step_label("zz_unknown", 3, _game("phoenicia", 3))
    assert label == "zz unknown: 3"


def test_riverboats_phase_bonus_is_told_in_spanish(spanish):
    """Found in the same way: `Asiento 1 (bot) gana 1 PV (phase bonus).` in a Spanish log."""
    from tablero.engines.core.testkit import random_turns
    from tablero_client.render import describe_event

    for seed in (1, 2, 3):
        for g, _seat, _legal in random_turns("riverboat", 2, seed):
            gained = [e for e in g.events if e.get("type") == "gained" and e.get("reason") == "phase_bonus"]
            if gained:
                line = describe_event(g.engine.event_view(gained[0], 0), _game("riverboat", 2))
                assert "phase bonus" not in line and "(bonus de fase)" in line, line
                return
    pytest.fail("no phase bonus in these games")


def test_the_kind_of_move_is_named_without_its_blanks(spanish):
    """Found by an outside acceptance pass (`tablero play riverboat` in Spanish): the first step
    listed "Plantar una loseta de tamaño  en las casillas   (30 opciones)", the whole move's
    sentence with its fields left blank; it is the move's kind, as the browser names it."""
    game = _game("riverboat", 2)
    assert step_label("type", "plant", game) == "Plantar"
    assert step_label("type", "search_pile", game) == "Buscar en un montón (moneda)"  # it costs a coin
    for engine in ("tic-tac-toe", "goofspiel", "phoenicia", "new-bedford", "founders-of-gloomhaven"):
        for kind in ("pass", "place", "bid", "buy", "build"):
            label = step_label("type", kind, _game(engine, 2))
            assert label.strip() == label and "  " not in label, (engine, kind, label)


def test_one_hex_is_singular(spanish):
    cat = i18n.catalog("riverboat")
    assert cat.format("label.term_size", {"size": 1}) == "una loseta de 1 hexágono"
    assert cat.format("label.term_size", {"size": 3}) == "una loseta de 3 hexágonos"


def test_founders_standard_cards_are_named_with_a_capital_in_spanish(spanish):
    """(outside pass: "Jugar comercio" beside "Reclutar": the catalog's name.trade is also the
    building category, lower case for use mid-sentence) A card is named as printed, capitalised."""
    from tablero_client.render import action_label

    game = _game("founders-of-gloomhaven", 2)
    labels = [action_label({"type": "play_card", "card": c, "face_up": True}, game) for c in ("trade", "income")]
    assert labels[0].startswith("Jugar Comercio") and labels[1].startswith("Jugar Ingresos"), labels
