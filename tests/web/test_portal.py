"""Portal sign-in in the page: a portal's JWT (README, "Behind a game portal") in the page's
address or pasted; My games from ListGames(mine) by state; the same user on another device
gets the seat back through JoinGame. Keyboard only, on a phone-sized screen."""

from __future__ import annotations

import json
import time

import jwt
import pytest

from tests import plainhttp

from .conftest import ARTIFACTS, Serve

KEY = "a-portal-secret-of-at-least-32-bytes!"


def portal_token(user: str, name: str, ttl: int = 600) -> str:
    claims = {"sub": user, "name": name, "exp": int(time.time()) + ttl}
    return jwt.encode(claims, KEY, algorithm="HS256", headers={"kid": "k1"})


@pytest.fixture(scope="module")
def portal():
    s = Serve(log="server-portal.log", env={"TABLERO_PORTAL_KEYS": json.dumps({"k1": KEY})})
    yield s
    s.stop()


def tab_to(page, selector: str, limit: int = 150) -> None:
    """Press Tab until the focus is on `selector` (keyboard only: no clicks)."""
    for _ in range(limit):
        if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_signed_in_on_a_phone_by_keyboard_then_on_another_device(portal, new_page):
    ana = portal_token("ana", "Ana")
    phone = new_page(390, 844)
    phone.goto(f"{portal.url}/#token={ana}")
    phone.wait_for_selector("#who-name")
    assert phone.inner_text("#who-name") == "Ana"
    assert "token" not in phone.url and ana not in phone.evaluate("history.state === null ? location.href : ''")
    phone.wait_for_selector("#mine-none")  # My games, from the server: none yet
    # (an outside tester saw a literal "null" printed after it)
    assert "null" not in phone.inner_text("#mine-none >> xpath=..").split()

    # Keyboard only: choose Tic-Tac-Toe (arrows within the radio group), seats "Me (Ana)" and a bot, start.
    tab_to(phone, "input[name=engine]")
    for _ in range(10):
        if phone.evaluate("document.activeElement.id") == "eng-tic-tac-toe":
            break
        phone.keyboard.press("ArrowRight")
    assert phone.evaluate("document.getElementById('eng-tic-tac-toe').checked")
    tab_to(phone, "#seat-0")
    assert phone.input_value("#seat-0") == "me" and phone.input_value("#seat-1") == "bot"
    assert phone.locator("#seat-0 option:checked").inner_text() == "Me (Ana)"
    tab_to(phone, "form.create button[type=submit]")
    phone.keyboard.press("Enter")
    phone.wait_for_selector(".ttt-cell.pickable")
    game_id = phone.evaluate("location.hash").split("/")[-1]
    g = plainhttp.get(f"{portal.url}/v1/games/{game_id}").json()
    assert g["seats"][0].get("userId") == "ana", "the creator's seat is bound to the portal user"
    tab_to(phone, '.ttt-cell.pickable[data-cell="4"]')
    phone.keyboard.press("Enter")
    phone.wait_for_selector('.ttt-cell[data-cell="4"].mark-X')
    phone.wait_for_selector(".ttt-cell.mark-O")  # the bot answers
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "the table overflows a phone"

    # My games lists it under "Your turn" (the bot has answered).
    tab_to(phone, "a[href='#/']")
    phone.keyboard.press("Enter")
    phone.wait_for_selector(f".mine-group[data-group=your-turn] li[data-game='{game_id}']")
    assert "Tic-Tac-Toe" in phone.inner_text(f"li[data-game='{game_id}']")
    assert game_id not in phone.inner_text("section[aria-labelledby=mine-h]"), "listed again as an anonymous game"
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"), "the lobby overflows a phone"
    phone.screenshot(path=str(ARTIFACTS / "portal-my-games-phone.png"), full_page=True)

    # Another device: no seat token there, only the same portal sign-in.
    laptop = new_page()
    laptop.goto(f"{portal.url}/#token={ana}")
    laptop.wait_for_selector(f".mine-group[data-group=your-turn] li[data-game='{game_id}'] a")
    assert laptop.evaluate("localStorage.getItem('tablero.games.v1')") is None
    laptop.click(f"li[data-game='{game_id}'] a")
    laptop.wait_for_selector(".ttt-cell.pickable")
    assert "Your turn" in laptop.inner_text(".turn")
    held = json.loads(laptop.evaluate("localStorage.getItem('tablero.games.v1')"))
    assert [s["seat"] for s in held[game_id]["seats"]] == [0]  # JoinGame gave the seat's token back
    before = plainhttp.get(f"{portal.url}/v1/games/{game_id}").json()["version"]
    laptop.locator(".ttt-cell.pickable").first.click()
    laptop.wait_for_function(f"() => parseInt(document.querySelector('.table-head h1').textContent.split('move')[1]) > {before}")
    after = plainhttp.get(f"{portal.url}/v1/games/{game_id}").json()
    assert after["version"] > before
    # The phone, back on the game, sees the laptop's move.
    phone.click(f"li[data-game='{game_id}'] a")
    phone.wait_for_selector(".ttt-cell.mark-X >> nth=1")

    # Sign out: the header offers Sign in again, and My games is this browser's list again.
    laptop.click("#sign-out")
    laptop.wait_for_selector("#sign-in-link")
    assert laptop.evaluate("localStorage.getItem('tablero.portal.v1')") is None


def test_a_refused_portal_token_says_why(portal, new_page):
    page = new_page(390, 844)
    page.goto(portal.url + "/#/")
    page.wait_for_selector("details.portal summary")
    # Pasted, by keyboard: an expired token.
    tab_to(page, "details.portal summary")
    page.keyboard.press("Enter")
    tab_to(page, "#portal-token")
    page.keyboard.type(portal_token("bob", "Bob", ttl=-120))
    page.keyboard.press("Enter")
    page.wait_for_selector("#banner .error")
    assert "Could not sign in: the token has expired: get a new one from your portal" in page.inner_text("#banner")
    assert page.locator("#sign-in-link").count() == 1
    # In the address, signed with a key the server does not have.
    bad = jwt.encode({"sub": "bob", "exp": int(time.time()) + 600}, "x" * 40, algorithm="HS256", headers={"kid": "k9"})
    page.goto(f"{portal.url}/#token={bad}")
    page.wait_for_function("document.querySelector('#banner').textContent.includes(\"unknown key id 'k9'\")")
    assert "token" not in page.url
    # Not a JWT at all: refused before asking the server.
    page.fill("#portal-token", "hello")
    page.press("#portal-token", "Enter")
    page.wait_for_function("document.querySelector('#banner').textContent.includes('that is not a portal token')")


def test_a_revoked_sign_in_on_a_game_page_falls_back_to_watching(portal, new_page):
    cy = portal_token("cy", "Cy")
    out = plainhttp.post(f"{portal.url}/v1/games", json={"engine": "tic-tac-toe", "seats": ["me", "bot"]},
                     headers={"Authorization": f"Bearer {cy}"}).json()
    gid = out["game"]["id"]
    # This browser kept a sign-in whose key the portal has since withdrawn (unknown to the server).
    revoked = jwt.encode({"sub": "cy", "name": "Cy", "exp": int(time.time()) + 600}, "y" * 40, algorithm="HS256",
                         headers={"kid": "k-old"})
    kept = {"token": revoked, "user": {"id": "cy", "name": "Cy"}, "exp": int(time.time()) + 600}
    page = new_page()
    page.add_init_script(f"if (!sessionStorage.getItem('once')) {{ sessionStorage.setItem('once', '1');"
                         f" localStorage.setItem('tablero.portal.v1', {json.dumps(json.dumps(kept))}); }}")
    page.goto(f"{portal.url}/#/g/{gid}")
    page.wait_for_selector(".ttt")
    assert "You are signed out (portal JWT refused: unknown key id 'k-old')" in page.inner_text("#banner")
    assert "You are watching this game." in page.inner_text(".turn")
    assert page.locator("#sign-in-link").count() == 1
