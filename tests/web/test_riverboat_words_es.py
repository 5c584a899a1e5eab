"""An outside tester's pass on Riverboat, in Spanish (browser client, rulebook in Spanish):
planting buttons alike for different tiles, opportunity buttons by a 0-based "casilla", cards
named by generic words ("puerto", "recolección"), a final table whose visible lines do not add
up, "3 patata" for three potatoes, and the phase tiles out of the order they resolve in.
The renderer runs as functions in Chromium (as tests/web/test_render_rbfg.py) and the final
table on a real server's finished game."""

from __future__ import annotations

import copy
import random
import re

from tablero import engines

from .test_render_rbfg import call, page  # noqa: F401 - the page fixture


def _view(seat=0):
    return copy.deepcopy(engines.LocalGame("riverboat", seats=2, seed=1).view(seat))


def test_planting_buttons_name_the_tile_they_plant(page):  # noqa: F811
    """Three buttons read "Plantar una loseta de tamaño 2 en las casillas 30, 31" for the 2-hex
    tiles on spaces 0, 1 and 2 (potato + potato, corn + potato, beet + potato)."""
    view = _view()
    view["crop_supply"]["2"] = ["2-potato-potato", "2-corn-potato", "2-beet-potato", None]
    out = call(page, "riverboat", """
      const ctx = { view: args.view, seat: 0, held: [0] };
      return [0, 1, 2].map((slot) => r.describeAction({ type: 'plant', size: 2, slot, cells: [29, 30] }, ctx));""",
               view=view)
    assert len(set(out)) == 3, out
    assert out[0] == "Plant tile #1 (2-hex) on cells 30, 31 — potato + potato", out
    assert out[1].endswith("— corn + potato") and out[2].endswith("— beet + potato"), out


def test_opportunity_buttons_say_the_boards_space_its_card_and_bonus(page):  # noqa: F811
    view = _view()
    view["opportunity_spaces"][0]["card"] = "crop-corn"
    view["opportunity_spaces"][2]["card"] = "harbor"
    out = call(page, "riverboat", """
      const ctx = { view: args.view, seat: 0, held: [0] };
      return [r.describeAction({ type: 'take_opportunity', space: 0 }, ctx),
              r.describeAction({ type: 'take_opportunity', space: 2 }, ctx),
              r.valueName('space', 3, ctx)];""", view=view)
    assert out[0] == "Space 1 — Corn crops (bonus: surveyor)", out
    assert out[1] == "Space 3 — Harbor Master (bonus: 1 harbor step)", out
    assert out[2] == "Space 4", out


def test_in_spanish_cards_have_names_plants_name_tiles_and_crops_are_plural(page):  # noqa: F811
    view = _view()
    view["crop_supply"]["2"] = ["2-potato-potato", "2-corn-potato", "2-beet-potato", None]
    view["opportunity_spaces"] = [{"card": c, "text": "", "bonus": b} for c, b in zip(
        ["crop-corn", "harbor", "harvest", "opportunities"],
        [{"feature": "surveyor"}, {"coins": 1}, {"harbor": 1}, {"vp": 2}], strict=True)]
    view["players"][0]["harvested"] = {"beet": 1, "wheat": 0, "corn": 0, "potato": 3, "pumpkin": 5}
    view["players"][0]["opps"] = [{"id": "opportunities", "scored": False}]
    # the Spanish catalog, loaded as the page loads it for a Spanish browser
    page.context.add_init_script("Object.defineProperty(navigator, 'languages', {get: () => ['es']});")
    page.reload()
    out = call(page, "riverboat", """
      const ctx = { view: args.view, seat: 0, held: [0] };
      const el = r.render(ctx);
      document.getElementById('out').replaceChildren(el);
      return { plant: r.describeAction({ type: 'plant', size: 2, slot: 1, cells: [29, 30] }, ctx),
        take: [0, 1, 2, 3].map((space) => r.describeAction({ type: 'take_opportunity', space }, ctx)),
        taken: r.describeEvent({ type: 'opportunity_taken', seat: 0, card: 'opportunities', space: 3, gains: { vp: 2 } }, ctx),
        returned: r.describeEvent({ type: 'opportunities_returned', cards: ['harbor', 'harvest'] }, ctx),
        crop: r.describeEvent({ type: 'crop_card_revealed', card: 'yellow' }, ctx),
        spaces: [...el.querySelectorAll('.tile.opp')].map((x) => x.textContent),
        player: [...el.querySelectorAll('.player .small-print')].map((x) => x.textContent)[0],
        phases: [...el.querySelectorAll('.tile.phase h4')].map((x) => x.textContent) };""", view=view)
    assert out["plant"] == "Plantar la loseta n.º 2 (de tamaño 2) en las casillas 30, 31 — maíz + patata", out
    assert out["take"] == ["Espacio 1 — Cultivos de maíz (bonus: agrimensor)",
                           "Espacio 2 — Capitán de puerto (bonus: 1 moneda)",
                           "Espacio 3 — Gran cosecha (bonus: 1 paso de puerto)",
                           "Espacio 4 — Coleccionista de oportunidades (bonus: 2 PV)"], out["take"]
    assert "carta de oportunidad Coleccionista de oportunidades" in out["taken"], out["taken"]
    assert "Capitán de puerto y Gran cosecha" in out["returned"], out["returned"]
    assert "carta de cultivo amarilla" in out["crop"], out["crop"]  # a crop card is no opportunity card
    assert out["spaces"][1].startswith("Espacio 2Capitán de puerto: 1 PV por cada paso"), out["spaces"]
    assert "recolectado: 1 remolacha, 3 patatas y 5 calabazas" in out["player"], out["player"]
    assert "oportunidades: Coleccionista de oportunidades" in out["player"], out["player"]
    # the phase tiles in the order the phases resolve (the rulebook's 1 to 5)
    assert out["phases"] == ["cultivo", "plantación", "recolección", "oportunidad", "puntuación"], out["phases"]


def test_phase_tiles_follow_the_rounds_order_whatever_the_views_key_order(page):  # noqa: F811
    view = _view()
    tiles = view["phase_tiles"]
    view["phase_tiles"] = {k: tiles[k] for k in ("opportunity", "planting", "harvest", "cultivation", "scoring")}
    out = call(page, "riverboat", """
      const el = r.render({ view: args.view, seat: 0, held: [0] });
      return [...el.querySelectorAll('.tile.phase h4')].map((x) => x.textContent);""", view=view)
    assert out == ["cultivation", "planting", "harvest", "opportunity", "scoring"], out


def test_the_final_tables_visible_lines_add_up_to_the_score(server, new_page):
    """Shown up front: the VP during the game, each final-scoring category and the total, which
    add up; the rest (what each counts, "Puerto › Puntúa: mitad, …") folded in the breakdown."""
    from .api_play import ApiGame

    game = ApiGame(server.url, "riverboat", ["human", "human"])
    game.play(random.Random(5), lambda g: False, max_moves=3000)
    scores = game.get()["outcome"]["scores"]
    p = new_page()
    p.context.add_init_script("Object.defineProperty(navigator, 'languages', {get: () => ['es']});")
    game.hold(p, [0, 1])
    p.goto(f"{server.url}/#/g/{game.id}")
    p.wait_for_selector(".result:not([hidden]) .scores")
    rows = p.eval_on_selector_all(
        ".result .panel > .scroll table.scores tbody tr",
        "trs => trs.map((tr) => [tr.querySelector('th').textContent, ...[...tr.querySelectorAll('td')].map((td) => td.textContent)])")
    names = [r[0] for r in rows]
    # (the order of the lines after the score is the server reply's key order, not the engine's)
    assert names[0] == "Puntos" and sorted(names[1:]) == sorted(
        ["En juego › PV", "Monedas", "Campos completos", "Elementos sin puntuar", "Puerto", "Agentes", "Total"]), names
    for seat, score in enumerate(scores):
        parts = [int(r[1 + seat]) for r in rows[1:] if r[0] != "Total"]
        total = next(int(r[1 + seat]) for r in rows if r[0] == "Total")
        assert sum(parts) == score == total == int(rows[0][1 + seat]), (seat, rows)
    folded = " ".join(p.eval_on_selector_all(".result details.more tr", "trs => trs.map((t) => t.textContent)"))
    assert "Desglose › Puerto" in folded and "Desglose › En juego" in folded and re.search(r"puntúa (valor entero|mitad, redondeando hacia arriba)", folded), folded
    assert "puntúa completo" not in folded and "Entero o medio" not in folded, folded


def test_the_searched_opportunity_deck_names_its_cards(page):  # noqa: F811
    """The deck searched with a coin listed "1 × harbor", "1 × harvest" (the ids' generic words)."""
    view = _view()
    view["search"] = {"seat": 0, "pile": "opportunity deck", "contents": ["harbor", "harvest", "opportunities"]}
    out = call(page, "riverboat", """
      const el = r.render({ view: args.view, seat: 0, held: [0] });
      return [el.querySelector('.rb-search').textContent, r.valueName('card', 'harvest', { view: args.view })];""",
               view=view)
    assert "1 × Harbor Master" in out[0] and "1 × Bumper Harvest" in out[0] and "1 × Opportunity Collector" in out[0], out
    assert out[1] == "Bumper Harvest", out
