"""New Bedford's Captains named in Spanish running text with their article, as a person writes it:
"pagando al Capitán Ahab", "el barco 1 del Capitán Flask", "la próxima empieza el Capitán
Starbuck", "El Capitán Ahab compra…" (the catalog's `label.name_contractions`, applied by the
terminal's catalogs and, in tests/web/test_nb_captain_restrictions.py, by the browser's), and a
pass a Captain makes at his whale limit said in Spanish, not in the engine's English (`auto`)."""

from __future__ import annotations

import random
import re

import pytest
from tablero_client.models import Game, SeatInfo
from tablero_client.render import describe_event, i18n

from tablero import engines

BARE = re.compile(r"(?:\b(?:a|de|empieza)\s+|^|[(:]\s*)Capit(?:án|anes)\b")  # a name without its article


def captain_game_events(seeds=range(6)) -> list[tuple[engines.LocalGame, dict]]:
    """Every event of whole solo games against three Captains (random moves for the one seat)."""
    out = []
    for seed in seeds:
        g = engines.LocalGame("new-bedford", seats=1, seed=seed, options={"captains": ["ahab", "starbuck", "flask"]})
        rng = random.Random(seed)
        while g.outcome() is None:
            seat = min(g.to_act())
            g.act(seat, rng.choice(g.legal_actions(seat)))
        out += [(g, g.event_view(e)) for e in g.events]
    return out


def _game(g: engines.LocalGame) -> Game:
    return Game(id="g1", engine="new-bedford", version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                to_act=[], view=g.view(0), seats=[SeatInfo(seat=0, kind="SEAT_KIND_HUMAN")], your_seat=0)


@pytest.fixture
def spanish():
    i18n.set_language("es")
    yield
    i18n.set_language("en")


def test_captains_take_their_article_in_spanish_log_lines(spanish):
    games: dict[int, Game] = {}
    text = [line for g, e in captain_game_events()
            if "Capit" in (line := describe_event(e, games.setdefault(id(g), _game(g))))]
    assert text, "the games named no Captain"
    bare = [line for line in text if BARE.search(line)]
    assert not bare, bare[:5]
    joined = "\n".join(text)
    for wanted in (r"1\$ de tarifa a la reserva \(edificio del Capitán \w+\)", r"El barco \d del Capitán \w+ captura",
                   r"la próxima empieza el Capitán \w+", r"^El Capitán \w+ compra"):
        assert re.search(wanted, joined, re.M), wanted


def test_a_captain_passing_at_his_whale_limit_says_why_in_each_language(spanish):
    passes = [(g, e) for g, e in captain_game_events() if e["type"] in ("pick_passed", "buy_passed") and e.get("auto")]
    assert passes, "no Captain passed at his limit in these games"
    g, e = passes[0]
    assert e["why"] in ("at_whale_limit", "cannot_afford_whale")
    line = describe_event(e, _game(g))
    assert "the Captain" not in line and "whale limit" not in line, line
    assert "(el Capitán está en su límite de ballenas)" in line or "(no puede pagar ninguna ballena en venta)" in line
    i18n.set_language("en")
    assert "(the Captain is at his whale limit)" in describe_event(e, _game(g)) or e["why"] != "at_whale_limit"


def test_english_names_are_left_alone():
    i18n.set_language("en")
    g, e = next((g, e) for g, e in captain_game_events(range(2)) if e["type"] == "whale_picked" and e["seat"] >= 1)
    assert re.match(r"Captain \w+’s ship \d takes", describe_event(e, _game(g)))
