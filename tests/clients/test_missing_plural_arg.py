"""A plural whose argument an event leaves out reads as 0, as in the browser client (its
i18n.js: "a plural as 0"). Found watching New Bedford bots (`tablero watch`): every worker placed
on a space with no fee to pay said `…, paying  a $ fee.` (Spanish: `pagando a  $ de tarifa`): the
event has no `fee` field, and `{fee, plural, =0 {} other {…}}` took its `other` form."""

from __future__ import annotations

import pytest
from tablero_client.models import Game, SeatInfo
from tablero_client.render import describe_event, i18n
from tablero_client.render.i18n import Catalog


def test_a_missing_plural_argument_takes_the_zero_form():
    cat = Catalog({"k": "{fee, plural, =0 {free} other {# to pay}}"}, "en")
    assert cat.format("k", {}) == "free"
    assert cat.format("k", {"fee": 0}) == "free"
    assert cat.format("k", {"fee": 2}) == "2 to pay"


@pytest.mark.parametrize("lang,paying", [("en", "paying"), ("es", "pagando")])
def test_a_worker_placed_without_a_fee_says_no_fee(lang, paying):
    before = i18n.current_language()
    i18n.set_language(lang)
    try:
        game = Game(id="g1", engine="new-bedford", version=6, players=2, status="GAME_STATUS_RUNNING", to_act=[0],
                    view={}, seats=[SeatInfo(seat=i, kind="SEAT_KIND_BOT") for i in range(2)], your_seat=None)
        event = {"type": "worker_placed", "seat": 1, "space": "farm", "first": True, "gain": {"food": 3}}
        line = describe_event(event, game)
        assert paying not in line and "$" not in line, line
        with_fee = describe_event({**event, "fee": 1, "owner": 0}, game)
        assert paying in with_fee and "1" in with_fee, with_fee
    finally:
        i18n.set_language(before)
