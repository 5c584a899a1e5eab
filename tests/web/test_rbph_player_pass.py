"""A player's pass on Riverboat (Spanish, hot-seat) and Phoenicia (English, against bots) in the
browser: what the board and the log said that the rulebook would not. The renderers run as
functions in Chromium (as tests/web/test_render_rbfg.py)."""

from __future__ import annotations

import copy

from tablero import engines

from .test_render_rbfg import call, page  # noqa: F401 - the page fixture

SPANISH = "Object.defineProperty(navigator, 'languages', {get: () => ['es']});"


def _rb_view(seat=0):
    return copy.deepcopy(engines.LocalGame("riverboat", seats=2, seed=1).view(seat))


def test_riverboats_show_in_the_rulebooks_order_whatever_order_the_views_keys_come_in(page):  # noqa: F811
    """The view reaches the page through a protobuf Struct (keys in no set order): the board showed
    the boats as "1, 4, 5, 6, 7, 3b, 3a, 2b, 2a" and a player's harvest as "… 10 calabazas y
    0 patatas" out of the crops' order."""
    view = _rb_view()
    view["riverboats"] = dict(reversed(list(view["riverboats"].items())))
    view["players"][0]["harvested"] = {"pumpkin": 5, "potato": 3, "corn": 0, "wheat": 2, "beet": 1}
    out = call(page, "riverboat", """
      const el = r.render({ view: args.view, seat: 0, held: [0] });
      return { boats: [...el.querySelectorAll('.tile.boat h4')].map((x) => x.textContent.replace(/\\D*(\\w+) .*/, '$1')),
               line: el.querySelector('.player .small-print').textContent };""", view=view)
    assert out["boats"] == ["1", "2a", "2b", "3a", "3b", "4", "5", "6", "7"], out["boats"]
    assert "harvested: 1 beet, 2 wheat, 3 potatoes, and 5 pumpkins" in out["line"], out["line"]


def _said(page, module, events, view, spanish):  # noqa: F811
    if spanish:
        page.context.add_init_script(SPANISH)
        page.reload()
    return call(page, module, """
      const ctx = { view: args.view, seat: 0, held: [0] };
      return args.events.map((e) => r.describeEvent(e, ctx));""", view=view, events=events)


RB_EVENTS = [
    {"type": "surveyed", "seat": 1, "feature": "opportunity", "cell": None, "card": "boats", "vp": 4},
    {"type": "surveyed", "seat": 0, "feature": "barn", "cell": 6, "card": None, "vp": 0},
    {"type": "boat_claimed", "seat": 1, "boat": "6", "crop": "pumpkin", "cells": [7, 15, 19, 26, 27, 30], "coin": True,
     "gains": {}, "pending": [], "harvest_bonus": False},
    {"type": "round_scored", "round": 1, "vp": [2, 3], "order": [1, 0]},
    {"type": "game_ended", "scores": [54, 106], "winners": [1]},
    {"type": "game_ended", "scores": [80, 80], "winners": [0, 1]},
]


def test_the_riverboat_log_in_spanish_names_the_surveyed_card_a_paid_boat_and_one_winner(page):  # noqa: F811
    """The log read "Azul inspecciona: oportunidad (4 PV)" (which card?), "Rojo inspecciona: granero."
    (which, for how much?), "Azul reclama el barco fluvial 6 con calabaza." for a boat paid with a coin
    from its pile, "Se puntúa la ronda 1: Rojo 2 y Azul 3." (2 what?) and "ganadores: Azul" for one
    winner."""
    out = _said(page, "riverboat", RB_EVENTS, _rb_view(), spanish=True)
    assert out[0] == "Azul coloca un agrimensor en la carta Barcos (4 PV).", out[0]
    assert out[1] == "Rojo (tú) coloca un agrimensor en el granero de la casilla 7 (0 PV).", out[1]
    assert out[2] == "Azul reclama el barco fluvial 6 con calabaza (pagando una moneda, de su pila).", out[2]
    assert out[3].startswith("Se puntúa la ronda 1 (1 PV por agrimensor activo y por agente); PV ganados: "), out[3]
    assert out[4].endswith("; gana Azul."), out[4]
    assert out[5].endswith("; empate entre Rojo (tú) y Azul."), out[5]


def test_the_riverboat_log_in_english_says_the_same(page):  # noqa: F811
    out = _said(page, "riverboat", RB_EVENTS, _rb_view(), spanish=False)
    assert out[0] == "Blue places a surveyor on the Boats card (4 VP).", out[0]
    assert out[1] == "Red (you) places a surveyor on the barn on cell 7 (0 VP).", out[1]
    assert "(paying a coin, from its pile)" in out[2], out[2]
    assert out[4].endswith("; winner: Blue."), out[4]
    assert out[5].endswith("; a tie between Red (you) and Blue."), out[5]


def test_a_pending_send_of_agents_is_said_in_words_not_as_the_cards_name(page):  # noqa: F811
    """The status line read "Ronda 1 · fase: recolección · Azul: Agentes" (the opportunity card's
    name, capitalised) while Blue chose how many workers to send to New Orleans."""
    view = _rb_view()
    view["phase"] = "harvest"
    view["pending"] = {"seat": 1, "kind": "agents", "max": 2}
    page.context.add_init_script(SPANISH)
    page.reload()
    out = call(page, "riverboat", """
      const el = r.render({ view: args.view, seat: 0, held: [0] });
      return el.querySelector('.box').textContent;""", view=view)
    assert out.endswith(": enviar hasta 2 agentes a Nueva Orleans") and "Agentes" not in out, out


def _ph_view():
    view = copy.deepcopy(engines.LocalGame("phoenicia", seats=3, seed=1).view(0))
    view["players"][0]["tiles"][0]["slots"] = ["w", "w", None, None, None, None]  # two hunters
    return view


MOVES = [{"type": "move", "from_tile": 0, "from_slot": 0, "to": "farming"},
         {"type": "move", "from_tile": 0, "from_slot": 1, "to": "farming"}]


def test_phoenicias_two_moves_of_two_hunters_say_which_worker_moves(page):  # noqa: F811
    """Two buttons read "Move a worker to Farming — costs $5, paid at the next step", word for word:
    one moves the hunter of space 1, the other the hunter of space 2 (the space left takes a disk,
    and an Improved Hunting's spaces differ)."""
    out = call(page, "phoenicia", """
      const ctx = { view: args.view, seat: 0, held: [0] };
      return args.moves.map((a) => r.describeAction(a, ctx));""", view=_ph_view(), moves=MOVES)
    assert out == ["Move a worker from Hunting (space 1) to Farming — costs $5, paid at the next step",
                   "Move a worker from Hunting (space 2) to Farming — costs $5, paid at the next step"], out


def test_phoenicias_status_line_names_whose_turn_without_a_possessive_on_you(page):  # noqa: F811
    """"overlord Red (you) · Red (you)'s turn": the possessive after "(you)"."""
    view = _ph_view()
    view["overlord"], view["active"] = 0, 0
    out = call(page, "phoenicia", """
      return r.render({ view: args.view, seat: 0, held: [0] }).querySelector('.box').textContent;""", view=view)
    assert "'s turn" not in out and "Overlord: " in out and " · your turn" in out, out  # the viewer's: "your turn"


SCORES_JS = """async ([outcome, players]) => {
    const { result } = await import('/js/scores.js');
    const el = result({ outcome, players }, { seatNames: null }, null);
    const shown = [...el.querySelectorAll(':scope > .scroll tr th[scope=row]')].map((th) => th.textContent);
    const folded = [...el.querySelectorAll('details.more tr th[scope=row]')].map((th) => th.textContent);
    return { shown, folded };
}"""


def phoenicia_like_outcome() -> dict:
    """Phoenicia's outcome details as a finished game sends them: its totals, then "VP by card",
    a line per development card bought (fifteen here), and "VP by tableau"."""
    cards = {f"Card {i}": 1 for i in range(15)}
    detail = {"vp": 33, "production": 20, "cards_vp": 15, "workers_vp": 12, "bought_vp": 6, "last_overlord": False,
              "money": 4, "development_cards": 15, "vp_by_card": cards,
              "tie_break": {"last_overlord": False, "money": 4, "disks": 1, "production_cards": 1, "production_card_value": 3},
              "vp_by_tableau": {"hunting": 2, "farming": 4, "mining": 6}}
    return {"scores": [33, 20], "winners": [0], "details": [{"seat": s, **detail} for s in range(2)]}


def test_a_long_group_of_the_final_table_is_folded_away_whole(server, new_page):
    """Phoenicia's final table showed all fifteen "VP by card › …" lines up front (a group shown is
    shown whole), pushing "Workers VP" and "Money" down among them; the terminal showed three of
    the fifteen. The long group goes to the full breakdown whole; a short one stays whole."""
    p = new_page()
    p.goto(server.url + "/#/")
    p.wait_for_selector(".engines label")
    out = p.evaluate(SCORES_JS, [phoenicia_like_outcome(), 2])
    assert not [x for x in out["shown"] if "by card" in x], out["shown"]
    assert len([x for x in out["folded"] if "by card" in x]) == 15, out["folded"]
    assert len([x for x in out["shown"] if "by tableau" in x]) == 3, out["shown"]
    assert {"Cards vp", "Workers vp", "Bought vp"} <= set(out["shown"]), out["shown"]
    assert not [x for x in out["shown"] if "Tie" in x], out["shown"]  # won outright: no tie to break


PAYS = [{"type": "pay", "cards": [6], "disks": 0}, {"type": "pay", "cards": [4], "disks": 0},
        {"type": "pay", "cards": [], "disks": 4}, {"type": "pay", "cards": [4, 4], "disks": 1}]


def test_phoenicias_payments_name_the_cards_and_the_change(page):  # noqa: F811
    """With cards 4 and 6 in hand and a price of 4, two buttons read "Pay with 1 card and 0 disks":
    which card, and the 2 disks of change a 6 gives back (the treasury may not hold them)?"""
    view = _ph_view()
    view["payment"] = {"seat": 0, "card": "Granary", "bid": 4, "price": 4}
    out = call(page, "phoenicia", """
      const ctx = { view: args.view, seat: 0, held: [0] };
      return args.pays.map((a) => r.describeAction(a, ctx));""", view=view, pays=PAYS)
    assert out == ["Pay with card 6 — 2 back in disks", "Pay with card 4", "Pay with 4 disks",
                   "Pay with cards 4 and 4 plus 1 disk — 5 back in disks"], out


def test_phoenicias_bids_say_which_card_is_auctioned(page):  # noqa: F811
    """On a phone the turn box came first and read "Bid $7", "Bid $8", "Drop out": for which card,
    the auction being told below the display, a screen further down."""
    view = _ph_view()
    view["auction"] = {"card": "Glassmaking", "bid": 6, "leader": 2, "bidders": [1, 2, 0]}
    out = call(page, "phoenicia", """
      const ctx = { view: args.view, seat: 0, held: [0] };
      return [r.describeAction({ type: 'bid', amount: 7 }, ctx), r.describeAction({ type: 'drop_out' }, ctx)];""", view=view)
    assert out == ["Bid $7 — auction for Glassmaking", "Drop out — auction for Glassmaking"], out
