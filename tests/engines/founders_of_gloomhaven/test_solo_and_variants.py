"""seed-FoG pp. 17-19: the solo game, achievements, no workers, Shaping history."""

import json

import pytest
from tablero.engines import IllegalAction, InvalidAction, InvalidOptions
from tablero.engines.core import golden

from tablero import engines

from .helpers import C, game, lead, prestige, roads, tile, turn, types


# --- solo ----------------------------------------------------------------------------------------
def _solo(cycle=7, hand=("trade", "vote")):
    g = game(1)
    g.state["cycle"] = cycle
    g.state["players"][0]["hand"] = list(hand)
    g.state["players"][0]["played"] = [{"card": c, "face_up": True} for c in ("recruit", "upgrade", "build")]
    return g


def _last_card(g):
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    return g.act(0, {"type": "take_money"})


def test_solo_is_won_when_every_prestige_building_is_complete_after_the_seventh_cycle():
    g = _solo()
    i = prestige(g, "watchtower", [C(3, 0), C(4, 0)], delivered=[0, 0])
    g.state["prestige"][i]["complete"] = True
    ev = _last_card(g)
    assert ev[-1]["type"] == "game_ended"
    out = g.outcome()
    assert out["reason"] == "solo_complete" and out["winners"] == [0]
    assert "vote_called" not in types(ev)  # the 7th Call to Vote is not played


def test_solo_is_lost_when_a_prestige_building_is_incomplete_after_the_seventh_cycle():
    g = _solo()
    prestige(g, "watchtower", [C(3, 0), C(4, 0)], delivered=[0, None])
    _last_card(g)
    out = g.outcome()
    assert out["reason"] == "solo_incomplete" and out["winners"] == []


def test_solo_is_lost_when_the_neutral_claims_cannot_be_paid_at_a_vote():
    g = _solo(cycle=2)
    prestige(g, "watchtower", [C(3, 0), C(4, 0)])
    prestige(g, "tavern", [C(6, 0), C(7, 0), C(8, 0), C(7, 1)])
    g.state["prestige"][0]["claim"] = g.state["prestige"][1]["claim"] = True  # the second costs 2 fleeting
    _last_card(g)
    out = g.outcome()
    assert out["reason"] == "solo_claims_unpaid" and out["winners"] == []


def test_solo_vote_collects_income_pays_claims_then_the_left_card_is_free_and_the_others_cost_influence():
    g = _solo(cycle=2)
    tile(g, "stall", "metal", 0, [C(0, 8)])
    prestige(g, "watchtower", [C(3, 0), C(4, 0)])
    g.state["prestige"][0]["claim"] = True
    g.state["players"][0]["fleeting"] = 5
    g.state["proposals"] = ["salt_barrel", "foundry", "tavern"]
    prestige(g, "tavern", [C(6, 0), C(7, 0), C(8, 0), C(7, 1)])
    g.state["prestige"][1]["claim"] = True
    ev = _last_card(g)
    assert "income_collected" in types(ev)
    paid = next(e for e in ev if e["type"] == "claims_paid")
    assert paid["pay"] == {"fleeting": 2, "lasting": 0}  # two claims: the left card's (free) + the middle's (2)
    assert g.to_act() == {0} and g.state["vote"]["stage"] == "choose"
    assert {a["proposal"] for a in g.legal_actions(0)} == {0, 1}  # 3 fleeting left: the right card costs 4
    with pytest.raises(IllegalAction, match="costs 4"):
        g.act(0, {"type": "choose_proposal", "proposal": 2})
    g.act(0, {"type": "choose_proposal", "proposal": 1})
    assert g.state["players"][0]["fleeting"] == 1
    g.act(0, g.legal_actions(0)[0])
    assert g.state["proposals"][:2] == ["salt_barrel", "tavern"]  # the others slide left
    assert g.state["players"][0]["fleeting"] == 0 and g.state["cycle"] == 3
    assert all(p["claim"] for p in g.state["prestige"] if not p["complete"])


def _claims(n, version=None, fleeting=20, completions=0):
    g = _solo(cycle=2)
    if version is not None:
        g.state["version"] = version
    g.state["completions"] = completions
    cells = [[C(0, 0), C(1, 0)], [C(3, 0), C(4, 0)], [C(6, 0), C(7, 0)], [C(9, 0), C(10, 0)]]
    for k in range(n):
        prestige(g, "watchtower", cells[k])
        g.state["prestige"][k]["claim"] = True
    g.state["players"][0]["fleeting"] = fleeting
    ev = _last_card(g)
    return next((e for e in ev if e["type"] == "claims_paid"), None), g


def test_solo_claim_tokens_cost_the_left_then_the_middle_then_the_right_card():
    """seed-FoG p. 18: "cualquier ficha neutral de reclamo restante debe retirarse pagando el coste
    de influencia bajo la carta correspondiente a cada una en la oferta de propuestas" and "La carta
    de la izquierda se puede colocar gratis": the first token is free, the second costs the middle
    card's 2 fleeting, the third the right card's 2 lasting (4 fleeting); a fourth the right's again
    (ours). Each completion adds 1 fleeting / 1 lasting under them."""
    assert _claims(1)[0]["pay"] == {"fleeting": 0, "lasting": 0}
    assert _claims(2)[0]["pay"] == {"fleeting": 2, "lasting": 0}
    assert _claims(3)[0]["pay"] == {"fleeting": 6, "lasting": 0}
    assert _claims(4)[0]["pay"] == {"fleeting": 10, "lasting": 0}
    assert _claims(3, completions=1)[0]["pay"] == {"fleeting": 3 + 6, "lasting": 0}
    paid, g = _claims(3, fleeting=5)
    assert paid is None and g.outcome()["reason"] == "solo_claims_unpaid"


def test_v2_solo_games_keep_every_claim_token_at_the_middle_card_cost():
    for version in (1, 2):
        assert _claims(1, version=version)[0]["pay"] == {"fleeting": 2, "lasting": 0}
        assert _claims(3, version=version)[0]["pay"] == {"fleeting": 6, "lasting": 0}


def test_solo_an_adviser_played_face_up_leaves_the_game_and_nobody_follows():
    g = _solo(cycle=1, hand=("mason", "trade", "vote"))
    tile(g, "stall", "metal", 0, [C(0, 0)])
    roads(g, C(1, 0))
    lead(g, 0, "mason")
    ev = g.act(0, {"type": "build", "kind": "house", "cell": C(2, 0)})
    assert ev[0]["cost"] == 2  # Mason: $1 off the leader's $3 (ours)
    assert "mason" in g.state["removed"] and all(c["card"] != "mason" for c in g.state["players"][0]["played"])
    assert ev[-1] == {"type": "turn_passed", "active": 0}


# --- achievements -------------------------------------------------------------------------------
def _ach():
    g = game(4, options={"achievements": True})
    g.state["achievements"] = {"immediate": "bridge_builder", "mid": "treasury", "end": "landlord"}
    return g


def test_an_immediate_achievement_is_scored_once_at_the_end_of_the_turn_it_is_met():
    g = _ach()
    g.state["players"][1]["bridges"] = 2
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    ev = g.act(0, {"type": "take_money"})
    sc = [e for e in ev if e["type"] == "achievement_scored"]
    assert sc == [{"type": "achievement_scored", "achievement": "bridge_builder", "scorers": [1], "value": 2}]
    assert g.state["players"][1]["score"]["achievements"] == 2
    turn(g, 1)
    g.act(1, {"type": "play_card", "card": "trade", "face_up": False})
    ev = g.act(1, {"type": "take_money"})
    assert "achievement_scored" not in types(ev)


def test_the_mid_game_achievement_is_scored_at_the_end_of_the_turn_of_the_second_completion():
    g = _ach()
    g.state["completions"] = 1
    prestige(g, "watchtower", [C(3, 0), C(4, 0)], delivered=[None, 3])
    g.state["players"][0]["resources"] = ["metal"]
    for s in (2, 3):
        g.state["players"][s]["money"] = 5
    lead(g, 0, "trade")
    ev = g.act(0, {"type": "import", "resource": "metal", "cell": C(2, 0)})
    assert "achievement_scored" not in types(ev)  # not before the follows
    for s in (1, 2):
        g.act(s, {"type": "take_money"})
    ev = g.act(3, {"type": "take_money"})
    sc = next(e for e in ev if e["type"] == "achievement_scored")
    assert sc["achievement"] == "treasury" and sc["scorers"] == [0, 1]  # $10 or more


def test_the_end_game_achievement_is_scored_at_the_end():
    g = _ach()
    g.state["completions"] = 5
    g.state["players"][2]["houses"] = 3
    prestige(g, "watchtower", [C(3, 0), C(4, 0)], delivered=[None, 3])
    g.state["players"][0]["resources"] = ["metal"]
    lead(g, 0, "trade")
    g.act(0, {"type": "import", "resource": "metal", "cell": C(2, 0)})
    for s in (1, 2, 3):
        g.act(s, {"type": "take_money"})
    assert g.outcome()["details"][2]["by_source"]["achievements"] == 3


def _ach_v(version):
    g = game(4, options={"achievements": True}, version=version)
    g.state["achievements"] = {"immediate": "bridge_builder", "mid": "treasury", "end": "landlord"}
    return g


def _pass(g, seat, card="trade"):
    turn(g, seat)
    g.act(seat, {"type": "play_card", "card": card, "face_up": False})
    return g.act(seat, {"type": "take_money"})


def test_the_immediate_achievement_is_scored_once_by_every_player_meeting_it_at_that_moment():
    """p. 19: "Cada carta tiene una condición y un valor numérico, el cual se puntuará cada jugador
    que complete la condición en un momento concreto: El logro 'inmediato' se puntúa al final del
    turno de un jugador ... en el que cualquiera de los jugadores completa la condición." (v7)"""
    g = _ach_v(7)
    for s in (1, 3):
        g.state["players"][s]["bridges"] = 2
    ev = _pass(g, 0)
    sc = [e for e in ev if e["type"] == "achievement_scored"]
    assert sc == [{"type": "achievement_scored", "achievement": "bridge_builder", "scorers": [1, 3], "value": 2}]
    g.state["players"][2]["bridges"] = 3  # met later: the moment has passed
    ev = _pass(g, 1)
    ev += _pass(g, 2)
    assert "achievement_scored" not in types(ev)
    assert [p["score"]["achievements"] for p in g.state["players"]] == [0, 2, 0, 2]


def test_before_v7_a_player_meeting_the_immediate_achievement_later_still_scored_it():
    g = _ach_v(6)
    g.state["players"][1]["bridges"] = 2
    _pass(g, 0)
    g.state["players"][2]["bridges"] = 2
    ev = _pass(g, 1)
    assert [e["scorers"] for e in ev if e["type"] == "achievement_scored"] == [[2]]


# --- no workers ---------------------------------------------------------------------------------
def test_no_workers_variant_has_no_worker_action_and_houses_cost_2():
    """A house's price is $2 instead of $4 (p. 19); the Build main action's $1 off applies to it as
    to any build (p. 13), so the leader pays $1 and a follower $2 (an outside audit: the leader paid
    $2 too, and an adviser's discount did nothing on houses)."""
    from tablero.engines.founders_of_gloomhaven.build import _build_cost

    g = game(4, options={"no_workers": True})
    tile(g, "stall", "metal", 0, [C(0, 0)])
    roads(g, C(1, 0))
    lead(g, 0, "build")
    assert _build_cost(g.state, "house") == 1
    for role, card, discount, cost in (("follow", "build", 0, 2), ("lead", "mason", 1, 0)):
        state = {**g.state, "cur": {**g.state["cur"], "role": role, "card": card, "discount": discount}}
        assert _build_cost(state, "house") == cost, (role, card)
    assert g.act(0, {"type": "build", "kind": "house", "cell": C(2, 0)})[0]["cost"] == 1
    assert g.state["players"][0]["workers"] == 0
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    assert "place_worker" not in types(g.legal_actions(0))
    with pytest.raises(IllegalAction, match="no-workers"):
        g.act(0, {"type": "place_worker", "target": "race"})


# --- Shaping history ----------------------------------------------------------------------------
def test_shaping_history_in_games_of_versions_1_to_7_the_winner_records_a_building_and_a_governing_body():
    """The v1-v7 reading (kept for their logs): a `history` phase after the end, where the winner
    names a building and a governing body in the game."""
    g = game(4, options={"shaping_history": True})
    g.state["completions"] = 5
    prestige(g, "watchtower", [C(3, 0), C(4, 0)], delivered=[None, 3])
    g.state["players"][0]["resources"] = ["metal"]
    g.state["players"][0]["score"]["advisers"] = 30
    lead(g, 0, "trade")
    g.act(0, {"type": "import", "resource": "metal", "cell": C(2, 0)})
    for s in (1, 2, 3):
        g.act(s, {"type": "take_money"})
    assert g.outcome() is None and g.to_act() == {0}
    with pytest.raises(IllegalAction, match="prestige building on the board"):
        g.act(0, {"type": "record_history", "building": "salt_barrel", "governing_body": "x"})
    for blank in ("", "   "):  # no name is malformed, however it is written
        with pytest.raises(InvalidAction):
            g.act(0, {"type": "record_history", "building": "watchtower", "governing_body": blank})
    g.act(0, {"type": "record_history", "building": "watchtower", "governing_body": "The Merchant Council"})
    out = g.outcome()
    assert out["winners"] == [0]
    assert out["history"] == {"seat": 0, "building": "watchtower", "section": "Westshore", "section_id": "left",
                              "governing_body": "The Merchant Council"}


# v8: the game ends with the winner's race event card named; its blanks are filled in on the card
W8 = 21  # the v5 edition's thematic map (versions 5 and later)
GOLDEN = golden.GOLDEN_DIR / "founders-of-gloomhaven"


def C8(x: int, y: int) -> int:
    return y * W8 + x


@pytest.mark.parametrize(("seats", "options", "refusal"), [
    (4, {"map": "symmetric"}, "thematic side"),
    (1, {}, "several players"),
    (1, {"solo_section": "middle"}, "several players"),
])
def test_shaping_history_is_refused_off_the_thematic_side_and_in_the_solo_game(seats, options, refusal):
    with pytest.raises(InvalidOptions, match=refusal):
        engines.LocalGame("founders-of-gloomhaven", seats=seats, seed=1,
                          options={"shaping_history": True, **options})


@pytest.mark.parametrize(("seats", "options"), [
    (2, {}), (3, {"map": "thematic", "achievements": True}), (4, {"no_workers": True}),
])
def test_shaping_history_plays_with_2_to_4_players_and_the_other_variants(seats, options):
    g = engines.LocalGame("founders-of-gloomhaven", seats=seats, seed=1, options={"shaping_history": True, **options})
    assert g.state["variants"]["shaping_history"] and g.state["version"] == 11


def test_the_option_is_documented_as_off_by_default_and_naming_its_limits():
    spec = engines.get("founders-of-gloomhaven").options_schema["properties"]["shaping_history"]
    assert spec["default"] is False
    assert "thematic" in spec["description"] and "2-4 players" in spec["description"]


def _ending(options, winner_points=(30, 0, 0, 0)):
    """A v8 game about to end: seat 0 (Quatryl, metal) imports the metal the Watchtower in
    Westshore still needs; its completion is the sixth. Seat 0 then has two delivery tokens on
    the (complete) Tavern in Riverbend, one on the Watchtower; seat 1 one on the Watchtower and
    one on the Salt Barrel in Old Keep."""
    g = game(4, options=options, version=8)
    g.state["completions"] = 5
    prestige(g, "watchtower", [C8(3, 0), C8(4, 0)], delivered=[None, 1])
    tavern = prestige(g, "tavern", [C8(8, 3), C8(9, 3), C8(10, 3), C8(9, 4)], delivered=[0, 0])
    g.state["prestige"][tavern]["complete"] = True  # one of the five completions
    prestige(g, "salt_barrel", [C8(16, 3), C8(17, 3), C8(16, 4), C8(17, 4)], delivered=[1, None])
    g.state["players"][0]["resources"] = ["metal"]
    for s, pts in enumerate(winner_points):
        g.state["players"][s]["score"]["advisers"] = pts
    lead(g, 0, "trade")
    events = g.act(0, {"type": "import", "resource": "metal", "cell": C8(2, 0)})
    for s in (1, 2, 3):
        events += g.act(s, {"type": "take_money"})
    return g, events


def test_shaping_history_names_the_winners_race_event_card_and_the_buildings_and_sections_for_its_blanks():
    g, events = _ending({"shaping_history": True})
    assert types(events)[-2:] == ["game_ended", "event_card_given"]
    out = g.outcome()
    assert out is not None and out["winners"] == [0] and g.to_act() == set()
    assert out["shaping_history"] == {
        "seat": 0, "race": "quatryl", "card": "Quatryl city event", "delivered_to": True,
        "blanks": ["building", "section", "governing_body"],
        # the buildings carrying the winner's delivery tokens, most first, with their city section
        "buildings": [
            # (`section_id` beside each English section name, for the clients' catalogs)
            {"card": "tavern", "name": "Tavern", "section": "Riverbend", "section_id": "middle", "deliveries": 2,
             "complete": True},
            {"card": "watchtower", "name": "Watchtower", "section": "Westshore", "section_id": "left",
             "deliveries": 1, "complete": True},
        ]}
    assert g.view(None)["result"]["shaping_history"] == out["shaping_history"]  # every seat and spectators see it
    # the blanks are filled in on the card: no action in the game asks for them
    assert g.legal_actions(0) == []
    with pytest.raises(IllegalAction):
        g.act(0, {"type": "record_history", "building": "tavern", "governing_body": "The Merchant Council"})


def test_a_winner_with_no_delivery_token_may_choose_among_every_building_of_the_city():
    g, _ = _ending({"shaping_history": True}, winner_points=(0, 0, 0, 40))
    h = g.outcome()["shaping_history"]
    assert h["seat"] == 3 and h["card"] == "Vermling city event" and h["delivered_to"] is False
    assert [(b["card"], b["section"], b["deliveries"]) for b in h["buildings"]] == [
        ("watchtower", "Westshore", 0), ("tavern", "Riverbend", 0), ("salt_barrel", "Old Keep", 0)]


def test_without_the_option_the_same_game_ends_exactly_as_before():
    g, plain = _ending({})
    _, shaped = _ending({"shaping_history": True})
    assert "event_card_given" not in types(plain) and "shaping_history" not in g.outcome()
    assert shaped[:-1] == plain and shaped[-1]["type"] == "event_card_given"


def test_a_tie_for_the_win_is_broken_by_the_rulebook_and_only_that_winner_gets_a_card():
    """v8 golden game (random play, 4 players): seats 1 and 2 end on 34 points; the
    tie goes to the one closest to the active player in turn order (p. 16): seat 1 gets the
    Savvas card."""
    doc = json.loads((GOLDEN / "v8-4p-seed1-shaping-history.json").read_text())
    out = engines.replay(doc["events"]).outcome()
    assert out["scores"][1] == out["scores"][2] == max(out["scores"]) and out["winners"] == [1]
    assert [e["type"] for e in doc["events"]].count("event_card_given") == 1
    h = out["shaping_history"]
    assert (h["seat"], h["race"], h["card"]) == (1, "savvas", "Savvas city event")
    assert h["buildings"][0] == {"card": "tanners_hall", "name": "Tanners' Hall", "section": "Westshore",
                                 "section_id": "left", "deliveries": 2, "complete": True}


def test_games_of_version_7_with_the_option_keep_the_winners_record_in_the_game():
    doc = json.loads((GOLDEN / "v7-4p-seed1-shaping-history.json").read_text())
    g = engines.replay(doc["events"])
    assert doc["events"][-1]["type"] == "history_recorded"
    assert g.outcome()["history"]["governing_body"] == "Council of the tanners_hall"
    assert "shaping_history" not in g.outcome()


def test_version_8_without_the_option_plays_exactly_the_version_7_games():
    strip = lambda d: [{k: v for k, v in e.items() if k != "engine_version"} for e in d["events"]]  # noqa: E731
    for seats in (1, 4):
        v7, v8 = (json.loads((GOLDEN / f"v{v}-{seats}p-seed1.json").read_text()) for v in (7, 8))
        assert strip(v7) == strip(v8) and v7["decisions"] == v8["decisions"]


def test_solo_a_sixth_completion_in_the_seventh_cycle_does_not_end_the_game_before_the_cycle_ends():
    """Ours, a reading (RULES.md, Solo): seed-FoG p. 18 "La partida consistirá en 7 ciclos de juego de
    tus cartas en la mano" (shared/rules/002_24ae600459e7675b.txt L118) and the solo "Fin de juego"
    (L130) stand for p. 16's end (L102): the sixth completion in the 7th cycle does not end the
    solo game; the rest of the hand is played, then the game is scored and won."""
    g = _solo(hand=("trade", "build", "vote"))
    done = [[C(6, 6), C(7, 6)], [C(6, 9), C(7, 9)], [C(10, 12), C(11, 12)], [C(12, 2), C(13, 2)], [C(0, 13), C(1, 13)]]
    for cells in done:
        i = prestige(g, "watchtower", cells, delivered=[0, 0])
        g.state["prestige"][i]["complete"] = True
    g.state["completions"] = 5
    prestige(g, "watchtower", [C(3, 0), C(4, 0)], delivered=[0, None])  # metal + wood: wood missing
    tile(g, "stall", "wood", 0, [C(0, 0)])
    roads(g, C(1, 0))
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    ev = g.act(0, {"type": "road", "cell": C(2, 0)})
    assert "completed" in types(ev) and g.state["completions"] == 6
    assert g.outcome() is None and g.state["players"][0]["hand"] == ["build", "vote"]
    g.act(0, {"type": "play_card", "card": "build", "face_up": False})
    g.act(0, {"type": "take_money"})
    out = g.outcome()
    assert out["reason"] == "solo_complete" and out["winners"] == [0]
