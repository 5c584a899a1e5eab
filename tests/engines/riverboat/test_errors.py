"""Refusals speak to the player: malformed actions are InvalidAction, illegal ones IllegalAction
with the phase and the reason."""

import pytest
from tablero.engines.core import IllegalAction, InvalidAction
from tablero.engines.riverboat import ENGINE

from .helpers import at_phase, clear_mat, make_turn, new_game


def test_malformed_actions_are_invalid():
    s = new_game(2).state
    seat = s["first_player"]
    for bad in [{"type": "choose_phase"}, {"type": "choose_phase", "phase": "lunch"},
                {"type": "place_worker", "cell": 99, "coin": False}, {"type": "place_worker", "cell": 1},
                {"type": "plant", "size": 2, "slot": 0, "cells": "0,1"}, {"type": "fly"}]:
        with pytest.raises(InvalidAction):
            ENGINE.decide(s, seat, bad, None)


def test_an_action_of_another_phase_names_the_phase():
    s = new_game(2).state
    with pytest.raises(IllegalAction, match="belongs to the Harvest & Shipping phase"):
        ENGINE.decide(s, s["first_player"], {"type": "claim_boat", "boat": "4", "crop": "beet", "coin": False}, None)


def test_acting_out_of_turn_is_refused():
    # The core refuses a seat that is not to act before the engine's rules run (check_action).
    g = new_game(2)
    with pytest.raises(IllegalAction, match="may not act now"):
        g.act(1 - g.state["first_player"], {"type": "choose_phase", "phase": "planting"})


def test_a_taken_boat_without_a_coin_explains_the_coin_ability():
    g = at_phase("harvest")
    s = make_turn(g.state, "harvest", 0)
    p = s["players"][0]
    clear_mat(p)
    for c in range(4):
        p["crop"][c], p["worker"][c] = "corn", True
    s["boat_board"]["4"] = False
    s["boat_piles"]["4"] = 2
    with pytest.raises(IllegalAction, match="a coin takes one from its pile"):
        ENGINE.decide(s, 0, {"type": "claim_boat", "boat": "4", "crop": "corn", "coin": False}, None)
    s["boat_board"]["4"] = True
    with pytest.raises(IllegalAction, match="needs exactly 5 workers"):
        ENGINE.decide(s, 0, {"type": "claim_boat", "boat": "5", "crop": "corn", "coin": False}, None)
