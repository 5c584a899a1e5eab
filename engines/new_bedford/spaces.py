"""Worker placement: which action spaces a player may use now, what each placement
costs and gives. A placement is one action

    {"type": "place_worker", "space": <space id>, ...parameters of its effect kind}

and resolves into one `worker_placed` event that carries everything it changes
(fee, goods paid and gained, ship moved, building built...), so `evolve` only
applies facts. `placements()` enumerates every legal placement; `resolve()`
validates one. Both go through the same per-effect functions, so the list and
the check cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablero.engines.core import IllegalAction, InvalidAction

from . import data
from .data import GOODS, RESOURCES, SPACES


class Ctx:
    """One prospective placement: who, where, with or without the 1st-player bonus,
    and what the player holds once any building fee is paid."""

    __slots__ = ("state", "seat", "space", "first", "fee", "owner", "avail", "inn", "via", "extra")

    def __init__(self, state, seat, space, first, fee, owner, inn, via=None, extra=0):
        self.state = state
        self.seat = seat
        self.space = space
        self.first = first
        self.fee = fee
        self.owner = owner
        self.inn = inn
        # Turner's Mill: the space whose action is repeated is `space`; `via` is the mill and
        # `extra` the $1 paid to the supply on top of the action's normal cost.
        self.via = via
        self.extra = extra
        p = state["players"][seat]
        self.avail = {r: p[r] for r in RESOURCES}
        self.avail["money"] -= fee + extra

    @property
    def name(self) -> str:
        return self.space["name"]

    def ship(self, n: int) -> dict:
        return self.state["players"][self.seat]["ships"][n - 1]


# --- small helpers --------------------------------------------------------------
def _nonzero(d: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in d.items() if v}


def _affordable(avail: dict[str, int], pay: dict[str, int]) -> bool:
    return all(avail.get(k, 0) >= v for k, v in pay.items())


def _describe(goods: dict[str, int]) -> str:
    parts = [f"${v}" if k == "money" else f"{v} {k}" for k, v in goods.items() if v]
    return ", ".join(parts) or "nothing"


def _require_affordable(ctx: Ctx, pay: dict[str, int], what: str) -> None:
    if not _affordable(ctx.avail, pay):
        extra = " after paying the $1 fee" if ctx.fee else ""
        raise IllegalAction(f"{ctx.name}: you cannot pay {_describe(pay)} for {what}{extra}")


def _int_field(action: dict, key: str, lo: int, hi: int) -> int:
    v = action.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise InvalidAction(f"place_worker: {key!r} must be an integer from {lo} to {hi}")
    return v


def _goods_field(action: dict, key: str, allowed) -> dict[str, int]:
    v = action.get(key)
    if not isinstance(v, dict):
        raise InvalidAction(f"place_worker: {key!r} must be an object of counts by kind")
    out = {}
    for k, n in v.items():
        if k not in allowed:
            raise InvalidAction(f"place_worker: {key!r} takes only {', '.join(allowed)}, not {k!r}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise InvalidAction(f"place_worker: {key}.{k} must be a non-negative integer")
        out[k] = n
    return out


def _ship_field(action: dict) -> int:
    return _int_field(action, "ship", 1, 2)


def _track_row_of(state, seat: int, ship: int) -> int | None:
    s = state["players"][seat]["ships"][ship - 1]
    return s["row"] if s["at"] == "sea" else None


# --- the effect kinds -----------------------------------------------------------
# Each kind has: the parameter keys it takes, a resolver (params -> effect dict with
# "pay", "gain" and any extra facts) and an enumerator of candidate parameters.


def _gain_keys(ctx: Ctx) -> tuple[str, ...]:
    return ("bonus",) if ctx.first and "gain_one_of" in ctx.space.get("bonus", {}) else ()


def _resolve_gain(ctx: Ctx, action: dict) -> dict:
    gain = dict(ctx.space["gain"])
    bonus = ctx.space.get("bonus", {}) if ctx.first else {}
    for k, v in bonus.get("gain", {}).items():
        gain[k] = gain.get(k, 0) + v
    if "gain_one_of" in bonus:
        choice = action.get("bonus")
        if choice not in bonus["gain_one_of"]:
            raise InvalidAction(f"place_worker: 'bonus' must be one of {', '.join(bonus['gain_one_of'])}")
        gain[choice] = gain.get(choice, 0) + 1
    return {"pay": {}, "gain": gain}


def _options_gain(ctx: Ctx) -> list[dict]:
    if _gain_keys(ctx):
        return [{"bonus": g} for g in ctx.space["bonus"]["gain_one_of"]]
    return [{}]


def _resolve_sell(ctx: Ctx, action: dict) -> dict:
    prices = ctx.space["prices"]
    sell = _goods_field(action, "sell", tuple(prices))
    sell = {g: sell.get(g, 0) for g in prices}
    if sum(sell.values()) == 0:
        # FAQ 2: you must sell at least one good to take a selling space.
        raise IllegalAction(f"{ctx.name}: you must sell at least one good")
    for g, n in sell.items():
        if n > ctx.avail[g]:
            raise IllegalAction(f"{ctx.name}: you have only {ctx.avail[g]} {g}")
    money = sum(prices[g] * n for g, n in sell.items())
    if ctx.space.get("double_first"):
        # Market: the first good of each kind sold earns double.
        money += sum(prices[g] for g, n in sell.items() if n)
    if ctx.first:
        money += ctx.space.get("bonus", {}).get("money", 0)
    return {"pay": _nonzero(sell), "gain": {"money": money}, "sold": sell}


def _options_sell(ctx: Ctx) -> list[dict]:
    prices = list(ctx.space["prices"])
    out: list[dict] = [{}]
    for g in prices:
        out = [dict(o, **{g: n}) for o in out for n in range(ctx.avail[g] + 1)]
    return [{"sell": o} for o in out if any(o.values())]


def discount_choices(cost: dict[str, int], amount: int) -> list[dict[str, int]]:
    """Every way to take `amount` goods off a printed cost (never money: FAQ 6), or
    as many as the cost has goods when it has fewer."""
    return [dict(d) for d in _discount_cached(cost, amount)]


_DISCOUNTS: dict[tuple, list[dict[str, int]]] = {}


def _discount_choices(cost: dict[str, int], amount: int) -> list[dict[str, int]]:
    goods = [g for g in GOODS if cost.get(g, 0)]
    amount = min(amount, sum(cost.get(g, 0) for g in goods))
    out: list[dict[str, int]] = []

    def walk(i: int, left: int, acc: dict[str, int]) -> None:
        if i == len(goods):
            if left == 0:
                out.append(_nonzero(acc))
            return
        g = goods[i]
        for n in range(min(left, cost[g]) + 1):
            walk(i + 1, left - n, {**acc, g: n})

    walk(0, amount, {})
    return out


def _build_discount(ctx: Ctx) -> int:
    d = ctx.space.get("discount", 0)
    if ctx.first:
        d += ctx.space.get("bonus", {}).get("discount", 0)
    return d


def _resolve_build(ctx: Ctx, action: dict) -> dict:
    bid = action.get("build")
    if not isinstance(bid, str) or bid not in data.BUILDING_BY_ID:
        raise InvalidAction(f"place_worker: 'build' must be a building id ({', '.join(data.BUILDING_IDS)})")
    tile = ctx.state["buildings"].get(bid)
    b = data.BUILDING_BY_ID[bid]
    if tile is None:
        raise IllegalAction(f"{ctx.name}: {b['name']} is not in this game")
    if tile["owner"] is not None:
        raise IllegalAction(f"{ctx.name}: {b['name']} has already been built")
    if isinstance(action.get("discount"), dict) and action["discount"].get("money"):
        # FAQ 6: the discounts apply to the printed goods only; money is never reduced.
        raise IllegalAction(f"{ctx.name}: the money in a cost (Mansion's $10) is never reduced")
    discount = _nonzero(_goods_field(action, "discount", GOODS))
    cost = b["cost"]
    allowed = discount_choices(cost, _build_discount(ctx))
    if discount not in allowed:
        n = sum(allowed[0].values())
        if n == 0:
            raise IllegalAction(f"{ctx.name}: no discount applies here; 'discount' must be empty")
        raise IllegalAction(
            f"{ctx.name}: pay exactly {n} fewer goods of {b['name']}'s printed cost "
            "(lumber, food or brick; money is never reduced)"
        )
    pay = _nonzero({k: v - discount.get(k, 0) for k, v in cost.items()})
    _require_affordable(ctx, pay, b["name"])
    return {"pay": pay, "gain": {}, "build": bid}


_BUILD_PAYS: dict[tuple[str, int], list[tuple[dict, tuple]]] = {}


def _build_pays(bid: str, amount: int) -> list[tuple[dict, tuple]]:
    """Each discount split of a building's cost with what is left to pay (cached)."""
    got = _BUILD_PAYS.get((bid, amount))
    if got is None:
        cost = data.BUILDING_BY_ID[bid]["cost"]
        got = _BUILD_PAYS[(bid, amount)] = [
            (d, tuple((k, v - d.get(k, 0)) for k, v in cost.items())) for d in _discount_cached(cost, amount)]
    return got


def _discount_cached(cost: dict[str, int], amount: int) -> list[dict[str, int]]:
    key = (tuple(cost.get(g, 0) for g in GOODS), amount)
    got = _DISCOUNTS.get(key)
    if got is None:
        got = _DISCOUNTS[key] = _discount_choices(cost, amount)
    return got


def _options_build(ctx: Ctx) -> list[dict]:
    """Every affordable build (the same tests as _resolve_build, so listed as valid)."""
    out = []
    amount = _build_discount(ctx)
    avail = ctx.avail
    for bid, tile in ctx.state["buildings"].items():
        if tile["owner"] is not None:
            continue
        for d, pay in _build_pays(bid, amount):
            for k, v in pay:
                if avail.get(k, 0) < v:
                    break
            else:
                out.append({"build": bid, "discount": dict(d)})
    return out


def _resolve_prepare(ctx: Ctx, action: dict) -> dict:
    n = _ship_field(action)
    if ctx.ship(n)["at"] != "home":
        raise IllegalAction(f"{ctx.name}: Ship {n} is not available to prepare")
    pay = dict(ctx.space["cost"])
    if ctx.first:
        for k, v in ctx.space["bonus"]["cost_discount"].items():
            pay[k] = max(0, pay.get(k, 0) - v)
    pay = _nonzero(pay)
    _require_affordable(ctx, pay, f"preparing Ship {n}")
    return {"pay": pay, "gain": {}, "prepare": n}


def _options_ship(ctx: Ctx) -> list[dict]:
    # Candidates only: each is checked by the effect's resolver. A ship that is nowhere the
    # effect could use it (prepare: at home; the others: at sea) is not a candidate.
    where = "home" if ctx.space["effect"] == "prepare" else "sea"
    return [{"ship": n} for n in data.SHIPS if ctx.ship(n)["at"] == where]


def _resolve_launch(ctx: Ctx, action: dict) -> dict:
    n = _ship_field(action)
    row = _int_field(action, "to", data.SEA_ROWS[0], data.SEA_ROWS[-1])
    where = ctx.space["from"]
    if ctx.ship(n)["at"] != where:
        raise IllegalAction(
            f"{ctx.name}: Ship {n} must be {'prepared on the Dock' if where == 'dock' else 'at home, unprepared'}"
        )
    if len(ctx.state["track"][row]) >= data.RANKS:
        raise IllegalAction(f"{ctx.name}: space {row} of the whaling track already holds {data.RANKS} ships")
    pay = _launch_pay(ctx, row)
    _require_affordable(ctx, pay, f"launching Ship {n} to space {row}")
    return {"pay": pay, "gain": {}, "launch": {"ship": n, "to": row}}


_LAUNCH_PAY: dict[tuple[str, bool, int], dict[str, int]] = {}


def _launch_pay(ctx: Ctx, row: int) -> dict[str, int]:
    """What launching to `row` from this space costs (food by distance, Wharf's half, the
    1st-placement discount, the Whaling Station's prepare cost): a table per space, 1st
    placement or not, and row (a fresh dict each time)."""
    key = (ctx.space["id"], ctx.first, row)
    got = _LAUNCH_PAY.get(key)
    if got is None:
        got = _LAUNCH_PAY[key] = _launch_pay_uncached(ctx, row)
    return dict(got)


def _launch_pay_uncached(ctx: Ctx, row: int) -> dict[str, int]:
    food = data.launch_food(row)
    if ctx.space["food"] == "half_up":
        food = (food + 1) // 2  # Wharf: half the food, rounded up
    if ctx.first:
        food = max(0, food - ctx.space["bonus"]["food_discount"])
    pay = dict(ctx.space.get("prepare_cost", {}))
    pay["food"] = pay.get("food", 0) + food
    return _nonzero(pay)


def _options_launch(ctx: Ctx) -> list[dict]:
    """Every launch `_resolve_launch` accepts: a ship where the space takes it from, a track
    space with room, a cost the player can pay (the same `_launch_pay`)."""
    ships = [n for n in data.SHIPS if ctx.ship(n)["at"] == ctx.space["from"]]
    if not ships:
        return []
    track, avail = ctx.state["track"], ctx.avail
    rows = [r for r in data.SEA_ROWS if len(track[r]) < data.RANKS and _affordable(avail, _launch_pay(ctx, r))]
    return [{"ship": n, "to": r} for n in ships for r in rows]


def _resolve_move_out(ctx: Ctx, action: dict) -> dict:
    n = _ship_field(action)
    row = _track_row_of(ctx.state, ctx.seat, n)
    if row is None:
        raise IllegalAction(f"{ctx.name}: Ship {n} is not on the whaling track")
    if row >= data.FARTHEST_ROW:
        raise IllegalAction(f"{ctx.name}: Ship {n} is already on the farthest space")
    if len(ctx.state["track"][row + 1]) >= data.RANKS:
        raise IllegalAction(f"{ctx.name}: space {row + 1} already holds {data.RANKS} ships")
    return {"pay": {}, "gain": {}, "move_out": {"ship": n, "from": row, "to": row + 1}}


def _resolve_remove_empty_sea(ctx: Ctx, action: dict) -> dict:
    k = _int_field(action, "remove", 1, 2)
    have = ctx.state["sea_tokens"]["empty"]
    if have < k:
        raise IllegalAction(
            f"{ctx.name}: only {have} Empty Sea token(s) from the last whaling phase are on the board"
        )
    return {"pay": {}, "gain": {"money": ctx.space["payout"][str(k)]}, "remove_empty_sea": k}


def _options_remove(ctx: Ctx) -> list[dict]:
    return [{"remove": 1}, {"remove": 2}]


def _resolve_return_right_whales(ctx: Ctx, action: dict) -> dict:
    n = _ship_field(action)
    k = _int_field(action, "right", 1, ctx.space["max"])
    have = ctx.ship(n)["hold"]["right"]
    if have < k:
        raise IllegalAction(f"{ctx.name}: Ship {n} holds only {have} Right Whale(s)")
    return {"pay": {}, "gain": {}, "return_whales": {"ship": n, "whales": {"right": k}}}


def _options_return_right(ctx: Ctx) -> list[dict]:
    return [{"ship": n, "right": k} for n in data.SHIPS
            for k in range(1, min(ctx.space["max"], ctx.ship(n)["hold"]["right"]) + 1)]


def _resolve_pay_per_whale(ctx: Ctx, action: dict) -> dict:
    n = _ship_field(action)
    whales = sum(ctx.ship(n)["hold"].values())
    if whales == 0:
        raise IllegalAction(f"{ctx.name}: Ship {n} holds no whale tokens")
    return {"pay": {}, "gain": {"money": whales * ctx.space["per_whale"]}, "ship": n}


def _resolve_replace_workers(ctx: Ctx, action: dict) -> dict:
    return {"pay": {}, "gain": {}, "inn": True}


def _resolve_take_ownership(ctx: Ctx, action: dict) -> dict:
    # Post Office: "use the action to move this building to your corner, becoming its
    # owner". Its owner would move nothing, and an action that cannot be performed may
    # not be taken (rulebook p.4, FAQ 2), so only the other players may use it.
    if ctx.state["buildings"][ctx.space["id"]]["owner"] == ctx.seat:
        raise IllegalAction(f"{ctx.name}: it is already yours; only another player can take it over")
    return {"pay": {}, "gain": {}, "take_ownership": ctx.space["id"]}


def _no_options(ctx: Ctx) -> list[dict]:
    return [{}]


EFFECTS: dict[str, tuple[Callable[[Ctx], tuple[str, ...]], Callable, Callable]] = {
    "gain": (_gain_keys, _resolve_gain, _options_gain),
    "sell": (lambda c: ("sell",), _resolve_sell, _options_sell),
    "build": (lambda c: ("build", "discount"), _resolve_build, _options_build),
    "prepare": (lambda c: ("ship",), _resolve_prepare, _options_ship),
    "launch": (lambda c: ("ship", "to"), _resolve_launch, _options_launch),
    "move_out": (lambda c: ("ship",), _resolve_move_out, _options_ship),
    "remove_empty_sea": (lambda c: ("remove",), _resolve_remove_empty_sea, _options_remove),
    "return_right_whales": (lambda c: ("ship", "right"), _resolve_return_right_whales, _options_return_right),
    "pay_per_whale": (lambda c: ("ship",), _resolve_pay_per_whale, _options_ship),
    "replace_workers": (lambda c: (), _resolve_replace_workers, _no_options),
    "take_ownership": (lambda c: (), _resolve_take_ownership, _no_options),
}
# Every parameter a place_worker action may carry on some space (beside "type" and "space").
PARAMETERS = ("bonus", "sell", "build", "discount", "ship", "to", "remove", "right")
# Effects whose enumerated candidates are valid by construction (no need to re-check).
_ALWAYS_VALID = {"gain", "sell", "replace_workers", "build", "launch"}


# --- placing a worker -----------------------------------------------------------
def inn_placement(state) -> bool:
    """Whether a worker placed now is an Inn re-placement (Town/Whaling Board spaces only)."""
    return state["phase"] == "inn"


def context(state, seat: int, space_id: Any) -> Ctx:
    """Who may use `space_id` now and on what terms, or IllegalAction saying why not."""
    if not isinstance(space_id, str) or (space_id not in SPACES and space_id not in data.BUILDING_BY_ID):
        raise InvalidAction(f"place_worker: unknown space {space_id!r}")
    inn = inn_placement(state)
    if space_id in data.BUILDING_BY_ID:
        b = data.BUILDING_BY_ID[space_id]
        tile = state["buildings"].get(space_id)
        if tile is None:
            raise IllegalAction(f"{b['name']} is not in this game")
        if tile["owner"] is None:
            raise IllegalAction(f"{b['name']} has not been built")
        if b["type"] != "action":
            raise IllegalAction(f"{b['name']} is a Victory building and has no action space")
        if inn:
            # Inn: the re-placed workers go only to Town or Whaling Board spaces.
            raise IllegalAction(f"Inn: re-placed workers may not use building actions such as {b['name']}")
        if tile["used"]:
            raise IllegalAction(f"{b['name']}: a building action may be used once per round")
        owner = tile["owner"]
        fee = data.BUILDING_FEE if owner != seat else 0
        if fee and state["players"][seat]["money"] < fee:
            # FAQ 3: the fee is paid before using the building.
            raise IllegalAction(f"{b['name']}: you need $1 to pay its owner before using it")
        if b["effect"] == "repeat_captain":
            return _turners_mill(state, seat, b, fee, owner, inn)
        return Ctx(state, seat, b, False, fee, owner, inn)
    space = SPACES[space_id]
    first = not state["occupancy"][space_id]
    return Ctx(state, seat, space, first, 0, None, inn)


def fee_to_supply(state, owner: Any) -> bool:
    """Whether a building fee owed to `owner` goes to the supply: Captains never collect money
    (solo p.12), so a human using a Captain's building pays the $1 to the supply."""
    return owner is not None and state["players"][owner].get("captain") is not None


def _turners_mill(state, seat: int, mill: dict, fee: int, owner: int, inn: bool) -> Ctx:
    """Turner's Mill (solo rules p.16): repeat the action of the Captain's last worker,
    paying that action's normal cost plus $1. The repeated action is taken as a later
    worker on that space would take it: no 1st-placement bonus, and no building fee (the
    worker stands on the mill, not on the building). Our decisions: RULES.md."""
    last = (state.get("captain_game") or {}).get("last_captain_space")
    if last is None:
        raise IllegalAction(f"{mill['name']}: no Captain worker has been placed yet")
    target = SPACES[last]
    if target["effect"] in ("replace_workers", "repeat_captain"):
        raise IllegalAction(f"{mill['name']}: the {target['name']}'s action cannot be repeated")
    if state["players"][seat]["money"] < fee + mill["extra_money"]:
        raise IllegalAction(f"{mill['name']}: repeating an action costs $1 more than the action")
    return Ctx(state, seat, target, False, fee, owner, inn, via=mill["id"], extra=mill["extra_money"])


def resolve(state, seat: int, action: dict) -> dict:
    """The `worker_placed` event of a placement, or InvalidAction/IllegalAction."""
    ctx = context(state, seat, action.get("space"))
    keys_of, resolver, _ = EFFECTS[ctx.space["effect"]]
    expected = set(keys_of(ctx))
    given = set(action) - {"type", "space"}
    if not given and ctx.space["effect"] == "sell":
        return _open_sale(ctx, seat)
    if given != expected:
        missing, extra = expected - given, given - expected
        what = []
        if missing:
            what.append(f"needs {', '.join(sorted(missing))}")
        if extra:
            what.append(f"does not take {', '.join(sorted(extra))}")
        raise InvalidAction(f"place_worker on {ctx.name}: " + "; ".join(what))
    eff = resolver(ctx, action)
    event: dict[str, Any] = {"type": "worker_placed", "seat": seat, "space": ctx.via or ctx.space["id"],
                             "first": ctx.first}
    if ctx.fee:
        event["fee"] = ctx.fee
        event["owner"] = ctx.owner
    event.update(eff)
    if ctx.via:
        event["repeat"] = ctx.space["id"]
        event["pay"] = {**event["pay"], "money": event["pay"].get("money", 0) + ctx.extra}
    event["pay"] = _nonzero(event["pay"])
    event["gain"] = _nonzero(event["gain"])
    if ctx.inn:
        event["inn_placement"] = True
    return event


def _open_sale(ctx: Ctx, seat: int) -> dict:
    """A selling space without `sell`: the sale is composed in steps (issue 14), one
    `sell_goods` decision per kind of good the player holds, in the space's price order;
    the last step places the worker with the whole sale, the same `worker_placed` as the
    one-action form {"sell": {...}} (still accepted). FAQ 2: at least one good to sell."""
    kinds = [g for g in ctx.space["prices"] if ctx.avail[g] > 0]
    if not kinds:
        raise IllegalAction(f"{ctx.name}: you must sell at least one good "
                            f"({', '.join(ctx.space['prices'])}); you have none")
    if ctx.avail["money"] < 0:
        raise IllegalAction(f"{ctx.name}: you cannot pay to use it")
    return {"type": "sale_opened", "seat": seat, "space": ctx.via or ctx.space["id"], "kinds": kinds}


def sale_step_options(state, seat: int) -> list[dict]:
    """The counts the player may sell of the next kind of a composed sale (at least one
    good in all: the last kind cannot be 0 when nothing was sold yet)."""
    sel = state["selling"]
    good = sel["kinds"][len(sel["sold"])]
    last = len(sel["sold"]) == len(sel["kinds"]) - 1
    lo = 1 if last and not any(sel["sold"].values()) else 0
    have = state["players"][seat][good]
    return [{"type": "sell_goods", "good": good, "count": n} for n in range(lo, have + 1)]


def sale_step(state, seat: int, action: dict) -> dict:
    """One step of a composed sale: `goods_offered`, or on the last kind the `worker_placed`
    event of the whole sale (spaces.resolve of the one-action form)."""
    sel = state["selling"]
    good = sel["kinds"][len(sel["sold"])]
    if action["good"] != good:
        raise IllegalAction(f"sell_goods: now say how many {good} you sell")
    n = action["count"]
    if n > state["players"][seat][good]:
        raise IllegalAction(f"sell_goods: you have only {state['players'][seat][good]} {good}")
    sold = {**sel["sold"], good: n}
    if len(sold) < len(sel["kinds"]):
        return {"type": "goods_offered", "seat": seat, "good": good, "count": n}
    if not any(sold.values()):
        raise IllegalAction("sell_goods: you must sell at least one good (FAQ 2)")
    return resolve(state, seat, {"type": "place_worker", "space": sel["space"], "sell": sold})


def placeable_space_ids(state) -> list[str]:
    ids = list(data.BOARD_SPACE_IDS)
    if not inn_placement(state):
        ids += [b for b, t in state["buildings"].items() if t["owner"] is not None and not t["used"]
                and data.BUILDING_BY_ID[b]["type"] == "action"]
    return ids


def placements(state, seat: int) -> list[dict]:
    """Every legal `place_worker` action of `seat` now."""
    out = []
    for sid in placeable_space_ids(state):
        try:
            ctx = context(state, seat, sid)
        except IllegalAction:
            continue
        _, resolver, options = EFFECTS[ctx.space["effect"]]
        if ctx.space["effect"] == "sell":
            # Sales are composed in steps: one action opens them (see _open_sale).
            if ctx.avail["money"] >= 0 and any(ctx.avail[g] > 0 for g in ctx.space["prices"]):
                out.append({"type": "place_worker", "space": sid})
            continue
        trusted = ctx.space["effect"] in _ALWAYS_VALID
        for params in options(ctx):
            action = {"type": "place_worker", "space": sid, **params}
            if not trusted:
                try:
                    resolver(ctx, action)
                except IllegalAction:
                    continue
            out.append(action)
    return out


__all__ = ["PARAMETERS", "Ctx", "context", "discount_choices", "placements", "resolve"]
