"""Founders of Gloomhaven in the browser: a delivery's building (its place among the prestige
buildings, in the order placed) is counted from the log only when the page holds the log from the
game's start. A log that starts later (trimmed: `TABLERO_TRIM_ON_SNAPSHOT`, tests/web/test_trimmed_log.py)
counted the placements it held from 0 and named the wrong building; the view's list is used then.
(Found in the terminal, which follows the log the same way: tests/clients/test_founders_delivery_building_named.py.)"""

from __future__ import annotations

from .test_render_rbfg import _founders_delivery, call, page  # noqa: F401 - the page fixture


def test_a_delivery_seen_in_a_log_that_starts_mid_game_names_the_building_from_the_view(page):  # noqa: F811
    view, event = _founders_delivery()
    cards = [pb["card"] for pb in view["prestige"]]
    assert cards, view["prestige"]
    other = next(c for c in ("tavern", "watchtower", "armory") if c != cards[0])
    # The page's log starts after the game's start: it holds one placement only, of another building.
    log = [{"version": 50, "event": {"type": "prestige_placed", "card": other, "cells": []}},
           {"version": 51, "event": {**event, "building": 0}}]
    out = call(page, "founders", """return r.describeEvent(args.event, { view: args.view, seat: null, held: [],
                                                                         log: args.log, at: 1 });""",
               view=view, event={**event, "building": 0}, log=log)
    assert out.endswith(f"delivered to {view['prestige'][0]['name']}."), (out, view["prestige"][0])
