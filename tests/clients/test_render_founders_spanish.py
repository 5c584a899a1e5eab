"""The Founders of Gloomhaven terminal board in Spanish: tiles ("puesto de planta"), the players'
rows (points, money, free workers, cards, races), proposal cards, the pending, setup, solo and
result lines come from the catalogs: random games of 1 (solo), 2 (drafted setup) and 4 seats
(achievements, Shaping history) drawn at every few moves, in Spanish, show no English word."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import i18n, render

from tablero import engines

ENGINE = "founders-of-gloomhaven"
# English words of the board (none of them a Spanish word too); ids as sent (`quatryl`, `plant`) count.
ENGLISH = re.compile(
    r"\b(the|and|of|pts|free|cards?|seat|trade|stall|tier|building|house|bridge|gate|prestige|proposals?|needs|"
    r"value|discount|worker|points?|Game over|Scores?|Winners?|nobody|Setup|drafting|order|resources?|left|"
    r"placing|placed|Solo|cycle|costs?|roads?|due|reset|achievements?|History|Tied|decided|Chosen|face|down|yes|"
    r"done|active|ACTIVE|lasting|fleeting|influence|Removed|access|claims|square|slot|plant|wood|stone|clay|"
    r"animals|knowledge|population|quatryl|valrath|vermling|savvas|harrower|aesther|lead|follow|basic|"
    r"immediate|unowned|Under way|Phase|Supply|Key)\b")


@pytest.fixture
def spanish():
    i18n.set_language("es")
    yield
    i18n.set_language("en")


def _text(g: engines.LocalGame, you: int | None) -> str:
    view = g.view(you)
    game = Game(id="g1", engine=ENGINE, version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                to_act=sorted(view["to_act"]), view=view,
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(g.seats)], your_seat=you)
    console = Console(record=True, width=200, color_system=None, file=io.StringIO())
    console.print(render(game))
    return console.export_text()


def _english(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if ENGLISH.search(line)]


@pytest.mark.parametrize(("seats", "options", "seen"), [
    (1, None, ["Solitario: ciclo", "Fin de la partida"]),
    (2, {"setup": "draft"}, ["Preparación: orden de selección", "Fin de la partida"]),
    (4, {"achievements": True, "shaping_history": True}, ["logros:", "Modelando la historia"]),
])
def test_a_whole_game_of_founders_reads_in_spanish_in_the_terminal(spanish, seats, options, seen):
    g = engines.LocalGame(ENGINE, seats=seats, seed=2, options=options)
    shown = ""
    while True:
        for you in (0, None):
            text = _text(g, you)
            assert "renderer failed" not in text, text
            bad = _english(text)
            assert not bad, bad[:8]
            shown += text
        if g.outcome() is not None or g.version > 3000:
            break
        g.play_random(max_steps=g.version // 4 + 3)
    for words in ["puesto de", "ptos.", "libre", "cartas", "propuesta", " — necesita ", *seen]:
        assert words in shown, words


def test_the_shaping_history_note_names_buildings_and_sections_in_spanish(spanish):
    """The engine writes the buildings' and sections' English names into the event card
    (`name`, `section`); the note reads them from the catalogs, by the card and `section_id`."""
    from tests.engines.founders_of_gloomhaven.test_solo_and_variants import _ending

    g, events = _ending({"shaping_history": True})
    assert g.outcome()["shaping_history"]["buildings"][0]["section_id"] == "middle"
    assert all("section_id" in b for b in g.event_view(events[-1])["buildings"])
    for you in (0, None):
        text = " ".join(_text(g, you).split())
        assert "Modelando la historia: " in text, text
        assert ("Edificios a los que asiento 1" in text and "entregó: Taberna (Recodo del Río, 2 fichas de entrega); "
                "Atalaya (Costa Oeste, 1 ficha de entrega).") in text, text
        assert not re.search(r"Tavern|Watchtower|Riverbend|Westshore", text)


def test_the_log_in_spanish_names_the_map_reason_winners_and_own_card_in_words(spanish):
    """A solo game's log said "en el mapa thematic", "(solo claims unpaid)", "ganadores: ." and
    "juega una carta boca abajo (comercio)" where the hand says "Comercio"."""
    from tablero_client.render import describe_event

    g = engines.LocalGame(ENGINE, seats=1, seed=1)
    game = Game(id="g1", engine=ENGINE, version=g.version, players=1, status="GAME_STATUS_RUNNING", to_act=[0],
                view=g.view(0), seats=[SeatInfo(seat=0, kind="SEAT_KIND_HUMAN")], your_seat=0)
    said = [describe_event(e, game) for e in (
        {"type": "game_started", "map": "thematic", "races": ["aesther"]},
        {"type": "game_ended", "reason": "solo_claims_unpaid", "scores": [5], "winners": []},
        {"type": "card_played", "seat": 0, "face_up": False, "private": {"0": {"card": "trade"}}})]
    assert "en el mapa temático;" in said[0], said
    assert "(reclamaciones del solitario sin pagar)" in said[1] and said[1].endswith("ganadores: ninguno."), said
    assert said[2].endswith("boca abajo (Comercio)."), said
