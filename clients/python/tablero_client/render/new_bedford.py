"""New Bedford: round and phase, each player's goods, ships and workers, the town's buildings,
the whaling track and the running score, as the seat knows them; the event log in words.

Captains (El Océano Solitario's automa players) are players after the seats, never seats: they
are named "Captain Starbuck" wherever the terminal names a player."""

from __future__ import annotations

from typing import Any

from rich.columns import Columns
from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..models import Game
from . import i18n, messages
from .fit import Fit

WHALES = ("right", "bowhead", "sperm")


def player_name(game: Game, player: int) -> str | None:
    """`Captain Starbuck` for a Captain's player number; None for seats (named as seats)."""
    v = game.view or {}
    m = messages(game)
    for c in (v.get("captains") or {}).get("captains") or []:
        if isinstance(c, dict) and c.get("player") == player:
            return m.format("label.captain", {"name": i18n.value(m, c.get("name"))})
    players = v.get("players") or []
    if 0 <= player < len(players) and isinstance(players[player], dict):
        cap = players[player].get("captain")
        if isinstance(cap, dict) and cap.get("name"):
            return m.format("label.captain", {"name": i18n.value(m, cap["name"])})
    return None


def header_parts(game: Game) -> list[str]:
    """Who the seats play against, for the header: "against Captain Starbuck" (a solo game's
    Captain is never a seat, so the seats' names alone did not say it)."""
    m = messages(game)
    caps = [c for c in ((game.view or {}).get("captains") or {}).get("captains") or [] if isinstance(c, dict)]
    if not caps:
        return []
    names = [m.format("label.against_captain", {"name": i18n.value(m, c.get("name"))}) for c in caps]
    return [m.format("label.against", {"captains": m.list(names)})]


def action_effect(action: dict[str, Any], game: Game) -> str | None:
    """What a move does: the building a worker goes to (or builds), from the catalog's `effect.`;
    for a sale composed in steps, what it can pay (from the view's `pending.sell`)."""
    m = messages(game)
    pend = (game.view or {}).get("pending") or {}
    opt = next((o for o in pend.get("options") or [] if isinstance(o, dict) and o.get("action") == action), None)
    if opt is not None and ((opt.get("effect") or {}).get("sale") or action.get("type") == "sell_goods"):
        return _sale_effect(m, opt, pend.get("sell") or {}, game)
    if action.get("type") == "choose_for_captain" and isinstance((opt or {}).get("effect"), dict):
        from . import describe_event  # what the Captain would do: the event the choice records

        ev = opt["effect"].get("captain_event")
        return describe_event(ev, game) if isinstance(ev, dict) else None
    target = action.get("build") or action.get("space") if action.get("type") == "place_worker" else None
    eff = (opt or {}).get("effect") or {}
    # the 1st-placement bonus only where this worker would take it (not after a Captain took it)
    first = {"first": i18n.value(m, eff["first_bonus"])} if isinstance(eff.get("first_bonus"), bool) and not action.get("build") else {}
    parts = [m.format(f"effect.{target}", first)] if isinstance(target, str) and m.has(f"effect.{target}") else []
    fee = eff.get("fee") or {}
    if isinstance(fee, dict) and fee.get("money"):  # the owner's fee; a Captain's goes to the supply
        parts.append(m.format("label.fee", {"money": fee["money"], "who": _who(game, fee.get("to_seat")),
                                            "to_supply": i18n.value(m, bool(fee.get("to_supply")))}))
    return "; ".join(parts) or None


def _sale_effect(m: i18n.Catalog, opt: dict[str, Any], sell: dict[str, Any], game: Game) -> str | None:
    eff = opt.get("effect") or {}
    if eff.get("sale"):  # a selling space: its prices, the first-player bonus, the most it can pay
        s = sell.get(eff.get("space")) if isinstance(sell, dict) else None
        if not isinstance(s, dict):
            return None
        prices, have, extra = s.get("prices") or {}, s.get("have") or {}, s.get("first_of_kind_extra") or {}
        kinds = [k for k in eff["sale"] if k in prices]
        bonus, fee = s.get("first_bonus_money") or 0, s.get("fee") or 0
        most = sum(prices[k] * (have.get(k) or 0) + (extra.get(k) or 0) for k in kinds if have.get(k)) + bonus - fee
        # the rulebook's words for the space: its prices, the Market's first good of each kind doubled
        return m.format("label.sale", {"prices": m.list([m.format("label.sale_price", {"good": i18n.value(m, k), "price": i18n.amounts(m, {"money": prices[k]})})
                                                         for k in kinds]),
                                       "double": i18n.value(m, any((extra.get(k) or 0) > 0 for k in kinds)), "most": most, "bonus": bonus, "fee": fee,
                                       "fee_to_supply": i18n.value(m, bool(s.get("fee_to_supply"))),
                                       "fee_who": _who(game, s.get("fee_to_seat")) if s.get("fee_to_seat") is not None else ""})
    if "gain" in eff or "pay" in eff:  # the last step of a sale: what the whole sale pays
        return m.format("label.sale_ends", {"money": (opt.get("net") or {}).get("money") or 0})
    return None


def _who(game: Game, player: Any) -> str:
    from . import player_name as name_of

    return name_of(game, player)


def _ship(game: Game, s: dict[str, Any]) -> str:
    m = messages(game)
    hold = m.list([m.format(f"amount.{k}", {"n": n}) for k, n in (s.get("hold") or {}).items() if n])
    where = m.format("label.ship_short", {"at": s.get("at") or "?", "row": s.get("row") or 0})
    return m.format("label.ship", {"ship": s.get("ship"), "where": where}) + (f" ({hold})" if hold else "")


def heading(m: i18n.Catalog, h: Any) -> str:
    """A Captain's heading id (`lumber`, `launch:4`, `combo:5`) in the catalog's words."""
    kind, _, row = str(h or "").partition(":")
    return m.format("label.heading_of", {"kind": kind, "row": int(row) if row.isdigit() else 0})


def order_entry(m: i18n.Catalog, captain: str, e: dict[str, Any]) -> str:
    """An entry of a Captain's Orders (the board's own: check, building, change, loop)."""
    if "check" in e:
        return m.format("label.order_entry", {"kind": e["check"], "captain": captain})
    if "building" in e:
        return m.format("label.order_entry", {"kind": "building", "building": i18n.value(m, e["building"])})
    if e.get("loop") == "reroll":
        return m.format("label.order_entry", {"kind": "reroll"})
    kind = "change" if "change" in e else "loop"
    return m.format("label.order_entry", {"kind": kind, "heading": heading(m, e.get(kind))})


def order_lines(m: i18n.Catalog, c: dict[str, Any]) -> list[str]:
    """A Captain's Orders as his board prints them and the browser lists them: a line per step,
    numbered as the board numbers them ("go back to step 1"), its entries in the order searched."""
    captain = str(i18n.value(m, c.get("name")))
    return [f"{st.get('step')}. " + " → ".join(order_entry(m, captain, e) for e in st.get("entries") or []
                                              if isinstance(e, dict))
            for st in c.get("order_entries") or [] if isinstance(st, dict)]


def restriction_lines(m: i18n.Catalog, r: dict[str, Any]) -> list[str]:
    """The board's "Restricciones a Preparar y Zarpar" (solo p.13) and what they mean now."""
    most, on_dock = r.get("prepare_max_on_dock") or 2, r.get("on_dock") or 0
    return [m.format("label.restriction_prepare", {"most": most}), m.format("label.restriction_launch"),
            m.format("label.restriction_combo"),
            m.format("label.restriction_now", {"can_prepare": "true" if r.get("can_prepare") else "false",
                                               "full": "true" if on_dock >= most else "false", "on_dock": on_dock})]


def field_value(key: str, value: Any, game: Game) -> Any:
    """Values the board words its own way: a Captain's heading, Ahab's ship for a drawn token; a
    building's `owner` that is a Captain reads `captain` (its fee is paid to the supply); the
    Captains' final scores (game_ended's `captains`) read "Ahab 12 and Stubb 23"."""
    m = messages(game)
    if key in ("heading", "rolled_heading") and isinstance(value, str):
        return heading(m, value)
    if key == "choice" and isinstance(value, str) and value.startswith("ship") and value[4:].isdigit():
        return m.format("label.ship_n", {"ship": int(value[4:])})
    if key == "owner" and _is_captain(game, value):  # a fee for his building goes to the supply (solo p.12)
        return "captain"
    if key == "captains" and isinstance(value, list) and value and all(isinstance(c, dict) and "total" in c for c in value):
        # the final scores of the Captains (game_ended), beside the player's: "Ahab 12 and Stubb 23"
        return m.list([f"{i18n.value(m, c.get('captain'))} {c['total']}" for c in value])
    return None


def _is_captain(game: Game, player: Any) -> bool:
    players = (game.view or {}).get("players") or []
    return (isinstance(player, int) and not isinstance(player, bool) and 0 <= player < len(players)
            and isinstance(players[player], dict) and players[player].get("captain") is not None)


def _captains(game: Game) -> Table | None:
    """Each Captain's heading, the Orders he searches to satisfy it (solo p.12), his board's
    "Restricciones a Preparar y Zarpar" (solo p.13) with what they mean now, and his limits; None in
    a game without Captains."""
    caps = [c for c in ((game.view or {}).get("captains") or {}).get("captains") or [] if isinstance(c, dict)]
    if not caps:
        return None
    m = messages(game)
    t = Table(title=m.format("view.captains"), title_justify="left")
    for col in ("captain", "heading", "orders", "restrictions", "limits"):
        t.add_column(m.format("label.captain_column", {"column": col}))
    for c in caps:
        lim = c.get("limits") or {}
        t.add_row(_who(game, c.get("player")), heading(m, c.get("heading")), "\n".join(order_lines(m, c)),
                  "\n".join(restriction_lines(m, c.get("restrictions") or {})),
                  m.format("label.captain_limits", {"whales": c.get("whales", 0), "max_whales": lim.get("whales", 0),
                                                    "buildings": len(c.get("buildings") or []),
                                                    "max_buildings": lim.get("buildings", 0)}))
    return t


def render(game: Game) -> Group:
    v = game.view
    m = messages(game)
    head = Text()
    head.append(m.format("label.term_head", {"round": v.get("round"), "phase": i18n.value(m, v.get("phase") or ""),
                                              "who": _who(game, v.get("first_player"))}))
    if v.get("final"):
        head.append(f"  ({m.format('label.final_round')})", style="bold red")

    players = Table(title=m.format("label.term_players"), title_justify="left")
    for col in ("player", "money", "lumber", "food", "brick", "ships", "workers", "buildings", "score"):
        players.add_column(m.format("label.term_column", {"column": col}))
    preview = {p.get("seat"): p for p in v.get("score_preview") or []}
    owned: dict[int, list[str]] = {}
    for key, b in (v.get("buildings") or {}).items():
        if b.get("owner") is not None:
            owned.setdefault(b["owner"], []).append(_space(game, key))
    for i, p in enumerate(v.get("players") or []):
        style = "bold cyan" if i == game.your_seat else ""
        players.add_row(
            _who(game, i), str(p.get("money")), str(p.get("lumber")),
            str(p.get("food")), str(p.get("brick")), "\n".join(_ship(game, s) for s in p.get("ships") or []),
            ", ".join(_space(game, w) for w in p.get("workers") or []) or "—",
            ", ".join(owned.get(i, [])) or "—", str(preview.get(i, {}).get("total", "")), style=style)

    town = Table(title=m.format("label.term_town"), title_justify="left", show_header=False)
    town.add_column("space")
    town.add_column("workers")
    for space, seats in (v.get("occupancy") or {}).items():
        b = (v.get("buildings") or {}).get(space)
        if b is not None and b.get("owner") is None:
            continue  # not built yet
        owner = f" ({m.format('label.term_owner', {'who': _who(game, b['owner'])})})" if b and b.get("owner") is not None else ""
        town.add_row(_space(game, space) + owner, ", ".join(_who(game, s) for s in seats) or "—")

    sea = Table(title=m.format("label.term_track"), title_justify="left", show_header=False)
    sea.add_column("row")
    sea.add_column("ships")
    for row in v.get("whaling_track") or []:
        ships = ", ".join(m.format("label.ship_of", {"who": _who(game, s.get("seat")), "ship": s.get("ship")}) if isinstance(s, dict) else str(s)
                          for s in row.get("ships") or [])
        sea.add_row(m.format("label.track_row", {"row": row.get("row") or 0}), ships or "—")
    bag = v.get("bag") or {}
    bag_text = Text(m.format("label.ocean_bag") + " " + m.list([m.format(f"amount.{k}", {"n": n}) for k, n in bag.items()]))

    unbuilt = [_space(game, k) for k, b in (v.get("buildings") or {}).items() if b.get("owner") is None]
    parts: list[Any] = [head, Fit(players)]
    caps = _captains(game)
    if caps is not None:
        parts.append(Fit(caps))
    parts.append(Columns([town, Group(sea, bag_text)]))
    if unbuilt:
        parts.append(Text(m.format("label.for_sale", {"n": len(unbuilt)}) + ": " + ", ".join(unbuilt), style="dim"))
    tie = tie_break_text(game)
    if tie:
        parts.append(Text(tie, style="bold"))
    pend = v.get("pending") or v.get("awaiting")
    if isinstance(pend, dict) and pend.get("decision"):
        from . import seats_args

        parts.append(Text(m.format("label.term_waiting", {**seats_args(game, pend.get("seat"), lambda s: _who(game, s)),
                                                                 "decision": _decision(m, pend)}), style="yellow"))
    return Group(*parts)


TIEBREAKS = (("whale_tokens", False), ("unscored_money", True))


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
    m = messages(game)

    def amount(money: bool, n: int) -> str:
        return m.format("amount.money", {"n": n}) if money else m.number(n)

    level: list[str] = []
    for key, money in TIEBREAKS:
        values = [d["tiebreak"].get(key) or 0 for d in tied]
        label = m.format("label.tiebreak", {"key": key})
        listed = ", ".join(f"{_who(game, d.get('player', d.get('seat')))} {amount(money, n)}"
                           for d, n in zip(tied, values, strict=True))
        if len(set(values)) > 1:
            return m.format("label.tie_broken", {"best": best, "label": label, "listed": listed,
                                                 "has_level": "true" if level else "false", "level": "; ".join(level)})
        level.append(m.format("label.tie_level", {"label": label, "value": amount(money, values[0])}))
    return m.format("label.tie_level_too", {"best": best, "level": "; ".join(level)})


def step_label(path: str, value: Any, game: Game) -> str | None:
    """A value of a step-by-step choice as the board names it: `Town Hall`, `build Dry Dock`
    (not `space town_hall`, `build dry_dock`)."""
    if path == "space" and isinstance(value, str):
        return _space(game, value)
    if path == "build" and isinstance(value, str):
        return _space(game, value)
    return None


def _space(game: Game, space: Any) -> str:
    m = messages(game)
    return str(i18n.value(m, space)) if isinstance(space, str) else str(space)


def _decision(m: i18n.Catalog, pend: dict[str, Any]) -> str:
    """What a seat is to decide; a whale pick names the ship whose hold takes the whale (a player
    with both ships hunting picks twice, once for each)."""
    text = i18n.value(m, pend["decision"])
    return f"{text} ({m.format('label.ship_n', {'ship': pend['ship']})})" if pend.get("ship") else text
