"""seed-FoG pp. 11, 14-16: basic actions, workers, the 2-player Income card, Call to Vote,
the secret simultaneous vote, ties and placement."""

import pytest
from tablero.engines import IllegalAction
from tablero.engines.founders_of_gloomhaven import data as D
from tablero.engines.founders_of_gloomhaven.phases import _draw_proposals

from .helpers import ENGINE, C, cast_votes, game, lead, prestige, roads, tile, turn, types


# --- basic actions ---------------------------------------------------------------------------------
def test_a_face_down_card_gives_a_basic_action_and_no_follow():
    g = game(4)
    turn(g, 0)
    ev = g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    assert g.to_act() == {0} and {a["type"] for a in g.legal_actions(0)} >= {"take_money", "take_influence"}
    assert "card" not in ev[0] and ev[0]["private"] == {"0": {"card": "trade"}}
    ev = g.act(0, {"type": "take_money"})
    assert g.state["players"][0]["money"] == 21
    assert ev[-1] == {"type": "turn_passed", "active": 1} and g.to_act() == {1}


def test_a_face_down_card_stays_hidden_from_the_others():
    g = game(4)
    turn(g, 0)
    ev = g.act(0, {"type": "play_card", "card": "trade", "face_up": False})[0]
    assert "private" not in ENGINE.event_view(ev, 1) and "private" not in ENGINE.event_view(ev, None)
    assert ENGINE.event_view(ev, 0)["private"] == {"0": {"card": "trade"}}
    assert g.view(1)["players"][0]["played"] == [{"card": None, "face_up": False}]
    assert g.view(1)["players"][0]["hand"] is None
    assert g.view(0)["players"][0]["played"] == [{"card": "trade", "face_up": False}]


def test_the_basic_road_must_be_connected_to_something_you_own():
    g = game(4)
    tile(g, "stall", "metal", 0, [C(0, 0)])
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    with pytest.raises(IllegalAction, match="connected to something you own"):
        g.act(0, {"type": "road", "cell": C(3, 3)})
    g.act(0, {"type": "road", "cell": C(0, 1)})
    assert g.state["occ"][C(0, 1)] == -2 and g.state["players"][0]["roads"] == 1


def test_a_worker_goes_on_the_race_action_once_and_only_with_a_free_worker():
    g = game(4)  # seat 0 is a Quatryl: race action 2 roads + $1 (ours)
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    assert "place_worker" not in types(g.legal_actions(0))  # no house, no worker
    g.state["players"][0]["workers"] = 2
    ev = g.act(0, {"type": "place_worker", "target": "race"})
    assert types(ev)[:3] == ["worker_placed", "gained", "roads_due"]
    assert g.state["players"][0]["money"] == 21
    g.act(0, {"type": "skip_roads"})
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "build", "face_up": False})
    with pytest.raises(IllegalAction):
        g.act(0, {"type": "place_worker", "target": "race"})  # the space is taken


def test_a_worker_goes_on_a_prestige_card_only_after_delivering_to_it():
    g = game(4)
    g.state["players"][0]["workers"] = 1
    prestige(g, "salt_barrel", [C(6, 0), C(6, 1), C(7, 1), C(6, 2)][:0] or [C(11, 0), C(12, 0), C(11, 1), C(12, 1)],
             delivered=[1, None])
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    with pytest.raises(IllegalAction, match="not delivered"):
        g.act(0, {"type": "place_worker", "target": "salt_barrel"})
    g.state["prestige"][0]["delivered"] = [0, None]
    g.act(0, {"type": "place_worker", "target": "salt_barrel"})
    assert g.state["prestige"][0]["worker"] == 0 and g.state["players"][0]["money"] == 22


def test_two_player_income_card_collects_income_and_may_be_followed_as_any_action():
    g = game(2)
    tile(g, "stall", "metal", 0, [C(0, 0)])
    tile(g, "stall", "stone", 0, [C(0, 8)])
    tile(g, "stall", "stone", 0, [C(6, 8)])
    g.state["players"][0]["houses"] = 1
    ev = lead(g, 0, "income")
    assert ev[1] == {"type": "income_collected", "seat": 0, "money": 2, "fleeting": 1}
    assert g.to_act() == {1}
    kinds = {a["type"] for a in g.legal_actions(1)}
    assert {"import", "take_money", "take_influence"} <= kinds


# --- Call to Vote -----------------------------------------------------------------------------------
def test_call_to_vote_needs_two_played_cards_three_with_two_players():
    g = game(4)
    turn(g, 0)
    g.state["players"][0]["played"] = [{"card": "trade", "face_up": False}]
    assert "call_vote" not in types(g.legal_actions(0))
    with pytest.raises(IllegalAction, match="at least 2"):
        g.act(0, {"type": "call_vote"})
    g.state["players"][0]["played"].append({"card": "build", "face_up": True})
    assert "call_vote" in types(g.legal_actions(0))
    g2 = game(2)
    turn(g2, 0)
    g2.state["players"][0]["played"] = [{"card": "trade", "face_up": False}, {"card": "build", "face_up": True}]
    with pytest.raises(IllegalAction, match="at least 3"):
        g2.act(0, {"type": "call_vote"})


def _called(g, seat=0):
    p = g.state["players"][seat]
    p["hand"] = ["recruit", "upgrade", "vote"]
    p["played"] = [{"card": "trade", "face_up": False}, {"card": "build", "face_up": True}]
    p["workers"], p["placed"] = 1, ["race"]
    turn(g, seat)
    return g.act(seat, {"type": "call_vote"})


def test_the_reset_gives_a_benefit_per_card_left_then_takes_back_cards_and_workers():
    g = game(4)
    tile(g, "stall", "metal", 0, [C(0, 0)])
    tile(g, "stall", "knowledge", 1, [C(6, 0)])
    g.state["players"][1]["houses"] = 2
    ev = _called(g)
    assert ev[0] == {"type": "vote_called", "seat": 0, "benefits": 2}
    assert g.to_act() == {0}
    g.act(0, {"type": "reset_benefit", "kind": "money"})
    ev = g.act(0, {"type": "reset_benefit", "kind": "road", "cell": C(0, 1)})
    p = g.state["players"][0]
    assert p["money"] == 21 and g.state["occ"][C(0, 1)] == -2
    assert sorted(p["hand"]) == ["build", "recruit", "trade", "upgrade", "vote"] and p["placed"] == []
    incomes = [e for e in ev if e["type"] == "income_collected"]
    assert [e["seat"] for e in incomes] == [1, 2, 3]  # everyone else, not the caller
    assert incomes[0] == {"type": "income_collected", "seat": 1, "money": 1, "fleeting": 2}
    assert g.to_act() == {0, 1, 2, 3}


def test_the_vote_is_secret_until_everyone_has_voted():
    g = game(4)
    _called(g)
    g.act(0, {"type": "reset_benefit", "kind": "money"})
    g.act(0, {"type": "reset_benefit", "kind": "money"})
    g.state["players"][1]["lasting"] = 1
    ev = g.act(1, {"type": "vote", "proposal": 2, "fleeting": 0, "lasting": 1})
    assert g.to_act() == {0, 2, 3}
    for viewer in (None, 0, 2, 3):
        red = ENGINE.event_view(ev[0], viewer)
        assert red == {"type": "vote_cast", "seat": 1}
        v = g.view(viewer)["vote"]
        assert v["votes"] is None and v["voted"] == [False, True, False, False]
        assert v["my_vote"] is None
        assert g.view(viewer)["players"][1]["lasting"] == 1
    assert g.view(1)["vote"]["my_vote"] == {"proposal": 2, "fleeting": 0, "lasting": 1}
    with pytest.raises(IllegalAction, match="may not act now"):
        g.act(1, {"type": "vote", "proposal": 0, "fleeting": 0, "lasting": 0})


def _vote_all(g, votes, caller=0):
    g.state["players"][caller]["hand"] = ["vote"]
    g.state["players"][caller]["played"] = [{"card": "trade", "face_up": True}, {"card": "build", "face_up": True}]
    turn(g, caller)
    g.act(caller, {"type": "call_vote"})
    return cast_votes(g, votes)


def test_vote_example_3_6_1_builds_the_salt_barrel_placed_by_the_biggest_contributor():
    """p. 15: the circle gets 3, the square 6, the triangle 1: the Salt Barrel is built; Orange places it."""
    g = game(4)
    g.state["proposals"] = ["golden_lion", "salt_barrel", "tanners_hall"]
    ev = _vote_all(g, [(0, 2, 0), (1, 0, 2), (1, 0, 0), (2, 0, 0)])  # 3 | 5 + 1 | 1; seat 1 is Orange
    rev = next(e for e in ev if e["type"] == "votes_revealed")
    assert rev["totals"] == [3, 6, 1] and rev["winner"] == 1 and rev["placer"] == 1
    assert g.to_act() == {1} and g.state["vote"]["card"] == "salt_barrel"
    ps = g.state["players"]
    assert [p["fleeting"] for p in ps] == [0, 0, 0, 0] and ps[1]["lasting"] == 0  # influence back to the supply
    ev = g.act(1, {"type": "place_prestige", "cells": [C(0, 0), C(1, 0), C(0, 1), C(1, 1)]})
    assert g.state["prestige"][-1]["card"] == "salt_barrel"
    assert len(g.state["proposals"]) == 3 and "salt_barrel" not in g.state["proposals"]
    assert set(["golden_lion", "tanners_hall"]) <= set(g.state["proposal_discard"])
    assert ev[-1] == {"type": "turn_passed", "active": 1}


def test_unspent_lasting_influence_is_kept_and_all_fleeting_returns():
    g = game(4)
    g.state["players"][2]["lasting"] = 3
    g.state["players"][2]["fleeting"] = 4
    _vote_all(g, [(0, 0, 0), (0, 0, 0), (1, 1, 1), (0, 0, 0)])
    p = g.state["players"][2]
    assert (p["fleeting"], p["lasting"]) == (0, 2)


def test_a_vote_tie_is_decided_by_the_implicated_player_with_fewest_points():
    g = game(4)
    for s, pts in enumerate([5, 5, 5, 1]):
        g.state["players"][s]["score"]["deliveries"] = pts
    ev = _vote_all(g, [(0, 0, 0), (1, 0, 0), (0, 0, 0), (1, 0, 0)], caller=2)
    rev = next(e for e in ev if e["type"] == "votes_revealed")
    assert rev["tied"] == [0, 1] and rev["winner"] is None and rev["decider"] == 3
    assert g.to_act() == {3}
    with pytest.raises(IllegalAction, match="tied"):
        g.act(3, {"type": "choose_proposal", "proposal": 2})
    ev = g.act(3, {"type": "choose_proposal", "proposal": 1})
    # placer: seats 1 and 3 gave 1 each; seat 3 has fewer points
    assert ev[0]["placer"] == 3 and g.to_act() == {3}


def test_a_tie_on_points_goes_to_the_player_closest_to_the_caller():
    g = game(4)
    ev = _vote_all(g, [(0, 0, 0), (1, 0, 0), (1, 0, 0), (0, 0, 0)], caller=2)
    rev = next(e for e in ev if e["type"] == "votes_revealed")
    assert rev["decider"] == 2  # the caller himself is implicated: closest
    ev = g.act(2, {"type": "choose_proposal", "proposal": 0})
    assert ev[0]["placer"] == 3  # seats 0 and 3 gave 1 each: 3 comes first after the caller


# --- placement ------------------------------------------------------------------------------------
def _placing(g, card, placer=0):
    g.state["vote"] = {"caller": 0, "votes": [None] * g.state["n"], "stage": "placing", "tied": [], "decider": None,
                       "winner": 0, "placer": placer, "card": card, "stuck": False}
    g.state["proposals"][0] = card
    g.state["cur"] = None


def test_a_prestige_building_needs_a_square_of_its_colour_and_free_squares():
    g = game(4)
    _placing(g, "healers_hospice")  # L3 green
    with pytest.raises(IllegalAction, match="at least one green"):
        g.act(0, {"type": "place_prestige", "cells": [C(0, 0), C(0, 1), C(1, 1)]})  # red, white, grey
    g.act(0, {"type": "place_prestige", "cells": [C(0, 1), C(0, 2), C(1, 2)]})  # white, green, red
    g = game(4)
    _placing(g, "salt_barrel")
    roads(g, C(1, 0))
    with pytest.raises(IllegalAction):
        g.act(0, {"type": "place_prestige", "cells": [C(0, 0), C(1, 0), C(0, 1), C(1, 1)]})


def test_no_two_prestige_buildings_of_the_same_type_in_a_section():
    g = game(4)
    prestige(g, "golden_lion", [C(0, 0), C(1, 0), C(2, 0), C(1, 1)])  # T4 red
    _placing(g, "tavern")  # T4 red too
    legal = [a["cells"] for a in g.legal_actions(0)]
    assert legal and all(c % 15 > 4 for cells in legal for c in cells)


def test_the_gates_and_the_ghost_fortress_go_only_on_their_spots():
    g = game(4)
    _placing(g, "west_gate")
    assert [a["cells"] for a in g.legal_actions(0)] == [[C(0, 3), C(0, 4)]]
    with pytest.raises(IllegalAction, match="reserved spot"):
        g.act(0, {"type": "place_prestige", "cells": [C(1, 3), C(1, 4)]})


def test_proposals_are_drawn_from_the_bottom_and_a_second_card_of_a_type_goes_on_top():
    import random
    st = {"proposal_deck": ["salt_barrel", "foundry", "tavern", "golden_lion"], "proposal_discard": []}
    ev = _draw_proposals(st, random.Random(1), 3, [])
    assert ev["cards"] == ["golden_lion", "foundry", "salt_barrel"] and ev["returned"] == ["tavern"]
    assert ev["secret"]["deck"] == ["tavern"]


def test_the_view_shows_what_is_printed_on_the_cards_a_seat_can_see_and_no_other():
    # A person votes on proposals and recruits advisers by what their cards say: the view
    # carries it for every card the seat may see, and for no hidden one.
    g = game(4)
    st = g.state
    st["players"][0]["hand"].append("shepherd")
    st["players"][1]["hand"].append("quartermaster")
    mine, theirs, spectator = g.view(0), g.view(1), g.view(None)
    for v in (mine, theirs, spectator):
        for card in v["proposals"]:
            c = v["cards"][card]
            assert c["kind"] == "prestige" and c["name"] and c["requires"] and "points" in c
        for card in v["offer"]:
            if card:
                assert v["cards"][card]["kind"] == "adviser" and "category" in v["cards"][card]
    assert mine["cards"]["shepherd"] == {"kind": "adviser", "name": "Shepherd", **D.ADVISERS["shepherd"]}
    offer = set(st["offer"])
    if "quartermaster" not in offer:
        assert "quartermaster" not in mine["cards"] and "quartermaster" not in spectator["cards"]
    if "shepherd" not in offer:
        assert "shepherd" not in theirs["cards"] and "shepherd" not in spectator["cards"]
    assert not set(spectator["cards"]) & set(st["proposal_deck"]) - set(st["proposals"])
    import jsonschema

    jsonschema.validate(mine, ENGINE.view_schema)
