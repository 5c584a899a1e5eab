"""New Bedford: round and phase, each player's goods, ships and workers, the town's buildings,
the whaling track and the running score, as the seat knows them; the event log in words.

Captains (El Océano Solitario's automa players) are players after the seats, never seats: they
are named "Captain Starbuck" wherever the terminal names a player."""

from __future__ import annotations

import re
from typing import Any

from rich.columns import Columns
from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..models import Game
from .fit import Fit
from .words import amounts, humanize, name

WHALES = ("right", "bowhead", "sperm")


def player_name(game: Game, player: int) -> str | None:
    """`Captain Starbuck` for a Captain's player number; None for seats (named as seats)."""
    v = game.view or {}
    for c in (v.get("captains") or {}).get("captains") or []:
        if isinstance(c, dict) and c.get("player") == player:
            return f"Captain {c.get('title') or humanize(c.get('name'))}"
    players = v.get("players") or []
    if 0 <= player < len(players) and isinstance(players[player], dict):
        cap = players[player].get("captain")
        if isinstance(cap, dict) and cap.get("name"):
            return f"Captain {humanize(cap['name'])}"
    return None


def _who(game: Game, player: Any) -> str:
    from . import player_name as name_of

    return name_of(game, player)


def _ship(s: dict[str, Any]) -> str:
    hold = ", ".join(f"{n} {k}" for k, n in (s.get("hold") or {}).items() if n)
    where = s.get("at") or "?"
    if s.get("row") is not None:
        where += f" row {s['row']}"
    return f"ship {s.get('ship')}: {where}" + (f" ({hold})" if hold else "")


def render(game: Game) -> Group:
    v = game.view
    head = Text()
    head.append(f"Round {v.get('round')}  phase {name(v.get('phase'))}  first player: {_who(game, v.get('first_player'))}")
    if v.get("final"):
        head.append("  (final round)", style="bold red")

    players = Table(title="Players", title_justify="left")
    for col in ("player", "$", "lumber", "food", "brick", "ships", "workers placed", "buildings", "score"):
        players.add_column(col)
    preview = {p.get("seat"): p for p in v.get("score_preview") or []}
    owned: dict[int, list[str]] = {}
    for key, b in (v.get("buildings") or {}).items():
        if b.get("owner") is not None:
            owned.setdefault(b["owner"], []).append(_space(game, key))
    for i, p in enumerate(v.get("players") or []):
        style = "bold cyan" if i == game.your_seat else ""
        players.add_row(
            _who(game, i), str(p.get("money")), str(p.get("lumber")),
            str(p.get("food")), str(p.get("brick")), "\n".join(_ship(s) for s in p.get("ships") or []),
            ", ".join(_space(game, w) for w in p.get("workers") or []) or "—",
            ", ".join(owned.get(i, [])) or "—", str(preview.get(i, {}).get("total", "")), style=style)

    town = Table(title="Town spaces (who is there)", title_justify="left", show_header=False)
    town.add_column("space")
    town.add_column("workers")
    for space, seats in (v.get("occupancy") or {}).items():
        b = (v.get("buildings") or {}).get(space)
        if b is not None and b.get("owner") is None:
            continue  # not built yet
        owner = f" (owner {_who(game, b['owner'])})" if b and b.get("owner") is not None else ""
        town.add_row(_space(game, space) + owner, ", ".join(_who(game, s) for s in seats) or "—")

    sea = Table(title="Whaling track", title_justify="left", show_header=False)
    sea.add_column("row")
    sea.add_column("ships")
    for row in v.get("whaling_track") or []:
        ships = ", ".join(f"{_who(game, s.get('seat'))} ship {s.get('ship')}" if isinstance(s, dict) else str(s)
                          for s in row.get("ships") or [])
        sea.add_row(str(row.get("name")), ships or "—")
    bag = v.get("bag") or {}
    bag_text = Text("Whale bag: " + ", ".join(f"{n} {k}" for k, n in bag.items()))

    unbuilt = [_space(game, k) for k, b in (v.get("buildings") or {}).items() if b.get("owner") is None]
    parts: list[Any] = [head, Fit(players), Columns([town, Group(sea, bag_text)])]
    if unbuilt:
        parts.append(Text("Buildings still for sale: " + ", ".join(unbuilt), style="dim"))
    pend = v.get("pending") or v.get("awaiting")
    if isinstance(pend, dict) and pend.get("decision"):
        parts.append(Text(f"Waiting for {_who(game, pend.get('seat'))}: {name(pend['decision'])}", style="yellow"))
    return Group(*parts)


def action_label(action: dict[str, Any], game: Game) -> str:
    pend = game.view.get("pending") or {}
    for opt in pend.get("options") or [] if isinstance(pend, dict) else []:
        if isinstance(opt, dict) and opt.get("action") == action and opt.get("text"):
            # The engine's text says "pay $1 to seat 1" for a Captain's building too.
            return re.sub(r"\bseat (\d+)\b", lambda m: player_name(game, int(m.group(1))) or m.group(0),
                          str(opt["text"]))
    return ""


# --- the event log in words (clients/web/js/render/newbedford.js describeEvent) ------------------
def _space(game: Game, space: Any) -> str:
    v = game.view or {}
    for s in (v.get("reference") or {}).get("spaces") or []:
        if isinstance(s, dict) and s.get("id") == space and s.get("name"):
            return str(s["name"])
    return str((v.get("building_names") or {}).get(space) or humanize(space))


def _whales(obj: Any) -> str:
    parts = [(k, n) for k, n in (obj or {}).items() if n] if isinstance(obj, dict) else []
    return ", ".join(f"{n} {k}" for k, n in parts) if parts else "none"


def _heading(h: Any) -> str:
    """A Captain's heading: `launch:4` -> `launch a ship to space 4`, `build_white` -> `build white`."""
    kind, _, n = str(h or "").partition(":")
    if kind == "launch" and n:
        return f"launch a ship to space {n}"
    if kind == "combo" and n:
        return f"prepare, or else launch to space {n}"
    return name(kind)


def _placement(game: Game, e: dict[str, Any], who: str) -> str:
    t = f"{who} sends a worker to {_space(game, e.get('space'))}{' (first: bonus)' if e.get('first') else ''}"
    if e.get("build"):
        t += f" and builds {_space(game, e['build'])}"
    if e.get("launch") or e.get("to") is not None:
        t += " and launches a ship" + (f" to space {e['to']}" if e.get("to") is not None else "")
    if e.get("prepare"):
        t += f" and prepares ship {e['prepare']}"
    if e.get("pay"):
        t += f", paying {amounts(e['pay'])}"
    if e.get("gain"):
        t += f", taking {amounts(e['gain'])}"
    if e.get("chosen_by") is not None:
        t += f" (chosen by {_who(game, e['chosen_by'])})"
    return t + "."


def describe_event(e: dict[str, Any], game: Game) -> str | None:
    t = e.get("type")
    who = _who(game, e.get("seat", e.get("player")))
    if t == "game_started":
        caps = [c.get("name") for c in e.get("captains") or [] if isinstance(c, dict)]
        if not caps:
            return f"The game starts; {_who(game, e.get('first_player'))} goes first."
        # With Captains the event's first_player is the first seat: the Captains move before the seats.
        names = [f"Captain {humanize(c)}" for c in caps]
        return (f"The game starts against {', '.join(names)}; {names[0]} goes first (the Captains move "
                f"before the seats, then {_who(game, e.get('first_player'))}).")
    if t == "starting_goods_chosen":
        return f"{who} starts with {amounts(e.get('goods'))}."
    if t in ("worker_placed", "captain_worker_placed"):
        return _placement(game, e, who)
    if t == "goods_bought":
        return f"{who} buys {e.get('amount')} {e.get('good')} for ${e.get('price')}."
    if t == "sale_opened":
        return f"{who} sells goods at {_space(game, e.get('space'))} ({', '.join(e.get('kinds') or [])})."
    if t == "goods_offered":
        return f"{who} sells {e.get('count')} {e.get('good')}."
    if t == "inn_workers_picked_up":
        return f"{who} picks up the workers at {', '.join(_space(game, s) for s in e.get('spaces') or [])}."
    if t == "ships_moved":
        back = len(e.get("returning") or [])
        return "Every ship at sea sails one space toward home" + (f"; {back} return." if back else ".")
    if t == "whales_drawn":
        return f"Whales are drawn from the bag: {_whales(e.get('drawn'))}."
    if t == "whale_picked":
        return f"{who}'s ship {e.get('ship')} takes a {e.get('kind')} whale."
    if t == "pick_passed":
        return f"{who}'s ship {e.get('ship')} takes no whale" + (f" ({e['auto']})." if e.get("auto") else ".")
    if t == "ship_returned":
        sold = f", sold for ${e['sale_money']}" if e.get("sale_money") else ""
        return f"{who}'s ship {e.get('ship')} comes home: lays paid ${e.get('lay_paid') or 0}{sold}."
    if t == "whale_bought":
        price = f" for ${e['price']}" if e.get("price") is not None else ""
        return f"{who} buys a {e.get('kind') or ''} whale{price}."
    if t == "buy_passed":
        return f"{who} buys nothing" + (f" ({e['auto']})." if isinstance(e.get("auto"), str) else ".")
    if t == "sale_closed":
        return "The whale sale closes."
    if t == "round_ended":
        nxt = f"; {_who(game, e['first_player'])} goes first next" if e.get("first_player") is not None else ""
        return f"Round {e.get('round')} ends{nxt}."
    if t == "game_ended":
        scores = ", ".join(f"{_who(game, i)} {s}" for i, s in enumerate(e.get("scores") or []))
        caps = ", ".join(f"{_who(game, c.get('player'))} {c.get('total')}" for c in e.get("captains") or []
                         if isinstance(c, dict))
        return f"The game ends. Scores: {scores}" + (f"; {caps}" if caps else "") + "."
    if t == "captain_heading":
        roll = f"rolls {e['roll']} and " if e.get("roll") else ""
        return f"{who} {roll}heads for: {_heading(e.get('heading'))}."
    if t == "captain_worker_skipped":
        return f"{who} places no worker" + (f" ({e['reason']})." if e.get("reason") else ".")
    if t == "captain_token_drawn":
        kind = e.get("kind")
        token = f"a {kind} whale token" if kind in WHALES else f"a {kind} token" if kind else "a token"
        ship = f" for ship {e['ship']}" if e.get("ship") else ""
        back = " and puts it back" if e.get("returned") else ""
        return f"{who} draws {token}{ship}{back}."
    if t == "captain_choice_offered":
        options = [str(c.get("choice")) for c in e.get("choices") or [] if isinstance(c, dict)]
        among = f" among {', '.join(_space(game, o) if not o.startswith('ship') else o for o in options)}" if options else ""
        return f"{_who(game, e.get('chooser'))} chooses for {who}{among}."
    if t == "captain_whales_trimmed":
        return f"{who} is over the whale limit: keeps {_whales(e.get('kept'))}, sells {_whales(e.get('sold'))}."
    return None
