"""Riverboat: round, phase and crop card; each player's 5x7 hex mat (crops, features, workers),
coins, VP, harbor master and boats; the riverboats and opportunity cards on offer."""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ..models import Game
from .fit import Fit
from .words import fmt, humanize
from .words import name as _name

CROP = {"beet": ("B", "magenta"), "wheat": ("W", "yellow"), "corn": ("C", "bright_yellow"),
        "potato": ("P", "orange3"), "pumpkin": ("K", "dark_orange")}
FIELD = {"yellow": "yellow", "orange": "orange3", "green": "green", "blue": "blue", "purple": "magenta"}
FEATURE = {"barn": "b", "well": "w", "surveyor": "s"}


def mat(p: dict[str, Any], rows: int, cols: int, shifted: bool, m: Any = None) -> Text:
    """A mat in letters: a crop's and a feature's letter in the game's language (the browser's
    label.crop_letter: R/T/M/P/C in Spanish), as the key under the mats reads them."""
    def letter(key: str, arg: str, x: str, default: str) -> str:
        said = m.format(key, {arg: x}, default=default) if m is not None else default
        return default if said in ("", "?") else said

    t = Text()
    fields = p.get("field_colours") or []
    for r in range(rows):
        if shifted and r % 2 == 1:
            t.append("  ")
        for c in range(cols):
            i = r * cols + c
            crop = (p.get("crop") or [None] * (rows * cols))[i]
            feat = (p.get("feature") or [None] * (rows * cols))[i]
            worker = (p.get("worker") or [False] * (rows * cols))[i]
            colour = FIELD.get(fields[i] if i < len(fields) else "", "white")
            if crop:
                sym, style = CROP.get(crop, (crop[:1].upper(), "white"))
                sym = letter("label.crop_letter", "crop", crop, sym)
                cell = sym + (letter("label.feature_letter", "feature", feat, FEATURE.get(feat, "")) if feat else "")
            elif feat:
                cell, style = letter("label.feature_letter", "feature", feat, FEATURE.get(feat, str(feat)[:1])), colour
            else:
                cell, style = "·", colour
            if worker:
                cell, style = "@" + cell[:1] if cell != "·" else "@", "bold white on grey23"
            t.append(f"{cell:<3}", style=style)
            t.append(f"{i + 1:<2} ", style="dim")  # cells numbered from 1, as every line names them
        t.append("\n")
    return t


class MatsFit:
    """The players table with a mat per row when it fits the terminal at its natural width; else
    (a mat is 44 columns: squeezed into a cell its cells wrap and their numbers split) the table
    without the mats, fitted as any players table, and each mat under it, whole."""

    def __init__(self, table: Table, bare: Table, mats: list[tuple[str, Text]]) -> None:
        self.table, self.bare, self.mats = table, bare, mats

    def _choice(self, console: Console, options: ConsoleOptions) -> Any:
        if Measurement.get(console, options.update(max_width=10_000), self.table).maximum <= options.max_width:
            return self.table
        return Group(Fit(self.bare), *(Group(Text(label, style="bold"), drawn) for label, drawn in self.mats))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self._choice(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._choice(console, options))


def _m(game: Game) -> Any:
    from . import messages

    return messages(game)


def render(game: Game) -> Group:
    from .i18n import amounts, value

    v = game.view
    m = _m(game)
    grid = v.get("mat_grid") or {"rows": 5, "cols": 7, "odd_rows_shifted_right": True}
    first = v.get("first_player")
    from . import Header  # the line broken only between its parts (two spaces apart in the catalog):
    # at 80 columns "cards left this round:" went on the line and its number alone to the next
    head = Header([(part, "") for part in m.format("label.term_head", {
        "round": v.get("round"), "phase": value(m, v.get("phase") or "—"),
        "first": "—" if first is None else m.format("seat.number", {"n": first + 1}),  # from 1
        "card": value(m, v.get("crop_card") or "—"), "left": fmt(v.get("cards_left_this_round"))}).split("  ")])
    columns = ("seat", "mat", "coins", "vp", "harbor", "boats", "workers", "surveyors")
    players = Table(title=m.format("label.term_players"), title_justify="left")
    bare = Table(title=m.format("label.term_players"), title_justify="left")  # the same without the mats
    for col in columns:
        players.add_column(m.format("label.term_column", {"column": col}))
        if col != "mat":
            bare.add_column(m.format("label.term_column", {"column": col}))
    key = Text(m.format("label.term_key"), style="dim")
    mats = []
    from . import shown_seat  # seats counted from 1, as the header and the log count them

    for i, p in enumerate(v.get("players") or []):
        who = f"{shown_seat(i)}{' (' + m.format('label.term_you') + ')' if i == game.your_seat else ''}" \
              f"{' ' + m.format('label.term_passed') if p.get('passed') else ''}"
        drawn = mat(p, grid["rows"], grid["cols"], grid.get("odd_rows_shifted_right", True), m)
        rest = (str(p.get("coins")), str(p.get("vp")), str(p.get("harbor")), ", ".join(p.get("boats") or []) or "—",
                str(p.get("workers")), str(p.get("surveyors")))
        style = "bold" if i == game.your_seat else ""
        players.add_row(who, drawn, *rest, style=style)
        bare.add_row(who, *rest, style=style)
        mats.append((m.format("label.term_column", {"column": "mat"}) + " · " + m.format("label.term_column", {"column": "seat"})
                     + f" {who}", drawn))
    boats = Table(title=m.format("label.riverboats"), title_justify="left")
    for col in ("boat", "capacity", "benefit", "left"):
        boats.add_column(m.format("label.term_column", {"column": col}))
    for name, b in (v.get("riverboats") or {}).items():
        benefit = amounts(m, b.get("benefit") or {})
        boats.add_row(name, str(b.get("capacity")), benefit, str(b.get("pile")))
    opps = Table(title=m.format("label.opportunity_spaces"), title_justify="left")
    opps.add_column(m.format("label.term_column", {"column": "card"}))
    opps.add_column(m.format("label.term_column", {"column": "bonus"}))
    taken = m.format("label.term_taken")
    for i, o in enumerate(v.get("opportunity_spaces") or [], 1):  # numbered as the board and the options do
        card = o.get("card")
        text = m.format(f"effect.{card}") if card and m.has(f"effect.{card}") else str(o.get("text") or card or taken)
        name = _card_name(m, card)
        text = m.format("label.space_n", {"n": i}) + " · " + (f"{name}: {text}" if name else text)
        opps.add_row(text, amounts(m, o.get("bonus") or {}) if (o.get("bonus") or {}).get("feature") is None
                     else value(m, o["bonus"]["feature"]))
    supply, piles = v.get("crop_supply") or {}, v.get("pile_sizes") or {}
    tiles = Text(m.format("label.term_tiles") + " " + "; ".join(
        f"{m.format('label.hex_size', {'size': k})}: {', '.join(f'#{i} ' + (str(value(m, x)) if x else taken) for i, x in enumerate(t, 1))}"
        + (f" ({m.format('label.pile_size', {'n': piles[k]})})" if isinstance(piles.get(k), int) else "")  # tiles left
        for k, t in supply.items()))
    parts: list[Any] = [head, MatsFit(players, bare, mats), key, tiles, boats, opps]
    if v.get("held_tile"):
        parts.append(Text(m.format("label.term_held", {"tile": value(m, v["held_tile"])}), style="yellow"))
    if v.get("pending"):
        parts.append(Text(m.format("label.term_pending", {"what": _pending(game, v["pending"])}), style="yellow"))
    search = _search(game, v.get("search"))
    if search:
        parts.append(Text(search, style="yellow"))
    return Group(*parts)


def _tile_words(kind: Any) -> str:
    """A crop tile kind in words: `2-beet-corn` -> `beet and corn`."""
    crops = str(kind).split("-")[1:]
    return " and ".join(crops) if crops else str(kind)


def _pile_counts(contents: list[Any], deck: bool = False) -> str:
    """`["2-beet-corn", "2-beet-corn", "2-wheat-corn"]` -> `2 × beet and corn, 1 × wheat and corn`."""
    counts: dict[Any, int] = {}
    for k in contents:
        counts[k] = counts.get(k, 0) + 1
    return ", ".join(f"{n} × {humanize(k) if deck else _tile_words(k)}" for k, n in counts.items()) or "nothing"


def _search(game: Game, sr: Any) -> str | None:
    """The pile being searched: its tiles for the searcher (the view has them for the searcher only)."""
    from . import messages, player_name
    from .i18n import value

    if not isinstance(sr, dict):
        return None
    m = messages(game)
    deck = sr.get("pile") == "opportunity deck"
    pile = m.format("label.pile_name", {"pile": "deck" if deck else "pile", "size": re.sub(r"\D", "", str(sr.get("pile") or ""))})
    contents = sr.get("contents")
    if not isinstance(contents, list):
        return m.format("label.searches", {"who": player_name(game, sr.get("seat")), "pile": pile})
    counts: dict[Any, int] = {}
    for k in contents:
        counts[k] = counts.get(k, 0) + 1
    what = ", ".join(f"{n} × {value(m, k)}" for k, n in counts.items()) or m.format("value.nothing")
    return m.format("label.you_search", {"pile": pile, "n": len(contents)}) + " " + what


def _pending(game: Game, p: Any) -> str:
    """`{"seat": 0, "kind": "bonus_worker"}` -> `seat 0 (you): bonus worker`."""
    from . import player_name

    if not isinstance(p, dict):
        return fmt(p)
    from .i18n import value

    m = _m(game)
    who = f"{player_name(game, p['seat'])}: " if isinstance(p.get("seat"), int) else ""
    kind = p.get("kind") or "benefit"
    said = str(value(m, kind)) if m.has(f"name.{kind}") else _name(kind)
    if not m.has("label.pending_kind"):
        rest = {k: x for k, x in p.items() if k not in ("seat", "kind")}
        return who + said + (f" ({fmt(rest)})" if rest and fmt(rest) != "nothing" else "")
    # in words, as the browser's status line: "send up to 2 agents to New Orleans", "choose a tile
    # from the size-2 pile", "estate feature (barn / well / surveyor)" (not "(size 2)" in Spanish)
    options = [str(value(m, o)) for o in p.get("options") or []]
    return who + m.format("label.pending_kind", {"kind": kind, "name": said, "max": p.get("max", 0), "size": p.get("size", ""),
                                                  "options": " / ".join(options), "has_options": "true" if options else "false"})


# --- actions and the event log in words (clients/web/js/render/riverboat.js) -------------------


def _cell(cell: Any) -> str:
    """A mat cell as the board numbers it: from 1 (the view's index + 1)."""
    return str(cell + 1) if isinstance(cell, int) else str(cell)


def _cells(cells: Any) -> str:
    cells = list(cells or [])
    return f"cell{'s' if len(cells) != 1 else ''} {', '.join(_cell(c) for c in cells)}"


def _card_name(m: Any, card: Any) -> str | None:
    """An opportunity card by its name (label.card_name: "Harbor Master"), None for anything else."""
    if not isinstance(card, str) or not m.has("label.card_name"):
        return None
    said = m.format("label.card_name", {"card": card.replace("-", "_"), "text": "\0"})
    return None if said == "\0" else said


def field_value(key: str, value: Any, game: Game) -> str | None:
    """Cells, tiles and card spaces of an event or action as the board numbers them: from 1; an
    opportunity card by its name (as the browser's render/riverboat.js fieldValue)."""
    if key in ("cell", "slot", "space") and isinstance(value, int) and not isinstance(value, bool):
        return _cell(value)
    if key == "cells" and isinstance(value, list):
        return ", ".join(_cell(c) for c in value)
    if re.search(r"(^|_)card$", key):
        return _card_name(_m(game), value)
    if re.search(r"(^|_)cards$", key) and isinstance(value, list) and value:
        m = _m(game)
        names = [_card_name(m, c) for c in value]
        return m.list([str(n) for n in names]) if all(names) else None
    return None


def action_effect(action: dict[str, Any], game: Game) -> str | None:
    """What an action takes, beside its words (as the browser's actionEffect): the crops of the
    face-up tile a `plant` lays (three 2-hex tiles may fit the same cells) or of the tile drawn
    blind; the card and bonus of the opportunity space a `take_opportunity` takes."""
    from .i18n import amounts, value

    m, v = _m(game), game.view or {}
    kind = None
    if action.get("type") == "plant":
        tiles = (v.get("crop_supply") or {}).get(str(action.get("size"))) or []
        slot = action.get("slot")
        kind = tiles[slot] if isinstance(slot, int) and 0 <= slot < len(tiles) else None
    elif action.get("type") == "plant_drawn":
        kind = (v.get("held_tile") or {}).get("kind")
    elif action.get("type") == "take_opportunity":
        spaces = v.get("opportunity_spaces") or []
        space = action.get("space")
        o = spaces[space] if isinstance(space, int) and 0 <= space < len(spaces) else None
        if not o or not o.get("card"):
            return None
        bonus = o.get("bonus") or {}
        words = amounts(m, bonus) if bonus.get("feature") is None else value(m, bonus["feature"])
        return m.format("label.card_on_space", {"card": _card_name(m, o["card"]) or value(m, o["card"]), "bonus": words})
    return str(value(m, kind)) if kind else None


def step_label(path: str, value: Any, game: Game) -> str | None:
    """A value of a step-by-step choice as the board names it: cells by their numbers, tiles #1..."""
    m = _m(game)
    if path == "cell":
        return m.format("label.cell_n", {"n": _cell(value)})
    if path == "cells" and isinstance(value, list):
        return m.format("label.term_cells", {"n": len(value), "cells": ", ".join(_cell(c) for c in value)})
    if path == "size":
        return m.format("label.term_size", {"size": value})
    if path == "slot" and isinstance(value, int):
        return m.format("label.tile_n", {"n": value + 1})  # as the board numbers the tiles of a size
    if path == "space" and isinstance(value, int):
        return m.format("label.space_n", {"n": value + 1})  # as the board numbers the opportunity spaces
    if path == "coin":
        return m.format("label.term_coin", {"coin": "true" if value else "false"})
    return None
