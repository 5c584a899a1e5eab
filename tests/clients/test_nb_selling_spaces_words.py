"""New Bedford's selling spaces in words (terminal; the browser's: tests/web/test_nb_selling_spaces_words.py),
as the rulebook names them (seed 000 L659 "TIENDA (GENERAL STORE)", L788 "MERCADO (MARKET)"):

- the General Store's move and the Market's read alike ("sell $1 lumber, $1 food, and $2 brick
  each"): the Market's own rule, the first good of each kind sold earns double (L790), was not said;
- the General Store's bonus read "1st-worker bonus" / "bonus de primer trabajador", where the
  rulebook (and the space's own text beside it) says first player ("Bonus de 1°Jugador");
- Spanish prices read "vende 1$ leña"; opening a sale read "va a vender en Tienda" (no article)."""

from __future__ import annotations

import pytest
from tablero_client.models import Game, SeatInfo
from tablero_client.render import action_label, describe_event, i18n

from tests.engines.new_bedford.helpers import game, give, own

LABELS = {
    "en": ["Worker to the General Store — sell lumber for $1, food for $1, and brick for $2, one kind at a time; "
           "+$1 (first-player bonus) (up to +$8)",
           "Worker to the Market — sell lumber for $1, food for $1, and brick for $2, one kind at a time; "
           "the first of each kind earns double; pay $1 to {owner} first (up to +$10)"],
    "es": ["Trabajador a la Tienda — vende leña a 1$, comida a 1$ y ladrillo a 2$, un tipo cada vez; "
           "+1$ (bonus de primer jugador) (hasta +8$)",
           "Trabajador al Mercado — vende leña a 1$, comida a 1$ y ladrillo a 2$, un tipo cada vez; "
           "la primera mercancía de cada tipo vale el doble; paga antes 1$ a {owner} (hasta +10$)"],
}
OPENED = {"en": ["You go to sell at the General Store:", "You go to sell at the Market:"],
          "es": ["Vas a vender en la Tienda:", "Vas a vender en el Mercado:"]}


def selling_game():
    """Seat 1 (0 here) to place a worker, with 3 lumber, 2 food and 1 brick; the Market is seat 2's."""
    g = game(2, buildings=["market", "lumber_mill", "bank"])
    own(g, 1, "market")
    give(g, 0, money=5, lumber=3, food=2, brick=1)
    return g


def selling_moves(view: dict) -> list[dict]:
    moves = [o["action"] for o in view["pending"]["options"] if (o.get("effect") or {}).get("sale")]
    assert [a.get("space") for a in moves] == ["general_store", "market"], moves
    return moves


@pytest.fixture(params=["es", "en"])
def lang(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def _game(g) -> Game:
    return Game(id="g1", engine="new-bedford", version=g.version, players=g.seats, status="GAME_STATUS_RUNNING",
                to_act=sorted(g.to_act()), view=g.view(0),
                seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(g.seats)], your_seat=0)


def test_the_general_store_and_the_market_say_their_own_rules(lang):
    g = selling_game()
    shown = _game(g)
    owner = {"en": "seat 2", "es": "asiento 2"}[lang]
    assert [action_label(a, shown) for a in selling_moves(shown.view)] == [x.format(owner=owner) for x in LABELS[lang]]
    for move, said in zip(selling_moves(shown.view), OPENED[lang], strict=True):
        h = selling_game()
        opened = next(e for e in h.act(0, move) if e["type"] == "sale_opened")
        assert describe_event(opened, _game(h)).startswith(said)
