"""Issue 38, item 5: the terminal shows each Captain's "Restricciones a Preparar y Zarpar"
(El Océano Solitario, ../shared/rules/000_d80ea33544e097da.txt L537: "2.Restricciones a
Preparar y Zarpar"; L558-559: the Captain prepares and launches "siguiendo cualquier
restricción"; L317: "Toda la información es pública") — Flask's board allows 2 ships on the
Dock, Starbuck's 1, and what that means now."""

from __future__ import annotations

import io

from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import render

from tablero import engines


def _text(g: engines.LocalGame, you: int | None) -> str:
    game = Game(id="g1", engine="new-bedford", version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                to_act=sorted(g.to_act()), view=g.view(you),
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(g.seats)], your_seat=you)
    console = Console(record=True, width=240, color_system=None, file=io.StringIO())
    console.print(render(game))
    return console.export_text()


def test_the_terminal_shows_each_captains_prepare_and_launch_restrictions_and_what_they_mean_now():
    g = engines.LocalGame("new-bedford", seats=1, seed=3, options={"captains": ["starbuck", "flask"]})
    caps = {c["name"]: c["player"] for c in g.view(0)["captains"]["captains"]}
    for name in ("starbuck", "flask"):  # one ship of each on the Dock
        g.state["players"][caps[name]]["ships"][0]["at"] = "dock"
    for you in (0, None):
        text = _text(g, you)
        assert "Captains" in text and "prepare/launch restrictions" in text
        assert "Prepare: only when none of his ships waits on the Dock" in text  # Starbuck
        assert "Prepare: only while fewer than 2 of his ships wait on the Dock" in text  # Flask
        assert "Launch: only to the exact space of the heading" in text
        assert "He cannot prepare now (1 of his ships is on the Dock)" in text  # Starbuck
        assert "He can prepare now" in text  # Flask


def test_a_game_without_captains_shows_no_captains_table():
    g = engines.LocalGame("new-bedford", seats=2, seed=3)
    text = _text(g, 0)
    assert "prepare/launch restrictions" not in text
