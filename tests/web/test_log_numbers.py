"""The game log's move numbers are whole on the page: a two-player Founders game runs past move
1000, and the log's "1153." showed as "153." with a sliver of its "1" (the list's left padding
held three digits). Measured on a real log of the page, at desktop and phone sizes."""

from __future__ import annotations

import random

import pytest

from .api_play import ApiGame

NEEDED = """(n) => {
    const ol = document.querySelector('.log');
    const li = ol.querySelector('li');
    li.value = n;  // the number a long game's line carries
    const probe = document.createElement('span');
    probe.style.whiteSpace = 'pre';
    probe.textContent = `${n}. `;
    li.appendChild(probe);
    const needed = probe.getBoundingClientRect().width;
    probe.remove();
    return [needed, parseFloat(getComputedStyle(ol).paddingLeft)];
}"""


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844)])
def test_four_and_five_digit_move_numbers_fit_beside_the_log(server, new_page, width, height):
    game = ApiGame(server.url, "founders-of-gloomhaven", ["human", "bot"])
    game.play(random.Random(2), lambda g: len(g.events()) > 3)
    page = new_page(width, height)
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".log li")
    for n in (1153, 12345):
        needed, room = page.evaluate(NEEDED, n)
        assert needed <= room, f"'{n}.' needs {needed:.1f}px; the log leaves {room:.1f}px"
