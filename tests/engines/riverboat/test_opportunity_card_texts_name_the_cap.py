"""seed-R phase 5: "Si coloca un Agrimensor con una tarjeta de Oportunidad, califique la tarjeta
según los requisitos que se muestran en ella." A card scores what its text says, so the text a
player reads (the view's card texts and both catalogs' `effect.<card>`) names the cap every card
scores at (our edition: 12 VP). Outside rules audit: the texts said "2 VP per riverboat you own"
and a surveyed card scored 12 for 8 riverboats."""

import json
from pathlib import Path

from tablero.engines.riverboat import ENGINE
from tablero.engines.riverboat.data import BOATS, OPPORTUNITY, OPPORTUNITY_CARDS

from .helpers import act, at_phase, make_turn

MESSAGES = Path(__file__).resolve().parents[3] / "engines" / "riverboat" / "messages"


def test_every_card_text_in_the_view_and_both_catalogs_names_its_cap():
    g = at_phase("scoring")
    view = ENGINE.view(g.state, 0)
    en = json.loads((MESSAGES / "en.json").read_text(encoding="utf-8"))
    es = json.loads((MESSAGES / "es.json").read_text(encoding="utf-8"))
    for card in OPPORTUNITY_CARDS:
        cap = card["cap"]
        assert f"at most {cap} VP" in view["opportunity_card_texts"][card["id"]], card["id"]
        assert f"at most {cap} VP" in en[f"effect.{card['id']}"], card["id"]
        assert f"máximo {cap} PV" in es[f"effect.{card['id']}"], card["id"]
    for space in view["opportunity_spaces"]:
        if space["card"]:
            assert space["text"] == view["opportunity_card_texts"][space["card"]]


def test_eight_riverboats_score_the_cap_the_boats_card_shows():
    s = make_turn(at_phase("scoring").state, "scoring", 0)
    p = s["players"][0]
    p["surveyors"] = 1
    p["boats"] = [b["id"] for b in BOATS][:8]
    p["opps"] = [{"id": "boats", "scored": False}]
    _, ev = act(s, 0, {"type": "survey_card", "card": "boats"})
    surveyed = next(e for e in ev if e["type"] == "surveyed")
    assert OPPORTUNITY["boats"]["per"] * 8 == 16
    assert surveyed["vp"] == 12
    assert "(at most 12 VP)" in OPPORTUNITY["boats"]["text"]
