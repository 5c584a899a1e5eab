"""Founders of Gloomhaven in the browser: its own renderer (city map, offer, players), played by clicking."""

from __future__ import annotations

import random

from .conftest import ARTIFACTS
from .test_browser import play_by_clicking, version


def test_founders_renders_its_map_and_plays_against_a_bot_by_clicking(server, new_page):
    page = new_page(1280, 900)
    page.goto(server.url + "/#/")
    page.click("label[for=eng-founders-of-gloomhaven]")
    # An unticked Races list is left out (the engine's default), not sent as [].
    page.select_option("#players", "2")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "bot")
    page.click("form.create button[type=submit]")
    page.wait_for_selector(".board .fg .fg-map .fg-sq")
    width, height = page.evaluate("[getComputedStyle(document.querySelector('.fg-map')).gridTemplateColumns.split(' ').length,"
                                  " document.querySelectorAll('.fg-map .fg-sq').length]")
    assert width > 1 and height % width == 0
    assert page.locator(".fg-council >> text=Adviser offer").count() == 1
    assert page.locator(".fg .player").count() == 2
    start = version(page)
    moves, _steps, state = play_by_clicking(page, random.Random(7), max_moves=8)
    assert moves == 8 or state == "over"
    assert version(page) >= start + moves
    # Only the viewer's own hand is shown.
    assert page.locator(".fg .player.me .fg-hand").count() <= 1
    assert page.locator(".fg .player:not(.me) .fg-hand").count() == 0
    page.screenshot(path=str(ARTIFACTS / "founders-of-gloomhaven.png"), full_page=True)
    # The log is in words: every entry so far has its own sentence, not the generic field dump
    # ("Red: stall imported — resource metal; cell 226; ...").
    entries = page.locator("ol.log li").all_inner_texts()
    assert entries, "the log is empty"
    dumps = [e for e in entries if " — " in e]
    assert not dumps, dumps
