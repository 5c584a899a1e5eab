"""The outcome's details let a player check the arithmetic: the VP of every seat line by
line (each development card by name, the workers on each tableau -- the starting
village's two workers among them -- and the City Center purchases) and the tie-break
values (seed-P Fin del juego)."""

import random

from tablero.engines.phoenicia.engine import scoring, vp_sources

from .helpers import ENGINE, game, player, set_turn, tile


def _finished_game():
    g = game(2, seed=3)
    set_turn(g, [0, 1], turn=1)
    p = player(g, 0, cards=["Dyer", "Tracker", "City Walls", "Prospector", "City Center", "Temple",
                            "Indentured Worker", "Public Works", "Port"], hand=[4, 6], disks=2)
    p["tiles"] += [{"kind": "mining", "slots": ["w", "w", "t", None, None]},
                   {"kind": "city_center", "slots": ["t", "t", None]}]
    tile(g, 0, "hunting")["slots"][1] = "w"
    player(g, 0)
    player(g, 1, cards=["Shipyard"], hand=[5], disks=1)
    g.act(1, {"type": "end_turn"})
    return g


def test_the_details_list_every_vp_source_of_each_seat_and_they_add_up():
    g = _finished_game()
    out = g.outcome()
    d = out["details"][0]
    assert d["vp_by_card"] == {"City Center": 2, "City Walls": 8, "Dyer": 1, "Indentured Worker": 0,
                               "Port": 4, "Prospector": 1, "Public Works": 5, "Temple": 4, "Tracker": 1}
    # Hunting: the starting worker and one more; Farming: the starting worker; Mining 2 VP each.
    assert d["vp_by_tableau"] == {"hunting": 2, "farming": 1, "mining": 4}
    assert d["vp_city_center"] == 2
    mining = next(ln for ln in d["vp_sources"] if ln.get("tableau") == "mining")
    assert mining == {"source": "workers", "tableau": "mining", "workers": 2, "vp_each": 2, "vp": 4}
    assert {"source": "city_center", "purchases": 2, "vp_each": 1, "vp": 2} in d["vp_sources"]
    assert sum(ln["vp"] for ln in d["vp_sources"]) == d["vp"] == out["scores"][0] == 26 + 7 + 2
    assert d["cards_vp"] == 26 and d["workers_vp"] == 7 and d["bought_vp"] == 2  # the old totals stay
    # The second seat: the starting village only (1 VP on Hunting, 1 on Farming) and Shipyard.
    assert out["details"][1]["vp_sources"] == [
        {"source": "card", "card": "Shipyard", "copies": 1, "vp_each": 2, "vp": 2},
        {"source": "workers", "tableau": "hunting", "workers": 1, "vp_each": 1, "vp": 1},
        {"source": "workers", "tableau": "farming", "workers": 1, "vp_each": 1, "vp": 1},
    ]


def test_the_details_give_the_tie_break_values_and_which_rule_decided():
    g = _finished_game()
    out = g.outcome()
    assert out["winners"] == [0] and out["decided_by"] == "vp"
    # 2a ends the game before 2c, so the hands are those of the last turn.
    for s, d in enumerate(out["details"]):
        p = g.state["players"][s]
        tb = d["tie_break"]
        assert tb["last_overlord"] == (s == g.state["overlord"]) == d["last_overlord"]
        assert tb["disks"] == p["disks"] and tb["production_cards"] == len(p["hand"])
        assert tb["money"] == tb["disks"] + tb["production_card_value"] == d["money"]
    assert out["details"][0]["tie_break"]["money"] == 12


def test_vp_sources_add_up_to_the_track_in_random_games():
    rng = random.Random(5)
    for seats in (2, 3, 5):
        g = game(seats, seed=seats + 10)
        while g.outcome() is None:
            seat = rng.choice(sorted(g.to_act()))
            g.act(seat, ENGINE.random_action(g.state, seat, g.legal_actions(seat), rng))
        for s, p in enumerate(g.state["players"]):
            d = g.outcome()["details"][s]
            assert sum(ln["vp"] for ln in vp_sources(p)) == scoring(p)["vp"] == d["vp"]
            assert sum(d["vp_by_card"].values()) == d["cards_vp"]
            assert sum(d["vp_by_tableau"].values()) == d["workers_vp"]
