"""The page's header on a phone (390×844): in English "Sign in" broke over two lines ("Sign" /
"in") and the header took two rows. It now holds on one row in both languages, each of its words
unbroken, nothing wider than the screen; the language select keeps its label for screen readers."""

from __future__ import annotations

import pytest

HEADER = """() => {
  const lines = (el) => { const r = document.createRange(); r.selectNodeContents(el);
                          return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; };
  const boxes = [...document.querySelectorAll('header.top > *')].filter((el) => el.getClientRects().length)
    .map((el) => el.getBoundingClientRect());
  return { signIn: lines(document.getElementById('sign-in-link')), lobby: lines(document.querySelector('header.top nav a')),
           oneRow: Math.max(...boxes.map((b) => b.top)) < Math.min(...boxes.map((b) => b.bottom)),
           wide: document.documentElement.scrollWidth };
}"""
WORDS = {"en": ("Sign in", "Language"), "es": ("Entrar", "Idioma")}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_phone_header_holds_on_one_line(server, new_page, lang):
    page = new_page(390, 844, lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    sign_in, language = WORDS[lang]
    assert page.inner_text("#sign-in-link") == sign_in
    got = page.evaluate(HEADER)
    assert got == {"signIn": 1, "lobby": 1, "oneRow": True, "wide": 390}, got
    assert page.get_by_label(language, exact=True).evaluate("el => el.id") == "lang"
