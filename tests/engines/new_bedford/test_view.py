"""What a player at the table sees: the printed reference, the track by row, each ship's
place, and the awaited decision with every legal choice and its effect (view.py).
Also: malformed actions (unknown or missing fields) are refused before anything else."""

from __future__ import annotations

import json
import random

import pytest
from tablero.engines.core import IllegalAction, InvalidAction, LocalGame, canonical_json
from tablero.engines.new_bedford import data, spaces
from tablero.engines.new_bedford.engine import clone

from .helpers import ENGINE, ZERO_WHALES, at_sea, finish_action_phase, game, give, on_dock, own, place, set_bag

Z = ZERO_WHALES


def view(g: LocalGame, seat=0) -> dict:
    return ENGINE.view(g.state, seat)


# --- the static reference ---------------------------------------------------------------
def test_the_view_shows_whale_lays_sale_prices_and_points():
    whales = {w["kind"]: w for w in view(game())["reference"]["whales"]}
    assert [whales[k]["lay"] for k in ("right", "bowhead", "sperm")] == [2, 4, 8]
    assert [whales[k]["sale"] for k in ("right", "bowhead", "sperm")] == [1, 2, 4]
    assert [whales[k]["points"] for k in ("right", "bowhead", "sperm")] == [1, 2, 4]
    assert whales["sperm"]["name"] == "Sperm Whale" and "$8" in whales["sperm"]["text"]
    assert whales["empty"]["points"] == 0 and whales["empty"]["in_bag_per_player"] == 4


def test_the_view_shows_the_whaling_track_rows_1_to_6_with_their_launch_food():
    track = view(game())["reference"]["whaling_track"]
    assert track["ranks"] == 3
    rows = track["rows"]
    assert [r["row"] for r in rows] == [0, 1, 2, 3, 4, 5, 6]
    assert rows[0]["name"] == "Return" and rows[0]["food"] is None
    assert [r["food"] for r in rows[1:]] == [1, 2, 3, 4, 5, 6]
    assert [r["launch_food"]["city_pier_first"] for r in rows[1:]] == [0, 1, 2, 3, 4, 5]
    assert [r["launch_food"]["wharf"] for r in rows[1:]] == [1, 1, 2, 2, 3, 3]
    assert rows[4]["launch_food"]["dry_dock"] == {"lumber": 2, "food": 4}
    assert [r["whaling_phases"] for r in rows[1:]] == [0, 1, 2, 3, 4, 5]


def test_the_view_shows_what_each_town_and_whaling_board_space_gives_costs_and_its_first_bonus():
    ref = {s["id"]: s for s in view(game())["reference"]["spaces"]}
    assert list(ref) == list(data.BOARD_SPACE_IDS)
    assert ref["farm"]["gain"] == {"food": 2} and ref["farm"]["first_bonus_text"] == "+1 food"
    assert ref["warehouse"]["first_bonus_text"] == "+1 lumber, food or brick (your choice)"
    assert ref["general_store"]["prices"] == {"lumber": 1, "food": 1, "brick": 2}
    assert ref["general_store"]["first_bonus"] == {"money": 1}
    assert ref["dockyard"]["cost"] == {"lumber": 2} and ref["dockyard"]["first_bonus_text"] == "pay 1 lumber less"
    assert ref["city_pier"]["food_by_row"] == {str(r): r for r in range(1, 7)}
    assert ref["city_pier"]["first_bonus_text"] == "pay 1 food less"
    assert ref["town_hall"]["board"] == "town" and ref["city_pier"]["board"] == "whaling"
    assert all(s["text"] and s["first_bonus_text"] for s in ref.values())


def test_the_view_shows_the_purchase_the_fee_and_scoring_rules():
    ref = view(game())["reference"]
    assert ref["turn"]["purchase"] == {**ref["turn"]["purchase"], "goods": ["lumber", "food"], "amount": 2,
                                       "price": 3}
    assert ref["turn"]["building_fee"] == 1 and ref["turn"]["rounds"] == 12 and ref["turn"]["workers"] == 2
    assert ref["scoring"]["whale_points"] == {"right": 1, "bowhead": 2, "sperm": 4}
    assert ref["scoring"]["money_per_point"] == 5


def test_the_views_reference_is_the_same_in_every_view_and_built_from_the_data_tables(monkeypatch):
    from tablero.engines.new_bedford import view as table_view

    a = view(game(seats=2), 0)["reference"]
    b = view(game(seats=4), None)["reference"]
    assert a == b == table_view.build_reference()
    # Built from data.py, not copied: a changed lay shows up in the reference.
    monkeypatch.setitem(data.WHALES, "sperm", {**data.WHALES["sperm"], "lay": 10})
    assert table_view.build_reference()["whales"][2]["lay"] == 10


def test_the_view_keeps_the_building_tiles_printed_faces():
    tiles = view(game(seats=3))["building_tiles"]
    assert tiles["dry_dock"]["cost"] == {"lumber": 2, "brick": 2} and tiles["dry_dock"]["text"]


# --- the board as it stands ---------------------------------------------------------------
def test_the_view_shows_the_track_by_row_with_ship_owners_and_ranks():
    g = game(seats=3)
    at_sea(g, 0, 1, 3)
    at_sea(g, 2, 2, 3)
    at_sea(g, 1, 1, 6)
    track = view(g)["whaling_track"]
    assert [r["row"] for r in track] == [0, 1, 2, 3, 4, 5, 6]
    assert track[3] == {"row": 3, "name": "Space 3", "ships": [{"seat": 0, "ship": 1, "rank": 1},
                                                               {"seat": 2, "ship": 2, "rank": 2}]}
    assert track[6]["ships"] == [{"seat": 1, "ship": 1, "rank": 1}]
    assert track[0] == {"row": 0, "name": "Return", "ships": []}


def test_the_view_shows_each_players_ships_with_location_rank_and_hold_value():
    g = game(seats=2)
    at_sea(g, 1, 1, 4)
    at_sea(g, 0, 1, 4, right=1, bowhead=1)
    on_dock(g, 0, 2)
    ships = view(g, 1)["players"][0]["ships"]
    assert ships[0]["ship"] == 1 and ships[0]["at"] == "sea" and ships[0]["row"] == 4 and ships[0]["rank"] == 2
    assert ships[0]["where"] == "at sea on whaling track space 4, rank 2nd"
    assert ships[0]["lay_to_keep_all"] == 6 and ships[0]["hold_points"] == 3
    assert ships[1]["at"] == "dock" and ships[1]["rank"] is None and "Dock" in ships[1]["where"]
    assert view(g)["players"][1]["ships"][1]["where"].startswith("at home")


def test_the_view_does_not_change_the_state():
    g = game(seats=2)
    at_sea(g, 0, 1, 2, right=1)
    before = canonical_json(g.state)
    view(g)
    assert canonical_json(g.state) == before


# --- the pending decision -------------------------------------------------------------------
def test_the_view_shows_each_offered_return_split_with_its_money_effect():
    g = game(seats=2)
    at_sea(g, 0, 2, 1, right=2, bowhead=1)
    give(g, 0, money=3)
    set_bag(g)
    finish_action_phase(g)
    money = g.state["players"][0]["money"]
    pending = view(g, 1)["pending"]
    assert pending["decision"] == "return_ship" and pending["seat"] == 0 and pending["ship"] == 2
    assert pending["hold"] == {"right": 2, "bowhead": 1, "sperm": 0} and pending["money"] == money
    options = pending["options"]
    assert [o["action"] for o in options] == g.legal_actions(0)
    by_keep = {canonical_json(o["effect"]["keep"]): o for o in options}
    keep_bowhead = by_keep[canonical_json({**Z, "bowhead": 1})]
    assert keep_bowhead["effect"] == {"ship": 2, "keep": {**Z, "bowhead": 1}, "sell": {**Z, "right": 2},
                                      "lay_paid": 4, "sale_money": 2, "money_change": -2, "points_kept": 2}
    assert keep_bowhead["net"] == {"money": -2} and keep_bowhead["after"]["money"] == money - 2
    assert keep_bowhead["whales_gained"] == {"bowhead": 1}
    sell_all = by_keep[canonical_json(Z)]
    assert sell_all["effect"]["money_change"] == 4 and sell_all["effect"]["points_kept"] == 0
    # The shown action is submitted as-is and does what the view said.
    g.act(0, keep_bowhead["action"])
    assert g.state["players"][0]["money"] == money - 2
    assert g.state["players"][0]["returned"]["bowhead"] == 1


def test_the_view_shows_city_pier_launches_with_their_food_cost_and_the_first_bonus():
    g = game(seats=2)
    give(g, 0, food=10)
    on_dock(g, 0, 1)
    options = [o for o in view(g)["pending"]["options"] if o["action"].get("space") == "city_pier"]
    assert [o["action"]["to"] for o in options] == [1, 2, 3, 4, 5, 6]
    assert [o["net"].get("food", 0) for o in options] == [0, -1, -2, -3, -4, -5]  # 1st worker: 1 food less
    assert options[3]["effect"]["launch"] == {"ship": 1, "to": 4, "rank": 1, "whaling_phases": 3}
    assert options[3]["effect"]["first_bonus"] is True and options[3]["after"]["food"] == 7
    assert "space 4" in options[3]["text"] and "-3 food" in options[3]["text"]
    # Once someone is on City Pier, the full cost applies.
    place(g, 0, "farm")
    on_dock(g, 1, 1)
    give(g, 1, food=10)
    place(g, 1, "city_pier", ship=1, to=2)
    options = [o for o in view(g)["pending"]["options"] if o["action"].get("space") == "city_pier"]
    assert [o["net"]["food"] for o in options] == [-1, -2, -3, -4, -5, -6]
    assert options[1]["effect"]["launch"]["rank"] == 2


def test_the_view_shows_the_fee_paid_to_a_buildings_owner():
    g = game(seats=2)
    own(g, 1, "bank")
    [bank] = [o for o in view(g)["pending"]["options"] if o["action"].get("space") == "bank"]
    assert bank["effect"]["fee"] == {"money": 1, "to_seat": 1, "to_supply": False}
    assert bank["net"] == {"money": 4} and bank["after"]["money"] == 9


def test_the_view_shows_buying_sold_whales_and_picking_drawn_whales_with_prices_and_points():
    g = game(seats=2)
    at_sea(g, 0, 2, 1, right=1, sperm=1)
    give(g, 0, money=0)
    give(g, 1, money=9)
    set_bag(g)
    finish_action_phase(g)
    g.act(0, {"type": "return_ship", "pay": {**Z, "right": 1}, "sell": {**Z, "sperm": 1}})
    pending = view(g)["pending"]
    assert pending["decision"] == "buy_whale" and pending["seat"] == 1
    buy, pass_ = pending["options"]
    assert buy["effect"] == {"kind": "sperm", "price": 8, "points": 4} and buy["net"] == {"money": -8}
    assert pass_["action"] == {"type": "pass"} and "out of this sale" in pass_["text"]
    # Whaling: the ship's owner sees each token's lay and points.
    g = game(seats=2)
    at_sea(g, 0, 1, 3)
    set_bag(g, bowhead=5)
    finish_action_phase(g)
    pending = view(g)["pending"]
    assert pending["decision"] == "pick_whale"
    assert pending["options"][0]["effect"] == {"ship": 1, "kind": "bowhead", "lay": 4, "points": 2}


def _player_net(g, seat, action) -> tuple[dict, dict]:
    """What the player's own event (the first one decide gives) does to their money and goods."""
    first = ENGINE.decide(g.state, seat, action, random.Random(0))[0]
    s = ENGINE.evolve(clone(g.state), first)
    got = {k: s["players"][seat][k] - g.state["players"][seat][k] for k in data.RESOURCES}
    return {k: n for k, n in got.items() if n}, {k: s["players"][seat][k] for k in data.RESOURCES}


def test_the_view_lists_every_legal_action_unchanged_with_the_effect_decide_gives_it():
    """Through random games: the pending options are exactly the legal actions, and each
    option's `net` is what the player's own event does to their money and goods; each
    selling space on offer is described in `sell`, whose prices give a whole sale's money
    (checked against the one-action form of the sale)."""
    rng = random.Random(7)
    sells_checked = 0
    for seats in (2, 3, 4):
        g = LocalGame(ENGINE, seats=seats, seed=seats)
        steps = 0
        while g.outcome() is None and steps < 600:
            (seat,) = g.to_act()
            v = ENGINE.view(g.state, None)
            json.dumps(v)
            legal = g.legal_actions(seat)
            pending = v["pending"]
            assert pending["seat"] == seat
            assert [o["action"] for o in pending["options"]] == legal
            opening = [a for a in legal if a["type"] == "place_worker" and len(a) == 2
                       and data.SPACES[a["space"]].get("effect") == "sell"]
            if pending["decision"] == "place_worker":
                assert set(pending["sell"]) == {a["space"] for a in opening}
            for o in rng.sample(pending["options"], min(3, len(pending["options"]))):
                net, after = _player_net(g, seat, o["action"])
                assert net == o["net"], (o, net)
                assert o["after"] == after
            for a in opening:
                sm = pending["sell"][a["space"]]
                have = sm["have"]
                sold = {k: rng.randrange(have[k] + 1) for k in sm["prices"]}
                if not any(sold.values()):
                    continue
                money = (sum(sm["prices"][k] * n + (sm["first_of_kind_extra"][k] if n else 0)
                             for k, n in sold.items()) + sm["first_bonus_money"] - sm["fee"])
                net, _ = _player_net(g, seat, {**a, "sell": sold})
                assert net.get("money", 0) == money, (a, sm, net)
                sells_checked += 1
            g.act(seat, ENGINE.random_action(g.state, seat, legal, rng))
            steps += 1
    assert sells_checked > 10


def test_the_view_describes_each_selling_space_once_with_its_prices_bonus_and_fee():
    g = game(seats=3, buildings="all")
    own(g, 1, "market")
    give(g, 0, money=2, lumber=6, food=6, brick=3)
    pending = view(g)["pending"]
    assert set(pending["sell"]) == {"general_store", "market"}
    assert not [o for o in pending["options"] if "sell" in o["action"]]
    store = pending["sell"]["general_store"]
    assert store["prices"] == {"lumber": 1, "food": 1, "brick": 2} and store["first_bonus_money"] == 1
    assert store["fee"] == 0 and store["have"] == {"lumber": 6, "food": 6, "brick": 3}
    market = pending["sell"]["market"]
    assert market["first_of_kind_extra"] == {"lumber": 1, "food": 1, "brick": 2}
    assert market["fee"] == 1 and market["fee_to_seat"] == 1 and market["first_bonus_money"] == 0
    # Market: 2 lumber + 1 brick = $2 + $2, doubled firsts +$1 +$2, minus the $1 fee = $6.
    money = g.state["players"][0]["money"]
    place(g, 0, "market", sell={"lumber": 2, "brick": 1})
    assert g.state["players"][0]["money"] == money + 6


def test_the_view_has_no_pending_decision_once_the_game_is_over():
    g = LocalGame(ENGINE, seats=2, seed=3)
    rng = random.Random(3)
    while g.outcome() is None:
        (seat,) = g.to_act()
        g.act(seat, ENGINE.random_action(g.state, seat, g.legal_actions(seat), rng))
    v = view(g)
    assert v["pending"] is None and v["awaiting"] is None and v["reference"]


# --- malformed actions ----------------------------------------------------------------------
def _all_types_legal_now():
    """(game, seat, a legal action) for every action type."""
    out = []
    g = LocalGame(ENGINE, seats=2, seed=1, options={"first_player": 0})
    out.append((g, 0, g.legal_actions(0)[0]))  # choose_starting_goods
    g = game(seats=2)
    for a in g.legal_actions(0)[:3]:  # buy_goods, place_worker
        out.append((g, 0, a))
    g = game(seats=2)
    at_sea(g, 0, 2, 1, right=1, sperm=1)
    give(g, 0, money=0)
    give(g, 1, money=9)
    set_bag(g)
    finish_action_phase(g)
    out.append((g, 0, g.legal_actions(0)[0]))  # return_ship
    g2 = game(seats=2)
    at_sea(g2, 0, 2, 1, right=1, sperm=1)
    give(g2, 0, money=0)
    give(g2, 1, money=9)
    set_bag(g2)
    finish_action_phase(g2)
    g2.act(0, {"type": "return_ship", "pay": {**Z, "right": 1}, "sell": {**Z, "sperm": 1}})
    out += [(g2, 1, a) for a in g2.legal_actions(1)]  # buy_whale, pass
    g3 = game(seats=2)
    at_sea(g3, 0, 1, 3)
    set_bag(g3, bowhead=5)
    finish_action_phase(g3)
    out += [(g3, 0, a) for a in g3.legal_actions(0)]  # pick_whale, pass
    assert {a["type"] for _, _, a in out} == {"choose_starting_goods", "buy_goods", "place_worker",
                                              "return_ship", "buy_whale", "pass", "pick_whale"}
    return out


def test_an_action_with_an_unknown_field_is_refused_as_malformed():
    for g, seat, action in _all_types_legal_now():
        before = canonical_json(g.state)
        with pytest.raises(InvalidAction, match="unknown field.*'note'"):
            g.act(seat, {**action, "note": "keep the bowhead"})
        # The engine checks the shape before the rules: the same from a seat not to act
        # (the core's own turn check, in LocalGame and the API, answers such a seat first).
        with pytest.raises(InvalidAction, match="unknown field.*'note'"):
            ENGINE.decide(g.state, 1 - seat, {**action, "note": "keep the bowhead"}, random.Random(0))
        assert canonical_json(g.state) == before


def test_an_action_missing_a_required_field_is_refused_naming_the_field():
    for g, seat, action in _all_types_legal_now():
        for k in action:
            if k == "type":
                continue
            broken = {x: v for x, v in action.items() if x != k}
            with pytest.raises(InvalidAction, match=repr(k) if k != "space" else "'space'"):
                g.act(seat, broken)
    # A space's own parameters are named too (place_worker on City Pier needs ship and to).
    g = game(seats=2)
    on_dock(g, 0, 1)
    give(g, 0, food=5)
    with pytest.raises(InvalidAction, match="needs to"):
        g.act(0, {"type": "place_worker", "space": "city_pier", "ship": 1})


def test_a_parameter_that_belongs_to_another_space_is_refused_as_malformed():
    g = game(seats=2)
    with pytest.raises(InvalidAction, match="does not take ship"):
        g.act(0, {"type": "place_worker", "space": "farm", "ship": 1})
    with pytest.raises(IllegalAction):  # well-formed but not allowed now: not the actor
        g.act(1, {"type": "place_worker", "space": "farm"})


def test_every_place_worker_parameter_of_every_space_is_a_known_field():
    g = game(seats=2, buildings="all")
    own(g, 1, *data.BUILDING_IDS)
    give(g, 0, money=9)
    for sid in list(data.BOARD_SPACE_IDS) + [b["id"] for b in data.BUILDINGS if b["type"] == "action"]:
        ctx = spaces.context(g.state, 0, sid)
        keys_of = spaces.EFFECTS[ctx.space["effect"]][0]
        assert set(keys_of(ctx)) <= set(spaces.PARAMETERS), sid
