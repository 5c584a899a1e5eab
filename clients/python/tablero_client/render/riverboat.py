"""Riverboat: round, phase and crop card; each player's 5x7 hex mat (crops, features, workers),
coins, VP, harbor master and boats; the riverboats and opportunity cards on offer."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..models import Game
from .words import fmt, humanize, only_you_see
from .words import name as _name

CROP = {"beet": ("B", "magenta"), "wheat": ("W", "yellow"), "corn": ("C", "bright_yellow"),
        "potato": ("P", "orange3"), "pumpkin": ("K", "dark_orange")}
FIELD = {"yellow": "yellow", "orange": "orange3", "green": "green", "blue": "blue", "purple": "magenta"}
FEATURE = {"barn": "b", "well": "w", "surveyor": "s"}


def mat(p: dict[str, Any], rows: int, cols: int, shifted: bool) -> Text:
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
                cell = sym + (FEATURE.get(feat, "") if feat else "")
            elif feat:
                cell, style = FEATURE.get(feat, str(feat)[:1]), colour
            else:
                cell, style = "·", colour
            if worker:
                cell, style = "@" + cell[:1] if cell != "·" else "@", "bold white on grey23"
            t.append(f"{cell:<3}", style=style)
            t.append(f"{i + 1:<2} ", style="dim")  # cells numbered from 1, as every line names them
        t.append("\n")
    return t


def render(game: Game) -> Group:
    v = game.view
    grid = v.get("mat_grid") or {"rows": 5, "cols": 7, "odd_rows_shifted_right": True}
    first = v.get("first_player")
    head = Text(f"Round {v.get('round')}  phase {v.get('phase') or '—'}  first player: "
                f"{'—' if first is None else f'seat {first}'}  crop card: {v.get('crop_card') or '—'}  "
                f"cards left this round: {fmt(v.get('cards_left_this_round'))}")
    players = Table(title="Players", title_justify="left")
    for col in ("seat", "mat", "coins", "VP", "harbor", "boats", "workers", "surveyors"):
        players.add_column(col)
    key = Text("Mats: @ worker, B/W/C/P/K crops (beet, wheat, corn, potato, pumpkin), b/w/s barn/well/surveyor; "
               "small numbers are the cells", style="dim")
    for i, p in enumerate(v.get("players") or []):
        players.add_row(f"{i}{' (you)' if i == game.your_seat else ''}{' passed' if p.get('passed') else ''}",
                        mat(p, grid["rows"], grid["cols"], grid.get("odd_rows_shifted_right", True)),
                        str(p.get("coins")), str(p.get("vp")), str(p.get("harbor")),
                        ", ".join(p.get("boats") or []) or "—", str(p.get("workers")), str(p.get("surveyors")),
                        style="bold" if i == game.your_seat else "")
    boats = Table(title="Riverboats", title_justify="left")
    for col in ("boat", "capacity", "benefit", "left"):
        boats.add_column(col)
    for name, b in (v.get("riverboats") or {}).items():
        benefit = ", ".join(f"{k} {x}" for k, x in (b.get("benefit") or {}).items())
        boats.add_row(name, str(b.get("capacity")), benefit, str(b.get("pile")))
    opps = Table(title="Opportunity spaces", title_justify="left")
    opps.add_column("card")
    opps.add_column("bonus")
    for o in v.get("opportunity_spaces") or []:
        opps.add_row(str(o.get("text") or o.get("card") or "(taken)"), ", ".join(f"{k} {x}" for k, x in (o.get("bonus") or {}).items()))
    supply = v.get("crop_supply") or {}
    tiles = Text("Crop tiles on offer: " + "; ".join(
        f"size {k}: {', '.join(f'#{i} ' + (x or '(taken)') for i, x in enumerate(t, 1))}" for k, t in supply.items()))
    parts: list[Any] = [head, players, key, tiles, boats, opps]
    if v.get("held_tile"):
        parts.append(Text(f"Your held tile: {v['held_tile']}", style="yellow"))
    if v.get("pending"):
        parts.append(Text(f"Pending: {_pending(game, v['pending'])}", style="yellow"))
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
    from . import player_name

    if not isinstance(sr, dict):
        return None
    contents = sr.get("contents")
    if not isinstance(contents, list):
        return f"{player_name(game, sr.get('seat'))} searches the {sr.get('pile') or 'pile'}."
    return (f"You search the {sr.get('pile') or 'pile'} ({len(contents)} tile{'' if len(contents) == 1 else 's'}): "
            + _pile_counts(contents, deck=sr.get("pile") == "opportunity deck"))


def _pending(game: Game, p: Any) -> str:
    """`{"seat": 0, "kind": "bonus_worker"}` -> `seat 0 (you): bonus worker`."""
    from . import player_name

    if not isinstance(p, dict):
        return fmt(p)
    rest = {k: x for k, x in p.items() if k not in ("seat", "kind")}
    who = f"{player_name(game, p['seat'])}: " if isinstance(p.get("seat"), int) else ""
    return who + _name(p.get("kind") or "benefit") + (f" ({fmt(rest)})" if rest and fmt(rest) != "nothing" else "")


# --- actions and the event log in words (clients/web/js/render/riverboat.js) -------------------
def _benefit(b: Any) -> str:
    if not isinstance(b, dict):
        return fmt(b)
    # `1 coin`, `2 coins`: the engine's keys are plurals (coins, agents)
    return " + ".join(str(v) if k == "feature" else f"{v} {k[:-1] if v == 1 and k.endswith('s') else k}"
                      for k, v in b.items()) or "nothing"


def _cell(cell: Any) -> str:
    """A mat cell as the board numbers it: from 1 (the view's index + 1)."""
    return str(cell + 1) if isinstance(cell, int) else str(cell)


def _cells(cells: Any) -> str:
    cells = list(cells or [])
    return f"cell{'s' if len(cells) != 1 else ''} {', '.join(_cell(c) for c in cells)}"


def _tile(game: Game, size: Any, slot: Any) -> str:
    """A tile on offer as the board numbers it (`#2`, from 1), with its crops when the view shows them."""
    if not isinstance(slot, int):
        return f"#{slot}"
    row = ((game.view or {}).get("crop_supply") or {}).get(str(size)) or []
    tile = row[slot] if 0 <= slot < len(row) else None
    return f"#{slot + 1}" + (f" ({tile})" if tile else "")


def step_label(path: str, value: Any, game: Game) -> str | None:
    """A value of a step-by-step choice as the board names it: cells by their numbers, tiles #1..."""
    if path == "cell":
        return f"cell {_cell(value)}"
    if path == "cells" and isinstance(value, list):
        return _cells(value)
    if path == "size":
        return f"a {value}-hex tile"
    if path == "slot" and isinstance(value, int):
        return f"tile #{value + 1}"  # as the board numbers the tiles of a size
    if path == "coin":
        return "paying a coin" if value else "without paying a coin"
    return None


def action_label(a: dict[str, Any], game: Game) -> str:
    t = a.get("type")
    coin = " (pay a coin)" if a.get("coin") else ""
    if t == "choose_phase":
        return f"take the {_name(a.get('phase'))} phase"
    if t == "place_worker":
        return f"worker on cell {_cell(a.get('cell'))}{coin}"
    if t == "plant":
        return f"plant the {a.get('size')}-hex tile {_tile(game, a.get('size'), a.get('slot'))} on {_cells(a.get('cells'))}"
    if t == "plant_from_pile":
        return f"plant a {_tile_words(a.get('kind'))} tile from the pile on {_cells(a.get('cells'))}"
    if t == "claim_boat":
        return f"riverboat {a.get('boat')} with {a.get('crop')}{coin}"
    if t == "search_pile":
        return f"search the {a.get('size')}-hex pile"
    if t == "take_opportunity":
        return f"opportunity space {a['space'] + 1}"
    if t == "skip":
        return "place no worker (no empty field of the card's colour)"
    if t == "return_workers":
        return "take your workers back"
    if t == "draw_tile":
        return f"draw a tile from the {a.get('size')}-hex pile"
    if t == "plant_drawn":
        return f"plant the drawn tile on {_cells(a.get('cells'))}"
    if t == "search_opportunity_deck":
        return "search the opportunity deck"
    if t == "draw_opportunity":
        return "draw an opportunity card"
    if t == "take_opportunity_from_deck":
        return f"take the opportunity card “{humanize(a.get('card'))}”"
    if t == "survey":
        return f"survey your {_name(a.get('feature'))} on cell {_cell(a.get('cell'))}"
    if t == "survey_card":
        return f"survey the opportunity card “{humanize(a.get('card'))}”"
    if t == "pass":
        return "pass (done for this phase)"
    if t == "choose_bonus":
        return f"take the {_name(a.get('bonus'))} bonus"
    if t == "place_barn":
        return f"build a barn on cell {_cell(a.get('cell'))}"
    if t == "place_well":
        return f"dig a well on cell {_cell(a.get('cell'))}"
    if t == "take_surveyor":
        return "take a surveyor"
    if t == "decline":
        return "decline (give up the pending benefit)"
    if t == "send_agents":
        return f"send {a.get('count')} agent{'' if a.get('count') == 1 else 's'} to New Orleans"
    return ""


def describe_event(e: dict[str, Any], game: Game) -> str | None:
    from . import player_name

    t = e.get("type")
    who = player_name(game, e.get("seat"))
    if t == "game_started":
        return f"The game starts; {player_name(game, e.get('first_player'))} goes first."
    if t == "phase_chosen":
        return f"{who} takes the {_name(e.get('phase'))} phase tile."
    if t == "phase_started":
        return f"The {_name(e.get('phase'))} phase begins."
    if t == "worker_placed":
        return f"{who} places a worker on cell {_cell(e.get('cell'))}{', paying a coin' if e.get('coin') else ''}."
    if t == "round_track_worker_taken":
        return f"{who} takes a worker from the round track."
    if t == "placement_skipped":
        return f"{who} places no worker."
    if t == "tile_planted":
        vp = f" (+{e['vp']} VP)" if e.get("vp") else ""
        return f"{who} plants {' and '.join(e.get('crops') or [])} on {_cells(e.get('cells'))}{vp}."
    if t == "crop_tiles_refilled":
        return "The crop tiles are refilled."
    if t == "boat_claimed":
        gains = f" and gains {_benefit(e['gains'])}" if e.get("gains") else ""
        return f"{who} loads {e.get('crop')} onto riverboat {e.get('boat')}{gains}."
    if t == "gained":
        reason = f" ({_name(e['reason'])})" if e.get("reason") else ""
        return f"{who} gains {_benefit(e.get('gains'))}{reason}."
    if t == "opportunity_taken":
        return f"{who} takes the opportunity card “{humanize(e.get('card'))}”."
    if t == "opportunities_returned":
        return f"Opportunity cards go back: {', '.join(humanize(c) for c in e.get('cards') or [])}."
    if t == "opportunity_deck_searched":
        return f"{who} searches the opportunity deck{only_you_see(e)}."
    if t == "passed":
        return f"{who} passes."
    if t == "pile_searched":
        return f"{who} searches the {e.get('size')}-hex pile{only_you_see(e)}."
    if t == "tile_drawn":
        return f"{who} draws a {e.get('size')}-hex tile{only_you_see(e)}."
    if t == "workers_returned":
        return f"{who}'s workers come back."
    if t == "round_scored":
        vps = ", ".join(f"{player_name(game, s)} +{x}" for s, x in enumerate(e.get("vp") or []))
        return f"Round {e.get('round')} scored: {vps}."
    if t == "round_ended":
        return f"Round {e.get('round')} ends."
    if t == "round_started":
        return f"Round {e.get('round')} begins."
    if t == "crop_card_revealed":
        return f"The crop card shows {e.get('card')}."
    if t == "barn_placed":
        return f"{who} builds a barn on cell {_cell(e.get('cell'))}."
    if t == "well_placed":
        return f"{who} digs a well on cell {_cell(e.get('cell'))}."
    if t == "surveyor_taken":
        return f"{who} takes a surveyor."
    if t == "surveyed":
        where = f" on cell {_cell(e['cell'])}" if e.get("cell") is not None else ""
        vp = f" (+{e['vp']} VP)" if e.get("vp") else ""
        return f"{who} places a surveyor ({_name(e.get('feature'))}){where}{vp}."
    if t == "agents_sent":
        return f"{who} sends {e.get('count')} agent{'' if e.get('count') == 1 else 's'}."
    if t == "bonus_chosen":
        return f"{who} chooses the {_name(e.get('bonus'))} bonus: {_benefit(e.get('gains'))}."
    if t == "pending_dropped":
        return f"{who} gives up a pending benefit" + (f" ({_name(e['reason'])})." if e.get("reason") else ".")
    if t == "game_ended":
        scores = ", ".join(f"{player_name(game, s)} {x}" for s, x in enumerate(e.get("scores") or []))
        return f"The game ends. Scores: {scores}."
    return None
