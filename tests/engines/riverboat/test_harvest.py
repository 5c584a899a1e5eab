"""Phase 3, Harvest & Shipping (seed-R "3. Fase de recolección y envío", riverboats, harvest bonus)."""

import pytest
from tablero.engines.core import IllegalAction
from tablero.engines.riverboat import ENGINE
from tablero.engines.riverboat.data import BOAT_TYPES, PHASES

from .helpers import act, at_phase, harvest_state, types


def test_harvest_holder_moves_the_harbor_master_one_step_at_the_start_of_the_phase():
    g = at_phase("planting")
    holder = g.state["phase_tiles"][PHASES.index("harvest")]
    before = g.state["players"][holder]["harbor"]
    while g.state["phase"] == "planting":
        seat = min(g.to_act())
        g.act(seat, g.legal_actions(seat)[0])
    i = next(i for i, e in enumerate(g.events) if e["type"] == "phase_started" and e["phase"] == "harvest")
    assert g.events[i + 1] == {"type": "gained", "seat": holder, "gains": {"harbor": 1}, "reason": "phase_bonus"}
    assert g.state["players"][holder]["harbor"] >= before + 1


def test_claiming_a_boat_removes_exactly_its_capacity_of_workers_standing_on_one_crop():
    s = harvest_state({"beet": 4, "corn": 2})
    acts = ENGINE.legal_actions(s, 0)
    assert {"type": "claim_boat", "boat": "4", "crop": "beet", "coin": False} in acts
    assert {"type": "claim_boat", "boat": "5", "crop": "beet", "coin": False} not in acts, "not enough beet"
    assert {"type": "claim_boat", "boat": "3a", "crop": "corn", "coin": False} not in acts, "not enough corn"
    s2, ev = act(s, 0, {"type": "claim_boat", "boat": "3a", "crop": "beet", "coin": False})
    p = s2["players"][0]
    assert sum(1 for c in range(35) if p["worker"][c] and p["crop"][c] == "beet") == 1
    assert sum(1 for c in range(35) if p["worker"][c] and p["crop"][c] == "corn") == 2
    assert p["workers"] == 3, "harvested workers go back to the personal supply"
    assert p["harvested"]["beet"] == 3
    assert p["crop"][:4] == ["beet"] * 4, "the crop tiles stay on the mat"
    assert p["boats"] == ["3a"] and s2["boat_board"]["3a"] is False


def test_workers_of_two_crops_cannot_fill_one_boat():
    s = harvest_state({"beet": 2, "corn": 2})
    assert not [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "claim_boat" and BOAT_TYPES[a["boat"]]["capacity"] > 2]


def test_at_most_two_boats_per_round():
    s = harvest_state({"beet": 12})
    s, _ = act(s, 0, {"type": "claim_boat", "boat": "1", "crop": "beet", "coin": False})
    s, _ = act(s, 0, {"type": "claim_boat", "boat": "2a", "crop": "beet", "coin": False})
    assert s["phase"] != "harvest" or 0 not in ENGINE.to_act(s)


def test_three_boats_in_round_four():
    s = harvest_state({"beet": 12}, round_=4)
    for boat in ("1", "2a"):
        s, _ = act(s, 0, {"type": "claim_boat", "boat": boat, "crop": "beet", "coin": False})
        assert ENGINE.to_act(s) == {0}
    s, _ = act(s, 0, {"type": "claim_boat", "boat": "2b", "crop": "beet", "coin": False})
    assert len(s["players"][0]["boats"]) == 3 and s["phase"] == "opportunity"


def test_passing_ends_your_claims_for_the_round():
    s = harvest_state({"beet": 12})
    s, ev = act(s, 0, {"type": "pass"})
    assert types(ev)[0] == "passed" and s["phase"] == "opportunity"


def test_claims_alternate_clockwise():
    s = harvest_state({"beet": 6})
    p1 = s["players"][1]
    for c in range(3):
        p1["crop"][c] = "corn"
        p1["worker"][c] = True
    s, _ = act(s, 0, {"type": "claim_boat", "boat": "1", "crop": "beet", "coin": False})
    assert ENGINE.to_act(s) == {1}
    s, _ = act(s, 1, {"type": "claim_boat", "boat": "3a", "crop": "corn", "coin": False})
    assert ENGINE.to_act(s) == {0}


def test_a_coin_takes_a_boat_from_the_pile_of_a_type_already_claimed():
    s = harvest_state({"beet": 6})
    s["boat_board"]["3a"] = False
    a = {"type": "claim_boat", "boat": "3a", "crop": "beet", "coin": True}
    assert a in ENGINE.legal_actions(s, 0)
    s2, _ = act(s, 0, a)
    assert s2["boat_piles"]["3a"] == 3 and s2["players"][0]["coins"] == 1
    s["players"][0]["coins"] = 0
    with pytest.raises(IllegalAction, match="coin"):
        ENGINE.decide(s, 0, a, None)


def test_an_exhausted_boat_type_is_gone_for_the_rest_of_the_game():
    s = harvest_state({"beet": 6})
    s["boat_board"]["3a"] = False
    s["boat_piles"]["3a"] = 0
    assert not [a for a in ENGINE.legal_actions(s, 0) if a.get("boat") == "3a"]


def test_boats_fill_the_mat_slots_from_left_to_right():
    s = harvest_state({"beet": 3, "corn": 1}, round_=4)
    s, _ = act(s, 0, {"type": "claim_boat", "boat": "3b", "crop": "beet", "coin": False})
    s, _ = act(s, 0, {"type": "claim_boat", "boat": "1", "crop": "corn", "coin": False})
    assert s["players"][0]["boats"] == ["3b", "1"]


@pytest.mark.parametrize(("boat", "coins", "vp", "harbor", "pending"), [
    ("1", 1, 0, 3, []),
    ("2a", 0, 1, 2, []),
    ("2b", 0, 2, 1, []),
    ("3a", 0, 3, 1, []),
    ("3b", 1, 3, 0, []),
    ("4", 0, 0, 0, ["feature:barn"]),
    ("5", 0, 0, 0, ["feature:surveyor", "agents:1"]),
    ("6", 0, 0, 0, ["feature:barn,well,surveyor", "agents:2"]),
    ("7", 0, 0, 0, ["feature:barn,well,surveyor", "agents:3"]),
])
def test_each_riverboat_gives_its_immediate_benefit(boat, coins, vp, harbor, pending):
    s = harvest_state({"beet": 8})
    p = s["players"][0]
    e = ENGINE.decide(s, 0, {"type": "claim_boat", "boat": boat, "crop": "beet", "coin": False}, None)[0]
    assert e["gains"].get("coins", 0) == coins and e["gains"].get("vp", 0) == vp
    assert e["gains"].get("harbor", 0) == harbor
    got = [f"{x['kind']}:" + (",".join(x["options"]) if x["kind"] == "feature" else str(x["max"]))
           for x in e["pending"]]
    assert got == pending
    s2 = ENGINE.simulate(s, [e])
    assert s2["players"][0]["vp"] == p["vp"] + vp and s2["players"][0]["coins"] == p["coins"] + coins


def test_riverboat_4_gives_a_barn_placed_at_once_on_an_empty_field():
    s = harvest_state({"beet": 4})
    s, _ = act(s, 0, {"type": "claim_boat", "boat": "4", "crop": "beet", "coin": False})
    assert ENGINE.to_act(s) == {0} and s["pending"][0]["kind"] == "feature"
    acts = ENGINE.legal_actions(s, 0)
    assert acts and all(a["type"] == "place_barn" for a in acts)
    assert {"type": "place_barn", "cell": 0} not in acts, "a crop hex is not an empty field"
    s, ev = act(s, 0, {"type": "place_barn", "cell": 20})
    assert s["players"][0]["feature"][20] == "barn" and s["supply"]["barns"] == 7


def test_riverboat_5_gives_a_surveyor_and_lets_you_send_one_worker_to_new_orleans():
    s = harvest_state({"beet": 5})
    s, ev = act(s, 0, {"type": "claim_boat", "boat": "5", "crop": "beet", "coin": False})
    assert "surveyor_taken" in types(ev) and s["players"][0]["surveyors"] == 3
    assert ENGINE.legal_actions(s, 0) == [{"type": "send_agents", "count": 0}, {"type": "send_agents", "count": 1}]
    s, _ = act(s, 0, {"type": "send_agents", "count": 1})
    assert s["players"][0]["agents"] == 1 and s["players"][0]["workers"] == 4


def test_riverboat_7_gives_an_estate_feature_of_your_choice_and_up_to_three_agents():
    s = harvest_state({"beet": 7})
    s, _ = act(s, 0, {"type": "claim_boat", "boat": "7", "crop": "beet", "coin": False})
    kinds = {a["type"] for a in ENGINE.legal_actions(s, 0)}
    assert kinds == {"place_barn", "place_well", "take_surveyor"}
    s, _ = act(s, 0, {"type": "place_well", "cell": 0})
    assert [a["count"] for a in ENGINE.legal_actions(s, 0)] == [0, 1, 2, 3]
    s, _ = act(s, 0, {"type": "send_agents", "count": 3})
    assert s["players"][0]["agents"] == 3


def test_an_exhausted_estate_feature_is_replaced_by_another_of_your_choice():
    s = harvest_state({"beet": 4})
    s["supply"]["barns"] = 0
    s, _ = act(s, 0, {"type": "claim_boat", "boat": "4", "crop": "beet", "coin": False})
    assert {a["type"] for a in ENGINE.legal_actions(s, 0)} == {"place_well", "take_surveyor"}


def test_with_every_estate_feature_exhausted_you_get_nothing():
    s = harvest_state({"beet": 4})
    s["supply"].update(barns=0, wells=0, surveyors=0)
    s, ev = act(s, 0, {"type": "claim_boat", "boat": "4", "crop": "beet", "coin": False})
    assert "pending_dropped" in types(ev) and not s["pending"]


def test_harvest_bonus_at_nine_crops_of_one_kind_gives_an_estate_feature_of_your_choice_once_per_crop():
    s = harvest_state({"beet": 6, "corn": 6}, round_=4)
    s["players"][0]["harvested"]["beet"] = 7
    s, ev = act(s, 0, {"type": "claim_boat", "boat": "2a", "crop": "beet", "coin": False})
    assert ev[0]["harvest_bonus"] is True
    kinds = {a["type"] for a in ENGINE.legal_actions(s, 0)}
    assert kinds == {"place_barn", "place_well", "take_surveyor", "decline"}
    s, _ = act(s, 0, {"type": "place_well", "cell": 0})
    assert s["players"][0]["harvest_bonus"] == ["beet"]
    s, ev = act(s, 0, {"type": "claim_boat", "boat": "2b", "crop": "beet", "coin": False})
    assert ev[0]["harvest_bonus"] is False, "only once per crop"
    s["players"][0]["harvested"]["corn"] = 8
    s, ev = act(s, 0, {"type": "claim_boat", "boat": "1", "crop": "corn", "coin": False})
    assert ev[0]["harvest_bonus"] is True, "but again for another crop"


def test_a_well_goes_on_a_crop_hex_of_a_crop_without_a_well():
    s = harvest_state({"beet": 3, "corn": 3})
    s["players"][0]["feature"][0] = "well"
    s["pending"] = [{"seat": 0, "kind": "feature", "options": ["well"]}]
    cells = [a["cell"] for a in ENGINE.legal_actions(s, 0) if a["type"] == "place_well"]
    assert cells == [3, 4, 5], "one well per crop, and only on crop hexes"


def test_the_harvest_bonus_counts_crops_harvested_over_several_rounds_and_may_be_a_surveyor():
    s = harvest_state({"pumpkin": 5})
    s["players"][0]["harvested"]["pumpkin"] = 4
    surveyors = s["players"][0]["surveyors"]
    s, ev = act(s, 0, {"type": "claim_boat", "boat": "5", "crop": "pumpkin", "coin": False})
    assert ev[0]["harvest_bonus"] is True
    # the boat's own decisions first (its surveyor is automatic, then agents), then the bonus
    s, _ = act(s, 0, {"type": "send_agents", "count": 0})
    assert {"type": "take_surveyor"} in ENGINE.legal_actions(s, 0)
    s, _ = act(s, 0, {"type": "take_surveyor"})
    assert s["players"][0]["surveyors"] == surveyors + 2
    assert s["players"][0]["harvest_bonus"] == ["pumpkin"]


# --- v2 rule fix: the coin paid for a pile boat is back in the supply before the benefit --------

def _pile_boat_with_an_empty_coin_supply(boat: str):
    s = harvest_state({"beet": 3})
    s["boat_board"][boat] = False  # taken this round: only the pile, for a coin
    s["supply"]["coins"] = 0
    s["players"][0]["coins"] = 1
    return s


@pytest.mark.parametrize(("boat", "others"), [("1", {"harbor": 3}), ("3b", {"vp": 3})])
def test_coge_1_moneda_del_suministro_general_si_queda_alguna_includes_the_coin_just_paid_for_the_boat(boat, others):
    # seed-R "Barcos fluviales y beneficios": "Coge 1 moneda del suministro general (si queda
    # alguna)". Spent coins return to the general supply ("Monedas") and a boat's benefits are
    # claimed "Una vez que se coloca un barco fluvial": the coin paid for a boat from its pile is
    # in the supply when the benefit is taken, even when the supply was empty before.
    s = _pile_boat_with_an_empty_coin_supply(boat)
    crop = "beet"
    s2, ev = act(s, 0, {"type": "claim_boat", "boat": boat, "crop": crop, "coin": True})
    assert ev[0]["gains"] == {"coins": 1, **others}
    assert s2["players"][0]["coins"] == 1, "paid one coin, took one back"
    assert s2["supply"]["coins"] == 0


def test_a_boat_taken_from_the_board_with_an_empty_supply_gives_no_coin():
    # "(si queda alguna)": nothing is paid for a board boat, so an empty supply gives nothing.
    s = harvest_state({"beet": 3})
    s["supply"]["coins"] = 0
    s2, ev = act(s, 0, {"type": "claim_boat", "boat": "3b", "crop": "beet", "coin": False})
    assert ev[0]["gains"] == {"vp": 3}
    assert s2["players"][0]["coins"] == 2 and s2["supply"]["coins"] == 0


def test_a_game_started_under_v1_keeps_the_v1_reading_of_the_pile_boat_coin():
    # v1 computed the benefit before the payment; a v1 game (its state has no "version") is
    # decided as it was, so its log re-decides to the same events.
    s = _pile_boat_with_an_empty_coin_supply("1")
    assert s["version"] == ENGINE.version == 2
    del s["version"]
    s2, ev = act(s, 0, {"type": "claim_boat", "boat": "1", "crop": "beet", "coin": True})
    assert ev[0]["gains"] == {"harbor": 3}
    assert s2["players"][0]["coins"] == 0 and s2["supply"]["coins"] == 1
