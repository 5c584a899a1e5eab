"""El Océano Solitario (solo rules pp.10-16): the Captains, one rule per test."""

import random

import pytest
from tablero.engines.core import IllegalAction, InvalidOptions, LocalGame, replay, state_hash
from tablero.engines.new_bedford import captains, scoring

from tablero import engines

from .captain_helpers import cap, hold, run_auto, solo, turn
from .helpers import ENGINE, at_sea, on_dock, own, place, player, set_bag


# --- the worked examples (p.14-15) -------------------------------------------------------
def test_example_1_starbucks_food_heading_skips_his_wharf_and_finds_the_farm():
    """p.14: Starbuck's heading is food. He owns only the Wharf, which gives no food; then
    he checks the Town actions: the Farm gives food, so he places a worker there."""
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    own(g, s, "wharf")
    e = turn(g, s, "food")
    assert e["type"] == "captain_worker_placed"
    assert e["space"] == "farm" and e["heading"] == "food"
    assert e["entry"] == "step 1: Town and Whaling Board actions"
    assert e["trace"][0] == "step 1: Starbuck's buildings: nothing for food"
    assert g.state["occupancy"]["farm"] == [s]
    assert player(g, s)["food"] == 0  # Captains never collect goods


def test_example_2_money_with_no_money_building_falls_through_to_lumber_and_the_forest():
    """p.15: no building gives money (the General Store does not count), nobody owns a
    Bank, the Inn and Lighthouse are not built and the heading already is money; so step 3
    changes the heading to lumber (the token does not move) and step 1 finds the Forest."""
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    helm = g.state["players"][s]["captain"]["helm"]
    e = turn(g, s, "money")
    assert (e["rolled_heading"], e["heading"], e["space"]) == ("money", "lumber", "forest")
    assert "step 2: change heading to money: already the heading" in e["trace"]
    assert "step 3: change heading to lumber and go back to step 1" in e["trace"]
    assert e["entry"] == "step 1: Town and Whaling Board actions"
    assert g.state["players"][s]["captain"]["helm"] == helm


# --- headings -------------------------------------------------------------------------------
@pytest.mark.parametrize(("heading", "space"), [("lumber", "forest"), ("food", "farm"), ("brick", "warehouse")])
def test_a_goods_heading_uses_an_action_giving_at_least_one_of_that_good(heading, space):
    g = solo(["starbuck"])
    e = turn(g, cap(g, "starbuck"), heading)
    assert e["space"] == space


def test_the_warehouse_first_player_bonus_is_taken_in_the_headings_good():
    g = solo(["starbuck"])
    e = turn(g, cap(g, "starbuck"), "brick")
    assert (e["space"], e["bonus"]) == ("warehouse", "brick")


def test_a_captain_prefers_the_building_giving_more_of_the_heading():
    g = solo(["starbuck"], buildings="all")
    s = cap(g, "starbuck")
    own(g, s, "schoolhouse", "bakery")
    assert turn(g, s, "food")["space"] == "bakery"  # 4 food against 2


def test_money_heading_values_the_tavern_normally_and_the_lumber_mill_as_five():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    own(g, s, "tavern", "lumber_mill")
    g.state["sea_tokens"]["empty"] = 2
    e = turn(g, s, "money")
    assert (e["space"], e["remove_empty_sea"]) == ("tavern", 2)  # $6 beats $5
    g2 = solo(["starbuck"])
    own(g2, s, "tavern", "lumber_mill")
    g2.state["sea_tokens"]["empty"] = 1
    assert turn(g2, s, "money")["space"] == "lumber_mill"  # $5 beats $4


def test_money_heading_never_uses_the_general_store_or_the_post_office():
    g = solo(["starbuck"], buildings="all")
    s = cap(g, "starbuck")
    own(g, 0, "post_office")
    e = turn(g, s, "money")
    assert e["space"] not in ("general_store", "post_office")


def test_prepare_heading_puts_a_home_ship_on_the_dock_without_paying():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    e = turn(g, s, "prepare")
    assert (e["space"], e["prepare"]) == ("dockyard", 1)
    assert player(g, s)["ships"][0]["at"] == "dock" and player(g, s)["lumber"] == 0


def test_prepare_restriction_starbuck_does_not_prepare_while_a_ship_waits_on_the_dock():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    on_dock(g, s, 1)
    e = turn(g, s, "prepare")
    assert e["space"] != "dockyard"
    # Flask's board allows two ships on the dock.
    f = solo(["flask"])
    fl = cap(f, "flask")
    on_dock(f, fl, 1)
    assert turn(f, fl, "prepare")["space"] == "dockyard"


def test_launch_heading_launches_to_the_exact_space_only():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    on_dock(g, s, 1)
    e = turn(g, s, "launch:4")
    assert (e["space"], e["launch"]) == ("city_pier", {"ship": 1, "to": 4})
    assert g.state["track"][4] == [[s, 1]] and player(g, s)["food"] == 0


def test_launch_heading_fails_when_the_exact_space_is_full():
    g = solo(["starbuck", "flask"])
    s = cap(g, "starbuck")
    for p, n in ((0, 1), (0, 2), (cap(g, "flask"), 1)):
        at_sea(g, p, n, 4)
    on_dock(g, s, 1)
    e = turn(g, s, "launch:4")
    assert "launch" not in e and e["space"] == "forest"


def test_launch_prefers_the_wharf_for_its_bigger_discount():
    g = solo(["ahab"])
    a = cap(g, "ahab")
    own(g, 0, "wharf")
    on_dock(g, a, 2)
    e = turn(g, a, "launch:5")
    assert (e["space"], e["launch"]["to"]) == ("wharf", 5)
    assert e["owner_paid"] == {"seat": 0, "money": 1}


def test_combo_heading_prepares_when_it_can_and_launches_otherwise():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    assert turn(g, s, "combo:5")["space"] == "dockyard"
    g2 = solo(["starbuck"])
    on_dock(g2, s, 1)
    at_sea(g2, s, 2, 3)
    e = turn(g2, s, "combo:5")
    assert (e["space"], e["launch"]) == ("city_pier", {"ship": 1, "to": 5})


def test_building_heading_builds_the_first_listed_building_in_the_setup_order():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    order = g.state["captain_game"]["building_order"]
    white = captains.BOARDS["starbuck"]["building_project"]["white"]
    expected = next(b for b in order if b in white)
    e = turn(g, s, "build_white")
    assert (e["space"], e["build"]) == ("town_hall", expected)
    assert g.state["buildings"][expected]["owner"] == s
    black = captains.BOARDS["starbuck"]["building_project"]["black"]
    e = turn(g, s, "build_black")
    assert e["build"] == next(b for b in order if b in black)


def test_building_heading_prefers_the_courthouse_discount_to_the_town_hall():
    g = solo(["starbuck"], buildings="all")
    s = cap(g, "starbuck")
    own(g, s, "courthouse")
    assert turn(g, s, "build_black")["space"] == "courthouse"


def test_victory_heading_builds_victory_buildings_in_the_orders_order():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    own(g, 0, "seamens_bethel")
    e = turn(g, s, "victory")
    assert e["build"] == "mansion"  # Starbuck: Seamen's Bethel, Mansion, Counting House, ...


def test_split_headings_change_with_the_round():
    board = captains.BOARDS["starbuck"]
    split = next(i for i, h in enumerate(board["helm"]) if isinstance(h, dict))
    assert captains.heading_at(board, split, 6) == "prepare"
    assert captains.heading_at(board, split, 7) == "victory"


def test_round_12_uses_the_headings_printed_under_the_helm_one_per_worker():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    g.state["round"] = 12
    e = captains.worker_turn(g.state, s, random.Random(1))
    assert (e["type"], e["roll"], e["heading"]) == ("captain_heading", None, "victory")
    g.state = ENGINE.evolve(g.state, e)
    g.state = ENGINE.evolve(g.state, captains.worker_turn(g.state, s, random.Random(1)))
    g.state["placed"] += 1  # the player's worker (order: Starbuck, player)
    e2 = captains.worker_turn(g.state, s, random.Random(1))
    assert e2["heading"] == "money"


def test_each_turn_rolls_the_biased_die_and_moves_clockwise_around_the_helm():
    g = solo(["flask"])
    f = cap(g, "flask")
    size = len(captains.BOARDS["flask"]["helm"])
    rolls = []
    for seed in range(60):
        g.state["players"][f]["captain"]["turn_heading"] = None
        before = g.state["players"][f]["captain"]["helm"]
        e = captains.worker_turn(g.state, f, random.Random(seed))
        assert e["type"] == "captain_heading" and e["from"] == before and e["to"] == (before + e["roll"]) % size
        rolls.append(e["roll"])
        g.state = ENGINE.evolve(g.state, e)
    assert set(rolls) == {1, 2, 3} and rolls.count(1) > rolls.count(3)


def test_the_starting_heading_is_the_roll_from_the_leftmost_helm_space():
    g = LocalGame(ENGINE, seats=1, seed=4, options={"captains": ["stubb", "ahab"]})
    for c in g.events[0]["captains"]:
        assert c["roll"] in (1, 2, 3) and c["helm"] == c["roll"]
        i = cap(g, c["name"])
        assert g.state["players"][i]["captain"]["heading"] == captains.heading_at(captains.BOARDS[c["name"]],
                                                                                  c["roll"], 1)


# --- order entries --------------------------------------------------------------------------
def test_own_buildings_are_checked_before_the_town():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    own(g, s, "schoolhouse")
    e = turn(g, s, "lumber")
    assert (e["space"], e["entry"]) == ("schoolhouse", "step 1: Starbuck's buildings")
    assert "owner_paid" not in e


def test_a_player_using_a_captains_building_pays_one_dollar_to_the_supply_not_the_captain():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    own(g, s, "bank")
    g.state["placed"] = 1
    place(g, 0, "bank")
    assert player(g, 0)["money"] == 5 - 1 + 5 and player(g, s)["money"] == 0


def test_using_the_players_building_gives_the_player_one_dollar_from_the_supply():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    own(g, 0, "bank")
    e = turn(g, s, "money")
    assert (e["space"], e["entry"]) == ("bank", "step 1: opponents' buildings")
    assert player(g, 0)["money"] == 6 and player(g, s)["money"] == 0
    assert g.state["buildings"]["bank"]["used"]


def test_a_named_building_is_used_whenever_it_is_built_whoever_owns_it():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    own(g, 0, "lighthouse")
    at_sea(g, s, 1, 3)
    e = turn(g, s, "money")
    assert (e["space"], e["entry"]) == ("lighthouse", "step 2: Lighthouse")
    assert e["move_out"] == {"ship": 1, "from": 3, "to": 4} and g.state["track"][4] == [[s, 1]]


def test_a_heading_change_searches_again_and_falls_back_to_the_original_heading():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    at_sea(g, s, 1, 3)
    at_sea(g, s, 2, 5)
    own(g, 0, "bank")
    e = turn(g, s, "prepare")  # no ship at home: change to money finds the player's Bank
    assert (e["rolled_heading"], e["heading"], e["space"]) == ("prepare", "money", "bank")
    g2 = solo(["starbuck"])
    at_sea(g2, s, 1, 3)
    at_sea(g2, s, 2, 5)
    e2 = turn(g2, s, "prepare")  # money finds nothing either: back to prepare, then step 3
    assert any("nothing; back to prepare a ship" in t for t in e2["trace"])
    assert (e2["heading"], e2["space"]) == ("lumber", "forest")


def test_stubbs_orders_use_the_courthouse_when_built():
    g = solo(["stubb"], buildings="all")
    st = cap(g, "stubb")
    own(g, 0, "courthouse")
    e = turn(g, st, "money")
    assert (e["space"], e["entry"]) == ("courthouse", "step 2: Courthouse") and "build" in e


# --- a choice for the player ------------------------------------------------------------------
def test_two_equally_good_buildings_are_the_players_choice():
    """p.13: if the buildings give equal benefit, the player may choose one."""
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    own(g, s, "bank", "lumber_mill")  # both $5 to a Captain
    e = turn(g, s, "money")
    assert e["type"] == "captain_choice_offered" and e["chooser"] == 0
    assert g.to_act() == {0}
    assert sorted(a["choice"] for a in g.legal_actions(0)) == ["bank", "lumber_mill"]
    with pytest.raises(IllegalAction):
        g.act(0, {"type": "choose_for_captain", "choice": "farm"})
    with pytest.raises(IllegalAction):
        place(g, 0, "forest")
    events = g.act(0, {"type": "choose_for_captain", "choice": "lumber_mill"})
    assert events[0]["type"] == "captain_worker_placed" and events[0]["space"] == "lumber_mill"
    assert events[0]["chosen_by"] == 0
    assert g.state["captain_game"]["choice"] is None and g.state["occupancy"]["lumber_mill"] == [s]


def test_a_captain_prefers_a_captains_space_to_the_players_on_a_tie():
    g = solo(["starbuck", "flask"])
    s, f = cap(g, "starbuck"), cap(g, "flask")
    own(g, 0, "lumber_mill")
    own(g, f, "bank")
    e = turn(g, s, "money")
    assert e["type"] == "captain_worker_placed" and e["space"] == "bank" and "owner_paid" not in e


def test_with_two_captains_and_two_players_the_first_captains_controller_chooses():
    g = solo(["starbuck", "flask"], seats=2)
    s = cap(g, "starbuck")
    own(g, s, "bank", "lumber_mill")
    g.state["captain_game"]["order"] = captains.round_order(2, [2, 3], 0, 2)  # Flask first: seat 1 controls
    e = turn(g, s, "money")
    assert e["chooser"] == 1 and g.to_act() == {1}


# --- Ahab ----------------------------------------------------------------------------------
def test_ahab_most_takes_the_biggest_total_then_the_combination():
    """p.13: Bakery and Schoolhouse both give 4: the Schoolhouse combines resources."""
    g = solo(["ahab"], buildings="all")
    a = cap(g, "ahab")
    own(g, 0, "bakery")
    own(g, a, "schoolhouse")
    e = turn(g, a, "food")
    assert (e["space"], e["entry"]) == ("schoolhouse", "step 1: Most (buildings giving most)")


def test_ahab_most_checks_the_players_and_his_buildings_but_not_the_town():
    g = solo(["ahab"], buildings="all")
    a = cap(g, "ahab")
    own(g, 0, "bakery")
    e = turn(g, a, "food")
    assert e["space"] == "bakery" and e["owner_paid"] == {"seat": 0, "money": 1}


def test_ahab_combo_takes_the_building_combining_most_kinds():
    g = solo(["ahab"], buildings="all")
    a = cap(g, "ahab")
    g.state["players"][a]["captain"]["turn_heading"] = "lumber"
    own(g, 0, "chandlery", "schoolhouse")
    found = captains._candidates(g.state, a, {"check": "combo"}, "lumber")
    assert captains._best(g.state, a, found)[0]["space"] == "chandlery"


def test_ahab_uses_the_post_office_only_if_he_is_not_its_owner():
    g = solo(["ahab"], buildings="all")
    a = cap(g, "ahab")
    own(g, a, "post_office")
    assert captains.effect_for(g.state, a, "post_office", None, False) is None
    own(g, 0, "post_office")
    assert captains.effect_for(g.state, a, "post_office", None, False)[1] == {"take_ownership": "post_office"}


def _ahab_stuck(bag, ships_at_sea=(1, 2)):
    """Ahab on Helm space 6: every reroll (7, 8, 9) gives a heading he cannot follow."""
    g = solo(["ahab"])
    a = cap(g, "ahab")
    for n in (1, 2):
        if n in ships_at_sea:
            at_sea(g, a, n, 3 + n)
        else:
            g.state["players"][a]["ships"][n - 1]["at"] = "dock"
            g.state["track"][6].extend([[0, 1], [0, 2], [a, 9]])  # no room where he would launch
    own(g, a, "counting_house", "mansion", "municipal_office", "seamens_bethel", "schoolhouse", "wharf")
    g.state["players"][a]["captain"]["helm"] = 6
    set_bag(g, **bag)
    return g, a


def test_ahab_going_round_his_orders_twice_draws_a_token_onto_the_ship_the_player_chooses():
    g, a = _ahab_stuck({"sperm": 1})
    e = turn(g, a, "money")
    assert e["type"] == "captain_choice_offered" and len(e["rolls"]) == 1
    assert sorted(c["choice"] for c in e["choices"]) == ["ship1", "ship2"]
    g.act(0, {"type": "choose_for_captain", "choice": "ship2"})
    assert player(g, a)["ships"][1]["hold"]["sperm"] == 1 and g.state["bag"]["sperm"] == 0
    assert player(g, a)["workers"] == [] and g.state["placed"] == 1


def test_ahab_who_cannot_keep_the_drawn_token_returns_it_and_skips_the_round():
    g, a = _ahab_stuck({"empty": 3})
    e = turn(g, a, "money")
    assert (e["type"], e["kind"], e["ship"], e["returned"]) == ("captain_token_drawn", "empty", None, True)
    assert g.state["bag"]["empty"] == 3 and g.state["players"][a]["captain"]["idle"]
    g.state["players"][a]["captain"]["turn_heading"] = None
    e2 = captains.worker_turn(g.state, a, random.Random(0))
    assert e2["type"] == "captain_worker_skipped"


def _round12_ahab_draws_on_his_first_turn():
    """Round 12, Ahab's first turn: the first printed heading (Victory) fails, his reroll fails
    too, so he goes round his orders twice and draws a whale onto his only ship at sea (no
    worker placed); then the player places a worker."""
    g, a = _ahab_stuck({"sperm": 1}, ships_at_sea=(1,))
    g.state["round"] = 12
    rng = random.Random(0)
    first = captains.worker_turn(g.state, a, rng)
    assert (first["roll"], first["heading"]) == (None, "victory")
    g.state = ENGINE.evolve(g.state, first)
    drawn = captains.worker_turn(g.state, a, rng)
    assert (drawn["type"], drawn["ship"]) == ("captain_token_drawn", 1)
    g.state = ENGINE.evolve(g.state, drawn)
    assert player(g, a)["workers"] == [] and g.state["placed"] == 1
    g.state["placed"] = 2  # the player's worker (order: Ahab, player)
    return g, a


def test_round_12_ahabs_second_turn_takes_the_second_printed_heading_even_after_a_draw():
    """p.12: in round 12 the headings printed under the Helm are used, one per turn. A first
    turn in which Ahab drew a token and placed no worker is still his first turn (v3)."""
    g, a = _round12_ahab_draws_on_his_first_turn()
    second = captains.worker_turn(g.state, a, random.Random(0))
    assert (second["type"], second["roll"], second["heading"]) == ("captain_heading", None, "money")


def test_round_12_in_a_v2_game_keeps_counting_workers_for_the_printed_heading():
    """Games started under v2 keep their behaviour: the heading index was the number of the
    Captain's workers on the board, so after a draw Ahab took the first heading again."""
    g, a = _round12_ahab_draws_on_his_first_turn()
    del g.state["version"]  # a v1-2 state carries no version
    second = captains.worker_turn(g.state, a, random.Random(0))
    assert (second["roll"], second["heading"]) == (None, "victory")


def test_a_new_game_carries_its_engine_version_and_an_old_log_does_not():
    g = solo(["starbuck"])
    assert g.state["version"] == ENGINE.version == 5
    events = [dict(g.events[0], engine_version=2)]
    assert "version" not in replay(events).state


# --- whales -------------------------------------------------------------------------------
def _whaling(g, picks, **tokens):
    g.state["phase"] = "whaling"
    g.state["picks"] = [list(p) for p in picks]
    g.state["sea_tokens"] = {"right": 0, "bowhead": 0, "sperm": 0, "empty": 0, **tokens}


def test_a_captain_always_takes_the_most_valuable_whale():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    at_sea(g, s, 1, 3)
    _whaling(g, [(s, 1)], right=2, bowhead=1, empty=1)
    e = run_auto(g)[0]
    assert (e["type"], e["kind"]) == ("whale_picked", "bowhead")


def test_a_captain_at_his_whale_limit_takes_no_whale():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    at_sea(g, s, 1, 3)
    player(g, s)["returned"]["right"] = 12
    _whaling(g, [(s, 1)], sperm=1)
    e = run_auto(g)[0]
    assert e["type"] == "pick_passed" and "limit" in e["auto"]


def test_stubb_keeps_taking_whales_past_his_limit_and_keeps_his_best_ten_at_the_end():
    g = solo(["stubb"])
    st = cap(g, "stubb")
    at_sea(g, st, 1, 3)
    player(g, st)["returned"].update(right=8, bowhead=3, sperm=0)
    _whaling(g, [(st, 1)], sperm=1)
    assert run_auto(g)[0]["kind"] == "sperm"
    # The end: his ship's whales come home, then all but his best 10 are sold.
    g.state.update(phase="movement", final=True, picks=[])
    g.state["track"] = [[] for _ in range(7)]
    g.state["track"][0] = [[st, 1]]
    player(g, st)["ships"][0].update(at="returning", row=0)
    events = run_auto(g)
    trim = next(e for e in events if e["type"] == "captain_whales_trimmed")
    assert trim["kept"] == {"sperm": 1, "bowhead": 3, "right": 6} and trim["sold"]["right"] == 2
    assert events[-1]["type"] == "game_ended"
    assert events[-1]["captains"][0]["whale_points"] == 4 + 6 + 6


def test_a_captains_returning_ship_keeps_every_whale_without_paying():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    g.state["phase"] = "movement"
    g.state["track"][0] = [[s, 1]]
    player(g, s)["ships"][0].update(at="returning", row=0, hold=hold(right=2, sperm=1))
    e = run_auto(g)[0]
    assert e["type"] == "ship_returned" and e["lay_paid"] == 0 and e["captain"]
    assert player(g, s)["returned"] == hold(right=2, sperm=1) and player(g, s)["money"] == 0


def test_captains_buy_the_whales_the_player_sells_alternating_most_valuable_first():
    g = solo(["starbuck", "flask"])
    s, f = cap(g, "starbuck"), cap(g, "flask")
    g.state["phase"] = "movement"
    g.state["track"][0] = [[0, 1]]
    player(g, 0)["ships"][0].update(at="returning", row=0, hold=hold(right=2, bowhead=1))
    player(g, 0)["money"] = 0
    events = g.act(0, {"type": "return_ship", "pay": hold(), "sell": hold(right=2, bowhead=1)})
    buys = [(e["seat"], e["kind"], e["price"]) for e in events if e["type"] == "whale_bought"]
    assert buys == [(s, "bowhead", 0), (f, "right", 0), (s, "right", 0)]
    assert player(g, 0)["money"] == 4  # half the lays: 1 + 1 + 2


# --- limits -----------------------------------------------------------------------------------
def test_a_captain_at_his_building_limit_builds_no_more_but_follows_the_heading():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    # Starbuck's limit: 5 buildings. None gives money; the Schoolhouse gives lumber.
    own(g, s, "schoolhouse", "counting_house", "mansion", "municipal_office", "seamens_bethel")
    e = turn(g, s, "build_white")
    assert "build" not in e and (e["heading"], e["space"]) == ("lumber", "schoolhouse")


def test_the_expert_variant_uses_the_boards_expert_limits_and_round_12_headings():
    g = solo(["starbuck"], expert=True)
    s = cap(g, "starbuck")
    b = captains.board_for(g.state, s)
    assert b["limits"] == {"buildings": 6, "whales": 14} and b["round12"] == ["victory", "victory"]
    own(g, s, "schoolhouse", "counting_house", "mansion", "municipal_office", "seamens_bethel")
    assert "build" in turn(g, s, "build_white")


# --- turn order and players -----------------------------------------------------------------------
@pytest.mark.parametrize(("humans", "caps", "rounds"), [
    (1, 1, [[1, 0], [1, 0]]),
    (1, 3, [[1, 2, 3, 0], [2, 3, 1, 0]]),
    (2, 1, [[2, 0, 1], [2, 1, 0]]),
    (3, 1, [[3, 0, 1, 2], [3, 1, 2, 0]]),
    (2, 2, [[2, 3, 0, 1], [3, 2, 1, 0]]),
])
def test_captains_act_first_and_the_humans_last_in_the_order_the_rules_give(humans, caps, rounds):
    ids = list(range(humans, humans + caps))
    for r, want in enumerate(rounds, start=1):
        assert captains.round_order(humans, ids, 0, r) == want


@pytest.mark.parametrize(("seats", "names"), [(1, ["starbuck"]), (1, ["stubb", "flask"]),
                                              (1, ["flask", "ahab", "starbuck"]), (2, ["ahab"]),
                                              (3, ["stubb"]), (2, ["starbuck", "flask"])])
def test_captains_are_players_but_never_seats_and_play_whole_games(seats, names):
    g = LocalGame(ENGINE, seats=seats, seed=3, options={"captains": names})
    rng = random.Random(3)
    assert len(g.state["players"]) == seats + len(names)
    while g.outcome() is None:
        to_act = g.to_act()
        assert to_act and all(0 <= s < seats for s in to_act)
        (seat,) = to_act
        g.act(seat, ENGINE.random_action(g.state, seat, g.legal_actions(seat), rng))
        for i in range(seats, seats + len(names)):
            p = g.state["players"][i]
            assert (p["money"], p["lumber"], p["food"], p["brick"]) == (0, 0, 0, 0)
    out = g.outcome()
    assert len(out["scores"]) == seats and len(out["captains"]) == len(names)
    assert [c["captain"] for c in out["captains"]] == names
    # Every Captain turn shows its heading, the order entry that satisfied it and the action.
    placed = [e for e in g.events if e["type"] == "captain_worker_placed"]
    assert placed and all(e["heading"] and e["entry"] and e["space"] for e in placed)
    rolls = [e["roll"] for e in g.events if e["type"] == "captain_heading" and e["roll"] is not None]
    assert set(rolls) <= {1, 2, 3}
    assert state_hash(replay(g.events).state) == state_hash(g.state)


def test_the_player_wins_only_by_beating_every_captain():
    g = solo(["starbuck", "flask"])
    s, f = cap(g, "starbuck"), cap(g, "flask")
    player(g, 0)["returned"]["right"] = 20
    player(g, s)["returned"]["right"] = 15
    player(g, f)["returned"]["right"] = 25
    r = scoring.final_result(g.state)
    assert r["winners"] == [] and r["captain_winners"] == ["flask"]
    player(g, 0)["returned"]["right"] = 26
    r = scoring.final_result(g.state)
    assert r["winners"] == [0] and r["captain_winners"] == []
    player(g, 0)["returned"]["right"] = 25  # a full tie with Flask is not a win
    player(g, 0)["money"] = 0
    assert scoring.final_result(g.state)["winners"] == []


# --- setup and options ----------------------------------------------------------------------------
def test_setup_uses_buildings_and_whales_for_the_players_counting_captains():
    g = LocalGame(ENGINE, seats=1, seed=1, options={"captains": ["starbuck", "flask"]})
    assert len(g.state["buildings"]) == 20 and g.state["bag"]["right"] == 27
    assert sorted(g.state["captain_game"]["building_order"]) == sorted(g.state["buildings"])
    g1 = LocalGame(ENGINE, seats=1, seed=1)
    assert [p["captain"] and p["captain"]["name"] for p in g1.state["players"]] == [None, "starbuck"]
    assert len(g1.state["buildings"]) == 12


@pytest.mark.parametrize(("seats", "options"), [
    (2, {"captains": ["starbuck", "stubb", "flask"]}),
    (3, {"captains": ["ahab", "stubb"]}),
    (2, {"captains": ["starbuck"], "turners_mill": True}),
    (2, {"expert": True}),
    (1, {"captains": ["queequeg"]}),
    (1, {"captains": ["ahab", "ahab"]}),
])
def test_impossible_captain_options_are_refused(seats, options):
    with pytest.raises(InvalidOptions):
        LocalGame(ENGINE, seats=seats, seed=1, options=options)


def test_the_engine_description_offers_the_captain_options():
    d = engines.get("new-bedford").describe()
    assert d["min_seats"] == 1
    assert d["options_schema"]["properties"]["captains"]["items"]["enum"] == sorted(
        ["starbuck", "stubb", "flask", "ahab"]) or set(
        d["options_schema"]["properties"]["captains"]["items"]["enum"]) == {"starbuck", "stubb", "flask", "ahab"}


# --- Turner's Mill ------------------------------------------------------------------------------
def test_turners_mill_repeats_the_captains_last_action_for_its_cost_plus_one_dollar():
    g = solo(["starbuck"], turners_mill=True)
    s = cap(g, "starbuck")
    assert "turners_mill" in g.state["buildings"]
    own(g, 0, "turners_mill")
    turn(g, s, "prepare")  # Starbuck's last worker: the Dockyard
    player(g, 0).update(money=3, lumber=2)
    e = place(g, 0, "turners_mill", ship=1)[0]
    assert (e["space"], e["repeat"], e["prepare"]) == ("turners_mill", "dockyard", 1)
    assert (player(g, 0)["money"], player(g, 0)["lumber"]) == (2, 0)  # 2 lumber (no 1st bonus) + $1
    assert player(g, 0)["ships"][0]["at"] == "dock"


def test_turners_mill_needs_a_captain_worker_and_a_dollar_more():
    g = solo(["starbuck"], turners_mill=True)
    own(g, 0, "turners_mill")
    g.state["placed"] = 1  # the player's turn, before any Captain worker was placed
    with pytest.raises(IllegalAction, match="no Captain worker"):
        place(g, 0, "turners_mill")
    g.state["placed"] = 0
    turn(g, cap(g, "starbuck"), "food")
    player(g, 0)["money"] = 0
    with pytest.raises(IllegalAction, match=r"\$1 more"):
        place(g, 0, "turners_mill")
    player(g, 0)["money"] = 1
    place(g, 0, "turners_mill")
    assert (player(g, 0)["money"], player(g, 0)["food"]) == (0, 2)


@pytest.mark.parametrize(("seats", "options"), [(2, {"captains": ["ahab", "flask"]}), (3, {})])
def test_every_intermediate_state_of_a_captain_game_has_a_valid_to_act_and_view(seats, options):
    """Issue 17 item 5: any version N of a log (inside a Captain's turn, a composed sale or
    a whale sale too) can be served: a valid to_act and a view that fits the schema."""
    from tablero.engines.core import testkit
    from tablero.engines.new_bedford import schemas

    g = LocalGame(ENGINE, seats=seats, seed=8, options=options)
    rng = random.Random(8)
    while g.outcome() is None:
        (seat,) = g.to_act()
        g.act(seat, ENGINE.random_action(g.state, seat, g.legal_actions(seat), rng))
    state = None
    for e in g.events:
        state = ENGINE.evolve(state, dict(e))
        to_act = ENGINE.to_act(state)
        assert isinstance(to_act, set) and to_act <= set(range(seats))
        for viewer in (None, 0):
            v = ENGINE.view(state, viewer)
            assert not testkit.schema_errors(schemas.VIEW_SCHEMA, v), e["type"]
            assert v["to_act"] == sorted(to_act)
            if options:
                assert v["captains"]["captains"][0]["name"] == "ahab"


def test_the_view_shows_the_captains_boards_heading_and_a_pending_choice():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    own(g, s, "bank", "lumber_mill")
    turn(g, s, "money")
    v = ENGINE.view(g.state, 0)
    c = v["captains"]["captains"][0]
    assert (c["name"], c["player"], c["limits"]) == ("starbuck", s, {"buildings": 5, "whales": 12})
    assert c["orders"][0] == {"step": 1, "entries": ["Starbuck's buildings", "Town and Whaling Board actions",
                                                     "opponents' buildings"]}
    assert v["awaiting"]["decision"] == "choose_for_captain"
    assert [o["action"]["choice"] for o in v["pending"]["options"]] == ["bank", "lumber_mill"]
    assert v["players"][s]["captain"]["name"] == "starbuck"
    assert [d.get("seat") for d in v["score_preview"]] == [0, 1]


def test_turners_mill_repeats_a_sale_composed_in_steps():
    g = solo(["starbuck"], buildings="all", turners_mill=True)
    s = cap(g, "starbuck")
    own(g, 0, "turners_mill")
    own(g, s, "market")
    turn(g, s, "money")  # Starbuck's last worker: the Market ($5 to a Captain)
    assert g.state["captain_game"]["last_captain_space"] == "market"
    player(g, 0).update(money=1, lumber=2, brick=1)
    assert {"type": "place_worker", "space": "turners_mill"} in g.legal_actions(0)
    place(g, 0, "turners_mill")
    g.act(0, {"type": "sell_goods", "good": "lumber", "count": 2})
    e = g.act(0, {"type": "sell_goods", "good": "brick", "count": 1})[0]
    assert (e["space"], e["repeat"], e["sold"]) == ("turners_mill", "market", {"lumber": 2, "food": 0, "brick": 1})
    # Market: lumber $1 x2 + $1 for the first, brick $2 + $2 for the first = $7; $1 to the supply.
    assert player(g, 0)["money"] == 1 + 7 - 1
