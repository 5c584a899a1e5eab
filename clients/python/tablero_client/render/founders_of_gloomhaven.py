"""Founders of Gloomhaven: phase, whose turn and the action under way; the city map square by square
(terrain colours, buildings with their owners, roads, bridges and gates) and its buildings by section;
each player's points, money, influence, resources, workers, pieces and hand (yours only); the adviser
offer, the proposals and prestige buildings, completion tokens; the vote (secret votes never shown)."""

from __future__ import annotations

import re
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..models import Game
from .fit import Fit, WholeWords
from .words import name as _name

# Empty squares: a glyph and a style per terrain colour (grey squares show their number when numbered).
TERRAIN = {"red": (". ", "on dark_red"), "white": (": ", "black on grey85"), "green": ('" ', "on dark_green"),
           "grey": ("o ", "on grey39"), "river": ("~~", "bright_white on blue"), "wall": ("##", "on grey23")}
KIND = {"stall": "s", "t2": "T", "t3": "U", "house": "h", "bridge": "b", "prestige": "P"}
OWNER_STYLE = ["bold bright_cyan", "bold bright_yellow", "bold bright_magenta", "bold bright_green"]
# The prestige buildings' printed names (engines/founders_of_gloomhaven/edition.json, "prestige" -> "name";
# the browser's founders.js has the same table, and a test keeps both equal to the engine's). The view
# names only the cards in sight now; a building no longer in sight (an earlier vote's) is named from here.
PRINTED = {
    "salt_barrel": "Salt Barrel",
    "west_gate": "West Gate",
    "north_gate": "North Gate",
    "ghost_fortress": "Ghost Fortress",
    "golden_lion": "The Golden Lion",
    "temple_great_oak": "Temple of the Great Oak",
    "grand_theater": "Grand Theater",
    "luxury_shop": "Luxury Shop",
    "tanners_hall": "Tanners' Hall",
    "scholars_library": "Scholars' Library",
    "foundry": "Foundry",
    "market_square": "Market Square",
    "armory": "Armory",
    "guild_house": "Guild House",
    "council_chamber": "Council Chamber",
    "harbor_warehouse": "Harbor Warehouse",
    "healers_hospice": "Healers' Hospice",
    "stonemason_lodge": "Stonemason Lodge",
    "tavern": "Tavern",
    "watchtower": "Watchtower",
    "weavers_hall": "Weavers' Hall",
}


def render(game: Game) -> Group:
    v = game.view
    parts: list[Any] = [_head(game)]
    parts += [_map(game), _legend(game), _sections(game), Fit(_players(game))]
    hand = _own_hand(game)
    if hand is not None:
        parts.append(hand)
    parts += [_market(game, v), _prestige(game, v)]
    for extra in (_vote(game), _pending(game), _setup(game, v), _solo(game, v), _result(game)):
        if extra is not None:
            parts.append(extra)
    return Group(*parts)


def _seat_args(game: Game, s: Any) -> dict[str, str]:
    """A label's `who` and `who_you` for a seat ("juegas", not "Rojo (tú) juega")."""
    from . import seats_args

    return seats_args(game, s, lambda x: _seat(game, x))


def _seat(game: Game, s: Any) -> str:
    from . import player_name

    if s is None:
        return "—"
    return player_name(game, s)


def _m(game: Game) -> Any:
    from . import messages

    return messages(game)


def _head(game: Game) -> Text:
    from .i18n import value

    v = game.view
    m = _m(game)
    t = Text()
    t.append(m.format("label.term_phase", {"phase": m.format("label.phase", {"phase": v.get("phase") or "", "text": _name(v.get("phase"))}).lower()}), style="bold")
    t.append("  " + m.format("label.term_active", {"who": _seat(game, v.get("active"))}))
    t.append("  " + m.format("label.to_act", {"who": ", ".join(_seat(game, s) for s in v.get("to_act") or []) or m.format("web.nobody")}), style="yellow")
    cur = v.get("current")
    if isinstance(cur, dict):  # who acts and how (label.current, as the page says it), then the rest
        cat = cur.get("category")
        who = m.format("label.current", {**_seat_args(game, cur.get("seat")), "role": cur.get("role") or "",
                                         "has_category": "true" if cat else "false",
                                         "category": m.format("label.follow_any") if cat == "any"  # the Income card's follow
                                         else value(m, cat) if isinstance(cat, str) else ""})
        rest = ", ".join(f"{m.format('label.fields', {'field': k, 'text': k})} {_fmt(game, x)}" for k, x in cur.items()
                         if k not in ("seat", "role", "category") and x not in (None, "", [], {}))
        t.append("\n" + m.format("label.term_under_way", {"who": who, "has_what": "true" if rest else "false", "what": rest}))
    t.append("\n" + m.format("label.term_tokens", {"completions": v.get("completions"), "roads": v.get("roads_left", "?"),
                                                    "neutral": ", ".join(str(value(m, r)) for r in v.get("neutral") or []) or "—"}))
    return t


def _cell_text(v: dict[str, Any], cell: int, tiles: dict[int, dict[str, Any]]) -> tuple[str, str]:
    m = v["map"]
    colour = (m.get("colours") or [])[cell]
    occ = (v.get("occupancy") or [])[cell]
    glyph, style = TERRAIN.get(colour, ("? ", ""))
    bg = style.split(" on ")[-1] if " on " in style else style.removeprefix("on ")
    if occ == -2:
        return "==", f"bold white on {bg or 'default'}"
    if occ >= 0 and occ in tiles:
        t = tiles[occ]
        kind = t.get("kind")
        letter = KIND.get(kind, "?")
        if kind == "bridge" and colour == "wall":
            letter = "g"
        owner = t.get("owner")
        # the seat as every screen numbers it (seat index 0 is "seat 1"), as the key says
        mark = str(owner + 1) if isinstance(owner, int) else ("n" if t.get("neutral") else "·")
        ostyle = OWNER_STYLE[owner % 4] if isinstance(owner, int) else "bold white"
        return letter + mark, f"{ostyle} on {bg or 'default'}"
    num = (m.get("numbered") or {}).get(str(cell))
    if num is not None:
        return f"{num}".ljust(2), f"bold {style}"
    return glyph, style


def _map(game: Game) -> Text:
    v = game.view
    m = v.get("map") or {}
    w, h = int(m.get("width") or 0), int(m.get("height") or 0)
    tiles = {t["id"]: t for t in v.get("tiles") or []}
    out = Text(_m(game).format("label.term_map", {"side": m.get("side") or "", "w": w, "h": h, "sections": ", ".join(
        _section_name(game, i) for i in range(len(m.get("section_names") or [])))}) + "\n", style="bold")
    out.append("    " + "".join(f"{_column(c):<2}" for c in range(w)) + "\n", style="dim")
    for r in range(h):
        out.append(f"{r + 1:>3} ", style="dim")
        for c in range(w):
            txt, style = _cell_text(v, r * w + c, tiles)
            out.append(txt, style=style)
        out.append("\n")
    return out


def _column(c: int) -> str:
    """The map's label of column c: A..Z, then AA, AB..."""
    return chr(65 + c) if c < 26 else _column(c // 26 - 1) + chr(65 + c % 26)


def square(game: Game, cell: Any) -> str:
    """A square as the map labels it: its column's letter and its row's number (cell 85 of a map 21
    squares wide is `B5`); the bare number when the view has no map."""
    w = int(((game.view or {}).get("map") or {}).get("width") or 0)
    if not isinstance(cell, int) or isinstance(cell, bool) or cell < 0 or w <= 0:
        return str(cell)
    return f"{_column(cell % w)}{cell // w + 1}"


def _legend(game: Game) -> Text:
    m = _m(game)
    t = Text(m.format("label.term_key") + " ", style="dim")
    for name, (g, style) in TERRAIN.items():
        t.append(g, style=style)
        t.append(f" {m.format('label.terrain', {'terrain': name})}  ", style="dim")
    t.append(m.format("label.term_legend"), style="dim")
    return t


def _section_name(game: Game, idx: int) -> str:
    """A city section by its place on the map, in the catalog's words (the view's names are English)."""
    from . import messages

    m = messages(game)
    side = ((game.view or {}).get("map") or {}).get("side") or "thematic"
    names = ((game.view or {}).get("map") or {}).get("section_names") or []
    return m.format("label.section", {"side": side, "n": idx}) if m.has("label.section") else str(names[idx])


def _section_of(game: Game, t: dict[str, Any]) -> str:
    from . import messages

    m = (game.view or {}).get("map") or {}
    names = m.get("section_names") or []
    secs = m.get("sections") or []
    for c in t.get("cells") or []:
        if 0 <= c < len(secs) and secs[c] is not None and secs[c] < len(names):
            return _section_name(game, secs[c])
    return str(t.get("section") or messages(game).format("label.outside_sections"))


def _tile_label(game: Game, t: dict[str, Any]) -> str:
    from .i18n import value

    m = _m(game)
    kind = t.get("kind")
    if kind == "bridge":  # a bridge on the river, a gate in the wall
        colours = (game.view.get("map") or {}).get("colours") or []
        on = {colours[c] for c in t.get("cells") or [] if 0 <= c < len(colours)}
        kind = "gate" if "wall" in on else "bridge"
    card = _card_name(game, t["card"]) if kind == "prestige" and t.get("card") else ""
    what = m.format("label.term_tile_what", {"kind": m.format("label.kind", {"kind": kind}),
                                             "has_resource": "true" if t.get("resource") else "false",
                                             "resource": value(m, t.get("resource") or ""),
                                             "has_card": "true" if card else "false", "card": card})
    owner = t.get("owner")
    who = _seat(game, owner) if owner is not None else (m.format("label.owner", {"neutral": "true"}) if t.get("neutral") else "")
    claims = m.list([_seat(game, x) for x in t.get("claims") or []])
    tid = t.get("id")  # numbered from 1 as a person counts (the API's id 0 is tile 1)
    return m.format("label.term_tile", {"id": tid + 1 if isinstance(tid, int) else tid, "what": what, "has_owner": "true" if who else "false",
                                        "owner": who, "has_claims": "true" if claims else "false", "claims": claims})


def _sections(game: Game) -> Table:
    v = game.view
    from . import messages

    m = messages(game)
    by: dict[str, list[str]] = {}
    for idx, _ in enumerate((v.get("map") or {}).get("section_names") or []):
        by[_section_name(game, idx)] = []
    for t in v.get("tiles") or []:
        by.setdefault(_section_of(game, t), []).append(_tile_label(game, t))
    tab = Table(title=m.format("label.by_section"), title_justify="left")
    tab.add_column(m.format("label.term_column", {"column": "section"}))
    tab.add_column(m.format("label.term_column", {"column": "buildings"}))
    for name, items in by.items():
        _row(tab, name, "\n".join(items) or "—")
    return tab


def _players(game: Game) -> Table:
    from .i18n import value

    v = game.view
    m = _m(game)
    tab = Table(title=m.format("label.term_players"), title_justify="left")
    for col in ("seat", "race", "points", "money", "influence", "resources", "workers",
                "pieces", "advisers", "income", "hand", "played"):
        tab.add_column(m.format("label.term_column", {"column": col}))
    for p in v.get("players") or []:
        i = p.get("seat")
        mine = i == game.your_seat
        played, down = [], 0
        for c in p.get("played") or []:
            if c.get("face_up"):
                played.append(_card_name(game, c.get("card")))
            elif mine and c.get("card"):
                played.append(m.format("label.term_face_down_own", {"card": _card_name(game, c.get("card"))}))
            else:
                down += 1
        if down:
            played.append(m.format("label.hidden_cards", {"n": down}))
        score = ", ".join(f"{m.format('label.details', {'detail': k, 'text': k})} {x}"
                          for k, x in (p.get("score") or {}).items() if x)
        placed = [m.format("label.your_race_action") if x == "race" else _card_name(game, x)
                  for x in p.get("workers_placed") or []]
        advisers = p.get("advisers", "")
        advisers = m.list([_card_name(game, a) for a in advisers]) if isinstance(advisers, list) else str(advisers)
        active = f"  {m.format('label.term_active_mark')}" if i == v.get("active") else ""
        _row(tab, f"{_seat(game, i)}{active}", str(value(m, str(p.get("race") or ""))),
                    m.format("label.term_points", {"n": p.get("points") or 0}) + (f"\n({score})" if score else ""),
                    m.format("amount.money", {"n": p.get("money") or 0}),
                    f"{p.get('fleeting')}/{p.get('lasting')}", m.list([str(value(m, r)) for r in p.get("resources") or []]),
                    m.format("label.term_workers", {"n": p.get("workers") or 0, "has_on": "true" if placed else "false",
                                                    "on": m.list(placed)}),
                    f"{p.get('houses')}/{p.get('bridges')}/{p.get('roads')}", advisers,
                    str(p.get("income")), m.format("label.term_cards", {"n": p.get("hand_size") or 0}),
                    m.list(played) or "—", style="bold" if mine else "")
    return tab


def action_effect(action: dict[str, Any], game: Game) -> str | None:
    """What playing a card face up does (the catalog's `effect.<card>`), beside the move (face down it
    gives a basic action instead)."""
    from . import messages

    m = messages(game)
    card = action.get("card")
    if action.get("type") == "play_card" and action.get("face_up") and isinstance(card, str) and m.has(f"effect.{card}"):
        return m.format(f"effect.{card}")
    return None


def _own_hand(game: Game) -> Text | None:
    """Only the viewer's own hand, never another seat's (even if a view carried one)."""
    you = game.your_seat
    for p in game.view.get("players") or []:
        if you is not None and p.get("seat") == you and p.get("hand") is not None:
            m = _m(game)
            t = Text(m.format("label.your_hand") + " ", style="bold cyan")
            t.append(", ".join(_card_name(game, x) for x in p["hand"]) or m.format("value.none_f"))  # "Tu mano: ninguna"
            # what each card does played face up (the catalog's effect.<card>)
            for x in p["hand"]:
                if m.has(f"effect.{x}"):
                    t.append(f"\n  {_card_name(game, x)}: {m.format(f'effect.{x}')}", style="dim")
            return t
    return None


def _card_text(game: Game, card: dict[str, Any] | None, card_id: str) -> str:
    """What a card says (the view's `cards`): a proposal's needs and points, an adviser's terms."""
    from .i18n import amounts, value

    m = _m(game)
    name = _card_name(game, card_id)
    if not card:
        return name
    if card.get("kind") == "prestige":
        action = card.get("action") or {}
        return name + " — " + m.format("label.prestige_text", {
            "needs": " + ".join(str(value(m, r)) for r in card.get("requires") or []), "points": card.get("points"),
            "shape": card.get("shape") or "",
            "colour": m.format("label.terrain", {"terrain": card["colour"]}) if card.get("colour") else "",
            "has_action": "true" if action else "false", "action": amounts(m, action) if action else ""})
    # "+1 carretera", "+1 de influencia temporal": the catalog's amount.<resource> (else its label.res)
    bonus = ", ".join("+" + (m.format(f"amount.{k}", {"n": n}) if m.has(f"amount.{k}") else f"{n} {m.format('label.res', {'res': k})}")
                      for k, n in (card.get("bonus") or {}).items())
    return name + " — " + m.format("label.adviser_text", {
        "category": value(m, card.get("category") or ""), "resource": value(m, card.get("resource") or ""),
        "value": card.get("value"), "discount": card.get("discount") or 0, "has_bonus": "true" if bonus else "false",
        "bonus": bonus})


def _market(game: Game, v: dict[str, Any]) -> Text:
    from .i18n import value

    m = _m(game)
    costs = v.get("offer_costs") or []
    t = Text(m.format("label.adviser_offer") + ": ", style="bold")
    t.append(", ".join(f"{_printed(v, a) if a else m.format('label.empty_slot')} "
                       f"{m.format('amount.money', {'n': costs[k]}) if k < len(costs) else '?'}"
                       for k, a in enumerate(v.get("offer") or [])) or "—")
    t.append(f"   ({m.format('label.deck', {'n': v.get('adviser_deck_size', '?')})})")
    t.append("\n" + m.format("label.proposals") + ": ", style="bold")
    cards = v.get("cards") or {}
    t.append(f"   ({m.format('label.deck', {'n': v.get('proposal_deck_size', '?')})})" if v.get("proposals") else "—")
    for k, p in enumerate(v.get("proposals") or []):
        t.append(f"\n  {k + 1}. {_card_text(game, cards.get(p), p)}")
    supply = v.get("supply") or {}
    t.append("\n" + m.format("label.term_supply") + " ", style="bold")
    t.append(", ".join(f"{value(m, r)} {n}" for r, n in supply.items()) or "—")
    if v.get("removed"):
        t.append("\n" + m.format("label.term_removed", {"what": m.list([_printed(v, x) for x in v["removed"]])}),
                 style="dim")
    return t


def _prestige(game: Game, v: dict[str, Any]) -> WholeWords | Text:
    from .i18n import amounts, value

    m = _m(game)
    rows = v.get("prestige") or []
    if not rows:
        return Text(m.format("label.prestige_buildings") + ": " + m.format("label.term_none_built"), style="dim")
    tab = Table(title=m.format("label.prestige_buildings"), title_justify="left")
    for col in ("building", "tile", "requires", "complete", "worker", "points", "action"):
        tab.add_column(m.format("label.term_column", {"column": col}))
    for pb in rows:
        req = []
        for k, r in enumerate(pb.get("requires") or []):
            d = (pb.get("delivered") or [])[k] if k < len(pb.get("delivered") or []) else None
            by = "—" if d is None else (m.format("label.owner", {"neutral": "true"}) if d == -1 else _seat(game, d))
            req.append(f"{value(m, r)}: {by}")
        _row(tab, _printed(v, pb.get("card")) if pb.get("card") else str(pb.get("name")), _tile_number(pb.get("tile")), "\n".join(req),
                    m.format("value.yes" if pb.get("complete") else "value.no"),
                    "—" if pb.get("worker") is None else _seat(game, pb["worker"]),
                    str(pb.get("points", "")), amounts(m, pb.get("action") or {}) if pb.get("action") else "—")
    return WholeWords(tab)


def _vote(game: Game) -> Text | None:
    vote = game.view.get("vote")
    if not isinstance(vote, dict):
        return None
    from . import messages, player_name

    m = messages(game)
    t = Text(m.format("label.vote") + " " + m.format("label.vote_called", {"who": player_name(game, vote.get("caller")),
                                                                     "who_you": "true" if vote.get("caller") == game.your_seat else "false",
                                                                     "stage": m.format("label.vote_stage", {"stage": vote.get("stage") or ""})}) + "\n",
             style="bold yellow")
    # Each seat's vote, as far as this seat may know it: revealed votes with their influence, one's
    # own (secret until the reveal), else whether the seat has voted.
    votes = vote.get("votes") if isinstance(vote.get("votes"), list) and vote.get("stage") != "voting" else []
    mine = vote.get("my_vote")
    for s, did in enumerate(vote.get("voted") or []):
        x = votes[s] if s < len(votes) and isinstance(votes[s], dict) else None
        if x is not None:
            # What the totals count: 1 + fleeting + 2 x lasting (the engine's vote weight).
            fleeting, lasting = x.get("fleeting") or 0, x.get("lasting") or 0
            said = m.format("label.vote_counted", {"proposal": _proposal(game, x.get("proposal")), "fleeting": fleeting,
                                                   "lasting": lasting, "n": 1 + fleeting + 2 * lasting})
        elif s == game.your_seat and isinstance(mine, dict):
            said = m.format("label.my_vote", {"proposal": _proposal(game, mine.get("proposal")),
                                              "fleeting": mine.get("fleeting", 0), "lasting": mine.get("lasting", 0)})
        else:
            said = m.format("label.vote_state", {"voted": "true" if did else "false"})
        t.append(f"  {player_name(game, s)}: {said}\n")
    if vote.get("tied"):
        t.append("\n" + m.format("label.tied", {"what": m.list([_proposal(game, x) for x in vote["tied"]])}))
    if vote.get("decider") is not None:
        t.append("\n" + m.format("label.decider", _seat_args(game, vote["decider"])))
    if vote.get("placer") is not None:
        t.append("\n" + m.format("label.term_placer", _seat_args(game, vote["placer"])))
    if vote.get("card"):
        t.append("\n" + m.format("label.term_chosen", {"name": _card_name(game, vote["card"])}))
    return t


def _roads_due(game: Game, r: Any) -> str:
    """`{"seat": 1, "queue": [35, None, None]}`: the roads a player is owed, the first ones built next to a
    given building (its tile id), the rest anywhere connected to what they own."""
    m = _m(game)
    if not isinstance(r, dict):
        return _fmt(game, r)
    queue = r.get("queue") or []
    next_to = [m.format("label.term_road_next_to", {"id": q}) for q in queue if q is not None]
    free = sum(1 for q in queue if q is None)
    parts = next_to + ([m.format("label.term_roads_free", {"n": free})] if free else [])
    return m.format("label.term_roads_due", {"who": _seat(game, r.get("seat")), "n": len(queue),
                                             "where": m.list(parts) or m.format("value.none")})


def _pending(game: Game) -> Text | None:
    v = game.view
    m = _m(game)
    bits = [_roads_due(game, v["roads_due"])] if v.get("roads_due") else []
    reset = v.get("reset")
    if isinstance(reset, dict):
        bits.append(m.format("label.term_reset", {"who": _seat(game, reset.get("seat")), "n": reset.get("n") or 0}))
    elif reset:
        bits.append(m.format("label.term_reset", {"who": _fmt(game, reset), "n": 0}))
    if v.get("achievements"):
        bits.append(m.format("label.term_achievements", {"what": m.list([
            f"{m.format('label.term_achievement_deck', {'deck': k})} {m.format('label.achievement_name', {'id': a})}"
            for k, a in v["achievements"].items()])}))
    if v.get("achievements_scored"):  # by id: the seats that scored it
        bits.append(m.format("label.term_achievements_scored", {"what": m.list([
            f"{m.format('label.achievement_name', {'id': a})} {m.list([_seat(game, s) for s in seats or []])}"
            for a, seats in v["achievements_scored"].items()])}))
    return Text("\n".join(bits), style="yellow") if bits else None


def _setup_words(game: Game, s: dict[str, Any]) -> str:
    """`draft [1, 0], pool [...]` -> `drafting order seat 1, seat 0 (you); resources left: wood, stone; ...`."""
    from .i18n import value

    m = _m(game)

    def order(seats: Any) -> str:
        return m.list([_seat(game, x) for x in seats or []]) or m.format("label.term_done")

    parts = [m.format("label.term_setup_draft", {"order": order(s.get("draft"))})] if "draft" in s else []
    if s.get("pool"):
        parts.append(m.format("label.term_setup_pool", {"what": m.list([str(value(m, r)) for r in s["pool"]])}))
    if "place" in s:
        parts.append(m.format("label.term_setup_place", {"order": order(s.get("place"))}))
    placed = [(i, p) for i, p in enumerate(s.get("placed") or []) if p]
    if placed:
        parts.append(m.format("label.term_setup_placed", {"what": "; ".join(
            f"{_seat(game, i)} {_fmt(game, p)}" for i, p in placed)}))
    rest = {k: x for k, x in s.items() if k not in ("draft", "pool", "place", "placed")}
    parts += [f"{value(m, k)} {_fmt(game, x)}" for k, x in rest.items()]
    return "; ".join(parts)


def _setup(game: Game, v: dict[str, Any]) -> Text | None:
    s = v.get("setup")
    if not isinstance(s, dict):
        return None
    return Text(_m(game).format("label.term_setup", {"what": _setup_words(game, s)}), style="yellow")


def _solo(game: Game, v: dict[str, Any]) -> Text | None:
    s = v.get("solo")
    if not isinstance(s, dict):
        return None
    m = _m(game)
    costs = s.get("costs")
    costs = (m.list([m.format("label.term_solo_cost", {"n": i, "cost": c}) for i, c in enumerate(costs, 1)])
             if isinstance(costs, list) else _fmt(game, costs))
    return Text(m.format("label.term_solo", {"cycle": s.get("cycle"), "costs": costs}), style="cyan")


def _result(game: Game) -> Text | None:
    r = game.view.get("result")
    if not isinstance(r, dict):
        return None
    from . import player_name

    m = _m(game)
    scores = r.get("scores") if isinstance(r.get("scores"), list) else []
    winners = r.get("winners") or []
    t = Text(m.format("label.term_result", {
        "has_reason": "true" if r.get("reason") else "false", "reason": m.format("label.term_reason", {"reason": r.get("reason") or ""}),
        "scores": m.list([m.format("label.term_score_of", {"who": player_name(game, s), "n": x}) for s, x in enumerate(scores)])
        or m.format("value.none_f"),  # "Puntuaciones: ninguna"
        "winners_n": len(winners), "winners": m.list([player_name(game, w) for w in winners])}), style="bold red")
    if r.get("tie_break") and _tied(r.get("scores")):
        t.append("  " + m.format("label.term_tie_break"), style="dim")
    if r.get("reason") == "stalled":  # the safety net's end, said as the browser says it
        t.append("\n" + m.format("label.stalled"), style="dim")
    h = game.view.get("history")
    if isinstance(h, dict):
        t.append("\n" + m.format("label.term_history", {
            "who": _seat(game, h.get("seat")), "building": _card_name(game, h.get("building")),
            "section": _section_label(game, h.get("section"), h.get("section_id")),
            "body": h.get("governing_body") or ""}), style="dim")
    card = r.get("shaping_history")
    if isinstance(card, dict):
        t.append("\n" + "\n".join(_event_card(game, card)), style="bold")
    return t


def _section_label(game: Game, section: Any, section_id: Any = None) -> str:
    """A section by its id (`left`, `middle`, `right`: the engine's `section_id`), else by the English
    name the engine wrote (the map's `section_names`), in the catalog's words."""
    names = ((game.view or {}).get("map") or {}).get("section_names") or []
    places = ("left", "middle", "right")
    if section_id in places:
        return _section_name(game, places.index(section_id))
    if section in names:
        return _section_name(game, names.index(section))
    return str(section or "")


def _event_card(game: Game, card: dict[str, Any]) -> list[str]:
    """The Shaping history variant (v8): the winner's race event card and what its three blanks
    need, written on the printed card (clients/web/js/render/founders.js, outcomeNotes)."""
    from . import player_name
    from .i18n import value

    m = _m(game)
    who = player_name(game, card.get("seat"))
    lines = [m.format("label.history_card", {"who": who, "race": value(m, str(card.get("race") or "")),
                                             "card": card.get("card") or ""}),
             m.format("label.history_blanks", {"who": who})]
    delivered = bool(card.get("delivered_to"))
    listed = []
    for b in card.get("buildings") or []:
        if not isinstance(b, dict):
            continue
        where = [_section_label(game, b["section"], b.get("section_id"))] if b.get("section") else []
        if delivered:
            where.append(m.format("label.delivery_tokens", {"n": b.get("deliveries") or 0}))
        name = _card_name(game, b.get("card")) if b.get("card") else str(b.get("name") or "")
        listed.append(name + (f" ({', '.join(where)})" if where else ""))
    if listed:
        lines.append(m.format("label.history_buildings", {"who": who, "delivered": "true" if delivered else "false",
                                                          "listed": "; ".join(listed)}))
    return lines


def _tied(scores: Any) -> bool:
    """Whether a tie-break decided the winner: two players or more sharing the best score (never
    in a solo game, whatever the engine's result says about its tie-break rule)."""
    if not isinstance(scores, list) or len(scores) < 2:
        return False
    return scores.count(max(scores)) > 1


def _row(tab: Table, *cells: str, style: str = "") -> None:
    """Cells as plain Text: names like "[seat 0]" must never be read as rich markup."""
    tab.add_row(*(Text(c) for c in cells), style=style)


def _fmt(game: Game, x: Any) -> str:
    from .i18n import value

    m = _m(game)
    if x is None:
        return "—"
    if isinstance(x, bool):
        return m.format("value.yes" if x else "value.no")
    if isinstance(x, dict):  # amounts in words where the catalog has them (a bonus: "1 carretera")
        return ", ".join(m.format(f"amount.{k}", {"n": y}) if isinstance(y, int) and not isinstance(y, bool) and m.has(f"amount.{k}")
                         else f"{m.format('label.fields', {'field': k, 'text': value(m, k)})} {_fmt(game, y)}"
                         for k, y in x.items())
    if isinstance(x, list):
        return "[" + ", ".join(_fmt(game, y) for y in x) + "]"
    if isinstance(x, str):
        return str(value(m, x))
    return str(x)


# --- actions and the event log in words (clients/web/js/render/founders.js) --------------------
_THEN: dict[str, dict[str, Any]] = {}  # game id -> the proposals on the table as the log followed so far left them


def follow(event: dict[str, Any], game: Game) -> None:
    """The proposals on the table, replayed from the log as the engine does (the browser's
    proposalsThen): game_started deals them; a draw while the winner is being placed replaces the
    unplaceable one; any other draw replaces them all, except alone (solo), where the drawn cards
    join the two left. A vote's line names the proposals it was about, not those on the table now."""
    t = _THEN.setdefault(game.id, {"props": None, "winner": None, "placing": False, "placed": None})
    kind = event.get("type")
    if kind == "game_started":
        t["props"] = list(event["proposals"]) if isinstance(event.get("proposals"), list) else None
        t["placed"] = []
    elif (kind == "votes_revealed" and isinstance(event.get("winner"), int)) or kind == "proposal_chosen":
        t["winner"], t["placing"] = event.get("proposal" if kind == "proposal_chosen" else "winner"), True
    elif kind == "prestige_placed":  # a delivery names its building by its place in this list
        t["placing"] = False
        if t.get("placed") is not None:  # known from the game's start only (a trimmed log: the view's)
            t["placed"].append(event.get("card"))
    elif kind == "proposals_drawn" and isinstance(event.get("cards"), list) and t["props"] is not None:
        cards, props, w = event["cards"], t["props"], t["winner"]
        if t["placing"] and isinstance(w, int):
            if cards and 0 <= w < len(props):
                props[w] = cards[0]
            elif not cards:
                t["placing"] = False
        elif (game.view or {}).get("solo"):
            t["props"] = [p for k, p in enumerate(props) if k != w] + cards
        else:
            t["props"] = list(cards)


def _proposals(game: Game) -> list[Any]:
    """The proposals an event being worded refers to (as `follow` left them), else the view's."""
    from . import DESCRIBING

    then = _THEN.get(game.id, {}).get("props")
    return then if DESCRIBING.get() and then is not None else (game.view or {}).get("proposals") or []


def _proposal(game: Game, i: Any) -> str:
    """Proposal i (0-based in the view and actions) as a person reads it: numbered from 1, with its name."""
    m = _m(game)
    if not isinstance(i, int) or isinstance(i, bool):
        return m.format("label.term_a_proposal")
    props = _proposals(game)
    name = _card_name(game, props[i]) if 0 <= i < len(props) else ""
    return m.format("label.proposal", {"n": i + 1, "has_name": "true" if name else "false", "name": name})


def _card_name(game: Game, card: Any) -> str:
    return _printed(game.view or {}, card)


def _printed(v: dict[str, Any], card: Any) -> str:
    """A card's name as printed, capitals and apostrophes kept ("Weavers' Hall"), the same as the browser
    names it: the view's card facts, else its prestige list, else the printed names; an adviser not in
    sight by its id in title case, as the view names advisers. In another language: the catalog's name."""
    from . import i18n

    cat = i18n.catalog("founders-of-gloomhaven")
    if cat is not None and (cat.lang != "en" or cat.pseudo) and isinstance(card, str) and cat.has(f"name.{card}"):
        name = cat.format(f"name.{card}")  # a card's name starts with a capital, as printed (the
        return name[:1].upper() + name[1:]  # catalog's "comercio" is also the building category)
    c = (v.get("cards") or {}).get(card) if isinstance(card, str) else None
    if isinstance(c, dict) and c.get("name"):
        return str(c["name"])
    for pb in v.get("prestige") or []:
        if isinstance(pb, dict) and pb.get("card") == card and pb.get("name"):
            return str(pb["name"])
    if isinstance(card, str) and card in PRINTED:
        return PRINTED[card]
    return re.sub(r"[_-]+", " ", str(card)).title() if card is not None else "—"


def step_label(path: str, value: Any, game: Game) -> str | None:
    """A value of a step-by-step choice as the map and the board name it (squares `H1, I1`)."""
    if path == "cell":
        return _sq(game, [value])
    if path == "cells" and isinstance(value, list):
        return _sq(game, value)
    if path == "proposal":
        return _proposal(game, value)
    if path in ("card", "target", "building"):
        return _card_name(game, value)
    if path == "slot" and isinstance(value, int):
        return _offer_slot(game, value, _m(game).format("label.slot", {"n": value + 1}))
    if path == "tile" and isinstance(value, int):
        return _tile_named(game, value)
    return None


def field_value(key: str, value: Any, game: Game) -> str | None:
    """A field of an event or action as the map and the board name it: squares `B5`, proposals
    numbered from 1 with their names, cards as printed, slots from 1."""
    if key == "cell" and isinstance(value, int):
        return square(game, value)
    if key == "cells" and isinstance(value, list):
        return ", ".join(square(game, c) for c in value)
    if key in ("proposal", "winner") and isinstance(value, int) and not isinstance(value, bool):
        return _proposal(game, value).split(" ", 1)[1]
    if key in ("card", "target", "building", "adviser", "private_card") and isinstance(value, str):
        return _card_name(game, value) or None  # private_card: one's own card played face down
    if key == "tile" and isinstance(value, int) and not isinstance(value, bool):
        return _tile_named(game, value)
    if key == "totals" and isinstance(value, list):  # a vote's influence by proposal, named (three
        return _vote_totals(game, value)  # totals also when fewer proposals were left)
    if key == "building" and isinstance(value, int) and not isinstance(value, bool):
        return _delivered_to(game, value)
    if key == "slot" and isinstance(value, int):
        return _offer_slot(game, value, str(value + 1))
    return None


def _delivered_to(game: Game, i: int) -> str | None:
    """A delivery's building, by its place among the prestige buildings in the order they were
    placed: from the log followed so far (the view an event is worded with may be from before the
    write that placed it, as the browser's prestigeThen knows), else from the view."""
    from . import DESCRIBING

    placed = (_THEN.get(game.id, {}).get("placed") or []) if DESCRIBING.get() else []
    if 0 <= i < len(placed) and isinstance(placed[i], str):
        return _card_name(game, placed[i]) or None
    prestige = (game.view or {}).get("prestige") or []
    if 0 <= i < len(prestige) and isinstance(prestige[i], dict):
        return _card_name(game, prestige[i].get("card")) or None
    return None


def _offer_slot(game: Game, i: int, said: str) -> str:
    """A slot of the adviser offer with the adviser lying there now ("3 (Merchant)"), as the page
    says it: "Recruit the adviser in slot 3" left the player to count the offer's cards."""
    offer = (game.view or {}).get("offer") or []
    card = offer[i] if 0 <= i < len(offer) else None
    return f"{said} ({_card_name(game, card)})" if isinstance(card, str) else said


def _tile_number(tid: Any) -> str:
    """A tile's number as players read it: from 1 as a person counts (the API's id 0 is tile 1)."""
    return str(tid + 1) if isinstance(tid, int) and not isinstance(tid, bool) else str(tid)


def _tile_named(game: Game, tid: int) -> str | None:
    """A tile by its number with what it is, whose and where ("3 (stall · wood · seat 1, Q3)"), as the
    browser says it: "Buy access to tile 3" alone named nothing a player could find. Numbered from 1
    (it said "tile 0"); a tile the view does not hold: its number alone."""
    from .i18n import value

    v = game.view or {}
    t = next((x for x in v.get("tiles") or [] if isinstance(x, dict) and x.get("id") == tid), None)
    if t is None or not t.get("cells"):
        return _tile_number(tid)
    m = _m(game)
    colours = (v.get("map") or {}).get("colours") or []
    first = t["cells"][0]
    kind = "gate" if t.get("kind") == "bridge" and 0 <= first < len(colours) and colours[first] == "wall" else t.get("kind")
    owner = t.get("owner")
    neutral = "true" if t.get("neutral") or t.get("kind") == "stall" else "false"
    who = _seat(game, owner) if owner is not None else m.format("label.owner", {"neutral": neutral})
    return m.format("label.tile_named", {"id": tid + 1, "kind": m.format("label.kind", {"kind": kind}),
                                         "has_resource": "true" if t.get("resource") else "false",
                                         "resource": value(m, t.get("resource") or ""), "owner": who,
                                         "square": square(game, first)})


def _vote_totals(game: Game, totals: list[Any]) -> str:
    """"Scholars' Library 3 influence, Armory 1 influence and Tavern 0 influence" (it said "3, 1, and 0"):
    the proposals of the view the vote is told with, as the browser names them."""
    m = _m(game)
    props = _proposals(game)
    shown = totals[:len(props)] if props else totals
    return m.list([m.format("label.votes", {"name": _card_name(game, props[i]) if i < len(props) else str(i + 1), "n": n})
                   for i, n in enumerate(shown)])


def _sq(game: Game, cells: Any) -> str:
    cells = [square(game, c) for c in cells or []]
    return _m(game).format("label.squares", {"n": len(cells), "squares": ", ".join(cells)})
