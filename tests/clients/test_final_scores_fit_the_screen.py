"""`tablero play`'s final scores at 80x24: the main table (its title, who won, the score and the
first lines) stays in sight. It kept a dozen lines whatever their height, and a seat with six
buildings made the Buildings row four lines tall at 80 columns: the title scrolled off the top
(seen as a flaky tmux test, test_play_80x24, whose random game sometimes ended so). Now the
main table keeps fewer lines, the rest going to the breakdown above it, until it fits."""

from __future__ import annotations

from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import outcome_text

OUTCOME = {  # a real one: a 2-player New Bedford game against a bot, played in the terminal
    "scores": [10, 5], "winners": [0],
    "details": [
        {"seat": 0, "whales": {"right": 0, "bowhead": 0, "sperm": 0}, "whale_points": 0,
         "buildings": ["bank", "dry_dock", "lighthouse", "lumber_mill", "tavern", "municipal_office"],
         "building_points": 6, "victory_buildings": {"municipal_office": 3}, "victory_points": 3, "money": 7,
         "money_points": 1, "total": 10, "tiebreak": {"whale_tokens": 0, "unscored_money": 2}},
        {"seat": 1, "whales": {"right": 1, "bowhead": 0, "sperm": 0}, "whale_points": 1,
         "buildings": ["schoolhouse", "wharf", "counting_house"], "building_points": 3,
         "victory_buildings": {"counting_house": 0}, "victory_points": 0, "money": 8, "money_points": 1,
         "total": 5, "tiebreak": {"whale_tokens": 1, "unscored_money": 3}}],
}


def _game() -> Game:
    return Game(id="g1", engine="new-bedford", version=300, players=2, status="GAME_STATUS_FINISHED", to_act=[],
                view={}, seats=[SeatInfo(seat=0, kind="SEAT_KIND_HUMAN"), SeatInfo(seat=1, kind="SEAT_KIND_BOT")],
                your_seat=0,
                outcome=OUTCOME)


def _last_lines(fit: tuple[int, int] | None, rows: int) -> list[str]:
    console = Console(record=True, width=80, color_system=None)
    console.print(outcome_text(_game(), fit))
    return console.export_text().rstrip("\n").splitlines()[-(rows - 3):]  # lines for the prompt below


def test_the_main_table_keeps_its_title_in_sight_at_80x24():
    seen = "\n".join(_last_lines((80, 24), 24))
    assert "Final scores" in seen and "wins" in seen, seen
    for row in ("Score", "Total", "Building points"):
        assert row in seen, (row, seen)
    without = "\n".join(_last_lines(None, 24))  # as it was: twelve lines whatever their height
    assert "Final scores" not in without, without


def test_what_leaves_the_main_table_is_in_the_breakdown_above_it():
    console = Console(record=True, width=80, color_system=None)
    console.print(outcome_text(_game(), (80, 24)))
    text = console.export_text()
    above, main = text.split("Final scores", 1)
    assert "Full breakdown" in above
    for row in ("Number of whales › Right", "Money points", "Building points", "Buildings"):  # each once, somewhere
        assert (row in above) + (row in main) >= 1, row
    assert main.count("Buildings") <= 1 and above.count("Money points") + main.count("Money points") == 1
