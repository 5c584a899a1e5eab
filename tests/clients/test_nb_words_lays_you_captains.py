"""New Bedford's words in the terminal (Spanish and English), from real solo games against Captain
Ahab (tests/engines/new_bedford/sold_whales.py):

- "paying their lays" for a single whale kept: "paying its lay" / "pagando su tasa" (the Spanish
  rulebook's word for the lay is "Tasa", seed 000 L406; the catalog said "salarios");
- "Captain Ahab buys a bowhead whale for $0": Captains use no money (solo rules p.11 step 4 and
  p.12, seed 000 L515, L533), so the sentence says the Captain pays nothing, not a price of $0;
- "seat 1 (you)’s ship 1 comes home": "Your ship 1 comes home" / "Tu barco 1 regresa";
- the header of a solo game did not name the Captain(s) the player plays against (tmux, 80x24)."""

from __future__ import annotations

import pytest
from tablero_client.models import Game, SeatInfo
from tablero_client.render import action_label, describe_event, i18n

from tests.engines.new_bedford.sold_whales import sold_whale_games

from .test_play_tmux import _ready

SAID = {
    "en": {"kept_one": "Your ship 1 comes home: lay paid $2; keeps 1 right whale.",
           "kept_several": "Your ship 1 comes home: lays paid $4",
           "captain_bought": "Captain Ahab buys a right whale, paying nothing (Captains use no money)."},
    "es": {"kept_one": "Tu barco 1 regresa: paga 2$ de tasa; se queda con 1 ballena franca.",
           "kept_several": "Tu barco 1 regresa: paga 4$ de tasas",
           "captain_bought": "El Capitán Ahab compra una ballena franca sin pagar nada (los Capitanes no usan dinero)."},
}
RETURN = {
    "en": ["Bring the ship home: keep 1 right whale, paying its lay",
           "Bring the ship home: keep 2 right whales, paying their lays"],
    "es": ["Hacer regresar el barco: quedarse con 1 ballena franca pagando su tasa",
           "Hacer regresar el barco: quedarse con 2 ballenas francas pagando sus tasas"],
}


@pytest.fixture(params=["es", "en"])
def lang(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def _game(g, you: int = 0) -> Game:
    return Game(id="g1", engine="new-bedford", version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                to_act=sorted(g.to_act()), view=g.view(you),
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(g.seats)], your_seat=you)


def test_returns_and_captains_purchases_are_worded_for_the_player(lang):
    found = sold_whale_games()
    for key, said in SAID[lang].items():
        g, event = found[key]
        line = describe_event(event, _game(g))
        assert line.startswith(said), (key, line)
        assert "(you)" not in line and "(tú)" not in line and "$0" not in line and "0$" not in line, line
        assert "salario" not in line and "their lays" not in line.replace("lays paid", ""), line
    g = found["kept_one"][0]
    moves = [{"type": "return_ship", "pay": {"right": n, "bowhead": 0, "sperm": 0},
              "sell": {"right": 0, "bowhead": 0, "sperm": 0}} for n in (1, 2)]
    assert [action_label(a, _game(g)) for a in moves] == RETURN[lang]


HEADER = {"en": "against Captain Starbuck", "es": "contra el Capitán Starbuck"}


@pytest.mark.slow
@pytest.mark.parametrize("language", ["es", "en"])
def test_the_solo_header_names_the_captain_played_against(server, tmux, language):
    tmux.start(f"python -m tablero_client --url {server.http} --lang {language} play new-bedford --players 1")
    tmux.tmux("resize-window", "-t", "play", "-x", "80", "-y", "24")
    tmux.wait(_ready(1, "elige>" if language == "es" else "choose>"), timeout=120)
    screen = tmux.screen()
    head = screen[screen.rindex("New Bedford"):].split("\n")[:3]
    assert any(HEADER[language] in line for line in head), head
    tmux.keys("q", "Enter")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s)
