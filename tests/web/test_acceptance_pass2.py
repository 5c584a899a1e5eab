"""Defects a second outside acceptance pass found in the browser client (whole games clicked
through in headless Chromium): a running game's seat forgotten in one click, a hot seat's secret
shown to the next player, seats numbered from 0, Founders' wording, a server that cannot be
reached, raw identifiers in the move builder, links not understood, and lobby details."""

from __future__ import annotations

import json
import random

import httpx

from .api_play import ApiGame
from .test_browser import create_in_lobby, wait_ready


def held_item(page, game_id: str):
    return page.locator("section[aria-labelledby=mine-h] li").filter(has=page.locator(f"a[href='#/g/{game_id}']"))


def test_a_running_game_cannot_be_forgotten_a_finished_one_can(server, new_page):
    """The seat's token lives only in this browser: "Forget" on a running game would give the seat
    up for good, and the game would wait for it forever. Only finished games offer Forget."""
    running = ApiGame(server.url, "goofspiel", ["human", "human"])
    over = ApiGame(server.url, "tic-tac-toe", ["human", "human"])
    over.play(random.Random(1), lambda g: False)
    page = new_page()
    store = {g.id: {"engine": g.engine, "seats": [{"seat": 0, "token": g.tokens[0]}], "at": n} for n, g in enumerate((running, over))}
    page.add_init_script(f"localStorage.getItem('tablero.games.v1') || localStorage.setItem('tablero.games.v1', {json.dumps(json.dumps(store))})")
    page.goto(server.url + "/#/")
    done = held_item(page, over.id)
    done.get_by_role("button", name="Forget").wait_for()
    live = held_item(page, running.id)
    live.locator(".held-state").filter(has_text="in progress").wait_for()
    assert live.get_by_role("button").count() == 0, live.inner_text()
    done.get_by_role("button", name="Forget").click()
    assert done.count() == 0
    page.reload()
    held_item(page, running.id).locator(".held-state").filter(has_text="in progress").wait_for()
    assert held_item(page, over.id).count() == 0
    kept = json.loads(page.evaluate("localStorage.getItem('tablero.games.v1')"))
    assert list(kept) == [running.id] and kept[running.id]["seats"][0]["token"] == running.tokens[0]
