"""Rules as printed (seed-R, shared/rules/004_3318a7f159000de6.txt): scenarios a player writes
from the rulebook text alone, where the engine once asked for more than the text does."""

import copy

from tablero.engines.riverboat import ENGINE

from .helpers import act, at_phase, cells_of, clear_mat, make_turn, new_game


def _cultivation(card: str) -> dict:
    """Cultivation, `card` revealed, both players with 5 workers, 2 coins and an empty mat."""
    g = new_game(2, seed=5)
    for phase in ("cultivation", "planting", "harvest", "opportunity", "scoring"):
        [seat] = g.to_act()
        g.act(seat, {"type": "choose_phase", "phase": phase})
    [holder] = g.to_act()
    g.act(holder, {"type": "place_worker", "cell": 0, "coin": False})
    s = copy.deepcopy(g.state)
    for p in s["players"]:
        clear_mat(p)
        p["workers"], p["coins"] = 5, 2
    s["card"] = card
    s["waiting"] = [0, 1]
    return s


def test_a_coin_places_the_worker_on_an_empty_field_of_your_choice_even_one_of_the_cards_colour():
    # seed-R phase 1: "Si gastas una Moneda, puedes ignorar la carta revelada y, en su lugar,
    # colocar un Trabajador en un Campo vacío de tu elección." Any empty field: the text does not
    # exclude the fields the card already allows.
    s = _cultivation("green")
    p = s["players"][0]
    green, blue = cells_of(p, "green")[0], cells_of(p, "blue")[0]
    for cell in (green, blue):
        a = {"type": "place_worker", "cell": cell, "coin": True}
        assert a in ENGINE.legal_actions(s, 0)
        s2, _ = act(s, 0, a)
        q = s2["players"][0]
        assert q["worker"][cell] and q["coins"] == 1 and s2["supply"]["coins"] == s["supply"]["coins"] + 1


def test_a_coin_ignores_a_revealed_wild_card_too():
    # seed-R phase 1, "Habilidad de monedas: ignora 1 carta de Cultivo revelada al colocar
    # Trabajadores" - a wild card is a revealed crop card as well.
    s = _cultivation("wild")
    cell = cells_of(s["players"][0], "yellow")[0]
    a = {"type": "place_worker", "cell": cell, "coin": True}
    assert a in ENGINE.legal_actions(s, 0)
    s2, _ = act(s, 0, a)
    assert s2["players"][0]["worker"][cell] and s2["players"][0]["coins"] == 1


def test_a_coin_takes_a_riverboat_from_its_draw_pile_while_that_type_is_still_on_the_board():
    # seed-R phase 3: "Si gastas una moneda, puedes tomar una loseta de barco fluvial de tu
    # elección de la pila de robo respectiva" and "Habilidad de monedas: coge 1 barco fluvial de
    # una pila de robo" - no condition that the board's boat of that type is gone.
    g = at_phase("harvest")
    s = make_turn(g.state, "harvest", 0)
    p = s["players"][0]
    clear_mat(p)
    p["coins"], p["boats"] = 1, []
    for c in range(4):
        p["crop"][c], p["worker"][c] = "corn", True
    s["boat_board"]["4"], s["boat_piles"]["4"] = True, 3
    a = {"type": "claim_boat", "boat": "4", "crop": "corn", "coin": True}
    assert a in ENGINE.legal_actions(s, 0)
    assert {**a, "coin": False} in ENGINE.legal_actions(s, 0)
    s2, _ = act(s, 0, a)
    assert s2["players"][0]["boats"] == ["4"] and s2["players"][0]["coins"] == 0
    assert s2["boat_piles"]["4"] == 2, "taken from the pile"
    assert s2["boat_board"]["4"] is True, "the board's boat stays for the next claim without a coin"


def test_rulebook_example_a_player_on_64_points_is_ahead_of_one_on_20():
    # seed-R "Pista de puntuación": the marker is turned to its "50" side once a player has 50 VP
    # ("Ejemplo: este jugador tiene actualmente 64 puntos": the marker on space 14, "50" side up).
    # The score is the total, so in a 3-player game the player on 20 is furthest behind after
    # round 3, not the one whose marker stands on space 14 (seed-R "Fin de la Ronda", Nota).
    g = at_phase("scoring", seats=3)
    s = make_turn(g.state, "scoring", 0)
    s["round"] = 3
    for p in s["players"]:
        clear_mat(p)
        p.update(surveyors=0, active_surveyors=0, agents=0, opps=[], vp_by={})
    s["players"][0]["surveyors"] = 1
    s["players"][0]["feature"][15] = "barn"
    for seat, (vp, at) in enumerate([(64, 3), (20, 1), (30, 2)]):
        s["players"][seat].update(vp=vp, vp_at=at)
    s2, ev = act(s, 0, {"type": "pass"})
    assert s2["players"][0]["vp"] == 64
    assert [e for e in ev if e["type"] == "round_ended"][0]["first_player"] == 1
