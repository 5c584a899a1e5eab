"""New Bedford's Captains (El Océano Solitario) in Spanish in the terminal: the Captains table
(heading, "Restricciones a Preparar y Zarpar", limits) and the log of a Captain's turns (its
heading, a worker it cannot place and why) come from the catalogs, not from the engine's
English (`heading_text`, `restrictions.text`, `reason`)."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console
from tablero.engines.new_bedford import captains
from tablero_client.models import Game, SeatInfo
from tablero_client.render import describe_event, i18n, render

from tablero import engines

# English the engine writes for a Captain (its view's texts and its events' reasons).
ENGLISH = re.compile(r"\b(Prepare|Launch|heading|Captains?|ships?|Dock|whales|buildings|limits|restrictions|"
                     r"lumber|food|brick|money|build|launch|space|worker|orders|token|round|places)\b")


@pytest.fixture
def spanish():
    i18n.set_language("es")
    yield
    i18n.set_language("en")


def _game(g: engines.LocalGame, you: int | None = 0) -> Game:
    return Game(id="g1", engine="new-bedford", version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                to_act=sorted(g.to_act()), view=g.view(you),
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(g.seats)], your_seat=you)


def _captains_table(game: Game) -> str:
    console = Console(record=True, width=240, color_system=None, file=io.StringIO())
    console.print(render(game))
    text = console.export_text()
    return text[text.index("Capitanes"):text.index("Espacios de la ciudad")]


def test_the_captains_table_is_spanish(spanish):
    g = engines.LocalGame("new-bedford", seats=1, seed=3, options={"captains": ["starbuck", "flask"]})
    caps = {c["name"]: c["player"] for c in g.view(0)["captains"]["captains"]}
    for name in ("starbuck", "flask"):  # one ship of each on the Dock
        g.state["players"][caps[name]]["ships"][0]["at"] = "dock"
    g.state["players"][caps["starbuck"]]["captain"]["heading"] = "launch:4"
    table = _captains_table(_game(g))
    assert "restricciones a preparar y zarpar" in table and "rumbo" in table
    assert "hacer zarpar un barco al espacio 4" in table
    assert "Preparar: solo cuando ninguno de sus barcos espera en el Muelle" in table  # Starbuck
    assert "Preparar: solo mientras menos de 2 de sus barcos esperen en el Muelle" in table  # Flask
    assert "Ahora no puede preparar (1 de sus barcos está en el Muelle)" in table
    assert "ballenas" in table and "edificios" in table
    assert not ENGLISH.findall(table), table


def test_a_captains_turns_read_in_spanish_in_the_log(spanish):
    g = engines.LocalGame("new-bedford", seats=1, seed=3, options={"captains": ["ahab"]})
    a = next(c["player"] for c in g.view(0)["captains"]["captains"])
    game = _game(g)
    heading = {"type": "captain_heading", "player": a, "captain": "ahab", "roll": 2, "from": 0, "to": 2,
               "heading": "combo:5", "text": "rolled 2: heading prepare, or else launch to space 5"}
    line = describe_event(g.event_view(heading), game)
    assert "preparar, o si no zarpar al espacio 5" in line and not ENGLISH.findall(line), line
    g.state["players"][a]["captain"]["idle"] = True  # he drew a token he could not keep
    idle = captains.worker_turn(g.state, a, random.Random(0))
    assert idle["type"] == "captain_worker_skipped" and idle["reason"].startswith("Ahab drew")
    shown = g.event_view(idle)
    assert shown["why"] == "worker_sits_out"
    line = describe_event(shown, game)
    assert "su trabajador no se coloca esta ronda" in line and not ENGLISH.findall(line), line
    searched = {**idle, "rolled_heading": "money", "heading": "money", "entry": "end of the orders", "trace": [],
                "rolls": [], "helm": 0, "reason": "no action satisfies the orders"}
    line = describe_event(g.event_view(searched), game)
    assert "ninguna acción satisface sus Órdenes" in line and not ENGLISH.findall(line), line


def test_a_choice_for_a_captain_says_what_the_captain_would_do_in_spanish(spanish):
    """Ahab went round his orders twice and drew a sperm whale: the human picks the ship. The moves
    read "Elegir por el Capitán: Barco 2" with what it records (not the engine's English `text`)."""
    from tablero_client.render import action_label

    from tests.engines.new_bedford.test_captains import _ahab_stuck, turn

    g, a = _ahab_stuck({"sperm": 1})
    e = turn(g, a, "money")
    assert e["type"] == "captain_choice_offered" and e["choices"][1]["text"].startswith("put the")
    game = _game(g)
    labels = [action_label(x, game) for x in g.legal_actions(0)]
    assert labels[1].startswith("Elegir por el Capitán: Barco 2 — El Capitán Ahab saca una ficha de Mar: un cachalote, para el barco 2"), labels
    assert not any(ENGLISH.findall(label) for label in labels), labels


def test_what_a_ship_or_a_captain_keeps_reads_se_queda_con(spanish):
    """"se queda 2 ballenas francas" is not Spanish: one keeps something with "quedarse con"."""
    g = engines.LocalGame("new-bedford", seats=1, seed=5, options={"captains": ["ahab", "stubb"]})
    g.play_random()
    game = _game(g, you=0)
    lines = [describe_event(g.event_view(e), game) for e in g.events
             if e["type"] in ("ship_returned", "captain_whales_trimmed")]
    kept = [line for line in lines if " se queda " in line]
    assert kept, lines
    assert all(" se queda con " in line for line in kept), kept


@pytest.mark.parametrize(("lang", "said"), [("es", ("gana el Capitán ", "ganan los Capitanes ", "ganadores: ")),
                                             ("en", ("Captain ", "Captains ", "winners: "))])
def test_the_last_log_line_names_the_captains_who_won(lang, said):
    """A game a Captain won ended its log with "winners: ." (the seats' winners only, none): the line
    names the Captains who won, alone or beside the seats that tied with them."""
    i18n.set_language(lang)
    try:
        endings = []
        for seed in range(1, 7):
            g = engines.LocalGame("new-bedford", seats=1, seed=seed, options={"captains": ["ahab", "stubb"]})
            g.play_random()
            end = g.events[-1]
            line = describe_event(g.event_view(end), _game(g))
            assert "winners: ." not in line and "ganadores: ." not in line and line.rstrip(".")[-1] != ":", line
            if end["captain_winners"] and not end["winners"]:
                assert any(line.split("; ")[-1].startswith(s) for s in said[:2]), line
                endings.append(line)
        assert endings, "no seed where a Captain won alone"
    finally:
        i18n.set_language("en")


def test_a_sperm_whale_is_caught_as_un_cachalote(spanish):
    """"captura una cachalote": cachalote is masculine (ballena franca, ballena de Groenlandia are not)."""
    g = engines.LocalGame("new-bedford", seats=1, seed=3, options={"captains": ["ahab"]})
    game = _game(g)
    said = {k: describe_event(g.event_view({"type": "whale_picked", "seat": 0, "ship": 1, "kind": k}), game)
            for k in ("sperm", "right", "bowhead")}
    assert said["sperm"].endswith("captura un cachalote."), said
    assert said["right"].endswith("captura una ballena franca.") and said["bowhead"].endswith("captura una ballena de Groenlandia."), said
