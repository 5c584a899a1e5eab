"""The rulebook's worked examples not pinned word for word elsewhere (seed-P =
shared/rules/003_511c13edd7374df3.txt; the others are in test_workers.py, test_auctions.py and
test_treasury.py: the Hunting -> Mining move l.240-241, the tool disk l.246-247, the Dyers'
7 / 9 l.202, income 6/0 and 6/3 l.296-297, Ana l.311-313)."""

from .helpers import game, player, set_turn, tile


def test_l192_an_auction_that_cost_4_paid_with_a_6_gives_2_disks_of_change():
    """seed-P l.192: "paga con una Carta de Producción de valor 6 una subasta que le costó 4, el
    cambio se recibe solo en discos, que se colocan en la referida tesorería"."""
    g = game(2, seed=3)
    set_turn(g, [1, 0], turn=1)  # seat 0 plays last: nobody bids against him
    g.state["display"] = ["Granary"]  # minimum bid 4
    player(g, 0, hand=[6], disks=0)
    g.act(0, {"type": "open_auction", "card": "Granary", "bid": 4})
    ev = g.act(0, {"type": "pay", "cards": [6], "disks": 0})
    assert ev[-1]["type"] == "development_bought" and ev[-1]["change"] == 2
    p = g.state["players"][0]
    assert (p["hand"], p["disks"]) == ([], 2)


def test_l227_a_second_hunter_on_space_2_2_raises_each_track_by_1_only():
    """seed-P l.227: "si ya hay un trabajador en el espacio 1:1, y luego este jugador ubica a
    otro trabajador capacitado en el espacio 2:2 del mismo tarjetón, en el marcador de puntos de
    producción y victoria incrementa en solo 1 punto para cada track"."""
    g = game(2, seed=3)
    set_turn(g, [0, 1])
    g.state["display"] = []
    p = player(g, 0, hand=[], disks=2, untrained=0, trained=1)
    before = (p["production"], p["vp"])
    assert tile(g, 0, "hunting")["slots"][:2] == ["w", None]  # the starting hunter on 1:1
    g.act(0, {"type": "employ", "tableau": "hunting", "cards": [], "disks": 2})
    p = g.state["players"][0]
    assert tile(g, 0, "hunting")["slots"][:2] == ["w", "w"]
    assert (p["production"] - before[0], p["vp"] - before[1]) == (1, 1)
