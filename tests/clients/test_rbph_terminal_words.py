"""The terminal client says what the browser says after a player's pass on Riverboat and Phoenicia
(tests/web/test_rbph_player_pass.py): a pending send of agents in words, a surveyed card by its
name, one winner as one winner."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import describe_event, i18n, render

from tablero import engines


def _game(engine: str = "riverboat", seats: int = 2) -> Game:
    view = engines.LocalGame(engine, seats=seats, seed=1).view(0)
    return Game(id="g1", engine=engine, version=2, players=seats, status="GAME_STATUS_RUNNING", to_act=[],
                view=view, seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(seats)], your_seat=0)


@pytest.fixture
def spanish():
    before = i18n.current_language()
    i18n.set_language("es")
    yield
    i18n.set_language(before)


def test_a_pending_send_of_agents_reads_as_what_to_do(spanish):
    """"Pendiente: asiento 2: Agentes (max 2)" named the opportunity card, not the decision."""
    game = _game()
    game.view["pending"] = {"seat": 1, "kind": "agents", "max": 2}
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(render(game))
    line = next(x for x in out.getvalue().splitlines() if x.startswith("Pendiente"))
    assert line.endswith("enviar hasta 2 agentes a Nueva Orleans") and "Agentes" not in line, line


def _screen(game: Game) -> str:
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(render(game))
    return out.getvalue()


def test_a_pending_pile_choice_has_no_english_left_in_spanish(spanish):
    """"Pendiente: asiento 1 (tú): elegir del montón (size 2)"."""
    game = _game()
    game.view["pending"] = {"seat": 0, "kind": "choose_from_pile", "size": 2}
    line = next(x for x in _screen(game).splitlines() if x.startswith("Pendiente"))
    assert line.endswith("elegir una loseta del montón de tamaño 2"), line
    game.view["pending"] = {"seat": 0, "kind": "feature", "options": ["barn", "well", "surveyor"], "reason": "riverboat 6"}
    line = next(x for x in _screen(game).splitlines() if x.startswith("Pendiente"))
    assert line.endswith("elemento de la finca (granero / pozo / agrimensor)"), line


def test_the_mats_letters_are_the_spanish_words_initials_as_the_key_says(spanish):
    """The key read "B/W/C/P/K cultivos (remolacha, trigo, maíz, patata, calabaza)": English initials
    (C for maíz, where the browser's C is calabaza)."""
    game = _game()
    me = game.view["players"][0]
    me["crop"][0], me["crop"][1], me["crop"][2] = "corn", "pumpkin", "beet"
    me["feature"][2], me["feature"][3] = "well", "barn"
    screen = _screen(game)
    assert "R/T/M/P/C cultivos (remolacha, trigo, maíz, patata, calabaza), g/p/a granero/pozo/agrimensor" in screen
    assert "M  1  C  2  Rp 3  g  4  ·  5" in screen, screen


def test_the_log_names_the_surveyed_card_and_says_one_winner(spanish):
    game = _game()
    said = describe_event({"type": "surveyed", "seat": 1, "feature": "opportunity", "cell": None, "card": "boats",
                           "vp": 4}, game)
    assert said.endswith("coloca un agrimensor en la carta Barcos (4 PV)."), said
    said = describe_event({"type": "game_ended", "scores": [54, 106], "winners": [1]}, game)
    assert said.endswith("; gana asiento 2."), said
    ph = _game("phoenicia", 3)
    said = describe_event({"type": "game_ended", "reason": "city_state", "winners": [0, 2], "overlord": 1,
                           "vp": [33, 20, 33]}, ph)
    assert "; empate entre asiento 1 (tú) y asiento 3." in said, said


def test_phoenicias_two_moves_of_two_hunters_say_which_worker_moves():
    from tablero_client.render import action_label

    game = _game("phoenicia", 3)
    game.view["players"][0]["tiles"][0]["slots"] = ["w", "w", None, None, None, None]
    labels = [action_label({"type": "move", "from_tile": 0, "from_slot": s, "to": "farming"}, game) for s in (0, 1)]
    assert labels[0].startswith("Move a worker from Hunting (space 1) to Farming"), labels
    assert labels[1].startswith("Move a worker from Hunting (space 2) to Farming"), labels


@pytest.mark.slow
@pytest.mark.flaky(reruns=1)
def test_the_end_screen_at_80x24_says_who_won_in_sight(server, tmux):
    """A Spanish Riverboat game against a bot, ended at 80x24: the last screen held the final
    table's main lines ("Puntos 71 106 … Total") and nothing saying who won (the totals table with
    its GANADOR mark had scrolled off the top)."""
    import random

    from tests.web.api_play import ApiGame

    game = ApiGame(server.http, "riverboat", ["human", "bot"])
    game.play(random.Random(4), lambda g: False, max_moves=3000)
    winners = game.get()["outcome"]["winners"]
    tmux.start(f"python -m tablero_client --url {server.http} play --lang es --game {game.id} --token={game.tokens[0]}")
    tmux.tmux("resize-window", "-t", "play", "-x", "80", "-y", "24")
    tmux.wait(lambda s: "EXITED" in s)
    visible = tmux.tmux("capture-pane", "-p", "-t", "play")
    who = " y ".join(f"asiento {w + 1} \\({'tú' if w == 0 else 'bot[^)]*'}\\)" for w in winners)
    assert re.search(f"Puntuación final · ¡{'Gana' if len(winners) == 1 else 'Ganan'} {who}!", visible), visible


def test_a_long_group_of_the_final_table_is_folded_away_whole():
    """The terminal showed three of Phoenicia's fifteen "VP by card" lines up front and folded the
    other twelve: as the browser (tests/web/test_rbph_player_pass.py), the long group is folded
    whole, a short group is shown whole."""
    from tablero_client.render.scores import columns, rows

    from tests.web.test_rbph_player_pass import phoenicia_like_outcome

    main, more = rows(columns(phoenicia_like_outcome(), ["a", "b"], None))
    assert not [p for p in main if p.startswith("vp_by_card.")] and len([p for p in more if p.startswith("vp_by_card.")]) == 15
    assert [p for p in main if p.startswith("vp_by_tableau.")] == ["vp_by_tableau.hunting", "vp_by_tableau.farming", "vp_by_tableau.mining"]
    assert not [p for p in main if "tie" in p], main  # won outright: no tie to break


def test_phoenicias_spanish_tableaus_are_the_rulebooks_tarjetones():
    """The final table read "PV por tablero › Caza" and a player's area "Tablero de Rojo": the
    Spanish rulebook's word for a village card is "tarjetón" ("tarjetón Hunting (caza)"); "tablero"
    is the central board."""
    from tablero.engines.core import messages

    es = messages.catalog("phoenicia", "es")
    assert "tablero" not in " ".join(es[k] for k in ("label.details", "label.tableau_of", "label.term_column", "label.fields")).lower()
    assert "vp_by_tableau {PV por tarjetón}" in es["label.details"]


def test_phoenicias_payments_name_the_cards_and_the_change():
    from tablero_client.render import action_label

    game = _game("phoenicia", 3)
    game.view["payment"] = {"seat": 0, "card": "Granary", "bid": 4, "price": 4}
    labels = [action_label({"type": "pay", "cards": c, "disks": d}, game) for c, d in (([6], 0), ([4], 0), ([], 4))]
    assert labels == ["Pay with card 6 — 2 back in disks", "Pay with card 4", "Pay with 4 disks"], labels


def test_phoenicias_bids_say_which_card_is_auctioned():
    from tablero_client.render import action_label

    game = _game("phoenicia", 3)
    game.view["auction"] = {"card": "Glassmaking", "bid": 6, "leader": 2, "bidders": [1, 2, 0]}
    assert action_label({"type": "bid", "amount": 7}, game) == "Bid $7 — auction for Glassmaking"
