"""seed-FoG p. 18 (L122-L124, L128): in the solo game the claim tokens and the middle and right
proposals are paid in influence, "teniendo en cuenta que dos de influencia temporal equivalen a
uno de influencia permanente". A player pays the cost, not more: with 2 fleeting and a lasting
token a cost of 3 is paid with 1 fleeting + 1 lasting, and the fleeting token left can still go
toward the proposal chosen next (v11). Games of versions 1-10 keep paying fleeting first (a cost
of 3 took both fleeting tokens and a lasting one)."""

from tablero import engines

from .helpers import game, prestige, turn, types


def _solo_vote(version: int, fleeting: int, lasting: int, completions: int = 1, claims: int = 1):
    """A solo game about to call its vote at the end of cycle 2, with `claims` incomplete buildings
    holding a neutral claim token; the player holds the given influence (no house: income brings
    no influence)."""
    g = game(1, version=version)
    st = g.state
    st["cycle"] = 2
    st["completions"] = completions
    pl = st["players"][0]
    pl["hand"] = ["trade", "vote"]
    pl["played"] = [{"card": c, "face_up": True} for c in ("recruit", "upgrade", "build")]
    pl["fleeting"], pl["lasting"] = fleeting, lasting
    for k in range(claims):
        i = prestige(g, "watchtower", [3 * k, 3 * k + 1])
        st["prestige"][i]["claim"] = True
    turn(g, 0)
    g.act(0, {"type": "play_card", "card": "trade", "face_up": False})
    return g, g.act(0, {"type": "take_money"})


def test_the_engine_is_version_11_and_keeps_every_earlier_version():
    eng = engines.get("founders-of-gloomhaven")
    assert eng.version == 11 and set(eng.supported_versions) == set(range(1, 11))


def test_v11_a_claim_token_is_paid_exactly_and_the_fleeting_left_pays_the_middle_proposal():
    # one completion: the middle card costs 3 fleeting; one claim token left, costing the middle card
    g, ev = _solo_vote(11, fleeting=2, lasting=2)
    paid = next(e for e in ev if e["type"] == "claims_paid")
    assert paid["pay"] == {"fleeting": 1, "lasting": 1}  # 1 + 2 = 3: the cost, not 4
    pl = g.state["players"][0]
    assert (pl["fleeting"], pl["lasting"]) == (1, 1)
    # 1 fleeting + 1 lasting = 3 = the middle card's cost: the middle proposal may be chosen
    assert {a["proposal"] for a in g.legal_actions(0)} == {0, 1}
    g.act(0, {"type": "choose_proposal", "proposal": 1})
    assert (pl := g.state["players"][0])["fleeting"] == 0 and pl["lasting"] == 0


def test_v11_an_odd_cost_beyond_the_fleeting_tokens_spends_the_fewest_lasting_and_no_more():
    # two claims, one completion: middle (3) + right (2 + 1 lasting = 6 fleeting) = 9
    g, ev = _solo_vote(11, fleeting=2, lasting=4, claims=2)
    assert next(e for e in ev if e["type"] == "claims_paid")["pay"] == {"fleeting": 1, "lasting": 4}
    # fewer fleeting than the cost's odd part: a lasting token is split in nobody's favour
    g, ev = _solo_vote(11, fleeting=0, lasting=2)
    assert next(e for e in ev if e["type"] == "claims_paid")["pay"] == {"fleeting": 0, "lasting": 2}
    # enough fleeting: fleeting only, as before
    g, ev = _solo_vote(11, fleeting=5, lasting=2)
    assert next(e for e in ev if e["type"] == "claims_paid")["pay"] == {"fleeting": 3, "lasting": 0}


def test_v11_the_proposal_itself_is_paid_exactly_too():
    g, ev = _solo_vote(11, fleeting=3, lasting=2, completions=1, claims=0)
    assert "claims_paid" not in types(ev)
    ev = g.act(0, {"type": "choose_proposal", "proposal": 2})  # the right card: 3 lasting = 6 fleeting
    assert next(e for e in ev if e["type"] == "proposal_chosen")["pay"] == {"fleeting": 2, "lasting": 2}


def test_v10_games_keep_paying_fleeting_first():
    g, ev = _solo_vote(10, fleeting=2, lasting=2)
    assert next(e for e in ev if e["type"] == "claims_paid")["pay"] == {"fleeting": 2, "lasting": 1}
    assert {a["proposal"] for a in g.legal_actions(0)} == {0}  # 1 lasting = 2 < 3 left for the middle
