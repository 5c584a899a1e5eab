"""seed-FoG p. 12 Trade: import, access, import-and-access; costs by terrain; the follow on red/white."""

import pytest
from tablero.engines import IllegalAction

from .helpers import C, bridge, game, lead, resources, tile, types


def _g(seats=4):
    g = game(seats)
    resources(g, 0, ["metal", "stone"])
    resources(g, 1, ["knowledge", "clay"])
    return g


def test_import_costs_1_on_red_2_on_white_3_on_grey_or_green():
    for cell, cost in ((C(0, 0), 1), (C(1, 0), 2), (C(2, 0), 3), (C(1, 1), 3)):  # red, white, green, grey
        g = _g()
        lead(g, 0, "trade")
        ev = g.act(0, {"type": "import", "resource": "metal", "cell": cell})
        assert ev[0]["type"] == "stall_imported" and ev[0]["cost"] == cost
        assert g.state["players"][0]["money"] == 20 - cost
        t = g.state["tiles"][ev[0]["tile"]]
        assert (t["owner"], t["res"], t["cells"]) == (0, "metal", [cell])


def test_only_your_own_basic_resources_can_be_imported():
    g = _g()
    lead(g, 0, "trade")
    with pytest.raises(IllegalAction, match="you do not import knowledge"):
        g.act(0, {"type": "import", "resource": "knowledge", "cell": C(0, 0)})


def test_trade_follow_imports_at_the_same_price_but_only_on_red_or_white():
    g = _g()
    lead(g, 0, "trade")
    g.act(0, {"type": "import", "resource": "metal", "cell": C(0, 0)})
    assert g.to_act() == {1}
    with pytest.raises(IllegalAction, match="red or white"):
        g.act(1, {"type": "import", "resource": "knowledge", "cell": C(2, 0)})
    g.act(1, {"type": "import", "resource": "knowledge"})  # two steps: the resource, then the square
    sites = [a["cell"] for a in g.legal_actions(1)]
    assert C(2, 0) not in sites and C(4, 0) in sites
    ev = g.act(1, {"type": "place_stall", "cell": C(4, 0)})
    assert ev[0]["cost"] == 2
    assert g.to_act() == {2}


def test_import_may_not_touch_your_own_tiles_except_bridges():
    g = _g()
    tile(g, "stall", "metal", 0, [C(3, 0)])
    lead(g, 0, "trade")
    with pytest.raises(IllegalAction, match="adjacent"):
        g.act(0, {"type": "import", "resource": "stone", "cell": C(4, 0)})
    g = _g()
    bridge(g, 0, C(5, 0))
    lead(g, 0, "trade")
    g.act(0, {"type": "import", "resource": "stone", "cell": C(4, 0)})  # next to its own bridge: allowed


def test_one_tile_of_each_resource_per_city_section():
    g = _g()
    tile(g, "stall", "metal", 2, [C(0, 8)])
    lead(g, 0, "trade")
    with pytest.raises(IllegalAction, match="already has a metal tile"):
        g.act(0, {"type": "import", "resource": "metal", "cell": C(0, 0)})
    g.act(0, {"type": "import", "resource": "metal"})
    assert not [a for a in g.legal_actions(0) if a["cell"] % 15 <= 4]
    g.act(0, {"type": "place_stall", "cell": C(6, 0)})  # the middle section is free


def test_buying_access_pays_the_owner_by_the_cheapest_colour_under_the_tile():
    g = _g()
    red = tile(g, "stall", "metal", 0, [C(0, 0)])
    mixed = tile(g, "t2", "bricks", 0, [C(2, 4), C(3, 4), C(4, 4)])  # white, red, green: red is cheapest
    grey = tile(g, "stall", "stone", 0, [C(1, 1)])
    lead(g, 1, "trade")
    ev = g.act(1, {"type": "access", "tile": red})
    assert ev[0] == {"type": "access_bought", "seat": 1, "tile": red, "cost": 2, "to": 0}
    assert g.state["players"][0]["money"] == 22 and g.state["players"][1]["money"] == 18
    assert 1 in g.state["tiles"][red]["claims"] and g.state["tiles"][red]["owner"] == 0
    lead(g, 1, "trade")
    assert g.act(1, {"type": "access", "tile": mixed})[0]["cost"] == 2
    lead(g, 1, "trade")
    assert g.act(1, {"type": "access", "tile": grey})[0]["cost"] == 4
    lead(g, 1, "trade")
    with pytest.raises(IllegalAction, match="already have access"):
        g.act(1, {"type": "access", "tile": red})


def test_trade_follow_buys_access_only_on_red_or_white():
    g = _g()
    grey = tile(g, "stall", "stone", 0, [C(1, 1)])
    tile(g, "stall", "metal", 0, [C(6, 0)])
    lead(g, 0, "trade")
    g.act(0, {"type": "import", "resource": "stone", "cell": C(9, 0)})
    with pytest.raises(IllegalAction, match="red or white"):
        g.act(1, {"type": "access", "tile": grey})


def test_neutral_resources_are_imported_with_access_for_4_but_not_as_a_follow():
    g = _g(3)
    g.state["neutral"] = ["animals", "plant"]
    lead(g, 0, "trade")
    ev = g.act(0, {"type": "import_access", "resource": "animals", "cell": C(0, 0)})  # red, still 4
    assert ev[0]["cost"] == 4 and ev[0]["owner"] is None and ev[0]["claim"] is True
    t = g.state["tiles"][ev[0]["tile"]]
    assert t["owner"] is None and t["claims"] == [0]
    assert g.to_act() == {1}
    with pytest.raises(IllegalAction, match="not possible now"):
        g.act(1, {"type": "import_access", "resource": "plant", "cell": C(1, 0)})
    assert "import_access" not in types(g.legal_actions(1))


def test_another_players_resource_can_be_imported_with_access_only_after_the_second_completion():
    g = _g()
    lead(g, 0, "trade")
    with pytest.raises(IllegalAction, match="after the 2nd completion"):
        g.act(0, {"type": "import_access", "resource": "knowledge", "cell": C(0, 0)})
    g.state["completions"] = 2
    ev = g.act(0, {"type": "import_access", "resource": "knowledge", "cell": C(0, 0)})
    t = g.state["tiles"][ev[0]["tile"]]
    assert (ev[0]["cost"], t["owner"], t["claims"]) == (4, 1, [0])


def test_import_is_offered_in_two_steps_resource_then_square():
    g = _g()
    lead(g, 0, "trade")
    offered = [a for a in g.legal_actions(0) if a["type"] == "import"]
    assert offered == [{"type": "import", "resource": "metal"}, {"type": "import", "resource": "stone"}]
    g.act(0, {"type": "import", "resource": "stone"})
    assert g.view(0)["phase"] == "site" and g.to_act() == {0}
    assert {a["type"] for a in g.legal_actions(0)} == {"place_stall"}
    with pytest.raises(IllegalAction, match="not free land"):
        g.act(0, {"type": "place_stall", "cell": C(5, 0)})  # the river
    ev = g.act(0, {"type": "place_stall", "cell": C(1, 1)})
    assert ev[0]["type"] == "stall_imported" and ev[0]["resource"] == "stone" and ev[0]["cost"] == 3
