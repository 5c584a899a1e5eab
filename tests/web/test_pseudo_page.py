"""The whole page from the catalogs: with ?pseudo every catalog message is wrapped in ⟦…⟧, and a
walk over the lobby (anonymous and signed in) and over a table of each game mid-game collects
every text a person can meet (text nodes, closed <details> opened, <option>s, aria-label, title,
placeholder, alt and button values) and fails on any that is not made of wrapped messages.

Excepted, narrowly: numbers and punctuation between messages, the game's id, the signed-in
user's name (player-chosen) and the game links the page shows (addresses, not words)."""

from __future__ import annotations

import json
import re

import pytest

from .conftest import Serve
from .test_browser import create_in_lobby, wait_ready
from .test_portal import KEY, portal_token

pytestmark = pytest.mark.slow

ENGINES = ["tic-tac-toe", "goofspiel", "new-bedford", "riverboat", "phoenicia", "founders-of-gloomhaven"]

# Every text a person can meet on the page, with where it is (for the failure message).
COLLECT = r"""() => {
  for (const d of document.querySelectorAll('details')) d.open = true;
  const out = [];
  const where = (el) => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 4; e = e.parentElement)
      parts.unshift(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.classList.length ? '.' + [...e.classList].join('.') : ''));
    return parts.join(' > ');
  };
  const skipped = (el) => !el || el.closest('script, style, noscript, template, [hidden], [aria-hidden="true"]');
  const shown = (el) => el.tagName === 'OPTION' || el.checkVisibility({ visibilityProperty: true })
    || getComputedStyle(el).position === 'absolute' && el.closest('.visually-hidden, .skip');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || skipped(el) || !shown(el)) continue;
    out.push([where(el), n.textContent]);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt], input[type=button], input[type=submit]')) {
    if (skipped(el)) continue;
    for (const a of ['aria-label', 'title', 'placeholder', 'alt']) if (el.hasAttribute(a) && el.getAttribute(a).trim()) out.push([where(el) + '@' + a, el.getAttribute(a)]);
    if (el.tagName === 'INPUT' && (el.type === 'button' || el.type === 'submit')) out.push([where(el) + '@value', el.value]);
  }
  out.push(['title', document.title]);
  return out;
}"""


def _unwrapped(text: str, allowed: list[str]) -> str:
    """What is left of a text once its wrapped messages, its allowed words and its numbers and
    punctuation are taken out: '' when the text came from the catalogs."""
    rest = text
    while True:
        inner = re.sub(r"⟦[^⟦⟧]*⟧", " ", rest)
        if inner == rest:
            break
        rest = inner
    for word in allowed:
        rest = rest.replace(word, " ")
    rest = re.sub(r"https?://\S+", " ", rest)
    # Numbers (with their signs and units of time), punctuation and symbols are no words.
    return re.sub(r"[\d\s\W_]+", " ", rest).strip()


def _foreign(page, allowed: list[str]) -> list[str]:
    found = []
    for where, text in page.evaluate(COLLECT):
        left = _unwrapped(text, allowed)
        if left:
            found.append(f"{where}: {text!r}")
    return sorted(set(found))


def _pseudo(new_page):
    page = new_page(1280, 900)
    page.add_init_script("localStorage.setItem('tablero.pseudo', '1');"
                         "Object.defineProperty(navigator, 'languages', {get: () => ['en']});")
    return page


def test_the_walk_finds_text_that_is_not_a_message():
    """The check itself: an English word between messages is found; numbers are not."""
    assert _unwrapped("⟦Your turn, ⟦Red (you)⟧.⟧", []) == ""
    assert _unwrapped("⟦move⟧ 12 · ⟦3 ⟦food⟧⟧ — $4", []) == ""
    assert _unwrapped("⟦Red⟧: Captain ⟦Ahab⟧", []) == "Captain"
    assert _unwrapped("abc123 · ⟦x⟧", ["abc123"]) == ""


def test_the_lobby_has_no_text_outside_the_catalogs(server, new_page):
    page = _pseudo(new_page)
    page.goto(server.url + "/#/")
    page.wait_for_selector("form.create")
    page.wait_for_function("!!document.querySelector('#open-games, #no-open-games, #no-lobby')")
    bad = []
    for engine in ENGINES:  # each game's form (its seats, options and, for New Bedford, Captains)
        page.click(f"label[for=eng-{engine}]")
        page.wait_for_timeout(100)
        bad += _foreign(page, [])
    # A link that is not a game's: the field's own error text.
    page.fill("#join-link", "https://example.org/nothing")
    page.click("#join-link ~ button[type=submit]")
    page.wait_for_timeout(100)
    bad += _foreign(page, [])
    bad = sorted(set(bad))
    assert not bad, f"{len(bad)} texts not from a catalog:\n" + "\n".join(bad)


@pytest.fixture(scope="module")
def portal():
    s = Serve(log="server-pseudo-portal.log", env={"TABLERO_PORTAL_KEYS": json.dumps({"k1": KEY})})
    yield s
    s.stop()


def test_the_signed_in_lobby_has_no_text_outside_the_catalogs(portal, new_page):
    page = _pseudo(new_page)
    page.goto(f"{portal.url}/#token={portal_token('ann', 'Ann Q')}")
    page.wait_for_selector("#who-name")
    page.wait_for_selector("#quick-match")
    page.wait_for_selector("#my-ratings")
    page.wait_for_timeout(500)
    bad = _foreign(page, ["Ann Q"])
    assert not bad, f"{len(bad)} texts not from a catalog:\n" + "\n".join(bad)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_table_mid_game_has_no_text_outside_the_catalogs(server, new_page, engine):
    page = _pseudo(new_page)
    seats = ["human"] if engine == "founders-of-gloomhaven" else ["human", "bot"]
    game_id = create_in_lobby(page, server.url, engine, seats)
    moves = ".composer button.act:not([disabled]), .composer button.choice:not([disabled])"
    for _ in range(6):  # a few moves in (a step of a move counts): the board has something on it
        if wait_ready(page) != "move" or not page.locator(moves).count():
            break
        page.locator(moves).first.click()
        page.wait_for_timeout(400)
    wait_ready(page)
    page.wait_for_timeout(300)
    bad = _foreign(page, [game_id])
    assert not bad, f"{len(bad)} texts not from a catalog:\n" + "\n".join(bad)


def test_a_solo_new_bedford_table_with_a_captain_has_no_text_outside_the_catalogs(server, new_page):
    """The Captain's box (personality, Helm, heading, Orders, restrictions) and the log of its
    turns (headings, placements, a skipped worker) come from the catalogs too."""
    page = _pseudo(new_page)
    game_id = create_in_lobby(page, server.url, "new-bedford", ["human"], captains=["starbuck"])
    moves = ".composer button.act:not([disabled]), .composer button.choice:not([disabled])"
    for _ in range(8):  # past the starting goods: the Captain has taken turns
        if wait_ready(page) != "move" or not page.locator(moves).count():
            break
        page.locator(moves).first.click()
        page.wait_for_timeout(400)
    wait_ready(page)
    page.wait_for_selector(".captain .orders li")
    page.wait_for_timeout(300)
    bad = _foreign(page, [game_id])
    assert not bad, f"{len(bad)} texts not from a catalog:\n" + "\n".join(bad)


def test_the_sign_in_errors_and_the_notify_control_come_from_the_catalogs(portal, new_page):
    """The page's own refusals of a pasted portal token (not a JWT, no user) and the "Notify me"
    control's texts (its button, and its status when this server sends no notifications)."""
    page = _pseudo(new_page)
    page.goto(f"{portal.url}/#/")
    page.wait_for_selector("details.portal summary")
    page.click("details.portal summary")
    page.wait_for_selector("#portal-token")
    for token in ("hello", "eyJhbGciOiJIUzI1NiJ9.eyJuYW1lIjoiTm8gU3ViIn0.c2ln"):  # not a JWT; a JWT with no `sub`
        page.fill("#portal-token", token)
        page.press("#portal-token", "Enter")
        page.wait_for_selector("#banner .error")
        banner = page.inner_text("#banner")
        # "⟦Could not sign in: {why}⟧": the reason inside is a message too (the walk does not look
        # inside a wrapped message)
        assert not _unwrapped(banner, []) and ": ⟦" in banner, banner
        page.evaluate("document.querySelector('#banner').textContent = ''")
    texts = page.evaluate("""async () => {
        const { notifyControl } = await import('/js/notify.js');
        const box = notifyControl('g1', [{ token: 't' }]);
        if (!box) return null;
        const button = box.querySelector('button');
        const before = button.textContent;
        button.click();  // this server sends no notifications: the control says so
        await new Promise((r) => setTimeout(r, 1000));
        return [before, box.querySelector('.push-status').textContent];
    }""")
    assert texts is not None, "Chromium offers no Web Push here"
    assert "push" not in texts[1] and texts[1].strip(), texts
    for text in texts:
        assert not _unwrapped(text, []), texts
