"""The final scores panel (js/scores.js) in Chromium: a tie on points shows the tie-break line
that decided it up front, not folded into the full breakdown (an outside tester's New Bedford
game: 'Total 9 / 9', 'Whale tokens 1 / 1' shown, 'Unscored money 3 / 1' folded)."""

from __future__ import annotations

JS = """async ([outcome, players]) => {
    const { result } = await import('/js/scores.js');
    const el = result({ outcome, players }, { seatNames: null }, null);
    const shown = [...el.querySelectorAll(':scope > .scroll tr th[scope=row]')].map((th) => th.textContent);
    const folded = [...el.querySelectorAll('details.more tr th[scope=row]')].map((th) => th.textContent);
    return { shown, folded, winner: el.querySelector('.winner').textContent };
}"""

DETAIL = {f"part_{i}": 1 for i in range(12)}  # a dozen lines ahead of the tie-break


def _outcome(money: list[int], scores: list[int]) -> dict:
    return {"scores": scores, "winners": [0],
            "details": [{"seat": s, **DETAIL, "tiebreak": {"whale_tokens": 1, "unscored_money": money[s]}}
                        for s in range(2)]}


def test_a_tie_on_points_shows_the_tie_break_that_decided_it(server, new_page):
    page = new_page()
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    tie = page.evaluate(JS, [_outcome([3, 1], [9, 9]), 2])
    assert "Tiebreak › Unscored money" in tie["shown"], tie
    assert "Tiebreak › Whale tokens" not in tie["shown"]  # level for both: it decided nothing
    assert tie["winner"].endswith("wins!")
    plain = page.evaluate(JS, [_outcome([3, 1], [10, 9]), 2])  # no tie: the tie-break stays folded
    assert "Tiebreak › Unscored money" not in plain["shown"] and "Tiebreak › Unscored money" in plain["folded"]


NOTES = """async (outcome) => {
    const mod = await import('/js/render/founders.js');
    return mod.default.outcomeNotes({ outcome, view: {} }, { seatNames: null, view: {} });
}"""


def test_a_founders_game_that_ended_stalled_says_why_in_the_final_scores(server, new_page):
    """An outside tester: a Founders game ended "stalled" (the safety end, RULES.md) and the final
    scores did not say why; the log did."""
    page = new_page()
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    notes = page.evaluate(NOTES, {"reason": "stalled", "scores": [3, 4], "winners": [1]})
    assert len(notes) == 1 and notes[0].startswith("The game ended stalled: ") and "sixth" in notes[0], notes
    assert page.evaluate(NOTES, {"reason": "completions", "scores": [3, 4], "winners": [1]}) == []


def test_row_labels_are_the_catalogs_labels_not_the_lower_case_names_of_sentences(server, new_page):
    """An outside pass's Founders game ended with "By source › money", "By source › influence" and
    "race" among "By source › Prerequisites" ("Por origen › dinero", "raza" in Spanish): the final
    table took the names meant for sentences before the catalog's own row labels (label.details)."""
    import random

    from .api_play import ApiGame

    game = ApiGame(server.url, "founders-of-gloomhaven", ["human"])
    game.play(random.Random(2), lambda g: False)
    for lang, want, never in (("en", ["By source › Money", "By source › Influence", "Race"], ["By source › money", "race"]),
                              ("es", ["Por origen › Dinero", "Por origen › Influencia", "Raza"], ["Por origen › dinero", "raza"])):
        page = new_page()
        page.context.add_init_script(f"Object.defineProperty(navigator, 'languages', {{get: () => ['{lang}']}});")
        game.hold(page, [0])
        page.goto(f"{server.url}/#/g/{game.id}")
        page.wait_for_selector(".result:not([hidden]) .scores")
        rows = page.locator(".result table.scores tbody th").all_inner_texts()
        assert all(r in rows for r in want) and not any(r in rows for r in never), (lang, rows)


def test_lists_of_records_are_worded_in_the_players_language(server, new_page):
    """An outside pass: a Riverboat game's harbor boats in the Spanish final scores read "boat 3b,
    capacity 3, slot space 1, reached yes" (a record's keys put in English words); they are worded
    from the engine's catalog like the rows ("barcos fluviales: 3b (capacidad 3, espacio 1,
    alcanzado)"), as the terminal's end screen words them."""
    import random

    from .api_play import ApiGame

    game = ApiGame(server.url, "riverboat", ["human", "human"])
    game.play(random.Random(3), lambda g: False)
    for lang, want, never in (("es", ["barcos fluviales: ", "(capacidad "], ["boat ", "capacity", "reached", "slot space"]),
                              ("en", ["riverboats: ", "(capacity "], ["barco", "capacidad"])):
        page = new_page()
        page.context.add_init_script(f"Object.defineProperty(navigator, 'languages', {{get: () => ['{lang}']}});")
        game.hold(page, [0, 1])
        page.goto(f"{server.url}/#/g/{game.id}")
        page.wait_for_selector(".result:not([hidden]) .scores")
        # the lists are in the folded full breakdown: read the cells' text, shown or not
        text = " ".join(page.eval_on_selector_all(".result td", "cells => cells.map((c) => c.textContent)"))
        assert all(w in text for w in want) and not any(w in text for w in never), (lang, text[:600])


BOX = """() => {
    const box = document.querySelector('.result .scores').closest('.scroll');
    const r = box.getBoundingClientRect();
    const inside = (el) => { const b = el.getBoundingClientRect(); return b.left >= r.left - 1 && b.right <= r.right + 1; };
    const heads = [...box.querySelectorAll('thead th')].slice(1);
    const labels = [...box.querySelectorAll('tbody th[scope=row]')];
    return { fits: box.scrollWidth <= box.clientWidth, page: document.documentElement.scrollWidth <= innerWidth,
             seats: heads.filter(inside).length, of: heads.length, labels: labels.filter(inside).length, rows: labels.length };
}"""


def test_the_final_scores_are_readable_on_a_phone(server, new_page):
    """A player's pass on a phone (390x844): the final scores of a four-seat game were cut at the
    right edge, the fourth seat's column hidden behind a scroll with no sign of it, and scrolled to it,
    the lines' names were gone. A four-seat table fits the screen; a wider one (five seats) scrolls
    inside its box with the lines' names kept at its left edge."""
    import random

    from .api_play import ApiGame

    for engine, seats in (("founders-of-gloomhaven", 4), ("new-bedford", 4), ("phoenicia", 5)):
        game = ApiGame(server.url, engine, ["human"] + ["bot"] * (seats - 1))
        game.play(random.Random(1), lambda g: False, max_moves=3000)
        page = new_page(390, 844)
        game.hold(page, [0])
        page.goto(f"{server.url}/#/g/{game.id}")
        page.wait_for_selector(".result:not([hidden]) .scores")
        seen = page.evaluate(BOX)
        assert seen["page"], (engine, seen)  # the page itself never scrolls sideways
        if seats == 4:
            assert seen["fits"] and seen["seats"] == seen["of"] == 4, (engine, seen)
        else:
            page.evaluate("() => { const b = document.querySelector('.result .scores').closest('.scroll'); b.scrollLeft = b.scrollWidth; }")
            seen = page.evaluate(BOX)
            assert seen["labels"] == seen["rows"] > 0, (engine, seen)  # every line still named
            assert page.evaluate(BOX)["seats"] >= 2, (engine, seen)


def test_a_line_that_repeats_every_score_is_not_shown_twice(server, new_page):
    """Founders' final table showed "Score" and "Points" with the same numbers (its outcome's
    details carry each seat's total as `points`); the terminal leaves it out alike."""
    page = new_page()
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    outcome = {"scores": [12, 7], "winners": [0],
               "details": [{"seat": s, "points": p, "by_source": {"money": s + 1}} for s, p in ((0, 12), (1, 7))]}
    got = page.evaluate(JS, [outcome, 2])
    assert not any("Points" in r for r in got["shown"] + got["folded"]), got
    assert any("Money" in r for r in got["shown"]), got
    outcome["details"][1]["points"] = 6  # not the score: a line of its own
    assert any("Points" in r for r in page.evaluate(JS, [outcome, 2])["shown"])


PHOENICIA = """async ([outcome, lang]) => {
    const i18n = await import('/js/i18n.js');
    i18n.setLanguage(lang);
    await i18n.loadCatalog('phoenicia');
    const { result } = await import('/js/scores.js');
    const el = result({ engine: 'phoenicia', outcome, players: 2 }, { engine: 'phoenicia', seatNames: null }, null);
    return [...el.querySelectorAll('tr th[scope=row]')].map((th) => th.textContent);
}"""


def test_phoenicias_city_center_vp_are_one_line(server, new_page):
    """Outside pass B: Phoenicia's final table listed "PV comprados 3" and "PV del centro de la
    ciudad 3", the same VP twice (the outcome's `bought_vp` and its alias `vp_city_center`): the
    lines under "Puntos 16" added up to 19. The catalog's `label.details_same_as` names the alias."""
    page = new_page()
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    outcome = {"scores": [16, 42], "winners": [1], "details": [
        {"seat": s, "vp": vp, "cards_vp": c, "workers_vp": w, "bought_vp": b, "money": 1, "vp_city_center": b}
        for s, vp, c, w, b in ((0, 16, 6, 7, 3), (1, 42, 32, 10, 0))]}
    for lang, bought, alias in (("es", "PV comprados", "PV del centro de la ciudad"), ("en", "Bought VP", "VP city center")):
        rows = page.evaluate(PHOENICIA, [outcome, lang])
        assert bought in rows and alias not in rows, (lang, rows)
