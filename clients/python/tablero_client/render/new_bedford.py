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


def _captains(game: Game) -> Table | None:
    """Each Captain's heading, its board's "Restricciones a Preparar y Zarpar" (solo p.13) with
    what they mean now, and its limits; None in a game without Captains."""
    caps = [c for c in ((game.view or {}).get("captains") or {}).get("captains") or [] if isinstance(c, dict)]
    if not caps:
        return None
    t = Table(title="Captains", title_justify="left")
    for col in ("captain", "heading", "prepare/launch restrictions", "limits"):
        t.add_column(col)
    for c in caps:
        r = c.get("restrictions") or {}
        lines = [*(r.get("text") or []), *([r["now"]] if r.get("now") else [])]
        lim = c.get("limits") or {}
        t.add_row(_who(game, c.get("player")), c.get("heading_text") or str(c.get("heading") or ""),
                  "\n".join(lines) or "—",
                  f"{c.get('whales', 0)}/{lim.get('whales', '—')} whales, "
                  f"{len(c.get('buildings') or [])}/{lim.get('buildings', '—')} buildings")
    return t


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
    parts: list[Any] = [head, Fit(players)]
    caps = _captains(game)
    if caps is not None:
        parts.append(Fit(caps))
    parts.append(Columns([town, Group(sea, bag_text)]))
    if unbuilt:
        parts.append(Text("Buildings still for sale: " + ", ".join(unbuilt), style="dim"))
    tie = tie_break_text(game)
    if tie:
        parts.append(Text(tie, style="bold"))
    pend = v.get("pending") or v.get("awaiting")
    if isinstance(pend, dict) and pend.get("decision"):
        parts.append(Text(f"Waiting for {_who(game, pend.get('seat'))}: {name(pend['decision'])}", style="yellow"))
    return Group(*parts)


def _signed(net: Any) -> str:
    """`{"money": 3, "food": -2}` -> `+$3, -2 food` (the engine's own way of saying an option's effect)."""
    parts = []
    for k in ("money", "lumber", "food", "brick"):
        n = (net or {}).get(k) if isinstance(net, dict) else None
        if n:
            sign = "+" if n > 0 else "-"
            parts.append(f"{sign}${abs(n)}" if k == "money" else f"{sign}{abs(n)} {k}")
    return ", ".join(parts) or "no change to money or goods"


def _sale_text(game: Game, opt: dict[str, Any], sell: dict[str, Any]) -> str | None:
    """A selling space (General Store, Market) whose sale is composed in steps: its prices for the
    goods the player holds, the 1st-worker bonus, the owner's fee and what the whole sale can pay,
    from the view's `pending.sell` (the option's own words say "no change to money or goods")."""
    eff = opt.get("effect") or {}
    s = sell.get(eff.get("space")) if isinstance(sell, dict) else None
    if not isinstance(s, dict):
        return None
    prices, have = s.get("prices") or {}, s.get("have") or {}
    kinds = [k for k in eff.get("sale") or [] if k in prices]
    double = any((s.get("first_of_kind_extra") or {}).values())
    bonus, fee = s.get("first_bonus_money") or 0, s.get("fee") or 0
    most = sum(prices[k] * (have.get(k) or 0) + ((s.get("first_of_kind_extra") or {}).get(k) or 0)
               for k in kinds if have.get(k)) + bonus - fee
    text = (f"{s.get('space_name') or eff.get('space_name')}{' (1st: bonus)' if bonus else ''}: sell "
            + ", ".join(f"{k} ${prices[k]}" for k in kinds) + " each, one kind at a time")
    if double:
        text += "; the first good of each kind sold earns double"
    if bonus:
        text += f"; +${bonus} (1st worker here)"
    if fee:
        owner = s.get("fee_to_seat")
        text += f"; pay ${fee} to {_who(game, owner)} first" if owner is not None else f"; pay ${fee} first"
    return text + f" (up to +${most})"


def _sell_step_text(game: Game, opt: dict[str, Any], sell: dict[str, Any]) -> str | None:
    """One step of a composed sale: what it sells and, on the last step, what the whole sale pays."""
    a, eff = opt.get("action") or {}, opt.get("effect") or {}
    good, count = a.get("good"), a.get("count")
    what = f"Sell {count} {good}" if count else f"Sell no {good}"
    if "gain" in eff or "pay" in eff:  # the last kind: the sale is made
        text = f"{what}, ending the sale ({_signed(opt.get('net'))})"
        fee = eff.get("fee")
        if isinstance(fee, dict) and fee.get("money"):
            text += f", after a ${fee['money']} fee to {_who(game, fee.get('to_seat'))}"
        if eff.get("first_bonus") and any((s or {}).get("first_bonus_money") for s in (sell or {}).values()
                                          if isinstance(s, dict)):
            text += ", with the 1st-worker bonus"
        return text
    space = ((game.view or {}).get("selling") or {}).get("space")
    price = ((sell or {}).get(space) or {}).get("prices", {}).get(good) if space else None
    extra = (((sell or {}).get(space) or {}).get("first_of_kind_extra") or {}).get(good) or 0 if space else 0
    if price is not None and count:
        return f"{what} (+${price * count + extra}), then the next good"
    return f"{what}, then the next good"


TIEBREAKS = (("whale_tokens", "whale tokens", ""), ("unscored_money", "unscored money", "$"))


def tie_break_text(game: Game) -> str | None:
    """When the best total is shared, the tie-break that decided it (rulebook: most whale tokens,
    then most money left unscored), with the rows that were level: the final table folds it away."""
    r = (game.view or {}).get("result") or game.outcome or {}
    rows = [d for d in [*(r.get("details") or []), *(r.get("captains") or [])] if isinstance(d, dict)]
    if len(rows) < 2:
        return None
    best = max(d.get("total") or 0 for d in rows)
    tied = [d for d in rows if (d.get("total") or 0) == best and isinstance(d.get("tiebreak"), dict)]
    if len(tied) < 2:
        return None

    def who(d: dict[str, Any]) -> str:
        return _who(game, d.get("player", d.get("seat")))

    level = []
    for key, label, unit in TIEBREAKS:
        values = [d["tiebreak"].get(key) or 0 for d in tied]
        listed = ", ".join(f"{who(d)} {unit}{n}" for d, n in zip(tied, values, strict=True))
        if len(set(values)) > 1:
            also = f" ({'; '.join(level)})" if level else ""
            return f"Tie on {best} points, broken by {label}: {listed}{also}."
        level.append(f"{label} level at {unit}{values[0]}")
    return f"Tie on {best} points; the tie-breaks are level too ({'; '.join(level)})."


def action_label(action: dict[str, Any], game: Game) -> str:
    pend = game.view.get("pending") or {}
    sell = pend.get("sell") if isinstance(pend, dict) else None
    for opt in pend.get("options") or [] if isinstance(pend, dict) else []:
        if isinstance(opt, dict) and opt.get("action") == action and opt.get("text"):
            if (opt.get("effect") or {}).get("sale"):
                text = _sale_text(game, opt, sell or {})
            elif action.get("type") == "sell_goods":
                text = _sell_step_text(game, opt, sell or {})
            else:
                text = None
            # The engine's text says "pay $1 to seat 1" for a Captain's building too.
            return re.sub(r"\bseat (\d+)\b", lambda m: player_name(game, int(m.group(1))) or m.group(0),
                          str(text or opt["text"]))
    return ""


def step_label(path: str, value: Any, game: Game) -> str | None:
    """A value of a step-by-step choice as the board names it: `Town Hall`, `build Dry Dock`
    (not `space town_hall`, `build dry_dock`)."""
    if path == "space" and isinstance(value, str):
        return _space(game, value)
    if path == "build" and isinstance(value, str):
        return f"build {_space(game, value)}"
    return None


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


def _is_captain(game: Game, player: Any) -> bool:
    return isinstance(player, int) and player_name(game, player) is not None


def _fee(game: Game, fee: Any, owner: Any) -> str:
    """A building's fee: to its owner, or to the supply when a Captain owns it (solo rules p.12)."""
    if _is_captain(game, owner):
        return f"paying a ${fee} fee to the supply ({_who(game, owner)}'s building)"
    return f"paying {_who(game, owner)} a ${fee} fee"


def _placement(game: Game, e: dict[str, Any], who: str) -> str:
    """A worker placement with every change it makes to a player's money, goods, buildings and ships:
    the building built or taken over, a ship prepared, launched or moved out (Lighthouse), whales
    brought home, what was paid and taken, and the fee paid to the building's owner."""
    t = f"{who} sends a worker to {_space(game, e.get('space'))}{' (first: bonus)' if e.get('first') else ''}"
    if e.get("build"):
        t += f" and builds {_space(game, e['build'])}"
    if e.get("take_ownership"):
        was = e.get("owner")
        if was is None and isinstance(e.get("owner_paid"), dict):
            was = e["owner_paid"].get("seat")
        what = "it" if e["take_ownership"] == e.get("space") else _space(game, e["take_ownership"])
        t += f" and takes {what} over" + (f" from {_who(game, was)}" if was is not None else "")
    launch = e.get("launch") if isinstance(e.get("launch"), dict) else None
    if e.get("prepare"):
        t += f" and prepares ship {e['prepare']}"
    if launch:
        verb = "prepares and launches" if e.get("prepare_and_launch") else "launches"
        t += f" and {verb} ship {launch.get('ship')} to space {launch.get('to')}"
    elif e.get("launch") or e.get("to") is not None:
        t += " and launches a ship" + (f" to space {e['to']}" if e.get("to") is not None else "")
    mo = e.get("move_out")
    if isinstance(mo, dict):
        t += f" and moves ship {mo.get('ship')} from space {mo.get('from')} out to space {mo.get('to')} (rank 1st)"
    rw = e.get("return_whales")
    if isinstance(rw, dict):
        t += f" and brings home {_whales(rw.get('whales'))} from ship {rw.get('ship')}"
    if e.get("remove_empty_sea"):
        n = e["remove_empty_sea"]
        t += f" and removes {n} empty sea token{'' if n == 1 else 's'}"
    if e.get("fee"):
        t += f", {_fee(game, e['fee'], e.get('owner'))}"
    op = e.get("owner_paid")
    if isinstance(op, dict) and op.get("money"):
        t += f", {_fee(game, op['money'], op.get('seat'))}"
    sold = {k: n for k, n in (e.get("sold") or {}).items() if n}
    pay = {k: n for k, n in (e.get("pay") or {}).items() if n and sold.get(k) != n}
    if sold:
        t += f", selling {amounts(sold)}"
    if pay:
        t += f", paying {amounts(pay)}"
    if any((e.get("gain") or {}).values()):
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
        kept = f"; keeps {_whales(e['pay'])}" if any((e.get("pay") or {}).values()) else ""
        return f"{who}'s ship {e.get('ship')} comes home: lays paid ${e.get('lay_paid') or 0}{sold}{kept}."
    if t == "whale_bought":
        price = f" for ${e['price']}" if e.get("price") is not None else ""
        return f"{who} buys a {e.get('kind') or ''} whale{price}."
    if t == "buy_passed":
        return f"{who} buys nothing" + (f" ({e['auto']})." if isinstance(e.get("auto"), str) else ".")
    if t == "sale_closed":
        return "The whale sale closes."
    if t == "round_ended":
        nxt = f"; {_who(game, e['first_player'])} goes first next" if e.get("first_player") is not None else ""
        po = e.get("post_office")
        income = (f"; the Post Office pays {_who(game, po.get('seat'))} ${po.get('money')}"
                  if isinstance(po, dict) and po.get("money") else "")
        return f"Round {e.get('round')} ends{income}{nxt}."
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
