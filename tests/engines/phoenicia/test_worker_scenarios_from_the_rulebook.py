"""Scenarios for seed-P 1b and 1c (shared/rules/003_511c13edd7374df3.txt l.211-261, l.328, l.332)
that the other worker tests do not pin: the rulebook's move example carried on to the free
placement on the disk it leaves, in one turn; training and employing the same worker; an
untrained worker; several tools in one turn; full tableaus for moves and tools; and nothing
that turns tools or workers back into money."""

import pytest
from tablero.engines import IllegalAction
from tablero.engines.phoenicia.engine import _new_tile

from .helpers import my_turn, player, tile, types


def test_l240_to_l247_move_a_hunter_to_mining_then_put_a_trained_worker_on_the_disk_it_left_for_free():
    """l.240-241: Hunting -> Mining pays the full 8, gains 2 production and 1 VP and leaves a disk;
    l.246-247: a trained worker goes onto that disk "sin costo", the disk goes back to the supply
    and the player gains the space's full value ("un punto en cada track")."""
    g = my_turn(cards=["Prospector"], hand=[4, 4], disks=3, trained=1)
    g.state["players"][0]["tiles"].append(_new_tile("mining"))
    p = player(g, 0)
    prod, vp = p["production"], p["vp"]
    g.act(0, {"type": "move", "from_tile": 0, "from_slot": 0, "to": "mining"})
    g.act(0, {"type": "pay", "cards": [4, 4], "disks": 0})
    p = g.state["players"][0]
    assert (p["production"] - prod, p["vp"] - vp) == (2, 1)
    assert tile(g, 0, "hunting")["slots"][0] == "t"
    ev = g.act(0, {"type": "employ", "tableau": "hunting"})  # free: no payment step
    assert types(ev) == ["worker_employed"] and ev[0]["tool_taken"] is True
    p = g.state["players"][0]
    assert (p["production"] - prod, p["vp"] - vp) == (3, 2)
    assert tile(g, 0, "hunting")["slots"][0] == "w"
    assert (p["trained"], p["disks"], p["hand"]) == (0, 3, [])


def test_l217_l225_a_worker_trained_for_2_is_employed_in_the_same_turn_for_the_tool_cost():
    g = my_turn(hand=[], disks=3, untrained=1)
    g.state["players"][0]["hand"] = [4]
    g.act(0, {"type": "train", "cards": [], "disks": 2})
    assert (g.state["players"][0]["untrained"], g.state["players"][0]["trained"]) == (0, 1)
    with pytest.raises(IllegalAction, match="costs 2"):
        g.act(0, {"type": "employ", "tableau": "hunting", "cards": [], "disks": 1})
    g.act(0, {"type": "employ", "tableau": "hunting", "cards": [4], "disks": 0})
    p = g.state["players"][0]
    assert tile(g, 0, "hunting")["slots"][:2] == ["w", "w"]
    assert (p["trained"], p["disks"], p["hand"]) == (0, 3, [])  # 4 for 2: two disks of change


def test_l215_l225_an_untrained_worker_cannot_be_employed_or_put_on_a_tool_disk():
    """l.225: the pawn goes "desde la zona de trabajadores capacitados"; l.246: "un trabajador
    capacitado"."""
    g = my_turn(untrained=2, trained=0)
    tile(g, 0, "hunting")["slots"][1] = "t"
    assert not [a for a in g.legal_actions(0) if a["type"] == "employ"]
    with pytest.raises(IllegalAction, match="no trained worker"):
        g.act(0, {"type": "employ", "tableau": "hunting"})


def test_l251_several_tools_in_one_turn_each_on_the_next_empty_space_at_the_tiles_cost():
    """l.251-252: "uno o más discos de herramienta", each "en el primer espacio vacío" for the
    cost "que indica ese tarjetón"."""
    g = my_turn(hand=[6, 6], disks=3)
    g.act(0, {"type": "buy_tool", "tableau": "farming", "cards": [6], "disks": 0})
    g.act(0, {"type": "buy_tool", "tableau": "farming", "cards": [6], "disks": 0})
    g.act(0, {"type": "buy_tool", "tableau": "hunting", "cards": [], "disks": 2})
    assert tile(g, 0, "farming")["slots"][:4] == ["w", "t", "t", None]
    assert tile(g, 0, "hunting")["slots"][:3] == ["w", "t", None]
    p = g.state["players"][0]
    assert (p["hand"], p["disks"]) == ([], 3)  # 3 + 1 + 1 change - 2
    # Tools bring no production and no VP until a worker uses them.
    assert (p["production"], p["vp"]) == (3, 2)


def test_l332_no_move_or_tool_onto_a_full_tableau():
    """l.332: "El jugador no puede tener más trabajadores asignados a una actividad de los que
    permita el tarjetón respectivo"; l.252 a tool needs an empty space."""
    g = my_turn()
    t = tile(g, 0, "farming")
    t["slots"] = ["w"] * len(t["slots"])
    player(g, 0)
    acts = g.legal_actions(0)
    assert not [a for a in acts if a["type"] == "move" and a["to"] == "farming"]
    assert not [a for a in acts if a["type"] == "buy_tool" and a["tableau"] == "farming"]
    with pytest.raises(IllegalAction, match="no free space"):
        g.act(0, {"type": "move", "from_tile": 0, "from_slot": 0, "to": "farming"})
    with pytest.raises(IllegalAction, match="no free space"):
        g.act(0, {"type": "buy_tool", "tableau": "farming"})


def test_l328_nothing_turns_tool_disks_or_workers_back_into_money_or_to_a_cheaper_activity():
    """l.328: "El jugador no puede transformar en dinero los discos de herramienta ni los
    trabajadores (devolviéndolos a una actividad menos costosa, o a la zona de trabajadores
    capacitados o sin capacitación)"."""
    g = my_turn(cards=["Prospector"], trained=1)
    g.state["players"][0]["tiles"].append(_new_tile("mining"))
    m = tile(g, 0, "mining")
    m["slots"][:2] = ["w", "t"]
    tile(g, 0, "hunting")["slots"][1] = "t"
    player(g, 0)
    cost = {"hunting": 2, "farming": 5, "mining": 8}
    kinds = [t["kind"] for t in g.state["players"][0]["tiles"]]
    for a in g.legal_actions(0):
        assert a["type"] in {"open_auction", "train", "employ", "move", "buy_tool", "buy_vp", "convert",
                             "end_turn"}
        if a["type"] == "move":
            assert cost[a["to"]] > cost[kinds[a["from_tile"]]]
    with pytest.raises(IllegalAction, match="more costly"):
        g.act(0, {"type": "move", "from_tile": 2, "from_slot": 0, "to": "farming"})


def test_l238_moving_from_farming_to_mining_pays_the_full_8_not_the_difference():
    """l.237: "debe pagar el costo total de empleo de esta nueva actividad"."""
    g = my_turn(cards=["Prospector"], hand=[6], disks=3)
    g.state["players"][0]["tiles"].append(_new_tile("mining"))
    before = dict(player(g, 0))
    ev = g.act(0, {"type": "move", "from_tile": 1, "from_slot": 0, "to": "mining"})
    assert ev[0]["type"] == "payment_requested" and ev[0]["price"] == 8
    g.act(0, {"type": "pay", "cards": [6], "disks": 2})
    p = g.state["players"][0]
    # Farming (2 production, 1 VP) -> Mining (3, 2): the difference only, +1 and +1.
    assert (p["production"] - before["production"], p["vp"] - before["vp"], p["disks"]) == (1, 1, 1)
    assert tile(g, 0, "farming")["slots"][0] == "t"
