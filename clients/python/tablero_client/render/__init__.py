"""Views rendered for people (rich renderables).

`render(game)` uses `tablero_client/render/<engine module>.py` when one exists (module name =
engine name with '-' as '_', e.g. new_bedford.py) and the generic renderer otherwise. A module
may define `render(game: Game) -> rich renderable`, `action_label(action, game) -> str`,
`player_name(game, player) -> str | None` (players that are not seats, e.g. Captains) and
`step_label(path, value, game) -> str | None` (a value of a step-by-step choice, e.g. a square).

Every sentence (events, actions) and label comes from the engine's message catalog (i18n.py,
served by GET /v1/engines/{name}/messages): no event is worded here.
"""

from __future__ import annotations

import importlib
import json
from contextvars import ContextVar
from types import ModuleType
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from ..models import Game
from . import generic, i18n, words

# What a renderer may raise on a view or event it does not expect: fall back, never crash the game.
RENDER_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError)


def _module(engine: str) -> ModuleType | None:
    name = engine.replace("-", "_")
    if not name.isidentifier():
        return None
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError:
        return None


def render(game: Game) -> RenderableType:
    mod = _module(game.engine)
    try:
        body = mod.render(game) if mod and hasattr(mod, "render") else generic.render(game)
    except RENDER_ERRORS as e:
        # An engine's view changed under a specific renderer: fall back rather than crash the game.
        body = Group(Text(f"(the {game.engine} renderer failed: {e!r}; generic view)", style="dim"),
                     generic.render(game))
    return Group(header(game), body)


def messages(game: Game) -> i18n.Catalog:
    """The catalog of the game's engine in the language in use (an empty one when there is none:
    keys then show as themselves, which the tests catch)."""
    return i18n.catalog(game.engine) or i18n.Catalog({}, i18n.current_language())


class Header:
    """The header's parts (title, game and version, who is to act, who you are) on lines of the
    terminal's width, broken only between parts: a narrow terminal (80 columns, a long title in
    Spanish) split "version" from its number when the header was one wrapped text. A part wider
    than the terminal is wrapped as text."""

    def __init__(self, parts: list[tuple[str, str]]) -> None:
        self.parts = parts

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        line = Text()
        for text, style in self.parts:
            if line.plain and line.cell_len + 2 + cell_len(text) > options.max_width:
                yield line
                line = Text()
            if line.plain:
                line.append("  ")
            line.append(text, style=style)
        yield line


def header(game: Game) -> Header:
    m = messages(game)
    parts = [(m.format("title", default=game.engine), "bold"),
             *((text, "bold") for text in _hook(game, "header_parts", game) or []),  # New Bedford's Captains
             (m.format("header.game", {"id": game.id, "version": game.version}), "")]
    if game.finished:
        parts.append((m.format("header.finished"), "bold red"))
    else:
        parts.append((m.format("header.to_act", {"who": m.list([player_name(game, s) for s in game.to_act])}),
                      "yellow"))
    if game.your_seat is not None:
        parts.append((m.format("header.you_are", {"who": seat_name(game, game.your_seat, mark_you=False)}),
                      "bold cyan"))
    else:
        parts.append((m.format("header.spectator"), "dim"))
    return Header(parts)


def shown_seat(seat: int) -> int:
    """A seat's number as the players read it: counted from 1, as the browser's "Seat 1 (Red)" (the
    API, the JSON output and flags such as `--seat` count from 0)."""
    return seat + 1


def seat_name(game: Game, seat: int, mark_you: bool = True) -> str:
    """`seat 2 (bot)` (`seat 2 (hard bot)` for a level above easy), `seat 1 (you)` for seats 1 and 0 (numbered from 1, as the browser does;
    without "(you)" when the text says so already: `you are seat 1`)."""
    m = messages(game)
    info = next((s for s in game.seats if s.seat == seat), None)
    kind, level = (info.kind, info.bot_level) if info else ("", None)
    name = m.format("seat.number", {"n": shown_seat(seat)})
    if kind.endswith("BOT") and level in ("medium", "hard"):  # the level the game was made with, as the browser's chip says
        name = m.format("seat.bot_level", {"name": name, "level": level})
    elif kind.endswith("BOT"):
        name = m.format("seat.bot", {"name": name})
    return m.format("seat.you", {"name": name}) if mark_you and seat == game.your_seat else name


def _hook(game: Game, hook: str, *args: Any) -> Any:
    """The engine module's `hook(*args)`, or None when it has none, declines, or fails."""
    mod = _module(game.engine)
    fn = getattr(mod, hook, None) if mod else None
    if fn is None:
        return None
    try:
        return fn(*args)
    except RENDER_ERRORS:
        return None


def player_name(game: Game, player: Any) -> str:
    """A player as the terminal names them: `seat 1 (bot)`, `seat 0 (you)`, or an automa player
    by name (New Bedford's Captains are players after the seats: `Captain Starbuck`)."""
    if not isinstance(player, int) or isinstance(player, bool):
        return messages(game).format("seat.someone")
    return _hook(game, "player_name", game, player) or seat_name(game, player)


def seats_args(game: Game, seats: Any, name: Any = None) -> dict[str, Any]:
    """A label's arguments for a seat or a list of seats: `who` names them (`name`, else
    player_name), `who_you` is "true" when they are the viewer's alone, "some" when the viewer's is
    among others (`who_others` names those: "tu jugada y la de Azul"; `who_others_to`, `who_others_of`
    each with its word: "a ti, a Azul y a Rojo"; `who_count`: how many), else
    "false" ("Te toca: …",
    not "Esperando a asiento 1 (tú): …")."""
    m = messages(game)
    named = name or (lambda s: player_name(game, s))
    listed = seats if isinstance(seats, list) else [seats]
    mine = i18n.you_of(m, listed, named, lambda s: s is not None and s == game.your_seat)
    return {"who": m.list([named(s) for s in listed]), **{f"who_{a}": b for a, b in mine.items()},
            "who_count": len(listed)}


def _special(game: Game) -> i18n.Special:
    """The engine module's `field_value(field, value, game)`: a value as its board names it."""
    return lambda k, v: _hook(game, "field_value", k, v, game)


# Set while an event is worded: an engine module names what the event refers to as it was then
# (what `follow` kept), not as the view has it now (Founders' proposals: "proposal 2" of a vote
# long past is not the proposal 2 on the table now).
DESCRIBING: ContextVar[bool] = ContextVar("describing", default=False)


def follow(event: dict[str, Any], game: Game) -> None:
    """The log read in order, every event once (the player's own too, told or not): the engine
    module's `follow(event, game)` keeps what the words of later events need."""
    _hook(game, "follow", event, game)


def describe_event(event: dict[str, Any], game: Game) -> str:
    """A game event as a sentence: its template in the engine's catalog, with what it refers to as it
    was when it happened (the events followed so far, this one included)."""
    token = DESCRIBING.set(True)
    try:
        text = i18n.describe(messages(game), event, lambda p: player_name(game, p), _special(game),
                             you=lambda p: p == game.your_seat)
    finally:
        DESCRIBING.reset(token)
    return text if len(text) <= words.MAX_LINE else text[:words.MAX_LINE - 1] + "…"


def action_label(action: dict[str, Any], game: Game | None = None) -> str:
    """An action in words: its catalog template, then what it does (the engine module's
    `action_effect(action, game)`, e.g. a building's effect)."""
    if game is None:
        return compact(action)
    label = i18n.action(messages(game), action, lambda p: player_name(game, p), _special(game)) or compact(action)
    effect = _hook(game, "action_effect", action, game)
    return f"{label} — {effect}" if effect else label


def step_label(path: str, value: Any, game: Game) -> str:
    """One value of a step-by-step choice in words: `type = plant` -> `plant`, `lumber = 2` ->
    `lumber 2` (the engine module's `step_label(path, value, game)` first: squares, slots...)."""
    label = _hook(game, "step_label", path, value, game)
    if label:
        return str(label)
    m = messages(game)
    if path == "type":  # the kind of move, in the engine's words (as the browser's composer names it)
        if m.has("label.types"):
            return m.format("label.types", {"type": value, "text": words.name(value)})
        return i18n.action(m, {"type": value}, lambda p: player_name(game, p)) or words.name(value)
    if m.has("label.fields"):  # the field in the engine's words, as the step's heading names it
        field = " ".join(m.format("label.fields", {"field": p, "text": str(i18n.value(m, p))}) for p in path.split("."))
    else:
        field = str(i18n.value(m, path.replace(".", "_")))
    shown = i18n.value(m, value) if value is not None else m.format("value.none")
    return f"{field}: {m.number(shown) if isinstance(shown, int | float) else shown}"


def compact(value: Any) -> str:
    """`{"type": "place", "cell": 4}` -> `place cell=4`."""
    if isinstance(value, dict):
        parts = [str(value["type"])] if "type" in value else []
        parts += [f"{k}={_short(v)}" for k, v in value.items() if k != "type"]
        return " ".join(parts)
    return _short(value)


def _short(v: Any) -> str:
    if isinstance(v, dict):
        # Absent and empty values are left out; zeros and false are facts (proposal 0, seat 0).
        inner = ",".join(f"{k}:{_short(x)}" for k, x in v.items() if x is not None and x != [] and x != {})
        return "{" + inner + "}"
    if isinstance(v, list):
        return "[" + ",".join(_short(x) for x in v) + "]"
    if isinstance(v, str):
        return v
    return json.dumps(v)


def outcome_text(game: Game, fit: tuple[int, int] | None = None) -> RenderableType:
    """The final scores: each seat's total and who won, and the breakdown by category of the outcome's
    `details` as the browser shows it (render/scores.py): the totals, the rest of the breakdown, then
    its main lines last, at the bottom of the screen. `fit` (a terminal's columns and lines): the
    main table keeps fewer lines, the rest going to the breakdown above it, until it fits in
    sight with its title (a row of many buildings takes several lines at 80 columns)."""
    from rich.console import Console, Group
    from rich.table import Table

    from .scores import MAIN, breakdown

    out = game.outcome or {}
    m = messages(game)
    t = Table(title=m.format("outcome.title"), title_style="bold")
    t.add_column(m.format("outcome.seat"))
    t.add_column(m.format("outcome.score"), justify="right")
    t.add_column("")
    winners = set(out.get("winners") or [])
    # Automa opponents (New Bedford's Captains) are not seats: their totals and wins come
    # beside the seats', so a solo player sees whom they lost to.
    captains = [c for c in out.get("captains") or [] if isinstance(c, dict)]
    beaten_by = set(out.get("captain_winners") or [])
    for i, score in enumerate(out.get("scores") or []):
        t.add_row(seat_name(game, i), str(score), m.format("outcome.winner") if i in winners else "")
    def captain(c: dict[str, Any]) -> str:
        return m.format("label.captain", {"name": i18n.value(m, c.get("captain"))}, default=str(c.get("captain")))

    for c in captains:
        t.add_row(captain(c), str(c.get("total", "?")), m.format("outcome.winner") if c.get("captain") in beaten_by else "")
    names = [seat_name(game, i) for i in range(max(game.players or 0, len(out.get("scores") or [])))]
    # Who won, in the main table's title, above its lines: at 80x24 the totals table with its
    # WINNER mark has scrolled off the top by then (the browser says it above its table: "Green
    # wins!"); in the title, not a line more, so the title stays in sight too.
    won = [seat_name(game, i) for i in sorted(winners)] + [captain(c) for c in captains if c.get("captain") in beaten_by]
    if won:
        verdict = m.format("web.wins", {"who": m.list(won), "n": len(won)})
    elif len(names) == 1:
        verdict = m.format("web.did_not_win", {"who": names[0], "has_reason": "false"})
    else:
        verdict = m.format("web.draw")
    most = MAIN
    while True:
        rest, main = breakdown(m, out, names, captain, most)
        if main is None:
            return Group(t, Text(verdict, style="bold"))
        main.title = f"{main.title} · {verdict}"
        if fit is None or most <= 1:
            break
        columns, lines = fit
        # (three lines below it: the shell's prompt and what a terminal or a wrapper adds)
        if len(Console(width=columns).render_lines(main, pad=False)) <= lines - 3:
            break
        most -= 1
    return Group(*(x for x in (t, rest, main) if x is not None))
