"""Four seats' final scores on a phone (390×844), Spanish and English: the seat columns broke names
mid-word ("Light/hous/e", "Schoolh/ouse" in New Bedford's buildings; Founders' race "Harro/wer").
Now no word shown is split over two lines — in the table, in the lists under it, or in the full
breakdown opened — nothing scrolls sideways, and every list's names are there in full, under the
table (the cells count them)."""

from __future__ import annotations

import random

import pytest

from .api_play import ApiGame

BROKEN = """() => {
  const split = [];
  const shown = '.result table.scores th, .result table.scores td, .result .score-lists dt, .result .score-lists li';
  for (const el of document.querySelectorAll(shown)) {
    if (!el.checkVisibility()) continue;
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (!n.parentElement.checkVisibility()) continue;
      for (const m of n.data.matchAll(/\\S+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        if (new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top))).size > 1) split.push(m[0]);
      }
    }
  }
  const boxes = [...document.querySelectorAll('.result .scroll')].filter((b) => b.checkVisibility());
  return { split, sideways: boxes.filter((b) => b.scrollWidth > b.clientWidth).length,
           page: document.documentElement.scrollWidth };
}"""


@pytest.fixture(scope="module")
def four_seat_games(server):
    games = []
    for engine in ("new-bedford", "founders-of-gloomhaven"):
        game = ApiGame(server.url, engine, ["human", "bot", "bot", "bot"])
        game.play(random.Random(1), lambda g: False, max_moves=3000)
        games.append(game)
    return games


@pytest.mark.parametrize("lang", ["es", "en"])
def test_four_seats_final_scores_break_no_word_on_a_phone(server, new_page, four_seat_games, lang):
    for game in four_seat_games:
        page = new_page(390, 844, lang=lang)
        game.hold(page, [0])
        page.goto(f"{server.url}/#/g/{game.id}")
        page.wait_for_selector(".result:not([hidden]) .scores")
        if page.locator(".result details.more summary").count():
            page.click(".result details.more summary")
        seen = page.evaluate(BROKEN)
        assert seen["split"] == [] and seen["sideways"] == 0 and seen["page"] == 390, (game.engine, lang, seen["split"])
        if game.engine == "new-bedford":  # each seat's buildings, by their names in full
            details = game.get()["outcome"]["details"]
            owned = [b for d in details for b in d.get("buildings") or []]
            assert owned, details
            shown = page.locator(".result .score-lists").first.inner_text().replace("\u2019", "'")
            for b in owned:
                name = page.evaluate("(b) => import('/js/i18n.js').then((i) => i.catalog('new-bedford').t(`name.${b}`))", b)
                assert name.replace("\u2019", "'") in shown, (lang, name, shown)
