"""Rulebook p.9 (Fin de Ronda, Fin de la Partida, Puntuación), quick reference p.25 and FAQ 7."""

from tablero.engines.new_bedford import scoring

from .helpers import ENGINE, at_sea, finish_action_phase, game, give, own, place, player, set_bag, types

Z = {"right": 0, "bowhead": 0, "sperm": 0}


def test_end_of_round_moves_the_ship_wheel_left_advances_the_round_and_returns_workers():
    g = game(seats=3, first=2)
    finish_action_phase(g)
    assert g.state["round"] == 2 and g.state["first_player"] == 0
    assert all(p["workers"] == [] for p in g.state["players"])
    assert all(occ == [] for occ in g.state["occupancy"].values())
    assert g.to_act() == {0}


def test_the_game_lasts_twelve_rounds():
    g = game()
    rounds = set()
    while g.outcome() is None:
        rounds.add(g.state["round"])
        finish_action_phase(g)
    assert rounds == set(range(1, 13))
    assert types(g.events).count("round_ended") == 12


def last_round(seats=2):
    g = game(seats=seats)
    g.state["round"] = 12
    return g


def test_after_round_12_every_ship_at_sea_returns_in_whale_selection_order_farthest_first():
    """FAQ 7-8 (000_… lines 821-822): after round 12's whaling all ships still at sea return "in
    the same order they had for selecting tokens": the farthest first (an outside rules audit: the
    repeated movement brought the nearest home first, so it sold and bought first)."""
    g = last_round()
    at_sea(g, 0, 1, 4, right=1)
    at_sea(g, 1, 1, 2)
    set_bag(g, bowhead=5)
    give(g, 0, money=10)
    give(g, 1, money=10)
    finish_action_phase(g)
    assert g.state["phase"] == "whaling"
    g.act(0, {"type": "pick_whale", "kind": "bowhead"})  # seat 0 on space 3: picks first
    evs = g.act(1, {"type": "pick_whale", "kind": "bowhead"})  # seat 1 on space 1
    assert "round_ended" in types(evs) and g.state["final"]
    moved = [e for e in evs if e["type"] == "ships_moved"][-1]
    assert moved["in_order"] and moved["returning"] == [[0, 1]]
    assert g.to_act() == {0}  # the farthest ship comes home first
    evs = g.act(0, {"type": "return_ship", "pay": {**Z, "right": 1, "bowhead": 1}, "sell": dict(Z)})
    assert "whales_drawn" not in types(evs) and g.to_act() == {1}
    evs = g.act(1, {"type": "return_ship", "pay": {**Z, "bowhead": 1}, "sell": dict(Z)})
    assert types(evs)[-1] == "game_ended"
    assert g.outcome() is not None and g.to_act() == set()
    assert types(g.events).count("ships_moved") == 1 + 2  # round 12's movement, then one per ship in order


def test_after_round_12_ships_keep_moving_until_all_have_returned_with_no_more_whaling():
    """Games started before v5 keep the repeated movement (nearest shore first)."""
    g = last_round()
    g.state["version"] = 4
    at_sea(g, 0, 1, 4, right=1)
    at_sea(g, 1, 1, 2)
    set_bag(g, bowhead=5)
    give(g, 0, money=10)
    finish_action_phase(g)
    # Round 12 still has its whaling phase: 3 tokens for 2 ships.
    assert g.state["phase"] == "whaling"
    g.act(0, {"type": "pick_whale", "kind": "bowhead"})  # seat 0 on space 3
    evs = g.act(1, {"type": "pick_whale", "kind": "bowhead"})  # seat 1 on space 1
    # Then the round ends and movement repeats: seat 1 returns first (nearest shore).
    assert "round_ended" in types(evs) and g.state["final"]
    assert g.to_act() == {1}
    give(g, 1, money=4)
    evs = g.act(1, {"type": "return_ship", "pay": {**Z, "bowhead": 1}, "sell": dict(Z)})
    assert "whales_drawn" not in types(evs)
    assert g.to_act() == {0}
    evs = g.act(0, {"type": "return_ship", "pay": {**Z, "right": 1, "bowhead": 1}, "sell": dict(Z)})
    assert types(evs)[-1] == "game_ended"
    assert g.outcome() is not None and g.to_act() == set()
    # Round 12's movement, then three more until seat 0's ship came home from space 3.
    assert types(g.events).count("ships_moved") == 1 + 3


def test_ships_on_the_dock_at_the_end_simply_stay_there():
    g = last_round()
    g.state["players"][0]["ships"][0]["at"] = "dock"
    finish_action_phase(g)
    assert g.outcome() is not None


def test_post_office_pays_its_owner_in_the_last_round_too():
    g = last_round(seats=3)
    g.state["buildings"]["post_office"] = {"owner": 2, "used": False}
    give(g, 2, money=3)
    finish_action_phase(g)
    assert player(g, 2)["money"] == 5
    assert g.outcome()["details"][2]["money_points"] == 1


def test_round_12_ends_before_the_final_returns_so_post_office_money_can_pay_a_lay():
    # p.9: "the game ends after round 12" (all four phases), then "before scoring" the
    # movement phase repeats; FAQ 7: after round 12's whaling phase the ships return.
    g = last_round(seats=3)
    g.state["buildings"]["post_office"] = {"owner": 2, "used": False}
    at_sea(g, 2, 1, 2, right=1)
    set_bag(g)
    give(g, 2, money=0)
    finish_action_phase(g)
    assert g.state["final"] and g.to_act() == {2}
    assert player(g, 2)["money"] == 2
    pay = {"type": "return_ship", "pay": {**Z, "right": 1}, "sell": dict(Z)}
    assert pay in g.legal_actions(2)
    g.act(2, pay)
    assert g.outcome()["details"][2]["whale_points"] == 1


def test_scoring_counts_whales_then_buildings_then_victory_buildings_then_money():
    g = game(seats=2)
    own(g, 0, "counting_house", "mansion", "municipal_office", "seamens_bethel", "bank")
    player(g, 0)["returned"] = {"right": 3, "bowhead": 2, "sperm": 1}
    give(g, 0, money=23, lumber=9, food=9, brick=9)  # leftover goods score nothing
    d = scoring.score_seat(g.state, 0)
    assert d["whale_points"] == 3 * 1 + 2 * 2 + 1 * 4
    assert d["building_points"] == 5  # Victory buildings count 1 point here too
    assert d["victory_buildings"] == {
        "counting_house": 1,  # 1 per 2 Right Whales
        "mansion": 4,
        "municipal_office": 2,  # 1 per 2 buildings owned, itself included: 5 // 2
        "seamens_bethel": 5,
    }
    assert d["money_points"] == 4
    assert d["total"] == 11 + 5 + 12 + 4
    assert d["tiebreak"] == {"whale_tokens": 6, "unscored_money": 3}


def test_a_tie_goes_to_the_most_whale_tokens():
    g = game(seats=2)
    player(g, 0)["returned"] = {"right": 0, "bowhead": 0, "sperm": 1}
    player(g, 1)["returned"] = {"right": 2, "bowhead": 1, "sperm": 0}
    give(g, 0, money=0)
    give(g, 1, money=0)
    r = scoring.final_result(g.state)
    assert r["scores"] == [4, 4] and r["winners"] == [1]


def test_then_to_the_most_unscored_money():
    g = game(seats=3)
    for s, money in enumerate((14, 13, 10)):
        player(g, s)["returned"] = {"right": 2, "bowhead": 0, "sperm": 0}
        give(g, s, money=money)
    r = scoring.final_result(g.state)
    assert r["scores"] == [4, 4, 4]
    assert r["winners"] == [0]  # $4 left over beats $3 and $0


def test_otherwise_the_players_share_the_victory():
    g = game(seats=3)
    for s in range(3):
        give(g, s, money=7)
    give(g, 2, money=6)
    r = scoring.final_result(g.state)
    assert r["winners"] == [0, 1]


def test_outcome_details_let_a_player_check_the_arithmetic():
    g = game()
    while g.outcome() is None:
        finish_action_phase(g)
    out = g.outcome()
    for d, score in zip(out["details"], out["scores"], strict=True):
        assert score == d["whale_points"] + d["building_points"] + d["victory_points"] + d["money_points"]
        assert set(d["tiebreak"]) == {"whale_tokens", "unscored_money"}


def test_outcome_is_none_while_the_game_runs():
    g = game()
    assert ENGINE.outcome(g.state) is None
    place(g, 0, "farm")
    assert g.outcome() is None
