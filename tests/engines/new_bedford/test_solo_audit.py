"""Solo-rules audit (El Océano Solitario, shared/rules/000_d80ea33544e097da.txt lines 486-916):
one scenario per sentence checked that the Captain tests elsewhere did not yet cover."""

import random

from tablero.engines.core import LocalGame
from tablero.engines.new_bedford import captains, scoring

from .captain_helpers import cap, hold, solo, turn
from .helpers import ENGINE, at_sea, on_dock, own, place, player, set_bag


# --- Ahab's Most (p.13, line 564): "the one that gives most resources in total" ---------------------
def test_ahab_most_ranks_the_tavern_by_the_six_dollars_it_gives_now_above_the_bank():
    """v4: the Tavern removing 2 Empty Sea gives $6, more in total than the Bank's $5 (v1-3
    counted the Tavern as 0 and took the Bank)."""
    g = solo(["ahab"], buildings="all")
    a = cap(g, "ahab")
    own(g, a, "bank", "tavern")
    g.state["sea_tokens"]["empty"] = 2
    e = turn(g, a, "money")
    assert (e["space"], e["remove_empty_sea"], e["entry"]) == ("tavern", 2, "step 1: Most (buildings giving most)")
    g1 = solo(["ahab"], buildings="all")
    own(g1, a, "bank", "tavern")
    g1.state["sea_tokens"]["empty"] = 1  # $4 now: the Bank's $5 is more
    assert turn(g1, a, "money")["space"] == "bank"


def test_ahab_most_ranks_the_cooperage_by_the_whales_on_his_ship():
    g = solo(["ahab"], buildings="all")
    a = cap(g, "ahab")
    own(g, 0, "bank")
    own(g, a, "cooperage")
    at_sea(g, a, 1, 3, right=4, bowhead=3)  # $7 from the Cooperage
    e = turn(g, a, "money")
    assert (e["space"], e["ship"]) == ("cooperage", 1) and "owner_paid" not in e
    assert player(g, 0)["money"] == 5  # the player's Bank was not used


def test_ahab_most_without_a_discount_takes_the_building_combining_actions():
    """p.13: 'if there are no discounts on the buildings ... use a building that combines
    different resources or actions'. Launching to space 1 the Wharf saves nothing (half of 1
    rounded up is 1), so the Dry Dock (prepare and launch) goes first."""
    g = solo(["ahab"], buildings="all")
    a = cap(g, "ahab")
    own(g, a, "wharf", "dry_dock")
    on_dock(g, a, 1)  # ship 2 at home: both buildings can launch to space 1
    e = turn(g, a, "launch:1")
    assert (e["space"], e["launch"]) == ("dry_dock", {"ship": 2, "to": 1})
    g5 = solo(["ahab"], buildings="all")
    own(g5, a, "wharf", "dry_dock")
    on_dock(g5, a, 1)
    assert turn(g5, a, "launch:5")["space"] == "wharf"  # saves 2 food


def test_ahab_most_in_a_v3_game_keeps_the_fixed_totals():
    """Games started before v4 re-decide as recorded: the Tavern counted 0, the Bank won."""
    g = solo(["ahab"], buildings="all")
    g.state["version"] = 3
    a = cap(g, "ahab")
    own(g, a, "bank", "tavern")
    g.state["sea_tokens"]["empty"] = 2
    assert turn(g, a, "money")["space"] == "bank"
    g2 = solo(["ahab"], buildings="all")
    g2.state["version"] = 3
    own(g2, a, "wharf", "dry_dock")
    on_dock(g2, a, 1)
    assert turn(g2, a, "launch:1")["space"] == "wharf"


# --- setup (p.11, lines 505-513) -----------------------------------------------------------------------------
def test_captains_get_two_workers_and_two_ships_no_goods_and_choose_no_starting_goods():
    g = LocalGame(ENGINE, seats=1, seed=2, options={"captains": ["stubb", "flask"]})
    for i in (1, 2):
        p = player(g, i)
        assert len(p["ships"]) == 2 and all(s["at"] == "home" for s in p["ships"])
        assert (p["money"], p["lumber"], p["food"], p["brick"]) == (0, 0, 0, 0)
    assert g.to_act() == {0}  # only the human chooses $5 of goods
    g.act(0, {"type": "choose_starting_goods", "lumber": 1, "food": 0, "brick": 2, "money": 0})
    events = [e for e in g.events if e["type"] == "captain_worker_placed"]
    assert {e["player"] for e in events} == {1, 2}  # both Captains place at once: they go first
    assert player(g, 0)["workers"] == [] and g.to_act() == {0}
    place(g, 0, "forest")
    place(g, 0, "farm")
    moved = next(i for i, e in enumerate(g.events) if e["type"] == "ships_moved")
    placed = [e for e in g.events[:moved] if e["type"] in ("captain_worker_placed", "captain_token_drawn")]
    assert [e["player"] for e in placed].count(1) == 2 and [e["player"] for e in placed].count(2) == 2


def test_turners_mill_joins_the_buildings_after_the_captains_order_is_laid_out():
    g = LocalGame(ENGINE, seats=1, seed=5, options={"captains": ["starbuck"], "turners_mill": True})
    e = g.events[0]
    assert e["buildings"][-1] == "turners_mill" and "turners_mill" not in e["building_order"]
    assert sorted(e["building_order"]) == sorted(e["buildings"][:-1])
    g0 = LocalGame(ENGINE, seats=1, seed=5, options={"captains": ["starbuck"]})
    assert "turners_mill" not in g0.state["buildings"]


def test_a_captain_is_first_player_every_round_and_the_human_last():
    g = LocalGame(ENGINE, seats=1, seed=7, options={"captains": ["ahab"]})
    rng = random.Random(7)
    while g.outcome() is None:
        (seat,) = g.to_act()
        g.act(seat, ENGINE.random_action(g.state, seat, g.legal_actions(seat), rng))
    firsts = [e["first_player"] for e in g.events if e["type"] == "round_ended"]
    assert len(firsts) == 12 and set(firsts) == {1}
    assert g.events[-1]["type"] == "game_ended"


# --- the turn (p.12, lines 534-537) ---------------------------------------------------------------------------
def _captain_takes_the_players_inn(rnd):
    g = solo(["starbuck"], buildings="all")
    s = cap(g, "starbuck")
    g.state["round"] = rnd
    own(g, 0, "inn")
    e = turn(g, s, "money")  # nothing gives money; step 2 names the Inn
    assert (e["space"], e["entry"], e["owner_paid"]) == ("inn", "step 2: Inn", {"seat": 0, "money": 1})
    g.state["players"][s]["captain"]["turn_heading"] = None
    place(g, 0, "forest")  # then Starbuck's second worker, then the player's
    place(g, 0, "farm")
    return g, s


def test_a_captain_using_the_inn_re_places_on_town_spaces_rolling_the_helm():
    g, s = _captain_takes_the_players_inn(3)
    picked = next(i for i, e in enumerate(g.events) if e["type"] == "inn_workers_picked_up")
    moved = next(i for i, e in enumerate(g.events) if e["type"] == "ships_moved")
    after = g.events[picked + 1:moved]
    headings = [e for e in after if e["type"] == "captain_heading"]
    placed = [e for e in after if e["type"] == "captain_worker_placed"]
    assert len(headings) == 2 and all(h["roll"] in (1, 2, 3) for h in headings)
    assert len(placed) == 2 and all(p["inn_placement"] for p in placed)
    assert all(p["space"] in ("farm", "forest", "warehouse", "general_store", "town_hall", "dockyard", "city_pier")
               for p in placed)
    assert player(g, 0)["money"] == 6  # $1 for the Inn


def test_in_round_12_the_inns_extra_actions_still_roll_the_helm():
    """p.12: 'In round 12 use the headings under the Helm. If extra actions are needed (the
    Inn, for example), use the Helm as usual.'"""
    g, s = _captain_takes_the_players_inn(12)
    picked = next(i for i, e in enumerate(g.events) if e["type"] == "inn_workers_picked_up")
    moved = next(i for i, e in enumerate(g.events) if e["type"] == "ships_moved")
    before = [e for e in g.events[:picked] if e["type"] == "captain_heading"]
    after = [e for e in g.events[picked + 1:moved] if e["type"] == "captain_heading"]
    assert [e["roll"] for e in before] == [None]  # his second turn: the printed heading
    assert len(after) == 2 and all(e["roll"] in (1, 2, 3) for e in after)


def test_a_building_already_used_this_round_is_passed_over():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    own(g, 0, "bank")
    g.state["buildings"]["bank"]["used"] = True
    e = turn(g, s, "money")
    assert e["space"] != "bank" and (e["heading"], e["space"]) == ("lumber", "forest")


# --- headings (p.13, lines 549-557) ---------------------------------------------------------------------------
def test_money_heading_values_the_cooperage_normally_and_the_chandlery_as_five_a_tie_for_the_player():
    g = solo(["starbuck"], buildings="all")
    s = cap(g, "starbuck")
    own(g, s, "bank", "cooperage")
    at_sea(g, s, 1, 2, right=6)
    assert turn(g, s, "money")["space"] == "cooperage"  # $6 against $5
    g2 = solo(["starbuck"], buildings="all")
    own(g2, s, "bank", "chandlery")
    e = turn(g2, s, "money")
    assert e["type"] == "captain_choice_offered"
    assert sorted(c["choice"] for c in e["choices"]) == ["bank", "chandlery"]


def test_combo_heading_launches_when_the_restriction_forbids_preparing():
    """p.13: a Prepare/Launch combination is a Prepare heading 'unless the Captain cannot
    prepare a ship'; Starbuck prepares only while no ship of his waits on the Dock."""
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    on_dock(g, s, 1)  # ship 2 is at home, but the restriction forbids preparing it
    e = turn(g, s, "combo:5")
    assert (e["space"], e["launch"]) == ("city_pier", {"ship": 1, "to": 5})


def test_a_captain_builds_without_paying_and_never_builds_the_turners_mill():
    g = solo(["starbuck"], turners_mill=True)
    s = cap(g, "starbuck")
    built = []
    for heading in ("build_white", "build_black", "build_white", "build_black", "victory"):
        e = turn(g, s, heading)
        built.append(e.get("build"))
    assert None not in built and "turners_mill" not in built
    assert all(g.state["buildings"][b]["owner"] == s for b in built)
    assert g.state["buildings"]["turners_mill"]["owner"] is None
    assert (player(g, s)["lumber"], player(g, s)["food"], player(g, s)["brick"], player(g, s)["money"]) == (0,) * 4


# --- limits (p.16, lines 600-602) -----------------------------------------------------------------------------
def test_a_captain_at_his_whale_limit_still_prepares_and_launches_and_his_ships_count_for_the_draw():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    player(g, s)["returned"]["right"] = 12  # Starbuck's limit
    assert turn(g, s, "prepare")["space"] == "dockyard"
    assert turn(g, s, "launch:4")["launch"] == {"ship": 1, "to": 4}
    set_bag(g, right=10)
    g.state.update(phase="movement", placed=4)
    g.state["track"][4] = []
    at_sea(g, s, 1, 3)
    at_sea(g, 0, 1, 2)
    drawn = ENGINE._automatic(g.state, random.Random(0))
    assert drawn["type"] == "whales_drawn" and sum(drawn["drawn"].values()) == 3  # 1 + 2 ships


def test_a_captain_at_his_whale_limit_buys_no_sold_whale_but_stubb_does():
    g = solo(["starbuck", "stubb"])
    s, st = cap(g, "starbuck"), cap(g, "stubb")
    player(g, s)["returned"]["right"] = 12
    player(g, st)["returned"]["right"] = 10
    g.state["phase"] = "movement"
    g.state["track"][0] = [[0, 1]]
    player(g, 0)["ships"][0].update(at="returning", row=0, hold=hold(right=1, bowhead=1))
    player(g, 0)["money"] = 0
    events = g.act(0, {"type": "return_ship", "pay": hold(), "sell": hold(right=1, bowhead=1)})
    buys = [(e["seat"], e["kind"]) for e in events if e["type"] == "whale_bought"]
    assert buys == [(st, "bowhead"), (st, "right")]
    assert any(e["type"] == "buy_passed" and e["seat"] == s for e in events)


def test_ahab_at_his_whale_limit_returns_the_drawn_whale_and_places_no_more_workers():
    g = solo(["ahab"])
    a = cap(g, "ahab")
    at_sea(g, a, 1, 4)
    at_sea(g, a, 2, 5)
    own(g, a, "counting_house", "mansion", "municipal_office", "seamens_bethel", "schoolhouse", "wharf")
    player(g, a)["returned"]["right"] = 12
    g.state["players"][a]["captain"]["helm"] = 6
    set_bag(g, sperm=1)
    e = turn(g, a, "money")
    assert (e["type"], e["kind"], e["ship"], e["returned"]) == ("captain_token_drawn", "sperm", None, True)
    assert g.state["bag"]["sperm"] == 1 and g.state["players"][a]["captain"]["idle"]
    g.state["players"][a]["captain"]["turn_heading"] = None
    place(g, 0, "forest")  # Ahab's second worker is skipped: "no other action this round"
    skipped = [e for e in g.events if e["type"] == "captain_worker_skipped"]
    assert len(skipped) == 1 and player(g, a)["workers"] == []
    place(g, 0, "farm")  # the round ends; in round 2 Ahab plays again
    assert g.state["round"] == 2 and not g.state["players"][a]["captain"]["idle"]
    assert any(e["type"] in ("captain_worker_placed", "captain_token_drawn", "captain_choice_offered")
               for e in g.events[g.events.index(next(e for e in g.events if e["type"] == "round_ended")):])


# --- end (p.15, lines 591-593) ----------------------------------------------------------------------------------
def test_captains_score_whales_buildings_and_victory_bonuses_and_no_money():
    g = solo(["starbuck"])
    s = cap(g, "starbuck")
    own(g, s, "seamens_bethel", "bank")
    player(g, s)["returned"].update(right=3, bowhead=1)
    player(g, 0)["returned"]["sperm"] = 3  # 12 points + $5 = 13
    r = scoring.final_result(g.state)
    c = r["captains"][0]
    assert (c["whale_points"], c["building_points"], c["victory_points"], c["money_points"]) == (5, 2, 5, 0)
    assert c["total"] == 12 and r["scores"] == [13] and r["winners"] == [0]
    player(g, 0)["money"] = 0  # 12 against 12: not a higher score
    assert scoring.final_result(g.state)["winners"] == []


def test_every_board_prints_one_round_12_heading_per_worker_in_both_variants():
    for name, b in captains.BOARDS.items():
        assert len(b["round12"]) == 2, name
        if "expert" in b:
            assert len(b["expert"]["round12"]) == 2, name
