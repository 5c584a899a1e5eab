"""Whole games played through the public interface, their Opportunity phases read from the event
log alone and checked against seed-R phase 4: four face-up cards each round, every player takes
exactly one card, a face-up card comes with the bonus above its space and a card from the deck
(coin) with none, and the cards left go to the bottom of the deck. Independent rules audit
(audit-rb)."""

import pytest
from tablero.engines.riverboat.data import CARD_SPACE_BONUSES

from .helpers import whole_game


def _from_the_deck(a: dict) -> bool:
    return a["type"] in ("search_opportunity_deck", "draw_opportunity")


@pytest.mark.parametrize("options", [{}, {"coin_draws": "blind"}])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_opportunity_phases_read_from_the_log(seats, seed, options):
    events = whole_game(seats, seed, options, _from_the_deck, 0.3)
    spaces = list(events[0]["opportunity_spaces"])
    taken_from_deck = 0
    rounds = 0
    for i, e in enumerate(events):
        t = e["type"]
        if t == "round_started":
            # "Coloque una carta de Oportunidad boca arriba en cada uno de los cuatro espacios"
            assert None not in e["opportunity_spaces"] and len(e["opportunity_spaces"]) == 4
            spaces = list(e["opportunity_spaces"])
        elif t == "phase_started" and e["phase"] == "opportunity":
            rounds += 1
            assert None not in spaces
            takers: list[int] = []
        elif t == "opportunity_taken":
            takers.append(e["seat"])
            if e["space"] is None:
                taken_from_deck += 1
                assert e["gains"] == {}, "No obtienes ningún bono ... si gastas una Moneda"
            else:
                assert spaces[e["space"]] == e["card"]
                bonus = {k: v for k, v in CARD_SPACE_BONUSES[e["space"]].items() if k in ("coins", "vp", "harbor")}
                assert set(e["gains"]) <= set(bonus) and all(e["gains"][k] <= bonus[k] for k in e["gains"])
                if "vp" in bonus:
                    assert e["gains"]["vp"] == bonus["vp"]
                spaces[e["space"]] = None
        elif t == "phase_started" and e["phase"] == "scoring":
            # "Continúe hasta que cada jugador haya tomado una carta."
            assert sorted(takers) == list(range(seats))
            back = [x for x in events[i - 1::-1] if x["type"] in ("opportunities_returned", "opportunity_taken")][0]
            left = [c for c in spaces if c is not None]
            if left:
                assert back["type"] == "opportunities_returned" and back["cards"] == left
            spaces = [None] * 4
    assert rounds == 4 and taken_from_deck > 0
