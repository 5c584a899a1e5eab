"""The terminal's final scores keep a group's lines together, as the browser's do: against
Captain Flask, "Edificios de victoria › Tesorería" (the seat's) came before "Puntos de
victoria" and "› Capilla de los Marineros" (the Captain's) at the bottom, after "Puntos de
dinero". The outcome is a real one (a solo New Bedford game played in the terminal)."""

from __future__ import annotations

from rich.console import Console
from tablero_client.models import Game, SeatInfo
from tablero_client.render import i18n, outcome_text

OUTCOME = {
    "scores": [5], "winners": [], "captain_winners": ["flask"],
    "details": [{"seat": 0, "whales": {"right": 0, "bowhead": 0, "sperm": 0}, "whale_points": 0,
                 "buildings": ["bank", "lumber_mill", "counting_house"], "building_points": 3,
                 "victory_buildings": {"counting_house": 0}, "victory_points": 0, "money": 13, "money_points": 2,
                 "total": 5, "tiebreak": {"whale_tokens": 0, "unscored_money": 3}}],
    "captains": [{"whales": {"right": 6, "bowhead": 5, "sperm": 0}, "whale_points": 16,
                  "buildings": ["dry_dock", "tavern", "tryworks", "seamens_bethel"], "building_points": 4,
                  "victory_buildings": {"seamens_bethel": 5}, "victory_points": 5, "money": 0, "money_points": 0,
                  "total": 25, "tiebreak": {"whale_tokens": 11, "unscored_money": 0}, "player": 1, "captain": "flask"}],
}


def _final_scores(game: Game, lang: str) -> str:
    """The terminal's final scores of `game` in `lang`, as text (200 columns)."""
    i18n.set_language(lang)
    try:
        console = Console(record=True, width=200, color_system=None)
        console.print(outcome_text(game))
        return console.export_text()
    finally:
        i18n.set_language("en")


def test_the_victory_building_lines_of_a_seat_and_a_captain_come_together():
    game = Game(id="g1", engine="new-bedford", version=130, players=1, status="GAME_STATUS_FINISHED", to_act=[],
                view={}, seats=[SeatInfo(seat=0, kind="SEAT_KIND_HUMAN")], your_seat=0, outcome=OUTCOME)
    lines = [line.strip() for line in _final_scores(game, "es").splitlines()]
    at = [i for i, line in enumerate(lines) if line.startswith("Edificios de victoria ›")]
    assert len(at) == 2 and at[1] == at[0] + 1, "\n".join(lines)
    assert "Tesorería" in lines[at[0]] and "Capilla de los Marineros" in lines[at[1]]


FOUNDERS = {  # a real two-player outcome (played in the terminal against the easy bot)
    "reason": "stalled", "scores": [79, 116], "winners": [1], "tie_break": "closest in turn order to the active player",
    "details": [{"seat": 0, "race": "quatryl", "points": 79, "by_source": {"prerequisites": 4, "deliveries": 5, "advisers": 7,
                 "completions": 4, "achievements": 0, "actions": 0, "influence": 35, "money": 24},
                 "money_left": 98, "turn_distance": 1},
                {"seat": 1, "race": "aesther", "points": 116, "by_source": {"prerequisites": 7, "deliveries": 12, "advisers": 14,
                 "completions": 4, "achievements": 0, "actions": 0, "influence": 49, "money": 30},
                 "money_left": 121, "turn_distance": 0}],
}


def test_founders_turn_distance_row_says_it_breaks_ties():
    """"Turn distance 1 / 0" ("Distancia de turno") under the scores told a player nothing: it is the
    rulebook's tie-break (p. 18: the tied player closest to the active player in turn order wins)."""
    game = Game(id="g1", engine="founders-of-gloomhaven", version=1242, players=2, status="GAME_STATUS_FINISHED",
                to_act=[], view={}, your_seat=0, outcome=FOUNDERS,
                seats=[SeatInfo(seat=0, kind="SEAT_KIND_HUMAN"), SeatInfo(seat=1, kind="SEAT_KIND_BOT")])
    for lang, said in (("en", "Tie-break: distance from the active player"), ("es", "Desempate: distancia al jugador activo")):
        text = _final_scores(game, lang)
        assert said in text, text
