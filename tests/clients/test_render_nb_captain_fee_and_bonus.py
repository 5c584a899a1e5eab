"""New Bedford against Captains in the terminal, in Spanish and English: the $1 for using a
Captain's building is paid to the supply (solo rules p.12, ../shared/rules/000_d80ea33544e097da.txt
L533: "El Capitán nunca paga ni recoge mercancías o dinero"; L568: the player "coge 1$ de la
reserva" when a Captain uses his building), never "to Captain Starbuck"; and a space's
first-player bonus is offered only while this worker would take it (not after a Captain took it)."""

from __future__ import annotations

import pytest
from tablero_client.models import Game, SeatInfo
from tablero_client.render import describe_event, i18n
from tablero_client.render.new_bedford import action_effect

from tablero import engines
from tests.engines.new_bedford.captain_helpers import cap, solo, turn
from tests.engines.new_bedford.helpers import own, place


@pytest.fixture(params=["es", "en"])
def lang(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def _game(g: engines.LocalGame, you: int = 0) -> Game:
    return Game(id="g1", engine="new-bedford", version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                to_act=sorted(g.to_act()), view=g.view(you),
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(g.seats)], your_seat=you)


SUPPLY = {"es": "paga 1$ a la reserva", "en": "pay $1 to the supply"}
BONUS = {"es": "(primer jugador", "en": "(first player"}


def test_using_a_captains_building_pays_the_supply_in_the_options_and_the_log(lang):
    g = solo(["starbuck"])
    own(g, cap(g, "starbuck"), "bank")
    g.state["placed"] = 1
    text = action_effect({"type": "place_worker", "space": "bank"}, _game(g))
    assert SUPPLY[lang] in text and "Starbuck" in text, text
    assert "al Capitán" not in text and "to Captain" not in text, text
    e = next(e for e in place(g, 0, "bank") if e["type"] == "worker_placed")
    line = describe_event(e, _game(g))
    assert ("a la reserva" if lang == "es" else "to the supply") in line, line
    assert "pagando al Capitán" not in line and "paying Captain" not in line, line


def test_a_sale_at_a_captains_building_pays_the_supply_first(lang):
    g = solo(["starbuck"])
    own(g, cap(g, "starbuck"), "lumber_mill")
    g.state["players"][0]["lumber"] = 2
    g.state["placed"] = 1
    opt = next(o for o in g.view(0)["pending"]["options"] if (o.get("effect") or {}).get("space") == "lumber_mill")
    text = action_effect(opt["action"], _game(g))
    assert ("paga antes 1$ a la reserva" if lang == "es" else "pay $1 to the supply first") in text, text


def test_a_captain_using_the_players_building_gives_him_a_dollar_from_the_supply(lang):
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    own(g, 0, "bank")
    e = turn(g, s, "money")
    line = describe_event(e, _game(g))
    assert ("1$ de la reserva" if lang == "es" else "$1 from the supply") in line, line
    assert "tarifa" not in line and "fee" not in line, line


def test_the_first_player_bonus_is_offered_only_where_this_worker_takes_it(lang):
    g = solo(["starbuck"])
    assert turn(g, cap(g, "starbuck"), "lumber")["space"] == "forest"  # the Captain took its bonus
    game = _game(g)
    forest = action_effect({"type": "place_worker", "space": "forest"}, game)
    farm = action_effect({"type": "place_worker", "space": "farm"}, game)
    assert ("añade 2 de leña" if lang == "es" else "gain 2 lumber") in forest and BONUS[lang] not in forest, forest
    assert BONUS[lang] in farm, farm  # nobody is at the Farm yet
