"""A sentence-by-sentence audit of seed-FoG (the rulebook pp. 11-20): the edge cases the other
files leave out — ties, supplies running out, the end inside a vote, follows of advisers and of
the Income card, resets, income, the solo claim tokens, achievements — and hidden information
(the secret vote and face-down cards) for every seat and spectators."""

import random

import pytest
from tablero.engines import IllegalAction

from .helpers import ENGINE, C, cast_votes, game, lead, prestige, roads, tile, turn, types


def _call(g, caller=0):
    """`caller` calls a vote with nothing left in hand but the Call to Vote card (no benefits)."""
    p = g.state["players"][caller]
    p["hand"] = ["vote"]
    p["played"] = [{"card": c, "face_up": True} for c in ("trade", "build", "recruit")]
    turn(g, caller)
    return g.act(caller, {"type": "call_vote"})


def _revealed(events):
    return next(e for e in events if e["type"] == "votes_revealed")


# --- p. 15: income ------------------------------------------------------------------------------
def test_income_example_plant_two_metal_two_machinery_and_food_gives_4_and_a_fleeting_per_house():
    """p. 15: "si un jugador posee una loseta de planta, dos de metal, dos maquinarias y una de comida,
    conllevaría un ingreso de 4"; "por cada casa que haya construido, obtiene 1 de influencia
    temporal". A tile the player only has access to, or a neutral one, is not owned."""
    g = game(4)
    tile(g, "stall", "plant", 1, [C(0, 0)])
    tile(g, "stall", "metal", 1, [C(0, 2)])
    tile(g, "stall", "metal", 1, [C(6, 2)])
    tile(g, "t2", "machinery", 1, [C(1, 4), C(2, 4), C(1, 5), C(2, 5)])
    tile(g, "t2", "machinery", 1, [C(6, 4), C(7, 4), C(6, 5), C(7, 5)])
    tile(g, "t2", "food", 1, [C(1, 8), C(2, 8), C(1, 9), C(2, 9)])
    tile(g, "stall", "wood", 2, [C(4, 12)], claims=[1])  # access only
    tile(g, "stall", "clay", None, [C(4, 14)], claims=[1])  # neutral, access only
    g.state["players"][1]["houses"] = 2
    assert g.view(0)["players"][1]["income"] == 4
    ev = _call(g, caller=0)
    inc = next(e for e in ev if e["type"] == "income_collected" and e["seat"] == 1)
    assert inc == {"type": "income_collected", "seat": 1, "money": 4, "fleeting": 2}
    assert g.state["players"][1]["money"] == 24
    assert not any(e["type"] == "income_collected" and e["seat"] == 0 for e in ev)  # not the caller


# --- p. 15: vote ties and the placer ------------------------------------------------------------
def test_a_vote_tie_is_decided_among_the_implicated_players_only_fewest_points_then_closest_to_caller():
    """p. 15: "En caso de empate, el jugador implicado con menos puntos decide entre los edificios
    empatados; si hay un empate a puntos, decide el que esté más cerca ... al jugador que llamó al
    voto". Seat 0 has the fewest points but voted for the third card: it is not implicated."""
    g = game(4)
    for s, pts in enumerate([0, 5, 4, 4]):
        g.state["players"][s]["score"]["deliveries"] = pts
    _call(g, caller=0)
    ev = cast_votes(g, [(2, 0, 0), (0, 1, 0), (1, 2, 0), (0, 0, 0)])  # totals 3 | 3 | 1
    rev = _revealed(ev)
    assert rev["totals"] == [3, 3, 1] and rev["tied"] == [0, 1] and rev["winner"] is None
    assert rev["decider"] == 2  # seats 2 and 3 have 4 points; seat 2 is closer to the caller
    assert g.to_act() == {2}
    with pytest.raises(IllegalAction, match="tied proposals"):
        g.act(2, {"type": "choose_proposal", "proposal": 2})
    assert [a["proposal"] for a in g.legal_actions(2)] == [0, 1]


def test_the_caller_decides_a_tie_when_implicated_with_equal_points():
    g = game(3)
    _call(g, caller=1)
    rev = _revealed(cast_votes(g, [(0, 0, 0), (1, 0, 0), (2, 0, 0)]))  # 1 | 1 | 1
    assert rev["tied"] == [0, 1, 2] and rev["decider"] == 1


def test_the_placer_tie_goes_to_fewest_points_then_to_the_contributor_closest_to_the_caller():
    """p. 15: "determina qué jugador contribuyó con más influencia a la propuesta ganadora. Si hay
    empate, se resuelve de la misma forma descrita arriba"."""
    g = game(4)
    g.state["players"][3]["score"]["deliveries"] = 2
    _call(g, caller=2)
    rev = _revealed(cast_votes(g, [(1, 1, 0), (0, 0, 0), (0, 0, 0), (1, 1, 0)]))  # 2 | 4: seats 0 and 3 gave 2
    assert rev["winner"] == 1 and rev["placer"] == 0  # fewer points than seat 3
    g = game(4)
    _call(g, caller=2)
    rev = _revealed(cast_votes(g, [(1, 1, 0), (0, 0, 0), (0, 0, 0), (1, 1, 0)]))
    assert rev["placer"] == 3  # equal points: seat 3 is next after the caller, seat 0 two further
    # after a tie on the proposals, the placer is found among the contributors to the chosen one
    g = game(4)
    _call(g, caller=2)
    cast_votes(g, [(0, 0, 0), (1, 0, 0), (0, 0, 0), (1, 0, 0)])  # 2 | 2: every player with 0 points
    assert g.to_act() == {2}
    ev = g.act(2, {"type": "choose_proposal", "proposal": 1})
    assert ev[0]["placer"] == 3 and g.to_act() == {3}


# --- p. 14: the reset takes back the caller's workers only ----------------------------------------
def test_the_reset_takes_back_the_callers_workers_from_race_and_prestige_cards_not_the_others():
    g = game(4)
    a = prestige(g, "watchtower", [C(3, 0), C(4, 0)], delivered=[0, 1])
    b = prestige(g, "tavern", [C(6, 0), C(7, 0), C(8, 0), C(7, 1)], delivered=[1, None])
    p0, p1 = g.state["players"][0], g.state["players"][1]
    p0["workers"], p0["placed"] = 2, ["race", "watchtower"]
    p1["workers"], p1["placed"] = 2, ["race", "tavern"]
    g.state["prestige"][a]["worker"], g.state["prestige"][b]["worker"] = 0, 1
    _call(g, caller=0)
    assert p0["placed"] == [] and g.state["prestige"][a]["worker"] is None
    assert p1["placed"] == ["race", "tavern"] and g.state["prestige"][b]["worker"] == 1


def test_a_worker_cannot_go_on_a_prestige_card_another_player_occupies():
    """p. 14: "no se puede hacer si ... ya hay un trabajador en la carta del edificio"."""
    g = game(4)
    prestige(g, "watchtower", [C(3, 0), C(4, 0)], delivered=[0, 1])
    for s in (0, 1):
        g.state["players"][s]["workers"] = 1
    turn(g, 1)
    g.act(1, {"type": "play_card", "card": "trade", "face_up": False})
    g.act(1, {"type": "place_worker", "target": "watchtower"})
    if g.to_act() == {1}:  # the building's action may give roads
        g.act(1, {"type": "skip_roads"})
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    assert {"type": "place_worker", "target": "watchtower"} not in g.legal_actions(0)
    with pytest.raises(IllegalAction, match="taken"):
        g.act(0, {"type": "place_worker", "target": "watchtower"})


# --- p. 16: the end reached inside a vote ---------------------------------------------------------
def test_a_sixth_completion_at_the_placement_of_a_voted_building_ends_the_game_after_the_vote():
    """p. 11: a neutral basic resource is delivered at once when the building is placed; p. 16: the
    6th completion ends the game once the active player's turn (here the vote) is resolved, before
    the active token moves; ties go to the player closest to the active player (the caller)."""
    g = game(3)
    g.state["neutral"] = ["metal", "clay"]
    g.state["completions"] = 5
    tile(g, "stall", "wood", 1, [C(0, 1)])  # touches the square (0, 0) of the building
    g.state["proposals"] = ["watchtower", "salt_barrel", "tavern"]
    _call(g, caller=2)
    cast_votes(g, [(0, 0, 0), (0, 0, 0), (0, 1, 0)])
    assert g.to_act() == {2}  # the caller gave the most
    ev = g.act(2, {"type": "place_prestige", "cells": [C(0, 0), C(1, 0)]})
    assert types(ev)[:4] == ["prestige_placed", "delivered", "delivered", "completed"]
    assert [e["owner"] for e in ev if e["type"] == "delivered"] == [-1, 1]
    assert "vote_closed" in types(ev) and ev[-1]["type"] == "game_ended" and "turn_passed" not in types(ev)
    out = g.outcome()
    assert out["reason"] == "six_completions" and g.state["active"] == 2
    assert [d["turn_distance"] for d in out["details"]] == [1, 2, 0]


def test_a_final_tie_between_players_other_than_the_active_one_goes_to_the_next_in_turn_order():
    g = game(3)
    g.state["neutral"] = ["metal", "clay"]
    g.state["completions"] = 5
    g.state["proposals"] = ["watchtower", "salt_barrel", "tavern"]
    tile(g, "stall", "wood", 1, [C(0, 1)])
    for s in range(3):
        g.state["players"][s]["score"]["advisers"] = [9, 0, 9][s]
    _call(g, caller=1)
    cast_votes(g, [(0, 0, 0), (0, 1, 0), (0, 0, 0)])
    for s in range(3):
        g.state["players"][s]["money"] = 0
    g.act(1, {"type": "place_prestige", "cells": [C(0, 0), C(1, 0)]})
    out = g.outcome()
    # seat 1 scores 1 (wood) + 1 (completion): 2; seats 0 and 2 tie on 9 -> seat 2 follows the caller
    assert out["scores"] == [9, 2, 9] and out["winners"] == [2]


# --- supplies running out ---------------------------------------------------------------------------
def test_no_import_or_upgrade_without_a_tile_left_in_the_supply():
    g = game(4)
    g.state["players"][0]["resources"] = ["metal"]
    tile(g, "stall", "metal", 0, [C(0, 0)])
    tile(g, "stall", "knowledge", 0, [C(4, 2)])
    roads(g, C(0, 1), C(0, 2), C(3, 2))
    g.state["supply"]["metal"] = 0
    g.state["supply"]["machinery"] = 0
    for card in ("trade", "upgrade"):  # nothing else to import or build: not playable face up
        turn(g, 0)
        with pytest.raises(IllegalAction, match="cannot be resolved"):
            g.act(0, {"type": "play_card", "card": card, "face_up": True})
    g.state["supply"]["metal"] = 1
    lead(g, 0, "trade")
    with pytest.raises(IllegalAction, match="no metal tile is left"):
        g.state["supply"]["metal"] = 0
        g.act(0, {"type": "import", "resource": "metal", "cell": C(2, 0)})


def test_a_fourth_house_is_refused_and_a_build_with_nothing_left_to_build_cannot_be_led():
    """p. 13: "Cada jugador puede construir hasta 3 casas" (and 3 bridges/gates); p. 11: a card
    played face up must be able to resolve its main action."""
    g = game(4)
    tile(g, "stall", "metal", 0, [C(0, 0)])
    roads(g, C(1, 0))  # (2, 0) is green
    g.state["players"][0]["houses"] = 3
    turn(g, 0)
    with pytest.raises(IllegalAction, match="cannot be resolved"):
        g.act(0, {"type": "play_card", "card": "build", "face_up": True})
    tile(g, "stall", "knowledge", 3, [C(14, 3)])
    roads(g, C(13, 3), C(12, 3))
    lead(g, 3, "build")
    g.act(3, {"type": "build", "kind": "house", "cell": C(11, 3)})
    assert g.to_act() == {0} and "build" not in types(g.legal_actions(0))
    with pytest.raises(IllegalAction, match="all 3 houses"):
        g.act(0, {"type": "build", "kind": "house", "cell": C(2, 0)})


def test_with_no_road_tile_left_no_road_is_offered_anywhere():
    g = game(4)
    tile(g, "stall", "metal", 0, [C(0, 0)])
    tile(g, "stall", "knowledge", 0, [C(4, 2)])
    roads(g, C(0, 1), C(0, 2), C(3, 2))
    g.state["roads_left"] = 0
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    assert "road" not in types(g.legal_actions(0))
    with pytest.raises(IllegalAction, match="no road tile"):
        g.act(0, {"type": "road", "cell": C(1, 0)})
    g.act(0, {"type": "take_money"})
    lead(g, 0, "upgrade")  # the leader's road is owed but cannot be built: it may only be skipped
    assert "road_first" not in types(g.legal_actions(0))
    g.act(0, {"type": "upgrade", "resource": "machinery", "cells": [C(1, 2), C(2, 2), C(1, 3), C(2, 3)]})
    assert types(g.legal_actions(0)) == ["skip_roads"]
    g.act(0, {"type": "skip_roads"})
    for s in (1, 2, 3):
        g.act(s, {"type": "take_money"})
    p = g.state["players"][0]
    p["hand"], p["played"] = ["recruit", "vote"], [{"card": "trade", "face_up": True}] * 2
    turn(g, 0)
    g.act(0, {"type": "call_vote"})
    assert {a["kind"] for a in g.legal_actions(0)} == {"money", "influence"}


# --- follows --------------------------------------------------------------------------------------
def test_a_build_adviser_is_followed_by_the_plain_build_follow_at_4():
    """p. 11: followers of an adviser take its category's follow action; p. 13: the Build follow has
    no discount. Mason (ours): $1 off the leader's $3."""
    g = game(4)
    g.state["players"][0]["resources"] = ["stone"]
    tile(g, "stall", "stone", 0, [C(0, 0)])
    roads(g, C(1, 0))
    tile(g, "stall", "knowledge", 1, [C(14, 3)])
    roads(g, C(13, 3), C(12, 3))  # to the green (11, 3)
    lead(g, 0, "mason")
    assert g.act(0, {"type": "build", "kind": "house", "cell": C(2, 0)})[0]["cost"] == 2
    assert g.to_act() == {1}
    assert g.act(1, {"type": "build", "kind": "house", "cell": C(11, 3)})[0]["cost"] == 4
    assert g.state["players"][1]["money"] == 16


def test_the_income_card_followed_as_upgrade_pays_the_same_price_and_builds_no_road():
    """p. 14: the Income card may be followed as any main action type; p. 12: the Upgrade follow
    builds at the same price without the extra road; p. 12: never import-and-access as a follow."""
    g = game(2)
    g.state["neutral"] = ["clay", "animals"]
    tile(g, "stall", "metal", 1, [C(0, 0)])
    tile(g, "stall", "knowledge", 1, [C(4, 2)])
    roads(g, C(0, 1), C(0, 2), C(3, 2))
    lead(g, 0, "income")
    assert "import_access" not in types(g.legal_actions(1))
    with pytest.raises(IllegalAction):
        g.act(1, {"type": "import_access", "resource": "clay", "cell": C(0, 14)})
    ev = g.act(1, {"type": "upgrade", "resource": "machinery", "cells": [C(1, 2), C(2, 2), C(1, 3), C(2, 3)]})
    assert ev[0]["cost"] == 4 and "roads_due" not in types(ev)
    assert ev[-1] == {"type": "turn_passed", "active": 1}


def test_a_neutral_tile_bought_into_pays_the_bank_not_the_player_who_imported_it():
    """p. 12: access to a neutral resource is paid to the bank ($4 whatever the colour); the
    importer's claim gives no ownership (p. 20)."""
    g = game(3)
    g.state["neutral"] = ["clay", "animals"]
    lead(g, 0, "trade")
    ev = g.act(0, {"type": "import_access", "resource": "clay", "cell": C(0, 0)})
    assert ev[0]["cost"] == 4 and ev[0]["owner"] is None and ev[0]["claim"] is True
    assert g.state["tiles"][0]["owner"] is None and g.state["tiles"][0]["claims"] == [0]
    ev = g.act(1, {"type": "access", "tile": 0})  # a red square: allowed as a follow
    assert ev[0]["cost"] == 4 and ev[0]["to"] is None
    ps = g.state["players"]
    assert (ps[0]["money"], ps[1]["money"]) == (16, 16)
    assert g.view(0)["players"][0]["income"] == 0  # access is not ownership


# --- p. 16: proposals ---------------------------------------------------------------------------
def test_proposals_reshuffle_the_discards_when_the_deck_runs_short():
    """p. 16: "Si no hay suficientes cartas en el mazo de robo, barajea los descartes y úsalos como
    nuevo mazo de robo" — the two cards just discarded among them."""
    g = game(4)
    g.state["proposals"] = ["watchtower", "salt_barrel", "tavern"]
    g.state["proposal_deck"] = ["market_square"]
    g.state["proposal_discard"] = ["foundry", "armory"]
    _call(g, caller=0)
    cast_votes(g, [(0, 1, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])
    ev = g.act(0, {"type": "place_prestige", "cells": [C(0, 0), C(1, 0)]})
    drawn = next(e for e in ev if e["type"] == "proposals_drawn")
    assert drawn["reshuffled"] is True and drawn["cards"][0] == "market_square"
    assert sorted(drawn["cards"][1:] + drawn["secret"]["deck"]) == ["armory", "foundry", "salt_barrel", "tavern"]
    assert g.state["proposal_discard"] == [] and g.view(1)["proposal_deck_size"] == 2
    assert "secret" not in ENGINE.event_view(drawn, 1) and "secret" not in ENGINE.event_view(drawn, None)


# --- p. 18: solo claim tokens -------------------------------------------------------------------
def test_solo_claim_tokens_go_on_every_incomplete_building_before_the_new_one_receives_anything():
    """p. 18: "Tan pronto como una loseta de edificio de prestigio se coloque en el tablero, antes de
    entregarle cualquier recurso conectado, coloca una ficha neutral de reclamo en todas las losetas
    de edificio de prestigio que todavía necesiten que se les entregue recursos. Cada vez que un
    recurso se entregue a un edificio de prestigio, retira la ficha neutral si la había.\""""
    g = game(1)
    g.state["cycle"] = 2
    p = g.state["players"][0]
    p["hand"], p["played"] = ["trade", "vote"], [{"card": c, "face_up": True} for c in ("recruit", "build")]
    old = prestige(g, "tavern", [C(6, 0), C(7, 0), C(8, 0), C(7, 1)], delivered=[0, None])
    done = prestige(g, "scholars_library", [C(12, 3), C(12, 4), C(12, 5)], delivered=[0, 0])
    g.state["prestige"][done]["complete"] = True
    tile(g, "stall", "wood", 0, [C(0, 1)])
    g.state["proposals"] = ["watchtower", "salt_barrel", "golden_lion"]
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    g.act(0, {"type": "take_money"})  # the last card: the vote comes
    assert "claims_paid" not in [e["type"] for e in g.events[-6:]]
    g.act(0, {"type": "choose_proposal", "proposal": 0})
    ev = g.act(0, {"type": "place_prestige", "cells": [C(0, 0), C(1, 0)]})
    assert [e["resource"] for e in ev if e["type"] == "delivered"] == ["wood"]
    pbs = g.state["prestige"]
    assert pbs[old]["claim"] is True and pbs[done]["claim"] is False
    assert pbs[-1]["card"] == "watchtower" and pbs[-1]["claim"] is False and not pbs[-1]["complete"]
    assert [x["neutral_claim"] for x in g.view(0)["prestige"]] == [True, False, False]


# --- hidden information --------------------------------------------------------------------------
def _public(view):
    """A view without what a vote cast openly changes (who still has to vote)."""
    out = dict(view)
    out.pop("to_act")
    if out.get("vote"):
        out["vote"] = {k: v for k, v in out["vote"].items() if k != "voted"}
    return out


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_secret_vote_changes_nothing_another_seat_or_a_spectator_sees_but_the_voted_flag(seats):
    g = game(seats)
    g.state["players"][1]["fleeting"], g.state["players"][1]["lasting"] = 2, 1
    _call(g, caller=0)
    viewers = [None, *[s for s in range(seats) if s != 1]]
    before = {v: _public(g.view(v)) for v in viewers}
    ev = g.act(1, {"type": "vote", "proposal": 2, "fleeting": 2, "lasting": 1})
    assert types(ev) == ["vote_cast"]
    for v in viewers:
        assert _public(g.view(v)) == before[v]
        assert ENGINE.event_view(ev[0], v) == {"type": "vote_cast", "seat": 1}
        assert g.view(v)["vote"]["voted"][1] is True
    assert ENGINE.event_view(ev[0], 1)["private"] == {"1": {"proposal": 2, "fleeting": 2, "lasting": 1}}
    assert g.view(1)["vote"]["my_vote"] == {"proposal": 2, "fleeting": 2, "lasting": 1}
    # a later voter's choices stay its own too, and the same vote with other choices looks the same
    other = game(seats)
    other.state["players"][1]["fleeting"], other.state["players"][1]["lasting"] = 2, 1
    _call(other, caller=0)
    other.act(1, {"type": "vote", "proposal": 0, "fleeting": 0, "lasting": 0})
    for v in viewers:
        assert g.view(v) == other.view(v)
    # all revealed at once by the last vote
    rest = [s for s in range(seats) if s != 1]
    for s in rest[:-1]:
        assert "votes_revealed" not in types(g.act(s, {"type": "vote", "proposal": 0, "fleeting": 0, "lasting": 0}))
    ev = g.act(rest[-1], {"type": "vote", "proposal": 0, "fleeting": 0, "lasting": 0})
    assert "votes_revealed" in types(ev)
    assert g.view(None)["vote"]["votes"][1] == {"proposal": 2, "fleeting": 2, "lasting": 1}


@pytest.mark.parametrize("card", ["income", "recruit", "vote_adviser"])
def test_a_face_down_card_looks_the_same_to_every_other_seat_and_spectators_whatever_it_was(card):
    def play(c):
        g = game(2)
        hand = g.state["players"][0]["hand"]
        if c == "vote_adviser":
            c = "herald"
        hand.append("herald")
        hand.remove("build")
        turn(g, 0)
        ev = g.act(0, {"type": "play_card", "card": c, "face_up": False})
        ev += g.act(0, {"type": "take_influence"})
        return g, ev

    g, ev = play(card)
    ref, ref_ev = play("trade")
    for v in (None, 1):
        assert g.view(v) == ref.view(v)
        assert [ENGINE.event_view(e, v) for e in ev] == [ENGINE.event_view(e, v) for e in ref_ev]
    assert g.view(0) != ref.view(0)


def test_redrawn_secret_votes_name_only_proposals_on_the_table():
    """resample_hidden re-draws the others' pending votes consistently with what the viewer sees:
    with 2 proposals left (the deck ran out), never a vote for a third one."""
    g = game(3)
    g.state["proposals"] = ["watchtower", "tavern"]
    _call(g, caller=0)
    g.act(1, {"type": "vote", "proposal": 1, "fleeting": 0, "lasting": 0})
    for k in range(40):
        alt = ENGINE.resample_hidden(g.state, 0, random.Random(k))
        assert alt["vote"]["votes"][1]["proposal"] in (0, 1)
        assert ENGINE.view(alt, 0) == g.view(0)
