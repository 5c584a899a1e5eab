"""What a player at the table sees, in words and numbers a client can show as-is.

- `REFERENCE`: the printed boards and tiles, built once from the tables in data.py
  (whale lays and points, whaling track food costs, what each Town and Whaling Board
  space gives and costs, the once-per-turn purchase, scoring). Nothing is copied by
  hand: every number comes from data.py.
- `whaling_track(state)`: each track row with its ships, owners and ranks.
- `ship_locations(state)`: each ship's place in words, its rank and what its hold is worth.
- `pending(engine, state)`: the awaited decision with every legal action and its effect
  (money and goods paid and gained, whales kept or sold...); selling spaces are described
  once each (`sell`: prices, bonus, fee) instead of per combination of goods. Effects are computed by the
  same functions `decide` uses (spaces.resolve, NewBedford._return_ship...), so a shown
  effect is exactly what the action does; the actions themselves stay unchanged.
"""

from __future__ import annotations

from typing import Any

from . import data, spaces
from .data import GOODS, RESOURCES, WHALE_KINDS, WHALES

RANK_NAMES = ("1st", "2nd", "3rd")


# --- words --------------------------------------------------------------------------
def goods_text(goods: dict[str, int]) -> str:
    """{"money": 2, "food": 3} -> "$2, 3 food"."""
    parts = []
    for k in RESOURCES:
        n = goods.get(k, 0)
        if n:
            parts.append(f"${n}" if k == "money" else f"{n} {k}")
    return ", ".join(parts) or "nothing"


def whales_text(whales: dict[str, int]) -> str:
    parts = [f"{n} {WHALES[k]['name']}{'s' if n > 1 else ''}" for k, n in whales.items() if n and k in WHALES]
    return ", ".join(parts) or "no whales"


def _one_of(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def whaling_phases(row: int) -> int:
    """A ship launched to space `row` takes part in row - 1 whaling phases (RULES.md decision 3)."""
    return row - 1


def wharf_food(row: int) -> int:
    return (data.launch_food(row) + 1) // 2


# --- the static reference -----------------------------------------------------------
def _space_text(space: dict) -> tuple[str, str]:
    """The effect and 1st-placement bonus of a Town / Whaling Board space, in words."""
    effect, bonus = space["effect"], space.get("bonus", {})
    if effect == "gain":
        text = f"Take {goods_text(space['gain'])}."
    elif effect == "sell":
        prices = ", ".join(f"{g} ${p} each" for g, p in space["prices"].items())
        text = f"Sell any number of goods ({prices}); at least one."
    elif effect == "build":
        text = "Build one building tile, paying its printed cost."
    elif effect == "prepare":
        text = f"Prepare one of your ships at home: pay {goods_text(space['cost'])}, the ship goes to the Dock."
    elif effect == "launch":
        rows = data.SEA_ROWS
        text = (f"Launch a ship prepared on the Dock to whaling track space {rows[0]}-{rows[-1]}, paying the "
                f"space's food cost ({data.launch_food(rows[0])}-{data.launch_food(rows[-1])} food); it takes "
                "the first open rank.")
    else:  # pragma: no cover - every board space has one of the kinds above
        text = space["name"]
    if "gain" in bonus:
        btext = f"+{goods_text(bonus['gain'])}"
    elif "gain_one_of" in bonus:
        btext = f"+1 {_one_of(bonus['gain_one_of'])} (your choice)"
    elif "money" in bonus:
        btext = f"+${bonus['money']}"
    elif "discount" in bonus:
        btext = f"pay {bonus['discount']} fewer good(s) of the printed cost ({_one_of(GOODS)}; never money)"
    elif "cost_discount" in bonus:
        btext = f"pay {goods_text(bonus['cost_discount'])} less"
    elif "food_discount" in bonus:
        btext = f"pay {bonus['food_discount']} food less"
    else:  # pragma: no cover
        btext = "none"
    return text, btext


def _space_entry(space: dict) -> dict:
    text, btext = _space_text(space)
    entry: dict[str, Any] = {"id": space["id"], "name": space["name"], "board": space["board"],
                             "effect": space["effect"]}
    if space["effect"] == "gain":
        entry["gain"] = dict(space["gain"])
    if space["effect"] == "sell":
        entry["prices"] = dict(space["prices"])
    if space["effect"] == "prepare":
        entry["cost"] = dict(space["cost"])
    entry.setdefault("cost", {})
    if space["effect"] == "launch":
        # The food depends on the sea space chosen: whaling_track.rows[].launch_food has every variant.
        entry["food_by_row"] = {str(r): data.launch_food(r) for r in data.SEA_ROWS}
    entry.update({"text": text, "first_bonus": dict(space.get("bonus", {})), "first_bonus_text": btext})
    return entry


def _track_row(row: int) -> dict:
    if row == data.RETURN_ROW:
        return {"row": row, "name": "Return", "food": None,
                "text": "Ships here come home this movement phase: pay each whale's lay or sell it."}
    food = data.launch_food(row)
    return {
        "row": row, "name": f"Space {row}", "food": food,
        "launch_food": {
            "city_pier": food,
            "city_pier_first": max(0, food - data.SPACES["city_pier"]["bonus"]["food_discount"]),
            "wharf": wharf_food(row),
            "dry_dock": {**data.BUILDING_BY_ID["dry_dock"]["prepare_cost"], "food": food},
        },
        "whaling_phases": whaling_phases(row),
        "text": (f"Launching here costs {food} food; every movement phase moves a ship one space toward "
                 + (f"Return, so a ship launched here takes part in {whaling_phases(row)} whaling phase(s)."
                    if whaling_phases(row) else
                    "Return, so a ship launched here comes home empty in this round's movement phase "
                    "(unless a Lighthouse moves it out first).")),
    }


def build_reference() -> dict:
    bag = data.BAG_PER_PLAYER
    whales = [
        {"kind": k, "name": WHALES[k]["name"], "lay": WHALES[k]["lay"], "sale": WHALES[k]["lay"] // 2,
         "points": WHALES[k]["points"], "in_bag_per_player": bag[k],
         "text": (f"Lay ${WHALES[k]['lay']} to keep it when its ship returns (or sell it for "
                  f"${WHALES[k]['lay'] // 2}; the others may then buy it for ${WHALES[k]['lay']}); "
                  f"worth {WHALES[k]['points']} point(s).")}
        for k in WHALE_KINDS
    ]
    whales.append({"kind": "empty", "name": "Empty Sea", "lay": None, "sale": None, "points": 0,
                   "in_bag_per_player": bag["empty"], "text": "Nothing: no ship can take it."})
    purchase = {"goods": list(data.PURCHASE_GOODS), "amount": data.PURCHASE_AMOUNT, "price": data.PURCHASE_PRICE,
                "text": (f"Once per turn, before placing a worker: buy exactly {data.PURCHASE_AMOUNT} "
                         f"{_one_of(data.PURCHASE_GOODS)} (not mixed) for ${data.PURCHASE_PRICE} (action buy_goods).")}
    return {
        "whales": whales,
        "whaling_track": {
            "ranks": data.RANKS,
            "rows": [_track_row(r) for r in (data.RETURN_ROW, *data.SEA_ROWS)],
            "text": ("Rows 1-6 are the sea spaces (6 farthest from shore), each holding up to "
                     f"{data.RANKS} ships in ranks 1st-{RANK_NAMES[data.RANKS - 1]}. In the whaling phase "
                     "ships pick drawn whale tokens farthest space first, then by rank."),
        },
        "spaces": [_space_entry(s) for s in data.TOWN_SPACES + data.WHALING_SPACES],
        "spaces_text": ("Town and Whaling Board spaces may be used any number of times per round; the first "
                        "worker on an empty space also takes its first_bonus. Building actions (see "
                        "building_tiles) may be used once per round; another player's costs "
                        f"${data.BUILDING_FEE}, paid to its owner first."),
        "turn": {
            "rounds": data.ROUNDS,
            "workers": data.WORKERS,
            "starting_value": data.STARTING_VALUE,
            "good_values": dict(data.GOOD_VALUE),
            "building_fee": data.BUILDING_FEE,
            "purchase": purchase,
            "text": ("Each round: actions (place workers one at a time from the first player clockwise), "
                     "movement (every ship one space toward Return; returning ships pay lays or sell), "
                     f"whaling (draw 1 + 1 per ship at sea from the bag), end of round. {data.ROUNDS} rounds."),
        },
        "scoring": {
            "whale_points": {k: WHALES[k]["points"] for k in WHALE_KINDS},
            "points_per_building": 1,
            "money_per_point": data.MONEY_PER_POINT,
            "text": (f"Whales {'/'.join(str(WHALES[k]['points']) for k in WHALE_KINDS)} points "
                     f"({'/'.join(WHALES[k]['name'] for k in WHALE_KINDS)}); 1 point per building you own; "
                     f"Victory building bonuses; ${data.MONEY_PER_POINT} = 1 point; goods score nothing. "
                     "Ties: most whale tokens, then most unscored money."),
        },
    }


REFERENCE = build_reference()


# --- the board as it stands -----------------------------------------------------------
def whaling_track(state) -> list[dict]:
    """Every row of the track (0 = Return) with its ships in rank order."""
    out = []
    for row, ships in enumerate(state["track"]):
        out.append({
            "row": row,
            "name": "Return" if row == data.RETURN_ROW else f"Space {row}",
            "ships": [{"seat": seat, "ship": n, "rank": i + 1} for i, (seat, n) in enumerate(ships)],
        })
    return out


def ship_where(state, seat: int, n: int) -> tuple[int | None, str]:
    ship = state["players"][seat]["ships"][n - 1]
    at = ship["at"]
    if at == "home":
        return None, "at home (prepare it at the Dockyard, or use a Dry Dock)"
    if at == "dock":
        return None, "prepared on the Dock (launch it from City Pier or a Wharf)"
    row = ship["row"]
    rank = state["track"][row].index([seat, n]) + 1 if [seat, n] in state["track"][row] else None
    rank_text = f", rank {RANK_NAMES[rank - 1]}" if rank else ""
    if at == "returning":
        return rank, f"returning (on Return{rank_text})"
    return rank, f"at sea on whaling track space {row}{rank_text}"


def annotate_ships(view_players: list[dict], state) -> None:
    """Add each ship's rank, location in words and hold value to the view's players."""
    for seat, p in enumerate(view_players):
        for i, ship in enumerate(p["ships"]):
            rank, where = ship_where(state, seat, i + 1)
            hold = ship["hold"]
            ship["ship"] = i + 1
            ship["rank"] = rank
            ship["where"] = where
            ship["lay_to_keep_all"] = sum(WHALES[k]["lay"] * hold[k] for k in WHALE_KINDS)
            ship["hold_points"] = sum(WHALES[k]["points"] * hold[k] for k in WHALE_KINDS)


# --- the pending decision and the effect of each choice ------------------------------
def _after(state, seat: int, net: dict[str, int]) -> dict[str, int]:
    p = state["players"][seat]
    return {k: p[k] + net.get(k, 0) for k in RESOURCES}


def _net(pay: dict[str, int], gain: dict[str, int], fee: int = 0) -> dict[str, int]:
    net = {k: gain.get(k, 0) - pay.get(k, 0) for k in RESOURCES}
    net["money"] -= fee
    return {k: v for k, v in net.items() if v}


def _signed(net: dict[str, int]) -> str:
    if not net:
        return "no change to money or goods"
    parts = []
    for k in RESOURCES:
        v = net.get(k, 0)
        if v:
            sign = "+" if v > 0 else "-"
            parts.append(f"{sign}${abs(v)}" if k == "money" else f"{sign}{abs(v)} {k}")
    return ", ".join(parts)


def _placement_effect(state, seat: int, action: dict) -> dict:
    e = spaces.resolve(state, seat, action)
    return _worker_effect(state, e)


def _worker_effect(state, e: dict) -> dict:
    space = data.SPACES.get(e["space"]) or data.BUILDING_BY_ID[e["space"]]
    if e["type"] == "sale_opened":
        return {"effect": {"space": e["space"], "space_name": space["name"], "sale": list(e["kinds"])}, "net": {},
                "words": [space["name"], f"sell goods ({', '.join(e['kinds'])}), one kind at a time"]}
    fee = e.get("fee", 0)
    net = _net(e["pay"], e["gain"], fee)
    eff: dict[str, Any] = {"space": e["space"], "space_name": space["name"], "first_bonus": e["first"],
                           "pay": dict(e["pay"]), "gain": dict(e["gain"])}
    words = [space["name"] + (" (1st: bonus)" if e["first"] and space.get("bonus") else "")]
    if fee:
        to_supply = spaces.fee_to_supply(state, e["owner"])  # a Captain collects nothing (solo p.12)
        eff["fee"] = {"money": fee, "to_seat": e["owner"], "to_supply": to_supply}
        words.append(f"pay ${fee} to the supply (a Captain's building)" if to_supply else f"pay ${fee} to seat {e['owner']}")
    if "build" in e:
        eff["build"] = e["build"]
        words.append(f"build {data.BUILDING_BY_ID[e['build']]['name']}")
    if "prepare" in e:
        eff["prepare"] = e["prepare"]
        words.append(f"Ship {e['prepare']} to the Dock")
    if "launch" in e:
        row = e["launch"]["to"]
        eff["launch"] = {"ship": e["launch"]["ship"], "to": row, "rank": len(state["track"][row]) + 1,
                         "whaling_phases": whaling_phases(row)}
        words.append(f"launch Ship {e['launch']['ship']} to space {row}, rank "
                     f"{RANK_NAMES[len(state['track'][row])]} ({whaling_phases(row)} whaling phase(s))")
    if "move_out" in e:
        eff["move_out"] = dict(e["move_out"])
        words.append(f"Ship {e['move_out']['ship']} from space {e['move_out']['from']} to "
                     f"space {e['move_out']['to']}, rank 1st")
    if "return_whales" in e:
        rw = e["return_whales"]
        eff["return_whales"] = {"ship": rw["ship"], "whales": dict(rw["whales"]),
                                "points": sum(WHALES[k]["points"] * n for k, n in rw["whales"].items())}
        words.append(f"return {whales_text(rw['whales'])} from Ship {rw['ship']} free")
    if "remove_empty_sea" in e:
        eff["remove_empty_sea"] = e["remove_empty_sea"]
        words.append(f"remove {e['remove_empty_sea']} Empty Sea token(s)")
    if "take_ownership" in e:
        eff["take_ownership"] = e["take_ownership"]
        words.append("become its owner")
    if e.get("inn"):
        eff["inn"] = True
        words.append("re-place both your workers after everyone has placed")
    if "sold" in e:
        words.append(f"sell {goods_text(e['sold'])}")
    return {"effect": eff, "net": net, "words": words}


def option(engine, state, seat: int, action: dict, decision: str) -> dict:
    """One legal action with its effect on the acting seat, in numbers and words."""
    t = action["type"]
    whales: dict[str, int] = {}
    if t == "choose_starting_goods":
        goods = engine._starting_goods(seat, action)["goods"]
        eff, net = {"gain": {k: v for k, v in goods.items() if v}}, {k: v for k, v in goods.items() if v}
        text = f"Start with {goods_text(goods)}"
    elif t == "buy_goods":
        e = engine._buy_goods(state, seat, action)
        eff = {"pay": {"money": e["price"]}, "gain": {e["good"]: e["amount"]}}
        net = _net(eff["pay"], eff["gain"])
        text = f"Buy {e['amount']} {e['good']} for ${e['price']}, then place a worker"
    elif t == "place_worker":
        r = _placement_effect(state, seat, action)
        eff, net = r["effect"], r["net"]
        text = ": ".join([r["words"][0], "; ".join(r["words"][1:])]) if len(r["words"]) > 1 else r["words"][0]
        if "return_whales" in eff:
            whales = dict(eff["return_whales"]["whales"])
    elif t == "return_ship":
        e = engine._return_ship(state, seat, action)
        money = e["sale_money"] - e["lay_paid"]
        eff = {"ship": e["ship"], "keep": dict(e["pay"]), "sell": dict(e["sell"]), "lay_paid": e["lay_paid"],
               "sale_money": e["sale_money"], "money_change": money,
               "points_kept": sum(WHALES[k]["points"] * n for k, n in e["pay"].items())}
        net = {"money": money} if money else {}
        whales = {k: v for k, v in e["pay"].items() if v}
        text = (f"Keep {whales_text(e['pay'])} (lay ${e['lay_paid']}), sell {whales_text(e['sell'])} "
                f"(+${e['sale_money']}): worth {eff['points_kept']} point(s)")
    elif t == "buy_whale":
        e = engine._buy_whale(state, seat, action)
        k = e["kind"]
        eff = {"kind": k, "price": e["price"], "points": WHALES[k]["points"]}
        net, whales = {"money": -e["price"]}, {k: 1}
        text = f"Buy a {WHALES[k]['name']} for ${e['price']} (worth {WHALES[k]['points']} point(s))"
    elif t == "pick_whale":
        k, ship = action["kind"], state["picks"][0][1]
        eff = {"ship": ship, "kind": k, "lay": WHALES[k]["lay"], "points": WHALES[k]["points"]}
        net = {}
        text = (f"Put a {WHALES[k]['name']} in Ship {ship}'s hold (lay ${WHALES[k]['lay']} to keep it when "
                f"the ship returns; worth {WHALES[k]['points']} point(s))")
    elif t == "sell_goods":
        e = spaces.sale_step(state, seat, action)
        if e["type"] == "worker_placed":
            r = _worker_effect(state, e)
            eff, net = r["effect"], r["net"]
            text = f"Sell {action['count']} {action['good']}: {'; '.join(r['words'][1:])}"
        else:
            eff, net = {"good": action["good"], "count": action["count"]}, {}
            text = f"Sell {action['count']} {action['good']}, then the next good"
    elif t == "choose_for_captain":
        o = next(o for o in state["captain_game"]["choice"]["choices"] if o["choice"] == action["choice"])
        eff, net = {"captain_event": o["event"]}, {}
        if "owner_paid" in o["event"] and o["event"]["owner_paid"]["seat"] == seat:
            net = {"money": o["event"]["owner_paid"]["money"]}
        text = f"The Captain: {o['text']}"
    else:  # pass
        eff, net = {}, {}
        text = ("Buy nothing; you are out of this sale" if decision == "buy_whale"
                else f"Take no token for Ship {state['picks'][0][1]}")
    out = {"action": action, "effect": eff, "net": net, "after": _after(state, seat, net), "text": text}
    if t in ("place_worker", "buy_goods", "return_ship", "buy_whale"):
        out["text"] = f"{text} ({_signed(net)})"
    if whales:
        out["whales_gained"] = whales
    return out


def sell_summary(state, seat: int, space_id: str) -> dict:
    """How much a selling space (General Store, Lumber Mill, Market) pays now, per good.
    Money for selling `sold` = sum(prices[g] * n) + sum(first_of_kind_extra[g] for each kind
    sold) + first_bonus_money - fee (the same sum spaces._resolve_sell makes)."""
    ctx = spaces.context(state, seat, space_id)
    prices = dict(ctx.space["prices"])
    double = bool(ctx.space.get("double_first"))
    bonus = ctx.space.get("bonus", {}).get("money", 0) if ctx.first else 0
    words = ", ".join(f"{g} ${p}" for g, p in prices.items())
    text = f"{ctx.name}: sell {words} each"
    if double:
        text += "; the first good of each kind sold earns double"
    if bonus:
        text += f"; +${bonus} (first-player bonus)"
    to_supply = spaces.fee_to_supply(state, ctx.owner) if ctx.fee else bool(ctx.extra)
    if ctx.fee:
        text += (f"; pay ${ctx.fee} to the supply first (a Captain's building)" if to_supply
                 else f"; pay ${ctx.fee} to seat {ctx.owner} first")
    if ctx.extra:
        text += f"; Turner's Mill: ${ctx.extra} more to the supply"
    return {
        "space": space_id, "space_name": ctx.name, "prices": prices,
        "first_of_kind_extra": {g: (p if double else 0) for g, p in prices.items()},
        "first_bonus_money": bonus, "fee": ctx.fee + ctx.extra, "fee_to_seat": ctx.owner if ctx.fee else None,
        "fee_to_supply": to_supply,
        "have": {g: state["players"][seat][g] for g in prices},
        "text": text + "; at least one good.",
    }


def pending(engine, state, awaiting: dict | None) -> dict | None:
    """The awaited decision with every legal action of the awaited seat and its effect.

    `options` holds, in legal-action order, every legal action (submitted unchanged) with
    its effect. A sale of goods is composed in steps (place_worker on the selling space,
    then one sell_goods per kind), and each selling space on offer is described once in
    `sell` (prices, bonus, fee) so a client can show what a whole sale pays."""
    if awaiting is None:
        return None
    seat, decision = awaiting["seat"], awaiting["decision"]
    out = dict(awaiting)
    if decision == "return_ship":
        ship = awaiting["ship"]
        hold = state["players"][seat]["ships"][ship - 1]["hold"]
        out["hold"] = dict(hold)
        out["money"] = state["players"][seat]["money"]
        out["rule"] = ("For each whale pay its lay to keep it, or sell it for half the lay (sale money "
                       "comes first and may pay lays); the others may then buy sold whales at the full lay.")
    options, sell = [], {}
    for a in engine.legal_actions(state, seat):
        if a["type"] == "place_worker" and "sell" in a:  # the one-action form (not listed any more)
            if a["space"] not in sell:
                sell[a["space"]] = sell_summary(state, seat, a["space"])
            continue
        if a["type"] == "place_worker" and len(a) == 2 and spaces.context(state, seat, a["space"]).space[
                "effect"] == "sell":
            sell[a["space"]] = sell_summary(state, seat, a["space"])
        options.append(option(engine, state, seat, a, decision))
    if decision == "sell_goods":
        out["sell"] = {state["selling"]["space"]: sell_summary(state, seat, state["selling"]["space"])}
    out["options"] = options
    if decision == "place_worker":
        out["sell"] = sell
    return out


# --- the Captains (solo mode) ------------------------------------------------------------
def captains_view(state) -> dict | None:
    """The Captains at the table: each one's board (Helm with the token's position, the
    heading, orders, Building Project, limits) and what it owns; the turn order; a choice
    the human makes for a Captain. None in a game without Captains."""
    from . import captains

    cg = state.get("captain_game")
    if cg is None:
        return None
    out = []
    for i in cg["captains"]:
        p = state["players"][i]
        cap = p["captain"]
        board = captains.board_for(state, i)
        out.append({
            "player": i,
            "name": cap["name"],
            "title": board["name"],
            "personality": board.get("personality", ""),
            "helm": [captains.heading_at(board, k, state["round"]) for k in range(len(board["helm"]))],
            "helm_printed": board["helm"],
            "helm_position": cap["helm"],
            "heading": cap["heading"],
            "heading_text": captains.heading_text(cap["heading"]),
            "round12": list(board["round12"]),
            "orders": [{"step": st["step"], "entries": [captains.entry_text(state, i, e) for e in st["entries"]]}
                       for st in board["orders"]],
            # The same orders as ids, for the clients' catalogs (label.order_entry): each entry is
            # the board's own ({"check": "own"}, {"building": "inn"}, {"change": h}, {"loop": h}).
            "order_entries": [{"step": st["step"], "entries": [dict(e) for e in st["entries"]]}
                              for st in board["orders"]],
            "building_project": {k: list(v) for k, v in board["building_project"].items()},
            "victory_order": list(board["victory_order"]),
            "limits": dict(board["limits"]),
            "restrictions": captains.restrictions_view(state, i),
            "buildings": [b for b, t in state["buildings"].items() if t["owner"] == i],
            "whales": captains.whales_held(state, i),
            "idle": cap["idle"],
        })
    return {
        "captains": out,
        "order": list(cg["order"]),
        "building_order": list(cg["building_order"]),
        "expert": cg["expert"],
        "turners_mill": cg["turners_mill"],
        "last_captain_space": cg["last_captain_space"],
        "choice": cg["choice"],
    }
