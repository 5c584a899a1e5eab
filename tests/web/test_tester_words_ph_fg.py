"""An outside tester's findings in the Spanish browser, Phoenicia and Founders of Gloomhaven (the
renderers as functions in Chromium, no server: see test_render_rbfg.py): an adviser's bonus read
"+1 roads", "+1 fleeting" (raw keys) and its category "comercio" beside "Mejorar"; an empty
"Edificios por sección" heading at the start; "Cartas: ninguno", "Jugadas: ninguno" (feminine
nouns); three storage-limit discards all read "Descartar 2 cartas"."""

from __future__ import annotations

import copy

import pytest

from tablero import engines

from .test_render_rbfg import call, page  # noqa: F401  (the no-server page fixture)


@pytest.fixture
def es(page):  # noqa: F811
    page.evaluate("async () => (await import('/js/i18n.js')).setLanguage('es')")
    return page


def _founders_view(seats=2):
    view = copy.deepcopy(engines.LocalGame("founders-of-gloomhaven", seats=seats, seed=1).view(0))
    assert view["offer"] == ["bridgewright", "surveyor", "merchant"]
    view["cards"]["merchant"]["bonus"] = {"fleeting": 1}  # as several printed advisers give
    return view


def test_founders_adviser_bonus_and_category_in_spanish_words(es):
    out = call(es, "founders", """
      const el = r.render({ view: args.view, seat: 0, held: [0] });
      return [...el.querySelectorAll('.fg-adviser')].map((x) => x.textContent);""", view=_founders_view())
    text = " | ".join(out)
    assert "+2 carreteras" in text and "+1 de influencia temporal" in text, text
    assert "roads" not in text and "fleeting" not in text, text
    assert "Comercio ·" in text and "Mejorar ·" in text and "comercio" not in text, text


def test_founders_sections_heading_only_with_buildings_under_it(es):
    shown = """const el = r.render({ view: args.view, seat: 0, held: [0] });
      return [...el.querySelectorAll('h3')].map((x) => x.textContent);"""
    start = call(es, "founders", shown, view=_founders_view())
    assert "Edificios por sección" not in start, start
    solo = engines.LocalGame("founders-of-gloomhaven", seats=1, seed=1).view(0)
    assert solo["tiles"]
    assert "Edificios por sección" in call(es, "founders", shown, view=solo)


def test_founders_no_played_cards_reads_ninguna(es):
    out = call(es, "founders", """
      const el = r.render({ view: args.view, seat: 0, held: [0] });
      return [...el.querySelectorAll('.fg-played-cards')].map((x) => x.textContent);""", view=_founders_view())
    assert out and all(x == "Jugadas: ninguna" for x in out), out


def test_phoenicia_no_development_cards_reads_ninguna(es):
    view = engines.LocalGame("phoenicia", seats=2, seed=1).view(0)
    out = call(es, "phoenicia", """
      const el = r.render({ view: args.view, seat: 0, held: [0] });
      return el.textContent;""", view=view)
    assert "Cartas: ninguna" in out and "ninguno" not in out, out


@pytest.mark.parametrize("lang,want", [("es", "Descartar 2 cartas: 5 y 4"), ("en", "Discard 2 cards: 5 and 4")])
def test_phoenicia_discard_buttons_name_the_cards(page, lang, want):  # noqa: F811
    page.evaluate(f"async () => (await import('/js/i18n.js')).setLanguage('{lang}')")
    out = call(page, "phoenicia", """
      return import('/js/i18n.js').then((i18n) => args.cards.map((cards) =>
        i18n.actionLabel(i18n.catalog('phoenicia'), { type: 'discard', cards }, (s) => `seat ${s}`)));""",
               cards=[[5, 5], [5, 4], [4, 4]])
    assert len(set(out)) == 3 and want in out, out
