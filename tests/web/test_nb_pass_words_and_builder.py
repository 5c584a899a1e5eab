"""New Bedford in the browser, an outside player's pass (Spanish and English):

- the move builder asked "Elige bien" ("choose well": lumber, food or "ninguno") before the kind
  of move, because the server sends an action's keys sorted ({"good": …, "type": "buy_goods"}):
  a player placing a worker had to pick the "good" "none" first;
- "Azul vende 0 de leña" / "vende 2 de ladrillo" for a step of a goods sale;
- "El barco 1 de Rojo regresa: paga 0$ de salarios, vende por 1$" never said which whales
  were sold; "Captain Ahab draws a sea token: right, onto ship 1" (English);
- the final table showed "Whales › Bowhead" and "› Right Whale" and folded "› Sperm Whale"
  away, so the whale points shown did not add up."""

from __future__ import annotations

import random

import pytest

from tests import plainhttp

from .api_play import ApiGame

WORDS = """async ([lang, events]) => {
    const i18n = await import('/js/i18n.js');
    await i18n.loadCatalog('new-bedford');
    const r = (await import('/js/render/index.js')).rendererFor('new-bedford');
    return events.map((e) => r.describeEvent(e, { view: {}, seat: 0, held: [0], game: { view: {} } }));
}"""

EVENTS = [
    {"type": "goods_offered", "seat": 1, "good": "lumber", "count": 0},
    {"type": "goods_offered", "seat": 1, "good": "brick", "count": 2},
    {"type": "goods_offered", "seat": 1, "good": "food", "count": 3},
    {"type": "ship_returned", "seat": 0, "ship": 1, "pay": {"right": 0, "bowhead": 0, "sperm": 0},
     "sell": {"right": 1, "bowhead": 0, "sperm": 0}, "lay_paid": 0, "sale_money": 1},
    {"type": "captain_token_drawn", "seat": 1, "player": 1, "captain": "ahab", "kind": "right", "ship": 1,
     "returned": False},
]

SAID = {
    "es": ["Azul no vende leña.", "Azul vende 2 ladrillos.", "Azul vende 3 de comida.",
           "Tu barco 1 regresa: paga 0$ de tasas, vende 1 ballena franca por 1$.",
           "El Capitán Ahab saca una ficha de Mar: una ballena franca, para el barco 1."],
    "en": ["Blue sells no lumber.", "Blue sells 2 bricks.", "Blue sells 3 food.",
           "Your ship 1 comes home: lays paid $0, sells 1 right whale for $1.",
           "Captain Ahab draws a sea token: a right whale, onto ship 1."],
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_goods_sale_steps_and_whales_sold_on_return_are_worded(server, new_page, lang):
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    said = page.evaluate(WORDS, [lang, EVENTS])
    assert [s.replace("\u2019", "’") for s in said] == SAID[lang], said


def _placing(server) -> ApiGame:
    """Seat 0 to place a worker with more than a dozen moves, buy_goods among them (random legal
    moves until then; the bot plays its own)."""
    game = ApiGame(server.url, "new-bedford", ["human", "bot:medium"], {"first_player": 0})
    auth = {"Authorization": f"Bearer {game.tokens[0]}"}

    def there(g: ApiGame) -> bool:
        if 0 not in g.get().get("toAct", []):
            return False
        actions = plainhttp.get(f"{g.path}/legal-actions", headers=auth, timeout=30).json().get("actions") or []
        return len(actions) > 12 and {"buy_goods", "place_worker"} <= {a["type"] for a in actions}

    game.play(random.Random(7), there)
    assert there(game), "the game ended before seat 0 had a big choice"
    return game


@pytest.mark.parametrize(("lang", "question", "kinds"), [
    ("es", "¿Qué haces?", {"Comprar bienes", "Colocar trabajador"}),
    ("en", "What do you do?", {"Buy goods", "Place worker"}),
])
def test_the_move_builder_asks_the_kind_of_move_first(server, new_page, lang, question, kinds):
    game = _placing(server)
    page = new_page(lang=lang)
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector("section.composer button.choice")
    assert page.locator("section.composer h4").first.inner_text().startswith(question)
    assert page.locator("section.composer button.choice").first.get_attribute("data-field") == "type"
    shown = " ".join(page.locator("section.composer button.choice").all_inner_texts())
    assert all(k in shown for k in kinds), shown


SCORES = """async (outcome) => {
    const i18n = await import('/js/i18n.js');
    await i18n.loadCatalog('new-bedford');
    const { result } = await import('/js/scores.js');
    const el = result({ outcome, players: 1, engine: 'new-bedford' }, { seatNames: null, engine: 'new-bedford' }, null);
    return [...el.querySelectorAll(':scope > .scroll tr th[scope=row]')].map((th) => th.textContent);
}"""


def test_a_whale_breakdown_shown_up_front_is_shown_whole(server, new_page):
    """The outcome of a solo game against Ahab and Flask (es_solo, an outside pass): the Captains'
    columns brought "Victory buildings › Counting House" ahead and pushed "Whales › Sperm" (now "Number of
    whales › Sperm") out."""
    seat = {"seat": 0, "total": 8, "tiebreak": {"whale_tokens": 1, "unscored_money": 4},
            "buildings": ["tavern"], "victory_buildings": {"counting_house": 0}, "money_points": 0,
            "whale_points": 1, "whales": {"bowhead": 0, "right": 1, "sperm": 0}, "money": 4,
            "building_points": 7, "victory_points": 0}
    cap = {"player": 1, "captain": "ahab", "total": 29, "tiebreak": {"whale_tokens": 8, "unscored_money": 0},
           "buildings": ["bank"], "victory_buildings": {"seamens_bethel": 5}, "money_points": 0, "whale_points": 14,
           "whales": {"bowhead": 3, "right": 4, "sperm": 1}, "money": 0, "building_points": 6, "victory_points": 9}
    page = new_page()
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    shown = page.evaluate(SCORES, {"scores": [8], "winners": [], "details": [seat], "captains": [cap],
                                   "captain_winners": ["ahab"]})
    # "Number of whales": the whale lines are counts among lines of points (outside pass B: "Whales ›
    # Right 6 / › Bowhead 2 / › Sperm 1" beside "Whale points 14" read as 9 points)
    whales = [r for r in shown if r.startswith("Number of whales ›")]
    assert len(whales) == 3, shown
    for group in ("Number of whales ›", "Victory buildings ›"):  # each group's lines together
        at = [i for i, r in enumerate(shown) if r.startswith(group)]
        assert at == list(range(at[0], at[0] + len(at))), shown


ACTIONS = """async ([lang, actions]) => {
    const i18n = await import('/js/i18n.js');
    await i18n.loadCatalog('new-bedford');
    const r = (await import('/js/render/index.js')).rendererFor('new-bedford');
    return actions.map((a) => r.describeAction(a, { view: {}, seat: 0, held: [0], game: { view: {} } }));
}"""

MOVES = [
    {"type": "choose_starting_goods", "lumber": 1, "food": 0, "brick": 0, "money": 4},
    {"type": "return_ship", "pay": {"right": 1, "bowhead": 0, "sperm": 0}, "sell": {"right": 0, "bowhead": 1, "sperm": 0}},
    {"type": "buy_whale", "kind": "sperm"},
    {"type": "pick_whale", "kind": "sperm"},
]

MOVES_SAID = {
    "es": ["Empezar con 1 de leña, 0 de comida, 0 ladrillos y 4$",
           "Hacer regresar el barco: quedarse con 1 ballena franca pagando su tasa; vender 1 ballena de Groenlandia",
           "Comprar un cachalote", "Capturar un cachalote"],
    "en": ["Start with 1 lumber, 0 food, 0 bricks, $4",
           "Bring the ship home: keep 1 right whale, paying its lay; sell 1 bowhead",
           "Buy a sperm whale", "Take a sperm whale"],
}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_move_buttons_say_what_they_do(server, new_page, lang):
    """'Capturar una cachalote', '0 de ladrillo', and 'Hacer regresar el barco: pagar 1 ballena
    franca' (paying a whale? it keeps it, paying its lay)."""
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    said = page.evaluate(ACTIONS, [lang, MOVES])
    assert [s.split(" — ")[0] for s in said] == MOVES_SAID[lang], said


@pytest.mark.parametrize(("lang", "context"), [("es", "Vender bienes · bien: comida"), ("en", "Sell goods · good: food")])
def test_a_step_of_bare_counts_says_what_they_count(server, new_page, lang, context):
    """With 13 food to sell the builder asked "Elige cantidad (13 jugadas posibles)" over buttons
    0-12, never saying it was selling, nor what."""
    page = new_page(lang=lang)
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    page.evaluate("""async (actions) => {
        const i18n = await import('/js/i18n.js');
        await i18n.loadCatalog('new-bedford');
        const m = await import('/js/compose.js');
        m.setEngine('new-bedford');
        const c = new m.Composer({ submit: async () => {} });
        c.el.id = 'probe';
        document.body.prepend(c.el);
        c.setActions(actions);
    }""", [{"type": "sell_goods", "good": "food", "count": n} for n in range(13)])
    assert page.locator("#probe button.choice[data-field=count]").count() == 13
    assert page.locator("#probe .group.step").inner_text().split("\n")[1] == context
