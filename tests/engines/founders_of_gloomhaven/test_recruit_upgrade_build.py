"""seed-FoG pp. 11-13: Recruit, Upgrade and Build with their follows; connections and adjacency."""

import pytest
from tablero.engines import IllegalAction

from .helpers import C, bridge, game, lead, points, roads, tile, turn, types

MACHINERY = [C(1, 2), C(2, 2), C(1, 3), C(2, 3)]


# --- Recruit ------------------------------------------------------------------------------------
def _recruit_game():
    g = game(4)
    g.state["offer"] = ["shepherd", "quartermaster", "sage"]  # animals v1, metal v0, knowledge v1
    g.state["adviser_deck"] = ["mason", "envoy", "smuggler"]
    tile(g, "stall", "metal", 0, [C(0, 0)])
    tile(g, "stall", "knowledge", 1, [C(6, 0)])
    return g


def test_recruiting_needs_the_advisers_resource_owned_or_accessed():
    g = _recruit_game()
    lead(g, 0, "recruit")
    with pytest.raises(IllegalAction, match="needs animals"):
        g.act(0, {"type": "recruit", "slot": 0})
    assert {a["slot"] for a in g.legal_actions(0) if a["type"] == "recruit"} == {1}


def test_recruit_leader_pays_the_slot_cost_and_gains_fleeting_influence():
    g = _recruit_game()
    lead(g, 0, "recruit")
    ev = g.act(0, {"type": "recruit", "slot": 1})
    assert ev[0] == {"type": "adviser_recruited", "seat": 0, "slot": 1, "adviser": "quartermaster", "cost": 1,
                     "fleeting": 1, "lasting": 0, "points": 0}
    p = g.state["players"][0]
    assert (p["money"], p["fleeting"], p["lasting"]) == (19, 1, 0) and "quartermaster" in p["hand"]


def test_recruit_follow_gets_no_fleeting_influence_and_a_valued_adviser_gives_lasting_influence_and_points():
    g = _recruit_game()
    lead(g, 0, "recruit")
    g.act(0, {"type": "recruit", "slot": 1})
    ev = g.act(1, {"type": "recruit", "slot": 2})  # sage: value 1, slot cost 2
    assert (ev[0]["cost"], ev[0]["fleeting"], ev[0]["lasting"], ev[0]["points"]) == (2, 0, 1, 1)
    p = g.state["players"][1]
    assert (p["money"], p["fleeting"], p["lasting"], points(g, 1)) == (18, 0, 1, 1)


def test_the_offer_is_refilled_only_after_every_follow():
    g = _recruit_game()
    lead(g, 0, "recruit")
    g.act(0, {"type": "recruit", "slot": 1})
    assert g.state["offer"] == ["shepherd", None, "sage"]
    g.act(1, {"type": "recruit", "slot": 2})
    g.act(2, {"type": "take_money"})
    assert g.state["offer"] == ["shepherd", None, None]
    ev = g.act(3, {"type": "take_money"})
    assert "offer_refilled" in types(ev)
    assert g.state["offer"] == ["shepherd", "mason", "envoy"]


def _income_followed_by_a_recruit(version):
    g = game(2, version=version)
    g.state["offer"] = ["shepherd", "quartermaster", "sage"]
    g.state["adviser_deck"] = ["mason", "envoy", "smuggler"]
    tile(g, "stall", "metal", 1, [C(0, 0)])
    lead(g, 0, "income")
    return g, g.act(1, {"type": "recruit", "slot": 1})


def test_a_recruit_following_the_two_player_income_card_also_refills_the_offer():
    # p. 14: "Cuando se sigue la acción de ingresos, el otro jugador puede considerar la carta de
    # ingresos como si fuese cualquier tipo de acción principal; es decir, que puede llevar a cabo la
    # acción de seguimiento de reclutar, ..."; p. 12: "Sólo después de que todos los jugadores hayan
    # seguido esta acción, el resto de las cartas de asesor en la oferta se desplazan hacia la
    # izquierda y se colocan cartas nuevas en los espacios de la derecha."
    g, ev = _income_followed_by_a_recruit(6)
    assert types(ev) == ["adviser_recruited", "offer_refilled", "turn_passed"]
    assert g.state["offer"] == ["shepherd", "sage", "mason"]


def test_before_v6_a_recruit_following_the_income_card_left_a_hole_in_the_offer():
    g, ev = _income_followed_by_a_recruit(5)  # old logs replay as they were played
    assert types(ev) == ["adviser_recruited", "turn_passed"]
    assert g.state["offer"] == ["shepherd", None, "sage"]


def test_an_adviser_card_must_resolve_its_main_action_and_is_followed_by_its_category():
    g = game(4)
    g.state["players"][0]["hand"].append("shepherd")  # an Upgrade adviser: upgrade $1 cheaper (ours)
    with pytest.raises(IllegalAction, match="cannot be resolved"):
        lead(g, 0, "shepherd")
    _machinery(g)
    lead(g, 0, "shepherd")
    ev = g.act(0, {"type": "upgrade", "resource": "machinery", "cells": MACHINERY})
    assert ev[0]["cost"] == 3
    g.act(0, {"type": "skip_roads"})
    assert g.state["cur"] == {"seat": 1, "role": "follow", "category": "upgrade"}
    kinds = {a["type"] for a in g.legal_actions(1)}
    assert kinds <= {"upgrade", "take_money", "take_influence", "road", "place_worker"}
    assert not kinds & {"import", "recruit", "build"}


# --- Upgrade and connections --------------------------------------------------------------------
def _machinery(g, knowledge_cell=C(4, 2), link=(C(3, 2),)):
    """Seat 0 owns metal at (0,0) linked by road to MACHINERY; seat 1's knowledge, accessed by seat 0."""
    tile(g, "stall", "metal", 0, [C(0, 0)])
    roads(g, C(0, 1), C(0, 2))
    k = tile(g, "stall", "knowledge", 1, [knowledge_cell], claims=[0])
    roads(g, *link)
    return k


def test_upgrade_example_machinery_scores_1_for_each_prerequisite_owner():
    """p. 13: Purple builds Machinery connected to her metal and to yellow's knowledge: 1 point each."""
    g = game(4)
    _machinery(g)
    lead(g, 0, "upgrade")
    ev = g.act(0, {"type": "upgrade", "resource": "machinery", "cells": MACHINERY})
    assert ev[0]["type"] == "building_upgraded" and ev[0]["cost"] == 4
    assert points(g, 0) == 1 and points(g, 1) == 1
    assert g.state["players"][0]["money"] == 16


def test_upgrade_leader_may_build_one_road_connected_to_the_new_building():
    g = game(4)
    _machinery(g)
    lead(g, 0, "upgrade")
    g.act(0, {"type": "upgrade", "resource": "machinery", "cells": MACHINERY})
    assert g.to_act() == {0} and {a["type"] for a in g.legal_actions(0)} == {"road", "skip_roads"}
    with pytest.raises(IllegalAction, match="connected to the building just built"):
        g.act(0, {"type": "road", "cell": C(4, 8)})
    g.act(0, {"type": "road", "cell": C(1, 4)})
    assert g.to_act() == {1}


def _follow(g, seat, category, queue=()):
    """Seat `seat` is a follower of a `category` card; `queue` follows after it."""
    g.state["active"] = 3
    g.state["turn"] = {"category": category, "queue": list(queue), "refill": False, "completions_before": 0}
    g.state["cur"] = {"seat": seat, "role": "follow", "category": category}


def test_upgrade_follow_builds_at_the_same_price_without_the_road():
    g = game(4)
    _machinery(g)
    _follow(g, 0, "upgrade", queue=[1])
    ev = g.act(0, {"type": "upgrade", "resource": "machinery", "cells": MACHINERY})
    assert ev[0]["cost"] == 4 and "roads_due" not in types(ev)
    assert g.to_act() == {1}


def test_upgrade_needs_a_connection_through_roads_not_through_buildings():
    g = game(4)
    _machinery(g, link=())
    tile(g, "house", None, 2, [C(3, 2)])  # a building between the tile and the knowledge
    from tablero.engines.founders_of_gloomhaven.upgrade import _check_upgrade

    g.state["cur"] = {"seat": 0, "role": "lead", "category": "upgrade", "discount": 0, "bonus": {}}
    with pytest.raises(IllegalAction, match="connected to its prerequisites"):
        _check_upgrade(g.state, 0, {"type": "upgrade", "resource": "machinery", "cells": MACHINERY})
    g2 = game(4)
    _machinery(g2)  # a road instead of the house
    g2.state["cur"] = dict(g.state["cur"])
    _check_upgrade(g2.state, 0, {"type": "upgrade", "resource": "machinery", "cells": MACHINERY})


def test_a_bridge_connects_across_the_river_only_for_its_builder():
    from tablero.engines.founders_of_gloomhaven.upgrade import _check_upgrade
    cur = {"seat": 0, "role": "lead", "category": "upgrade", "discount": 0, "bonus": {}}
    act = {"type": "upgrade", "resource": "machinery", "cells": MACHINERY}
    g = game(4)
    _machinery(g, knowledge_cell=C(6, 2), link=(C(3, 2), C(4, 2)))
    bridge(g, 2, C(5, 2))  # another player's bridge
    g.state["cur"] = cur
    with pytest.raises(IllegalAction, match="connected"):
        _check_upgrade(g.state, 0, act)
    g = game(4)
    _machinery(g, knowledge_cell=C(6, 2), link=(C(3, 2), C(4, 2)))
    bridge(g, 0, C(5, 2))  # its own bridge
    g.state["cur"] = cur
    _check_upgrade(g.state, 0, act)


def test_an_upgrade_may_not_touch_your_own_buildings():
    g = game(4)
    _machinery(g)
    tile(g, "stall", "stone", 0, [C(3, 3)])
    from tablero.engines.founders_of_gloomhaven.upgrade import _check_upgrade

    g.state["cur"] = {"seat": 0, "role": "lead", "category": "upgrade", "discount": 0, "bonus": {}}
    with pytest.raises(IllegalAction, match="adjacent"):
        _check_upgrade(g.state, 0, {"type": "upgrade", "resource": "machinery", "cells": MACHINERY})


# --- Build -----------------------------------------------------------------------------------------
def _builder():
    g = game(4)
    tile(g, "stall", "metal", 0, [C(0, 0)])
    roads(g, C(1, 0))
    return g


def test_build_leader_pays_3_for_a_house_which_unlocks_a_worker():
    g = _builder()
    lead(g, 0, "build")
    ev = g.act(0, {"type": "build", "kind": "house", "cell": C(2, 0)})
    assert ev[0]["type"] == "house_built" and ev[0]["cost"] == 3
    p = g.state["players"][0]
    assert (p["money"], p["houses"], p["workers"]) == (17, 1, 1)


def test_houses_go_on_green_one_per_section_and_the_follow_pays_4():
    g = _builder()
    roads(g, C(1, 1), C(1, 2))
    lead(g, 0, "build")
    with pytest.raises(IllegalAction, match="green"):
        g.act(0, {"type": "build", "kind": "house", "cell": C(2, 1)})
    g.act(0, {"type": "build", "kind": "house", "cell": C(2, 0)})
    _follow(g, 0, "build")
    with pytest.raises(IllegalAction, match="already have a house in this city section"):
        g.act(0, {"type": "build", "kind": "house", "cell": C(0, 2)})
    tile(g, "stall", "knowledge", 1, [C(3, 3)])
    roads(g, C(3, 4))
    _follow(g, 1, "build")
    ev = g.act(1, {"type": "build", "kind": "house", "cell": C(4, 4)})
    assert ev[0]["cost"] == 4


def test_personal_buildings_must_be_connected_to_something_you_own():
    g = _builder()
    lead(g, 0, "build")
    with pytest.raises(IllegalAction, match="connected to something you own"):
        g.act(0, {"type": "build", "kind": "house", "cell": C(3, 8)})


def test_bridges_go_on_river_or_wall_spaces_three_at_most():
    g = game(4)
    tile(g, "stall", "metal", 0, [C(4, 0)])
    lead(g, 0, "build")
    ev = g.act(0, {"type": "build", "kind": "bridge", "cell": C(5, 0)})
    assert ev[0]["type"] == "bridge_built" and ev[0]["cost"] == 3
    g.state["players"][0]["bridges"] = 3
    roads(g, C(6, 0), C(7, 1), C(6, 1))
    lead(g, 0, "build")
    assert not [a for a in g.legal_actions(0) if a["type"] == "build" and a.get("kind") == "bridge"]


def test_a_tier_3_building_costs_6_and_pays_each_tier_2_owner_its_printed_number():
    from tablero.engines.founders_of_gloomhaven.delivery import _delivery_points
    g = game(4)
    mach = tile(g, "t2", "machinery", 1, [C(0, 9), C(1, 9), C(0, 10), C(1, 10)], claims=[0])
    leather = tile(g, "t2", "leather", 0, [C(1, 14), C(2, 14), C(3, 14)])
    roads(g, C(0, 11), C(1, 13))
    lead(g, 0, "upgrade")
    weapons = [C(0, 12), C(1, 12), C(2, 12), C(3, 12)]
    ev = g.act(0, {"type": "upgrade", "resource": "weapons", "cells": weapons})
    assert ev[0]["cost"] == 6 and ev[0]["prereqs"] == [[mach, 1, 2], [leather, 0, 2]]
    assert (points(g, 0), points(g, 1)) == (2, 2)
    # delivered later: 2 to each prerequisite's owner and the bracket (+3) to the owner
    assert _delivery_points(g.state, g.state["tiles"][ev[0]["tile"]]) == [[1, 2], [0, 2], [0, 3]]


# --- v4: the Upgrade leader's road before the tile ------------------------------------------------
def _upgrade_lead(version=None):
    """Seat 0 has access to seat 1's metal (0,3) and knowledge (4,3): no Machinery tile can touch
    both, a road on (3,3) first would join them. Its own plant (3,2) with a road (3,1) allows Food."""
    g = game(4)
    if version is not None:
        g.state["version"] = version
    tile(g, "stall", "metal", 1, [C(0, 3)], claims=[0])
    tile(g, "stall", "knowledge", 1, [C(4, 3)], claims=[0])
    tile(g, "stall", "plant", 0, [C(3, 2)])
    roads(g, C(3, 1))
    turn(g, 0)
    g.state["players"][0]["hand"].append("upgrade")
    g.act(0, {"type": "play_card", "card": "upgrade", "face_up": True})
    return g


MACH = [C(1, 3), C(2, 3), C(1, 4), C(2, 4)]


def test_the_upgrade_leader_may_build_the_road_before_the_tile():
    """seed-FoG p. 12: "ya sea antes o después de colocar la loseta, el jugador también puede construir
    una única carretera conectada a la loseta de recurso que se está construyendo"."""
    g = _upgrade_lead()
    acts = g.legal_actions(0)
    assert not any(a["type"] == "upgrade" and a["resource"] == "machinery" for a in acts)
    assert {"type": "road_first"} in acts
    g.act(0, {"type": "road_first"})
    assert g.view(0)["phase"] == "lead_road"
    cells = {a["cell"] for a in g.legal_actions(0)}
    assert C(3, 3) in cells
    with pytest.raises(IllegalAction, match="connected to something you own"):
        g.act(0, {"type": "first_road", "cell": C(8, 8)})  # the general rule for roads (p. 20)
    g.act(0, {"type": "first_road", "cell": C(3, 3)})
    acts = g.legal_actions(0)
    assert {"type": "upgrade", "resource": "machinery", "cells": MACH} in acts
    assert all(a["type"] == "upgrade" for a in acts)  # the tile must now be connected to that road
    money, roads_left = g.state["players"][0]["money"], g.state["roads_left"]
    ev = g.act(0, {"type": "upgrade", "resource": "machinery", "cells": MACH})
    assert "roads_due" not in types(ev)  # a single road: it was built before
    assert g.state["players"][0]["money"] == money - 4 and g.state["roads_left"] == roads_left


def test_after_the_road_first_a_tile_away_from_it_is_refused():
    g = _upgrade_lead()
    food = [C(1, 0), C(2, 0), C(1, 1), C(2, 1)]  # connected to the plant by the road (3,1)
    assert {"type": "upgrade", "resource": "food", "cells": food} in g.legal_actions(0)
    g.act(0, {"type": "road_first"})
    g.act(0, {"type": "first_road", "cell": C(3, 3)})
    assert {"type": "upgrade", "resource": "food", "cells": food} not in g.legal_actions(0)
    with pytest.raises(IllegalAction, match="connected to the road built before it"):
        g.act(0, {"type": "upgrade", "resource": "food", "cells": food})


def test_before_v4_the_upgrade_road_comes_after_the_tile_only():
    g = _upgrade_lead(version=3)
    assert {"type": "road_first"} not in g.legal_actions(0)
    with pytest.raises(IllegalAction, match="after the tile only"):
        g.act(0, {"type": "road_first"})
