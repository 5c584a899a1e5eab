"""The page in Spanish and English, from the catalogs: the language switch, whole games in
Spanish, a pseudo-locale run (every catalog message wrapped in ⟦…⟧) and axe-core's accessibility
check of the lobby and of a table of each game in both languages."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest

from .test_browser import create_in_lobby, wait_ready
from .test_to_the_end import final_scores_match_the_api

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
VENDOR = ROOT / "clients" / "web" / "vendor-build"
AXE = VENDOR / "node_modules" / "axe-core" / "axe.min.js"
BOARD_GAMES = ["new-bedford", "riverboat", "phoenicia", "founders-of-gloomhaven"]


def _in(lang: str, new_page, **kw):
    """A page whose browser asks for `lang` first (navigator.languages)."""
    page = new_page(**kw)
    page.context.add_init_script(f"Object.defineProperty(navigator, 'languages', {{get: () => ['{lang}']}});")
    return page


# The header ends in the game's version, whatever the language says before it ("· move 12", "· jugada 12").
VERSION_JS = "parseInt(document.querySelector('.table-head h1').textContent.match(/\\d+/g).pop())"


def _version(page) -> int:
    return int(re.findall(r"\d+", page.inner_text(".table-head h1"))[-1])


# Clicks without a new version after which a game is stuck (a composer gone round in circles).
STUCK_CLICKS = 300


def play_to_the_end_in_any_language(page, rng: random.Random, max_clicks: int) -> None:
    """test_to_the_end.play_to_the_end, reading the version as a number in any language: click legal
    moves (buttons, composer steps, board pieces) until the final scores show."""
    clicks = idle = 0  # idle: clicks since the version last moved (composer steps, or going round in circles)
    last = _version(page)
    while wait_ready(page) == "move":
        before = _version(page)
        idle = 0 if before > last else idle + 1
        last = before
        if clicks >= max_clicks or idle >= STUCK_CLICKS:
            composer = page.locator(".composer").all_inner_texts()
            raise AssertionError(f"no end after {clicks} clicks (at version {before}, {idle} clicks without a move); "
                                 f"composer: {composer}")
        clicks += 1
        acts = page.locator(".composer button.act:not([disabled])")
        spots = page.locator(".board .pickable")
        if spots.count() and rng.random() < 0.25:  # sometimes choose on the board itself
            spots.nth(rng.randrange(spots.count())).click()
            page.wait_for_function(f"() => {VERSION_JS} > {before} || document.querySelector('.crumbs')"
                                   " || document.querySelector('.result:not([hidden]) .scores')")
        elif acts.count():
            acts.nth(rng.randrange(acts.count())).click()
            page.wait_for_function(f"() => {VERSION_JS} > {before}")
        else:
            choices = page.locator(".composer button.choice:not([disabled])")
            choices.nth(rng.randrange(choices.count())).click()


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():  # the pinned axe-core (package-lock.json), from the npm registry
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=VENDOR, check=True, capture_output=True, timeout=300)
    return AXE.read_text()


def _serious(page, axe_source: str) -> list[str]:
    page.add_script_tag(content=axe_source)
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


def test_the_browser_follows_navigator_languages_and_the_switch_is_remembered(server, new_page):
    page = _in("es-AR", new_page)
    page.goto(server.url + "/#/")
    page.wait_for_selector("#lang")
    assert page.evaluate("document.documentElement.lang") == "es"
    assert page.input_value("#lang") == "es" and page.inner_text("header nav") == "Sala"
    page.select_option("#lang", "en")
    page.wait_for_function("document.querySelector('header nav').textContent === 'Lobby'")
    assert page.evaluate("document.documentElement.lang") == "en"
    page.reload()
    page.wait_for_selector("#lang")
    assert page.input_value("#lang") == "en"  # remembered over navigator.languages


def test_tic_tac_toe_in_spanish_words_its_board_moves_and_log(server, new_page):
    page = _in("es", new_page)
    create_in_lobby(page, server.url, "tic-tac-toe", ["human", "bot"])
    page.wait_for_selector(".ttt-cell")
    assert page.locator(".ttt-cell").first.get_attribute("aria-label") == "Fila 1, columna 1: vacía"
    assert "Rojo (tú) juega con X" in page.inner_text(".ttt-wrap")
    while wait_ready(page) == "move":
        page.locator(".composer button.act:not([disabled])").first.click()
        page.wait_for_timeout(200)
    log = page.inner_text(".log")
    assert re.search(r"Rojo \(tú\) pone X en fila \d, columna \d\.", log), log
    assert "Empieza la partida: Rojo (tú) juega con X y Azul con O." in log and "puts" not in log


def test_the_table_names_each_bots_level_in_the_language_shown(server, new_page):
    """The level chosen in the lobby ("Bot (difícil)") stays in sight at the table, in words."""
    page = _in("es", new_page)
    create_in_lobby(page, server.url, "riverboat", ["human", "bot:hard", "bot:medium", "bot"])
    chips = lambda: [" ".join(t.split()) for t in page.locator(".seat-list .seat-chip small").all_inner_texts()]  # noqa: E731
    page.wait_for_function("document.querySelectorAll('.seat-list .seat-chip small').length === 4")
    assert chips() == ["humano", "bot (difícil)", "bot (medio)", "bot"], chips()
    page.select_option("#lang", "en")
    page.wait_for_function("document.querySelector('header nav').textContent === 'Lobby'")
    page.wait_for_function("[...document.querySelectorAll('.seat-list .seat-chip small')].some((e) => e.textContent.includes('(hard)'))")
    assert chips() == ["human", "bot (hard)", "bot (medium)", "bot"], chips()


@pytest.mark.parametrize("engine", BOARD_GAMES)
def test_each_board_game_to_the_end_in_spanish(server, new_page, engine):
    page = _in("es", new_page, width=1280, height=900)
    game_id = create_in_lobby(page, server.url, engine, ["human"] if engine == "founders-of-gloomhaven" else ["human", "bot"])
    if engine == "founders-of-gloomhaven":  # a card is named as printed: "Comercio", not the category's "comercio"
        names = page.evaluate("async () => { const m = await import(new URL('js/render/founders.js', document.baseURI)"
                              ".href); return ['trade', 'income', 'recruit'].map((c) => m.cardName({}, c)); }")
        assert names == ["Comercio", "Ingresos", "Reclutar"], names
    # a long Riverboat game takes over a thousand clicks: the bound is a runaway guard, stuck games fail sooner
    play_to_the_end_in_any_language(page, random.Random(7), max_clicks=3000)
    final_scores_match_the_api(page, server.url, game_id)
    log = page.locator(".log li").all_inner_texts()
    english = [t for t in log if re.search(r"\b(places|plays|buys|takes|the game|seat)\b", t, re.I)]
    assert not english, english[:5]
    assert "Empieza la partida" in log[-1], log[-1]


@pytest.mark.parametrize("engine", ["tic-tac-toe", "goofspiel", *BOARD_GAMES])
def test_pseudo_locale_every_log_line_and_move_comes_from_a_catalog(server, new_page, engine):
    """With ?pseudo every catalog message is wrapped in ⟦…⟧: each log line and each offered
    move is one (or is made of ones); the tic-tac-toe board's words too."""
    page = _in("en", new_page)
    page.goto(server.url + "/?pseudo=1#/")
    game_id = create_in_lobby(page, server.url, engine, ["human"] if engine == "founders-of-gloomhaven" else ["human", "bot"])
    page.goto(f"{server.url}/?pseudo=1#/g/{game_id}")
    wait_ready(page)
    for _ in range(3):
        if wait_ready(page) != "move" or not page.locator(".composer button.act:not([disabled])").count():
            break
        page.locator(".composer button.act:not([disabled])").first.click()
        page.wait_for_timeout(300)
    lines = page.locator(".log li").all_inner_texts()
    assert lines and all(t.startswith("⟦") and t.rstrip("…").endswith("⟧") for t in lines), lines[:5]
    moves = page.locator(".composer button.act").all_inner_texts()
    assert all(t.strip().startswith("⟦") for t in moves), moves[:5]
    assert page.inner_text(".turn h2").startswith("⟦")
    if engine == "tic-tac-toe":
        assert all(c.startswith("⟦") for c in page.locator(".ttt-cell").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_axe_finds_no_serious_violation_on_the_lobby_and_each_table(server, new_page, axe_source, lang):
    page = _in(lang, new_page)
    page.goto(server.url + "/#/")
    page.wait_for_selector("form.create")
    found = {"lobby": _serious(page, axe_source)}
    for engine in ["tic-tac-toe", "goofspiel", *BOARD_GAMES]:
        create_in_lobby(page, server.url, engine, ["human"] if engine == "founders-of-gloomhaven" else ["human", "bot"])
        wait_ready(page)
        found[engine] = _serious(page, axe_source)
    bad = {k: v for k, v in found.items() if v}
    assert not bad, "\n".join(f"{k}: {x}" for k, v in bad.items() for x in v)


def test_moves_and_the_log_are_announced(server, new_page):
    page = new_page()
    create_in_lobby(page, server.url, "tic-tac-toe", ["human", "bot"])
    wait_ready(page)
    assert page.get_attribute(".log", "aria-live") == "polite"
    assert page.get_attribute(".turn", "aria-live") == "polite"


def _connect_refusal(code: str, message: str, reason: str) -> str:
    """A Connect error body (JSON) with a google.rpc.ErrorInfo detail naming `reason`."""
    import base64
    import json

    from google.rpc import error_details_pb2
    info = error_details_pb2.ErrorInfo(reason=reason, domain="tablero.v1").SerializeToString()
    return json.dumps({"code": code, "message": message, "details": [
        {"type": "google.rpc.ErrorInfo", "value": base64.b64encode(info).decode().rstrip("=")}]})


def test_a_spanish_page_words_refusals_and_an_unreachable_server_in_spanish(server, new_page):
    """An outside pass found English on the Spanish page: "Tu jugada no se envió: the server
    cannot be reached (Failed to fetch)", and refusals worded with the server's (English)
    message. A refusal is worded from its reason (web.reason.<REASON>), an unreachable server
    by the catalog; the English page keeps the server's own words (they say more)."""
    from .api_play import ApiGame

    def table(lang: str, answer):
        game = ApiGame(server.url, "tic-tac-toe", ["human", "human"])
        page = _in(lang, new_page)
        game.hold(page, [0])
        page.goto(f"{server.url}/#/g/{game.id}")
        page.wait_for_selector('.ttt-cell.pickable[data-cell="4"]')
        page.route("**/SubmitAction", answer)
        page.click('.ttt-cell.pickable[data-cell="4"]')
        page.wait_for_selector("#banner .error")
        return page.inner_text("#banner")

    refusal = _connect_refusal("failed_precondition", "the game is over (from the server)", "GAME_OVER")
    for lang, unreachable, refused in (("es", "no se puede contactar con el servidor", "la partida ha terminado"),
                                       ("en", "the server cannot be reached", "the game is over (from the server)")):
        banner = table(lang, lambda route: route.abort())
        assert unreachable in banner and "Failed to fetch" not in banner, banner
        banner = table(lang, lambda route: route.fulfill(status=400, content_type="application/json", body=refusal))
        assert refused in banner and ("from the server" in banner) == (lang == "en"), banner
