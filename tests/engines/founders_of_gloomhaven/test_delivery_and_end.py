"""seed-FoG p. 11 neutral resources and delivery scoring, p. 16 completion and the end, final scoring."""

import pytest
from tablero.engines import InvalidOptions

from tablero import engines

from .helpers import C, bridge, game, lead, points, prestige, roads, tile, turn, types

MACHINERY = [C(1, 2), C(2, 2), C(1, 3), C(2, 3)]


def _placing(g, card, placer=0):
    g.state["vote"] = {"caller": 0, "votes": [None] * g.state["n"], "stage": "placing", "tied": [], "decider": None,
                       "winner": 0, "placer": placer, "card": card, "stuck": False}
    g.state["proposals"][0] = card
    g.state["cur"] = None


def test_neutral_example_machinery_with_a_neutral_metal_delivered_for_4():
    """p. 11: Machinery built with a neutral metal: only the knowledge owner scores (1); delivered to a
    prestige building for 4: 1 to the knowledge owner, 2 lost for the metal, 1 to the Machinery's owner."""
    g = game(3)
    g.state["neutral"] = ["metal", "clay"]
    g.state["players"][0]["resources"] = ["stone", "plant"]
    metal = tile(g, "stall", "metal", None, [C(0, 0)], claims=[0])
    knowledge = tile(g, "stall", "knowledge", 1, [C(4, 2)], claims=[0])
    roads(g, C(0, 1), C(0, 2), C(3, 2))
    lead(g, 0, "upgrade")
    ev = g.act(0, {"type": "upgrade", "resource": "machinery", "cells": MACHINERY})
    assert ev[0]["prereqs"] == [[metal, None, 2], [knowledge, 1, 1]]
    assert (points(g, 0), points(g, 1)) == (0, 1)
    g.act(0, {"type": "skip_roads"})
    for s in (1, 2):
        g.act(s, {"type": "take_money"})
    _placing(g, "foundry", placer=2)  # needs machinery and metal (neutral)
    ev = g.act(2, {"type": "place_prestige", "cells": [C(1, 0), C(2, 0), C(1, 1), C(2, 1)]})
    dl = [e for e in ev if e["type"] == "delivered"]
    assert dl[0]["resource"] == "metal" and dl[0]["owner"] == -1 and dl[0]["points"] == []
    assert dl[1]["resource"] == "machinery" and dl[1]["owner"] == 0
    assert sorted(dl[1]["points"]) == [[0, 1], [1, 1]]
    sc = [g.state["players"][s]["score"]["deliveries"] for s in range(3)]
    assert sc == [1, 1, 0]


def test_a_neutral_basic_resource_is_delivered_as_soon_as_the_building_is_placed():
    g = game(3)
    g.state["neutral"] = ["metal", "clay"]
    _placing(g, "watchtower")  # metal + wood; nothing on the map
    g.act(0, {"type": "place_prestige", "cells": [C(3, 0), C(4, 0)]})
    assert g.state["prestige"][0]["delivered"] == [-1, None]
    assert g.view(1)["prestige"][0]["delivered"] == [-1, None]


def test_a_resource_is_delivered_the_moment_it_is_connected_by_road():
    g = game(4)
    tile(g, "stall", "metal", 0, [C(0, 0)])
    prestige(g, "watchtower", [C(3, 0), C(4, 0)])
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    ev = g.act(0, {"type": "road", "cell": C(1, 0)})
    assert "delivered" not in types(ev)
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "build", "face_up": False})
    ev = g.act(0, {"type": "road", "cell": C(2, 0)})
    d = next(e for e in ev if e["type"] == "delivered")
    assert (d["resource"], d["owner"], d["points"]) == ("metal", 0, [[0, 1]])
    assert g.state["prestige"][0]["delivered"] == [0, None]


def _about_to_end():
    g = game(4)
    g.state["completions"] = 5
    prestige(g, "watchtower", [C(3, 0), C(4, 0)], delivered=[None, 3])  # wood already delivered by seat 3
    g.state["players"][0]["resources"] = ["metal"]
    return g


def test_the_sixth_completion_ends_the_game_after_the_active_turn_with_its_follows():
    g = _about_to_end()
    lead(g, 0, "trade")
    ev = g.act(0, {"type": "import", "resource": "metal", "cell": C(2, 0)})
    assert types(ev)[:3] == ["stall_imported", "delivered", "completed"]
    assert g.state["completions"] == 6
    assert g.outcome() is None and g.to_act() == {1}  # the follows still happen
    g.act(1, {"type": "take_money"})
    g.act(2, {"type": "take_money"})
    ev = g.act(3, {"type": "take_money"})
    assert ev[-1]["type"] == "game_ended" and "turn_passed" not in types(ev)
    out = g.outcome()
    assert out["reason"] == "six_completions" and g.to_act() == set()
    # completion: watchtower's 1 point to each player who delivered to it
    assert out["details"][0]["by_source"]["completions"] == 1 and out["details"][3]["by_source"]["completions"] == 1


def test_final_scoring_converts_each_influence_to_1_point_and_every_4_money_to_1_point():
    g = _about_to_end()
    ps = g.state["players"]
    ps[1].update(money=11, fleeting=2, lasting=1)
    lead(g, 0, "trade")
    g.act(0, {"type": "import", "resource": "metal", "cell": C(2, 0)})
    for s in (1, 2, 3):
        g.act(s, {"type": "take_influence"})
    d = g.outcome()["details"][1]
    assert d["by_source"]["influence"] == 4 and d["by_source"]["money"] == 2
    assert d["points"] == sum(d["by_source"].values())


def _ending_with(scores):
    g = _about_to_end()
    lead(g, 0, "trade")
    g.act(0, {"type": "import", "resource": "metal", "cell": C(2, 0)})
    g.act(1, {"type": "take_money"})
    g.act(2, {"type": "take_money"})
    for s, pts in enumerate(scores):
        p = g.state["players"][s]
        p.update(money=0, fleeting=0, lasting=0)
        p["score"] = {k: 0 for k in p["score"]}
        p["score"]["deliveries"] = pts
    g.act(3, {"type": "take_money"})  # $1: no point
    return g.outcome()


def test_a_final_tie_goes_to_the_tied_player_closest_to_the_active_player():
    out = _ending_with([3, 10, 10, 3])
    assert out["scores"] == [3, 10, 10, 3] and out["winners"] == [1]
    out = _ending_with([10, 3, 3, 10])
    assert out["winners"] == [0]  # the active player himself is closest
    assert out["tie_break"] == "closest in turn order to the active player"
    assert [d["turn_distance"] for d in out["details"]] == [0, 1, 2, 3]


def test_shaping_history_needs_the_thematic_side_and_no_workers_cannot_be_solo():
    with pytest.raises(InvalidOptions):
        engines.LocalGame("founders-of-gloomhaven", seats=2, seed=1,
                          options={"map": "symmetric", "shaping_history": True})
    with pytest.raises(InvalidOptions):
        engines.LocalGame("founders-of-gloomhaven", seats=1, seed=1, options={"no_workers": True})


# --- no proposal left (v2) ------------------------------------------------------------------------
def _vote_with_no_proposal(g, seat=0):
    st = g.state
    st["proposals"], st["proposal_deck"], st["proposal_discard"] = [], [], []
    p = st["players"][seat]
    p["hand"] = ["recruit", "vote"]
    p["played"] = [{"card": "trade", "face_up": False}, {"card": "build", "face_up": True},
                   {"card": "upgrade", "face_up": True}]
    turn(g, seat)
    g.act(seat, {"type": "call_vote"})
    return g.act(seat, {"type": "reset_benefit", "kind": "money"})


def test_a_vote_with_no_proposal_left_pays_the_reset_and_income_and_play_goes_on():
    """seed-FoG p. 16: "Una vez que las 6 fichas de cumplimiento hayan sido colocadas, se desencadena
    el final de partida" is the only end; p. 14-15 the reset and "cada otro jugador ... recauda sus
    ingresos" come before the vote, so with nothing to vote on they stand and the turn passes."""
    g = game(4)
    tile(g, "stall", "knowledge", 1, [C(6, 0)])
    ev = _vote_with_no_proposal(g)
    kinds = [e["type"] for e in ev]
    assert "game_ended" not in kinds and g.outcome() is None
    assert {"type": "vote_skipped", "seat": 0} in ev
    assert [e["seat"] for e in ev if e["type"] == "income_collected"] == [1, 2, 3]
    assert g.state["players"][0]["money"] == 21 and g.state["players"][1]["money"] == 21
    assert g.state["vote"] is None and g.state["active"] == 1 and g.to_act() == {1}
    assert sorted(g.state["players"][0]["hand"]) == ["build", "recruit", "trade", "upgrade", "vote"]


def test_the_safety_end_comes_only_after_three_skipped_votes_per_seat_without_a_delivery():
    """Ours (RULES.md): the last resort so a game can never loop forever."""
    g = game(2)
    g.state["stall_votes"] = 3 * 2 - 2
    ev = _vote_with_no_proposal(g)
    assert g.outcome() is None and g.state["stall_votes"] == 5
    g.state["players"][0]["played"] = [{"card": "trade", "face_up": False}] * 3
    g.state["players"][0]["hand"] = ["vote"]
    turn(g, 0)
    ev = g.act(0, {"type": "call_vote"})
    assert ev[-1]["type"] == "game_ended" and ev[-1]["reason"] == "stalled"


def test_a_delivery_resets_the_count_of_skipped_votes():
    g = game(4)
    g.state["stall_votes"] = 7
    tile(g, "stall", "wood", 0, [C(0, 0)])
    prestige(g, "watchtower", [C(2, 0), C(3, 0)])
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    g.act(0, {"type": "road", "cell": C(1, 0)})
    assert g.state["prestige"][0]["delivered"][1] == 0
    assert g.state["stall_votes"] == 0


def test_v1_games_still_end_when_no_proposal_is_left():
    """Games started under v1 keep their rule (their logs replay as recorded)."""
    g = game(4)
    del g.state["version"], g.state["stall_votes"]
    ev = _vote_with_no_proposal(g)
    assert ev[-1]["type"] == "game_ended" and ev[-1]["reason"] == "no_proposals"


# --- delivery through access (v3) -------------------------------------------------------------------
def _accessed_wood(version=None):
    g = game(4)
    if version is not None:
        g.state["version"] = version
    # wood (seat 0's, seat 1 has access) | road | seat 1's bridge over the river | Watchtower
    wood = tile(g, "stall", "wood", 0, [C(3, 0)], claims=[1])
    bridge(g, 1, C(5, 0))
    prestige(g, "watchtower", [C(6, 0), C(6, 1)])
    turn(g, 1)
    g.act(1, {"type": "play_card", "card": "trade", "face_up": False})
    return g, wood, g.act(1, {"type": "road", "cell": C(4, 0)})


def test_a_player_with_access_delivers_the_tile_through_its_own_network():
    """seed-FoG p. 12: access is bought to use another player's tile ("Cada vez que un jugador obtenga
    acceso a un nuevo recurso, se pondrá una ficha de entrega en el espacio de 'acceso'"); p. 11: a
    neutral building that "deba obtener puntos" scores for nobody, so tiles are delivered by players
    who do not own them. Ours: the access holder's delivery token goes on the building; the tile's
    points stay with its owner. Roads serve everybody, so this differs from the owner's delivery
    only through the access holder's own bridges/gates (p. 13)."""
    g, wood, ev = _accessed_wood()
    d = next(e for e in ev if e["type"] == "delivered")
    assert d["tile"] == wood and d["owner"] == 1 and d["points"] == [[0, 1]]
    assert g.state["prestige"][0]["delivered"] == [None, 1]


def test_before_v3_only_the_owner_delivers():
    g, _, ev = _accessed_wood(version=2)
    assert "delivered" not in types(ev)
