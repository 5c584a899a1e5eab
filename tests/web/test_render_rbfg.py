"""Riverboat's and Founders of Gloomhaven's browser renderers as functions, in Chromium (no server:
the page's files come from clients/web on disk): cells numbered from 1, the searched pile in words,
printed building names whatever the view holds now, "1 coin"."""

from __future__ import annotations

import copy
import json
import mimetypes
import re
from pathlib import Path

import pytest
from tablero.engines.core import messages

from tablero import engines

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
ORIGIN = "http://tablero.test"
EDITION = Path(__file__).resolve().parents[2] / "engines" / "founders_of_gloomhaven" / "edition.json"


@pytest.fixture
def page(new_page):
    p = new_page()

    def serve(route):
        path = route.request.url[len(ORIGIN):].split("?")[0]
        f = WEB / path.lstrip("/")
        texts = re.fullmatch(r"/v1/engines/([\w-]+)/messages", path)
        if texts:  # the engine's catalog, as the server publishes it
            lang = (re.search(r"lang=(\w+)", route.request.url) or [None, "en"])[1]
            route.fulfill(status=200, content_type="application/json",
                          body=json.dumps(messages.published(texts.group(1), lang)))
        elif path == "/blank.html":
            route.fulfill(status=200, content_type="text/html", body="<!doctype html><div id=out></div>")
        elif f.is_file():
            ctype = "text/javascript" if f.suffix == ".js" else mimetypes.guess_type(str(f))[0] or "text/plain"
            route.fulfill(status=200, content_type=ctype, body=f.read_bytes())
        else:
            route.fulfill(status=404, body="")

    p.route(ORIGIN + "/**", serve)
    p.goto(ORIGIN + "/blank.html")
    return p


def call(page, module: str, script: str, **args):
    """`script` (a function body) runs with `r` the renderer's default export, `m` the module, `args`."""
    engine = {"riverboat": "riverboat", "founders": "founders-of-gloomhaven", "newbedford": "new-bedford",
              "phoenicia": "phoenicia"}.get(module, module)
    return page.evaluate(
        "async ([module, engine, script, args]) => { const m = await import(module);"
        " await (await import('/js/i18n.js')).loadCatalog(engine);"
        " const r = (await import('/js/render/index.js')).rendererFor(engine);"  # worded by the catalog
        " return new Function('r', 'm', 'args', script)(r, m, args); }",
        [f"/js/render/{module}.js", engine, script, args])


# --- Riverboat -----------------------------------------------------------------------------------
def rb_view(seat):
    g = engines.LocalGame("riverboat", seats=2, seed=1)
    return g.view(seat)


def test_riverboat_cells_are_numbered_from_1_in_the_log_actions_and_builder(page):
    out = call(page, "riverboat", """
      const ctx = { view: args.view, seat: 0, held: [0] };
      return [
        r.describeEvent({ type: 'tile_planted', seat: 0, crops: ['wheat'], cells: [14] }, ctx),
        r.describeEvent({ type: 'worker_placed', seat: 1, cell: 0 }, ctx),
        r.describeEvent({ type: 'barn_placed', seat: 1, cell: 34 }, ctx),
        r.describeEvent({ type: 'workers_returned', seat: 1, cells: [0, 9] }, ctx),
        r.describeAction({ type: 'place_worker', cell: 0 }, ctx),
        r.describeAction({ type: 'plant', size: 2, slot: 0, cells: [3, 4] }, ctx),
        r.valueName('cell', 0, ctx), r.valueName('cell', 34, ctx), r.valueName('cells', 14, ctx),
        r.valueName('slot', 0, ctx),
      ];""", view=rb_view(0))
    assert out[0].endswith("plants wheat on cell 15."), out[0]
    assert "on cell 1." in out[1] and "on cell 35." in out[2], out
    assert out[3].endswith("from cells 1, 10."), out[3]
    assert out[4] == "Worker on cell 1" and out[5] == "Plant tile #1 (2-hex) on cells 4, 5 — beet + beet", out
    assert out[6:] == ["cell 1", "cell 35", "15", "tile #1"]  # supply tiles from 1 too, as the terminal


def test_riverboat_mat_shows_cell_numbers_and_tooltips_count_from_1(page):
    view = rb_view(0)
    out = call(page, "riverboat", """
      const el = r.render({ view: args.view, seat: 0, held: [0] });
      document.getElementById('out').replaceChildren(el);
      const mat = document.querySelector('.mat');
      return { nums: [...mat.querySelectorAll('.cellno')].map((x) => x.textContent),
               titles: [...mat.querySelectorAll('.hex')].map((x) => x.title),
               labels: [...mat.querySelectorAll('.hex')].map((x) => x.dataset.pickLabel) };  // aria-label once pickable""", view=view)
    n = len(view["players"][0]["field_colours"])
    assert out["nums"] == [str(i) for i in range(1, n + 1)]
    assert out["titles"][0].startswith("cell 1: ") and out["titles"][-1].startswith(f"cell {n}: ")
    assert out["labels"][0].startswith("Cell 1, ")


def test_riverboat_searcher_sees_the_pile_in_words_and_the_spectator_nothing(page):
    contents = ["2-beet-corn", "2-beet-corn", "2-wheat-potato"]
    mine = copy.deepcopy(rb_view(0))
    mine["search"] = {"seat": 0, "pile": "2-hex tiles", "contents": contents}
    other = copy.deepcopy(rb_view(None))
    other["search"] = {"seat": 0, "pile": "2-hex tiles", "contents": None}
    out = call(page, "riverboat", """
      const ctx = { view: args.mine, seat: 0, held: [0] };
      const box = (view, seat) => { const el = r.render({ view, seat, held: seat === null ? [] : [seat] });
        const b = el.querySelector('.rb-search'); return b ? b.textContent : ''; };
      return [box(args.mine, 0), box(args.other, null),
        r.valueName('kind', '2-beet-corn', ctx), r.valueName('kind', '2-wheat-potato', ctx),
        r.describeAction({ type: 'plant_from_pile', kind: '2-beet-corn', cells: [0, 1] }, ctx),
        r.describeEvent({ type: 'pile_searched', seat: 0, size: 2, private: { 0: { tiles: args.contents } } }, ctx),
        r.describeEvent({ type: 'pile_searched', seat: 0, size: 2 }, { view: args.other, seat: null, held: [] })];
    """, mine=mine, other=other, contents=contents)
    assert "2 × beet + corn" in out[0] and "1 × wheat + potato" in out[0] and "3 tiles" in out[0], out[0]  # the catalog's names
    assert out[1] and "beet" not in out[1] and "wheat" not in out[1], out[1]
    assert out[2] == "beet + corn (2 in the pile)" and out[3] == "wheat + potato (1 in the pile)"
    assert out[4] == "Plant a beet + corn tile from the pile on cells 1, 2", out[4]
    assert "3 tiles to choose from" in out[5], out[5]
    assert "beet" not in out[6] and "(" not in out[6], out[6]


def test_riverboat_one_coin_is_singular(page):
    out = call(page, "riverboat", """
      const ctx = { view: args.view, seat: 0, held: [0] };
      return [r.describeEvent({ type: 'gained', seat: 0, gains: { coins: 1 }, reason: 'phase_bonus' }, ctx),
              r.describeEvent({ type: 'gained', seat: 0, gains: { coins: 2 } }, ctx)];""", view=rb_view(0))
    assert out[0].endswith("gains 1 coin (phase bonus)."), out[0]
    assert out[1].endswith("gains 2 coins."), out[1]


# --- Founders of Gloomhaven ----------------------------------------------------------------------
def printed() -> dict[str, str]:
    return {k: v["name"] for k, v in json.loads(EDITION.read_text())["prestige"].items()}


def test_founders_printed_names_are_the_engines(page):
    assert call(page, "founders", "return m.PRINTED;") == printed()


def test_founders_names_are_printed_ones_whatever_the_view_holds(page):
    """A reloaded page words the log with today's view: the names must not depend on it."""
    view = engines.LocalGame("founders-of-gloomhaven", seats=2, seed=1).view(None)
    view = {**view, "cards": {}, "prestige": []}  # none of the log's cards in sight any more
    log = [{"version": 1, "event": {"type": "proposals_drawn", "cards": ["temple_great_oak", "weavers_hall"]}},
           {"version": 2, "event": {"type": "votes_revealed", "totals": [0, 1], "winner": 1, "tied": []}}]
    out = call(page, "founders", """
      const ctx = { view: args.view, seat: null, held: [], log: args.log };
      return [r.describeEvent(args.log[0].event, { ...ctx, at: 0 }), r.describeEvent(args.log[1].event, { ...ctx, at: 1 }),
        r.describeEvent({ type: 'proposals_drawn', cards: [] }, ctx),
        r.describeEvent({ type: 'prestige_placed', seat: 0, card: 'harbor_warehouse', cells: [0] }, ctx),
        r.describeEvent({ type: 'completed', card: 'tanners_hall' }, ctx),
        r.describeEvent({ type: 'worker_placed', seat: 0, target: 'foundry' }, ctx),
        r.valueName('target', 'salt_barrel', ctx)];""", view=view, log=log)
    assert out[0] == "New proposals are drawn: Temple of the Great Oak and Weavers’ Hall.", out[0]
    assert out[1].startswith("Votes revealed: Temple of the Great Oak 0 influence and Weavers' Hall 1 influence"), out[1]
    assert out[2] == "No new proposals."
    assert "Harbor Warehouse on square A1" in out[3] and out[4] == "The Tanners' Hall is complete."
    assert out[5].endswith("places a worker on the Foundry.") and out[6] == "Salt Barrel"


def test_founders_vote_with_fewer_proposals_left_names_only_those(page):
    """Late in a game the proposal deck runs low: one proposal on the table, yet the vote's totals
    still have three entries. The log named the missing two by number ("2 0 influence")."""
    view = engines.LocalGame("founders-of-gloomhaven", seats=2, seed=1).view(None)
    log = [{"version": 1, "event": {"type": "proposals_drawn", "cards": ["tavern"], "returned": [], "reshuffled": True}},
           {"version": 2, "event": {"type": "votes_revealed", "votes": [], "totals": [3, 0, 0], "tied": [0],
                                    "winner": 0, "placer": 1, "decider": None}}]
    out = call(page, "founders", """
      const ctx = { view: args.view, seat: null, held: [], log: args.log };
      return r.describeEvent(args.log[1].event, { ...ctx, at: 1 });""", view=view, log=log)
    assert out == "Votes revealed: Tavern 3 influence; proposal 1 (Tavern) wins.", out


def test_founders_card_played_face_down_is_named_as_in_the_hand(page):
    """Its owner's log names the card played face down as the hand does: "(Income)", "(Trade)",
    not the catalog's lower-case category words "(income)", "(trade)"."""
    view = engines.LocalGame("founders-of-gloomhaven", seats=2, seed=1).view(0)
    out = call(page, "founders", """
      const ctx = { view: args.view, seat: 0, held: [0] };
      return ['income', 'trade', 'upgrade'].map((card) => r.describeEvent(
        { type: 'card_played', seat: 0, face_up: false, private: { 0: { card } } }, ctx));""", view=view)
    assert [o.split("(")[-1] for o in out] == ["Income).", "Trade).", "Upgrade)."], out


def test_founders_log_in_spanish_has_no_english_ids_or_doubled_words(page):
    """A solo game's log in Spanish said "elige la propuesta propuesta 1 (Puerta Norte)", "en el mapa
    thematic" and "Termina la partida (solo claims unpaid). Puntuaciones: Rojo 5; ganadores: ."."""
    page.evaluate("async () => (await import('/js/i18n.js')).setLanguage('es')")
    view = engines.LocalGame("founders-of-gloomhaven", seats=1, seed=1).view(0)
    log = [{"version": 1, "event": {"type": "proposals_drawn", "cards": ["north_gate"], "returned": [], "reshuffled": False}}]
    out = call(page, "founders", """
      const ctx = { view: args.view, seat: 0, held: [0], log: args.log };
      return [
        r.describeEvent({ type: 'proposal_chosen', seat: 0, proposal: 0, placer: 0, pay: { fleeting: 0, lasting: 0 } }, { ...ctx, at: 0 }),
        r.describeEvent({ type: 'game_started', map: 'thematic', races: ['aesther'] }, ctx),
        r.describeEvent({ type: 'game_ended', reason: 'solo_claims_unpaid', scores: [5], winners: [] }, ctx),
      ];""", view=view, log=log)
    assert "elige la propuesta 1 (Puerta Norte);" in out[0], out[0]
    assert "en el mapa temático" in out[1], out[1]
    assert "(reclamaciones del solitario sin pagar)" in out[2] and out[2].endswith("ganadores: ninguno."), out[2]


def _founders_delivery():
    """A 2-seat game played at random to its first delivery: (the view then, the event)."""
    import random

    g = engines.LocalGame("founders-of-gloomhaven", seats=2, seed=1)
    rng = random.Random(1)
    while True:
        assert g.outcome() is None, "the game ended without a delivery"
        seat = sorted(g.to_act())[0]
        found = [e for e in g.act(seat, rng.choice(g.legal_actions(seat))) if e["type"] == "delivered"]
        if found:
            return g.view(None), found[0]


def test_founders_delivery_names_the_building(page):
    """The log said "Stone is delivered to building 2 (requirement 0)": an index into the prestige
    buildings and a requirement counted from 0. It names the building as the board does."""
    view, event = _founders_delivery()
    name = view["prestige"][event["building"]]["name"]
    out = call(page, "founders", "return r.describeEvent(args.event, { view: args.view, seat: null, held: [] });",
               view=view, event=event)
    assert out == f"{event['resource'].capitalize()} delivered to {name}.", out


def test_founders_access_names_the_tile_it_buys_into(page):
    """"Buy access to tile 3": the page shows no tile numbers. The move and the log say what the tile
    is, whose and where, as the map's square titles do."""
    import random

    g = engines.LocalGame("founders-of-gloomhaven", seats=2, seed=1)
    rng = random.Random(1)
    while True:
        assert g.outcome() is None, "the game ended before any access to buy"
        seat = sorted(g.to_act())[0]
        acts = g.legal_actions(seat)
        access = [a for a in acts if a["type"] == "access"]
        if access:
            break
        g.act(seat, rng.choice(acts))
    view = g.view(seat)
    tile = next(t for t in view["tiles"] if t["id"] == access[0]["tile"])
    out = call(page, "founders", """
      const ctx = { view: args.view, seat: args.seat, held: [args.seat] };
      return [r.describeAction(args.action, ctx), r.describeEvent({ type: 'access_bought', seat: args.seat, tile: args.action.tile, cost: 2, to: null }, ctx),
        m.squareName(args.view, args.tile.cells[0])];""",
               view=view, seat=seat, action=access[0], tile=tile)
    action, event, square = out
    number = tile["id"] + 1  # numbered from 1 as a person counts (the API's id from 0)
    assert action.startswith(f"Buy access to tile {number} (") and f", {square})" in action, action
    assert f"stall · {tile['resource']}" in action, action
    assert f"buys access to tile {number} (" in event, event


def test_founders_solo_proposals_after_a_draw_are_the_two_left_and_the_new_one(page):
    """Alone, a draw adds one card to the two proposals left. The log named "proposal 1" after the
    draw as the card just drawn (North Gate) while the engine placed Weavers' Hall."""
    view = engines.LocalGame("founders-of-gloomhaven", seats=1, seed=1).view(0)
    assert view["solo"]
    events = [{"type": "game_started", "proposals": ["council_chamber", "weavers_hall", "ghost_fortress"]},
              {"type": "proposal_chosen", "seat": 0, "proposal": 0, "placer": 0, "pay": {"fleeting": 0, "lasting": 0}},
              {"type": "prestige_placed", "seat": 0, "card": "council_chamber", "cells": [0], "tile": 9},
              {"type": "proposals_drawn", "cards": ["north_gate"], "returned": [], "reshuffled": False},
              {"type": "proposal_chosen", "seat": 0, "proposal": 2, "placer": 0, "pay": {"fleeting": 0, "lasting": 0}},
              {"type": "prestige_unplaceable", "card": "north_gate"},
              {"type": "proposals_drawn", "cards": ["tavern"], "returned": [], "reshuffled": False},
              {"type": "prestige_placed", "seat": 0, "card": "tavern", "cells": [0], "tile": 10},
              {"type": "proposals_drawn", "cards": ["armory"], "returned": [], "reshuffled": False},
              {"type": "proposal_chosen", "seat": 0, "proposal": 0, "placer": 0, "pay": {"fleeting": 0, "lasting": 0}}]
    log = [{"version": i + 1, "event": e} for i, e in enumerate(events)]
    out = call(page, "founders", """
      const ctx = { view: args.view, seat: 0, held: [0], log: args.log };
      return [1, 4, 9].map((at) => r.describeEvent(args.log[at].event, { ...ctx, at }));""", view=view, log=log)
    assert "chooses proposal 1 (Council Chamber);" in out[0], out
    assert "chooses proposal 3 (North Gate);" in out[1], out
    # North Gate could not be placed, Tavern took its place; then Armory joined Weavers' Hall and Ghost Fortress
    assert "chooses proposal 1 (Weavers' Hall);" in out[2], out


@pytest.mark.parametrize(("seats", "seeds"), [(1, range(1, 9)), (2, range(1, 2))])
def test_founders_log_names_the_proposal_the_engine_chose(page, seats, seeds):
    """Random games: each winning or chosen proposal in the log is the one the engine had there."""
    import random

    names = printed()
    for seed in seeds:
        g = engines.LocalGame("founders-of-gloomhaven", seats=seats, seed=seed)
        rng = random.Random(seed)
        log = [{"version": 1, "event": {"type": "game_started", "proposals": list(g.view(None)["proposals"])}}]
        checks = []
        while g.outcome() is None and len(log) < 1500:
            seat = sorted(g.to_act())[0]
            props = list(g.view(None)["proposals"])
            for e in g.act(seat, rng.choice(g.legal_actions(seat))):
                won = e.get("proposal") if e["type"] == "proposal_chosen" else e.get("winner") if e["type"] == "votes_revealed" else None
                if isinstance(won, int):
                    checks.append((len(log), names[props[won]]))
                log.append({"version": len(log) + 1, "event": e})
        assert checks, "no proposal won: the test would prove nothing"
        out = call(page, "founders", """
          const ctx = { view: args.view, seat: 0, held: [0], log: args.log };
          return args.at.map((at) => r.describeEvent(args.log[at].event, { ...ctx, at }));""",
                   view=g.view(0), log=log, at=[at for at, _ in checks])
        wrong = [(said, name) for said, (_, name) in zip(out, checks, strict=True) if f"({name})" not in said]
        assert not wrong, (seats, seed, wrong)


def test_founders_buildings_by_section_use_printed_names(page):
    view = engines.LocalGame("founders-of-gloomhaven", seats=2, seed=1).view(None)
    cell = next(i for i, o in enumerate(view["occupancy"]) if o == -1)
    tile = {"id": len(view["tiles"]), "kind": "prestige", "resource": None, "owner": None, "neutral": False,
            "cells": [cell], "claims": [], "section": None, "card": "weavers_hall"}
    view = {**view, "tiles": [*view["tiles"], tile], "cards": {}, "prestige": []}
    text = call(page, "founders", """
      const el = r.render({ view: args.view, seat: null, held: [] });
      return el.querySelector('.fg-sections').textContent;""", view=view)
    assert "Weavers' Hall" in text and "Weavers hall" not in text, text
