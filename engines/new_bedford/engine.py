"""New Bedford (Nat Levan): the base game for 2-4 players, and 1-3 players against the
automa Captains of the solo rules (El Océano Solitario, captains.py).

The rules are tables (engines.core.RulesEngine): `MOVES` declares each decision a
player makes once (its fields, the phases that allow it, its legality with the reason a
player reads, its resolution into events, its rulebook reference); `PHASES` declares each
step of the round once (who decides, and what happens automatically); `events.ON` says
what each event does to the state. The core derives `decide` (shape → phase → check →
resolve → automatic steps until a decision is awaited), `legal_actions` and the action
schema from them. A round is four phases (rulebook p.4): actions (worker placement,
spaces.py), movement (ships move toward Return; returning ships pay the lay or sell,
others buy), whaling (draw 1 + ships-at-sea tokens; ships pick farthest first) and end of
round. After round 12 the movement phase repeats until every ship has returned, then the
game is scored (scoring.py).

The state keeps the rulebook's phase in `state["phase"]`; the declared phase (`phase_of`)
also tells apart the decisions inside it (a returning ship, a whale sale, a choice made
for a Captain), so no move or step tests the phase by hand.

Seats are listed clockwise; "the player to the left" is the next seat. Games against the
Captains append each Captain to `players` after the seats, with a `captain` entry:
Captains are players but never seats, and their turns run as automatic steps.
"""

from __future__ import annotations

from tablero.engines.core import IllegalAction, InvalidOptions, Move, Phase, RulesEngine, branch, clone
from tablero.engines.core.event_schema import with_start_fields

from . import captains, data, events, schemas, scoring, spaces
from . import view as table_view
from .data import GOODS, TOKEN_KINDS, WHALE_KINDS, WHALES
from .events import _zero, ships_at_sea
from .state import fork as fork_state


def starting_goods_choices() -> list[dict[str, int]]:
    """Every mix of goods and money worth exactly $5 (rulebook p.2 setup 5)."""
    out = []
    v = data.GOOD_VALUE
    for brick in range(data.STARTING_VALUE // v["brick"] + 1):
        for lumber in range(data.STARTING_VALUE + 1):
            for food in range(data.STARTING_VALUE + 1):
                money = data.STARTING_VALUE - brick * v["brick"] - lumber * v["lumber"] - food * v["food"]
                if money >= 0:
                    out.append({"lumber": lumber, "food": food, "brick": brick, "money": money})
    return out


STARTING_GOODS = tuple(starting_goods_choices())


def return_options(state, seat: int, ship: int) -> list[dict]:
    """Every pay/sell split of a returning ship's whales the owner can afford. Sale
    money (half the lay) is paid first and may pay lays at once (rulebook p.7)."""
    hold = state["players"][seat]["ships"][ship - 1]["hold"]
    money = state["players"][seat]["money"]
    out = []
    for r in range(hold["right"] + 1):
        for b in range(hold["bowhead"] + 1):
            for s in range(hold["sperm"] + 1):
                pay = {"right": r, "bowhead": b, "sperm": s}
                sell = {k: hold[k] - pay[k] for k in WHALE_KINDS}
                if _lay(pay) <= money + _sale_money(sell):
                    out.append({"type": "return_ship", "pay": pay, "sell": sell})
    return out


def _lay(whales: dict[str, int]) -> int:
    return sum(WHALES[k]["lay"] * n for k, n in whales.items())


def _sale_money(whales: dict[str, int]) -> int:
    return sum(WHALES[k]["lay"] // 2 * n for k, n in whales.items())


def _whales(action: dict, key: str) -> dict[str, int]:
    return {k: action[key].get(k, 0) for k in WHALE_KINDS}


# --- who acts ------------------------------------------------------------------------------
def placing_player(state) -> int | None:
    """Rulebook p.4: from the Ship's Wheel clockwise, one worker at a time (with Captains,
    the round's order: captains.round_order)."""
    cg = state.get("captain_game")
    if cg is not None:
        order = cg["order"]
        return order[state["placed"] % len(order)] if state["placed"] < len(order) * data.WORKERS else None
    n = state["seats"]
    return (state["first_player"] + state["placed"]) % n if state["placed"] < n * data.WORKERS else None


def _human(state, player: int | None) -> set[int]:
    return {player} if player is not None and player < state["seats"] else set()


def _setup_to_act(state) -> set[int]:
    # Rulebook p.2: starting goods are chosen in turn order (Captains use none: solo p.11).
    cg = state.get("captain_game")
    if cg is not None:
        return {[p for p in cg["order"] if p < state["seats"]][state["setup_done"]]}
    return {(state["first_player"] + state["setup_done"]) % state["seats"]}


def _actions_to_act(state) -> set[int]:
    return _human(state, placing_player(state))


def _inn_to_act(state) -> set[int]:
    inn = state["inn"]
    return _human(state, inn["seat"]) if inn["left"] > 0 else set()


def _returning(state) -> tuple[int, int] | None:
    r = state["track"][data.RETURN_ROW]
    return (r[0][0], r[0][1]) if r else None


def _return_to_act(state) -> set[int]:
    """The owner of the first returning ship, when it holds whales and more than one
    settlement is affordable (otherwise the return is automatic: RULES.md decision 8)."""
    r = _returning(state)
    if r is None or r[0] >= state["seats"]:
        return set()
    seat, ship = r
    if not any(state["players"][seat]["ships"][ship - 1]["hold"].values()):
        return set()
    return {seat} if len(return_options(state, seat, ship)) > 1 else set()


def _buyer(state) -> int | None:
    sale = state["sale"]
    if not sale["queue"] or not any(sale["whales"].values()):
        return None
    return sale["queue"][sale["turn"]]


def _sale_to_act(state) -> set[int]:
    buyer = _buyer(state)
    if buyer is None or buyer >= state["seats"]:
        return set()
    money = state["players"][buyer]["money"]
    sale = state["sale"]["whales"]
    return {buyer} if any(sale[k] and WHALES[k]["lay"] <= money for k in WHALE_KINDS) else set()


def _whaling_to_act(state) -> set[int]:
    if not state["picks"] or not any(state["sea_tokens"][k] for k in WHALE_KINDS):
        return set()
    return _human(state, state["picks"][0][0])


def _choice_to_act(state) -> set[int]:
    return {state["captain_game"]["choice"]["chooser"]}


# --- automatic steps, phase by phase ----------------------------------------------------------
def _one(e: dict | None) -> list[dict] | None:
    return None if e is None else [e]


def _captain_or_none(state, player: int | None, rng) -> list[dict] | None:
    if player is not None and player >= state["seats"]:
        return [captains.worker_turn(state, player, rng)]
    return None


def _auto_actions(state, rng) -> list[dict] | None:
    return _captain_or_none(state, placing_player(state), rng)


def _all_placed(state) -> bool:
    """every worker has been placed"""
    return placing_player(state) is None


def _after_actions(state) -> str:
    # Inn (FAQ 5): after everyone placed, before movement, the Inn's owner re-places both workers.
    return "inn" if state["inn"] is not None else "movement"


def _auto_inn(state, rng) -> list[dict] | None:
    inn = state["inn"]
    return _captain_or_none(state, inn["seat"], rng) if inn["left"] > 0 else None


def _inn_done(state) -> bool:
    """both Inn workers have been re-placed"""
    return state["inn"]["left"] <= 0


def _auto_movement(state, rng) -> list[dict] | None:
    r = _returning(state)
    if r is not None:
        seat, ship = r
        hold = state["players"][seat]["ships"][ship - 1]["hold"]
        if seat >= state["seats"]:
            # A Captain's returning ship moves its whales to his reserve: no lay, no sale (solo p.15).
            return [{"type": "ship_returned", "seat": seat, "ship": ship, "pay": dict(hold),
                     "sell": _zero(WHALE_KINDS), "lay_paid": 0, "sale_money": 0, "captain": True}]
        if not any(hold.values()):
            zero = _zero(WHALE_KINDS)
            return [{"type": "ship_returned", "seat": seat, "ship": ship, "pay": zero, "sell": dict(zero),
                     "lay_paid": 0, "sale_money": 0}]
        options = return_options(state, seat, ship)
        if len(options) > 1:
            return None
        # No lay can be paid even after selling: every whale must be sold (p.7).
        return [{**_return_event(state, seat, options[0]), "forced": True}]
    if state["final"]:
        if ships_at_sea(state):
            if state.get("version", 1) >= 5:
                # FAQ 7-8 (000_… lines 821-822): after round 12's whaling every ship at sea
                # returns, "in the same order they had for selecting tokens": farthest first,
                # then by rank; each comes to Return (and is settled) in turn (RULES.md decision 15).
                return [{"type": "ships_moved", "final": True, "in_order": True, "returning": ships_at_sea(state)[:1]}]
            # v1-v4 (kept for their games): the movement phase repeated until every ship has
            # returned (p.9), nearest shore first.
            return [_movement_event(state)]
        cg = state.get("captain_game")
        for i in cg["captains"] if cg is not None else ():
            trim = captains.trim_whales(state, i)
            if trim is not None:
                return [{"type": "captain_whales_trimmed", "player": i,
                         "captain": state["players"][i]["captain"]["name"], **trim}]
    return None


def _all_returned(state) -> bool:
    """no ship is returning (after round 12: every ship is home and the Captains trimmed)"""
    return _returning(state) is None


def _after_movement(state) -> str:
    return "over" if state["final"] else "whaling"


def _auto_sale(state, rng) -> list[dict] | None:
    sale = state["sale"]
    buyer = _buyer(state)
    if buyer is None:
        # Rulebook p.7: tokens nobody buys are removed from the game.
        return [{"type": "sale_closed", "seat": sale["seller"], "discarded": dict(sale["whales"])}]
    if buyer >= state["seats"]:
        kind = captains.best_whale(state, buyer, sale["whales"])
        if kind is None:
            return [{"type": "buy_passed", "seat": buyer, "auto": "the Captain is at his whale limit"}]
        # Captains buy the player's sold whales (solo p.15) without paying (p.12).
        return [{"type": "whale_bought", "seat": buyer, "kind": kind, "price": 0, "captain": True}]
    if not _sale_to_act(state):
        return [{"type": "buy_passed", "seat": buyer, "auto": "cannot afford any whale for sale"}]
    return None


def _picks_over(state) -> bool:
    """every ship has picked, or no whale is left to pick"""
    return not state["picks"] or not any(state["sea_tokens"][k] for k in WHALE_KINDS)


def _auto_whaling(state, rng) -> list[dict] | None:
    if _picks_over(state):
        return None
    seat, ship = state["picks"][0]
    if seat < state["seats"]:
        return None
    # A Captain always takes the most valuable whale (solo p.15), unless at his limit (p.16).
    kind = captains.best_whale(state, seat, state["sea_tokens"])
    if kind is None:
        return [{"type": "pick_passed", "seat": seat, "ship": ship, "auto": "the Captain is at his whale limit"}]
    return [{"type": "whale_picked", "seat": seat, "ship": ship, "kind": kind, "captain": True}]


def _end_round(state, rng) -> list[dict]:
    """the round ends (`round_ended`: the Post Office's income, the next first player)"""
    return [_round_end_event(state)]


def _after_round(state) -> str:
    # Rulebook p.9: after round 12 the movement phase repeats until every ship has returned.
    return "movement" if state["final"] else "actions"


def enter_phase(state, name: str, rng) -> list[dict]:
    """The events that start a phase after a declared end (`NewBedford.enter_phase`): the
    Inn's pick-up, the ships' movement (none when round 12's end has already begun the final
    movement), the whaling draw or the final scoring; a new round needs none (`round_ended`)."""
    if name == "inn":
        seat = state["inn"]["seat"]
        return [{"type": "inn_workers_picked_up", "seat": seat, "spaces": list(state["players"][seat]["workers"])}]
    if name == "movement":
        return [] if state["phase"] == "movement" else [_movement_event(state)]
    if name == "whaling":
        return [_whaling_event(state, rng)]
    if name == "over":
        return [{"type": "game_ended", **scoring.final_result(state)}]
    return []


def _movement_event(s) -> dict:
    return {"type": "ships_moved", "final": s["final"], "returning": [list(e) for e in s["track"][data.RETURN_ROW + 1]]}


def _whaling_event(s, rng) -> dict:
    # Rulebook p.8: tokens left on the board go back in the bag; then, if any ship is
    # on the track, draw 1 token plus 1 per ship on the track.
    back = {k: s["sea_tokens"][k] for k in TOKEN_KINDS}
    bag = {k: s["bag"][k] + back[k] for k in TOKEN_KINDS}
    at_sea = len(ships_at_sea(s))
    count = min(1 + at_sea if at_sea else 0, sum(bag.values()))
    pool = [k for k in TOKEN_KINDS for _ in range(bag[k])]
    drawn = _zero(TOKEN_KINDS)
    for k in rng.sample(pool, count):
        drawn[k] += 1
    return {"type": "whales_drawn", "returned_to_bag": back, "drawn": drawn}


def _round_end_event(s) -> dict:
    income = None
    tile = s["buildings"].get("post_office")
    cg = s.get("captain_game")
    if tile is not None and tile["owner"] is not None and tile["owner"] < s["seats"]:
        # A Captain owning the Post Office collects nothing: Captains never collect money.
        income = {"seat": tile["owner"], "money": data.BUILDING_BY_ID["post_office"]["income"]}
    last = s["round"] >= data.ROUNDS
    if cg is not None:
        order = captains.round_order(s["seats"], cg["captains"], cg["human_start"], s["round"] + 1)
        return {"type": "round_ended", "round": s["round"], "post_office": income,
                "first_player": order[0], "order": order, "last": last}
    return {"type": "round_ended", "round": s["round"], "post_office": income,
            "first_player": (s["first_player"] + 1) % s["seats"], "last": last}


# --- the moves: legality and resolution ----------------------------------------------------------
def _check_starting_goods(state, seat, action) -> dict:
    goods = {k: action[k] for k in ("lumber", "food", "brick", "money")}
    value = goods["money"] + sum(goods[g] * data.GOOD_VALUE[g] for g in GOODS)
    if value != data.STARTING_VALUE:
        raise IllegalAction(
            f"starting goods must be worth exactly ${data.STARTING_VALUE} "
            f"(lumber $1, food $1, brick $2); yours are worth ${value}"
        )
    return {"type": "starting_goods_chosen", "seat": seat, "goods": goods}


def _check_buy_goods(state, seat, action) -> dict:
    good = action["good"]
    if state["bought"]:
        raise IllegalAction("you may buy 2 lumber or 2 food only once per turn")
    if state["players"][seat]["money"] < data.PURCHASE_PRICE:
        raise IllegalAction(f"buying 2 {good} costs ${data.PURCHASE_PRICE}")
    return {"type": "goods_bought", "seat": seat, "good": good,
            "amount": data.PURCHASE_AMOUNT, "price": data.PURCHASE_PRICE}


def _options_buy_goods(state, seat):
    if state["bought"] or state["players"][seat]["money"] < data.PURCHASE_PRICE:
        return []
    return [{"type": "buy_goods", "good": g} for g in data.PURCHASE_GOODS]


def _check_place(state, seat, action) -> dict:
    return spaces.resolve(state, seat, action)


def _return_event(state, seat, action) -> dict:
    _, ship = state["track"][data.RETURN_ROW][0]
    hold = state["players"][seat]["ships"][ship - 1]["hold"]
    pay, sell = _whales(action, "pay"), _whales(action, "sell")
    for k in WHALE_KINDS:
        if pay[k] + sell[k] != hold[k]:
            raise IllegalAction(
                f"Return: Ship {ship} holds {hold[k]} {WHALES[k]['name']}(s); pay the lay or sell each one"
            )
    lay, sale = _lay(pay), _sale_money(sell)
    money = state["players"][seat]["money"]
    if lay > money + sale:
        raise IllegalAction(f"Return: the lay is ${lay} but you have ${money} plus ${sale} from selling")
    return {"type": "ship_returned", "seat": seat, "ship": ship, "pay": pay, "sell": sell,
            "lay_paid": lay, "sale_money": sale}


def _check_return(state, seat, action) -> dict:
    if _returning(state) is None or _returning(state)[0] != seat:
        raise IllegalAction("return_ship: none of your ships is returning")
    return _return_event(state, seat, action)


def _options_return(state, seat):
    return return_options(state, seat, _returning(state)[1])


def _no_empty(kind: str) -> None:
    if kind == "empty":
        raise IllegalAction("Empty Sea tokens cannot be taken or bought")


def _check_buy_whale(state, seat, action) -> dict:
    kind = action["kind"]
    _no_empty(kind)
    if not state["sale"]["whales"][kind]:
        raise IllegalAction(f"no {WHALES[kind]['name']} is for sale")
    price = WHALES[kind]["lay"]
    if state["players"][seat]["money"] < price:
        raise IllegalAction(f"a {WHALES[kind]['name']} costs its full lay, ${price}")
    return {"type": "whale_bought", "seat": seat, "kind": kind, "price": price}


def _options_buy_whale(state, seat):
    money = state["players"][seat]["money"]
    return [{"type": "buy_whale", "kind": k} for k in WHALE_KINDS
            if state["sale"]["whales"][k] and WHALES[k]["lay"] <= money]


def _check_pick(state, seat, action) -> dict:
    kind = action["kind"]
    _no_empty(kind)
    if not state["sea_tokens"][kind]:
        raise IllegalAction(f"Whaling: no {WHALES[kind]['name']} token was drawn (or it was taken)")
    return {"type": "whale_picked", "seat": seat, "ship": state["picks"][0][1], "kind": kind}


def _options_pick(state, seat):
    return [{"type": "pick_whale", "kind": k} for k in WHALE_KINDS if state["sea_tokens"][k]]


# `pass` means "buy no more" in a sale and "take no token" in whaling (rulebook pp.7-8).
_PASS = {
    "sale": lambda state, seat: {"type": "buy_passed", "seat": seat},
    "whaling": lambda state, seat: {"type": "pick_passed", "seat": seat, "ship": state["picks"][0][1]},
}


def _check_choice(state, seat, action) -> dict:
    offer = state["captain_game"]["choice"]
    for o in offer["choices"]:
        if o["choice"] == action["choice"]:
            return {**clone(o["event"]), "chosen_by": seat}
    raise IllegalAction(f"choose_for_captain: {action['choice']!r} is not one of "
                        f"{', '.join(o['choice'] for o in offer['choices'])}")


def _options_choice(state, seat):
    return [{"type": "choose_for_captain", "choice": o["choice"]} for o in state["captain_game"]["choice"]["choices"]]


def _event_of_check(state, seat, action, ctx, rng) -> list[dict]:
    """Moves whose check already built their one event."""
    return [ctx]


def phase_of(state) -> str:
    """The declared phase: the rulebook's phase, with the decisions inside movement (a
    returning ship, a sale) and a choice made for a Captain told apart."""
    cg = state.get("captain_game")
    if cg is not None and cg["choice"] is not None:
        return "captain_choice"
    if state["phase"] == "movement" and state["sale"] is not None:
        return "sale"
    if "selling" in state:
        return "goods_sale"
    return state["phase"]


PLACING = frozenset({"actions", "inn"})

MOVES = (
    Move("choose_starting_goods", fields=schemas.STARTING_GOODS_FIELDS, phases={"setup"},
         check=_check_starting_goods, resolve=_event_of_check,
         options=lambda s, seat: [{"type": "choose_starting_goods", **c} for c in STARTING_GOODS],
         rule="rulebook p.2 setup 5: goods and money worth $5, in turn order"),
    Move("buy_goods", fields={"good": schemas.PURCHASE_GOOD}, phases=PLACING, check=_check_buy_goods,
         resolve=_event_of_check, options=_options_buy_goods,
         rule="rulebook p.4, FAQ 4: once per turn, before placing, exactly 2 lumber or 2 food for $3"),
    Move("place_worker", fields={"space": schemas.SPACE, **schemas.PLACE_PARAMS},
         optional=frozenset(schemas.PLACE_PARAMS), phases=PLACING, check=_check_place, resolve=_event_of_check,
         options=spaces.placements,
         rule="rulebook p.4-6, pp.17-23: place a worker on a Town, Whaling Board or building space"),
    Move("sell_goods", fields={"good": schemas.GOOD, "count": schemas.COUNT}, phases={"goods_sale"},
         check=lambda state, seat, action: spaces.sale_step(state, seat, action), resolve=_event_of_check,
         options=spaces.sale_step_options,
         rule="rulebook p.17 (General Store), pp.18, 22 (Lumber Mill, Market): how many of each good, "
              "one kind at a time (a sale composed in steps; FAQ 2: at least one good)"),
    Move("return_ship", fields={"pay": schemas.WHALES, "sell": schemas.WHALES}, phases={"movement"},
         check=_check_return, resolve=_event_of_check, options=_options_return,
         rule="rulebook p.7: pay each returning whale's lay or sell it (sale money first)"),
    Move("buy_whale", fields={"kind": schemas.TOKEN_KIND}, phases={"sale"}, check=_check_buy_whale,
         resolve=_event_of_check, options=_options_buy_whale,
         rule="rulebook p.7, FAQ 9: clockwise from the seller, buy one sold whale at the full lay, or pass"),
    Move("pick_whale", fields={"kind": schemas.TOKEN_KIND}, phases={"whaling"}, check=_check_pick,
         resolve=_event_of_check, options=_options_pick,
         rule="rulebook p.8: each ship, farthest first, may take one drawn whale token"),
    Move("pass", phases={"sale", "whaling"},
         resolve=lambda state, seat, action, ctx, rng: [_PASS[phase_of(state)](state, seat)],
         options=lambda state, seat: [{"type": "pass"}],
         rule="rulebook pp.7-8: buy no more of a sale (final) / take no token for this ship"),
    Move("choose_for_captain", fields={"choice": schemas.CHOICE_ID}, phases={"captain_choice"},
         check=_check_choice, resolve=_event_of_check, options=_options_choice,
         rule="solo rules p.13: buildings equally good for a Captain: the player chooses"),
)

PHASES = (
    Phase("setup", to_act=_setup_to_act, then="actions", ends_doc="everyone has chosen (the last choice's event)",
          rule="rulebook p.2", doc="choosing starting goods"),
    Phase("actions", to_act=_actions_to_act, auto=_auto_actions, ends=_all_placed,
          then=branch(_after_actions, "inn", "movement"), rule="rulebook p.4; solo p.12",
          doc="the action phase: placing workers (a Captain's turn is automatic)"),
    Phase("inn", to_act=_inn_to_act, auto=_auto_inn, ends=_inn_done, then="movement", rule="rulebook p.22, FAQ 5",
          doc="the Inn: re-placing both workers"),
    Phase("goods_sale", to_act=lambda s: {s["selling"]["seat"]}, step=True, rule="rulebook p.17, FAQ 2",
          doc="a sale of goods at a selling space, one kind at a time"),
    Phase("movement", to_act=_return_to_act, auto=_auto_movement, ends=_all_returned,
          then=branch(_after_movement, "whaling", "over"), rule="rulebook pp.7, 9; FAQ 7-8",
          doc="the movement phase: returning ships (after round 12, until all are home; then the final scoring)"),
    Phase("sale", to_act=_sale_to_act, auto=_auto_sale, step=True, rule="rulebook p.7; solo p.15",
          doc="a sale of returned whales (closed when nobody buys more)"),
    Phase("whaling", to_act=_whaling_to_act, auto=_auto_whaling, ends=_picks_over, on_end=_end_round,
          then=branch(_after_round, "actions", "movement"), rule="rulebook p.8; solo p.15",
          doc="the whaling phase: ships pick drawn tokens; then the end of round"),
    Phase("captain_choice", to_act=_choice_to_act, step=True, rule="solo rules p.13, p.16",
          doc="a choice for a Captain"),
    Phase("over", to_act=lambda s: set(), doc="the game is over"),
)

# What the awaited decision is, in words a client can show (the view's `awaiting`).
AWAITING = {
    "setup": lambda s: {"decision": "choose_starting_goods"},
    "actions": lambda s: {"decision": "place_worker", "inn": False, "may_buy_goods": not s["bought"]},
    "inn": lambda s: {"decision": "place_worker", "inn": True, "may_buy_goods": not s["bought"]},
    "goods_sale": lambda s: {"decision": "sell_goods", "space": s["selling"]["space"],
                             "good": s["selling"]["kinds"][len(s["selling"]["sold"])],
                             "sold": dict(s["selling"]["sold"])},
    "movement": lambda s: {"decision": "return_ship", "ship": s["track"][data.RETURN_ROW][0][1]},
    "sale": lambda s: {"decision": "buy_whale", "seller": s["sale"]["seller"], "for_sale": dict(s["sale"]["whales"])},
    "whaling": lambda s: {"decision": "pick_whale", "ship": s["picks"][0][1]},
    "captain_choice": lambda s: {
        "decision": "choose_for_captain", **{k: s["captain_game"]["choice"][k]
                                             for k in ("captain", "player", "heading", "entry")}},
}


class NewBedford(RulesEngine):
    name = "new-bedford"
    title = "New Bedford"
    min_seats = 1
    max_seats = 4
    # v2: games against the Captains and sales of goods composed in steps add event types
    # (sale_opened, goods_offered, captain_*); every v1 log replays unchanged (its events mean
    # the same), so v1 stays supported. Golden logs of both versions: tests/golden/new-bedford.
    # v3: in round 12 a Captain's second turn takes the second heading printed under the Helm
    # even when his first turn placed no worker (Ahab's draw: captains.round12_turn). Only
    # what decide() gives changes, and only in games started under v3 (`state["version"]`).
    # v4: Ahab's Most and Combo rank a building whose yield depends on the table (Tavern,
    # Cooperage, Tryworks, Wharf) by what it gives now, not by a fixed total of 0 or 2
    # (captains._TOTAL_BY_STATE); gated on state["version"] >= 4 like v3.
    # v5: after round 12 the ships at sea return all at once in whale-selection order, farthest
    # first (FAQ 7-8), not by repeating the movement phase (nearest first): one `ships_moved` with
    # `in_order` per ship. Gated on state["version"] >= 5; earlier games keep the repeated movement.
    version = 5
    supported_versions = (1, 2, 3, 4)
    max_random_steps = 4000
    moves = MOVES
    phases = PHASES
    on = events.ON
    view_schema = schemas.VIEW_SCHEMA
    outcome_schema = schemas.OUTCOME_SCHEMA
    # Option sets the kit should also play (besides {}), at every seat count they allow
    # (a set a seat count refuses raises InvalidOptions: skip it): games against Captains.
    kit_options = [
        {},
        {"captains": ["starbuck"]},
        {"captains": ["stubb", "flask"]},
        {"captains": ["ahab"], "expert": True},
        {"captains": ["flask", "ahab", "stubb"], "turners_mill": True},
    ]
    options_schema = {
        "type": "object",
        "properties": {
            "buildings": {
                "description": (
                    "The building tiles in play: 'default' (the suggested 12 with 2 players, all 20 with 3-4), "
                    "'two_player', 'all', or an explicit list of building ids."
                ),
                "oneOf": [
                    {"type": "string", "enum": ["default", "two_player", "all"]},
                    {
                        "type": "array",
                        "items": {"type": "string", "enum": list(data.BUILDING_IDS)},
                        "uniqueItems": True,
                    },
                ],
            },
            "first_player": {
                "description": ("Seat that starts with the Ship's Wheel (default: drawn at random). With "
                                "Captains, the human who plays first among the humans."),
                "type": "integer",
                "minimum": 0,
                "maximum": 3,
            },
            "captains": {
                "description": (
                    "El Océano Solitario: automa Captains who play against the humans (1-3 of starbuck, stubb, "
                    "flask, ahab; humans + Captains at most 4). A 1-player game without this option plays "
                    "against Starbuck. Captains are players but never seats; they act first each round."
                ),
                "type": "array",
                "items": {"type": "string", "enum": list(captains.NAMES)},
                "uniqueItems": True,
                "maxItems": 3,
            },
            "expert": {
                "description": "The Captains' Expert variant (their boards' Expert overrides).",
                "type": "boolean",
            },
            "turners_mill": {
                "description": "Solo only: add the Turner's Mill tile (repeat the Captain's last worker's action, +$1).",
                "type": "boolean",
                "x-players": [1],  # the player counts it applies to (docs/api.md)
            },
        },
        "additionalProperties": False,
    }

    # --- setup --------------------------------------------------------------
    def start(self, seats, options, rng):
        names = list(options.get("captains") or (["starbuck"] if seats == 1 else []))
        players = seats + len(names)
        if players > self.max_seats:
            raise InvalidOptions(f"{seats} player(s) and {len(names)} Captain(s) make {players}; at most 4 may play")
        if not names and (options.get("expert") or options.get("turners_mill")):
            raise InvalidOptions("Expert and Turner's Mill (the options expert, turners_mill) are for games against "
                                 "Captains: choose a Captain, or play alone (against Captain Starbuck)")
        if options.get("turners_mill") and seats != 1:
            raise InvalidOptions("Turner's Mill is added only to 1-player games (solo rules p.16)")
        choice = options.get("buildings", "default")
        if choice == "default":
            # Solo rules p.11 setup 2: buildings for the number of players counting the Captains.
            buildings = data.default_buildings(players)
        elif choice == "two_player":
            buildings = list(data.TWO_PLAYER_BUILDINGS)
        elif choice == "all":
            buildings = list(data.BUILDING_IDS)
        else:
            wanted = set(choice)
            buildings = [b for b in data.BUILDING_IDS if b in wanted]
        first = options.get("first_player")
        if first is None:
            # The rulebook gives no method for choosing the first player (A.3): we draw one.
            first = rng.randrange(seats)
        elif first >= seats:
            raise InvalidOptions(f"first_player must be a seat from 0 to {seats - 1}")
        bag = {k: n * players for k, n in data.BAG_PER_PLAYER.items()}
        event = {"type": "game_started", "first_player": first, "buildings": buildings, "bag": bag}
        if names:
            # Solo rules p.11: shuffle the game's building tiles into the order in which the
            # Captains look for buildings to build; then Turner's Mill may join the game.
            order = list(buildings)
            rng.shuffle(order)
            if options.get("turners_mill"):
                event["buildings"] = [*buildings, "turners_mill"]
            # Step 5: each Captain's token starts on the leftmost Helm space and moves the
            # Heading die's roll clockwise: the starting heading.
            caps = []
            for name in names:
                board = captains.BOARDS[name]
                if options.get("expert") and board.get("expert"):
                    board = {**board, **board["expert"]}
                roll = rng.choice(captains.HEADING_DIE)
                caps.append({"name": name, "roll": roll, "helm": roll % len(board["helm"]),
                             "heading": captains.heading_at(board, roll % len(board["helm"]), 1)})
            event.update(captains=caps, building_order=order, expert=bool(options.get("expert")),
                         turners_mill=bool(options.get("turners_mill")))
        return event

    def phase_of(self, state) -> str:
        return phase_of(state)

    def fork(self, state):
        # The decide loop's look-ahead copy, written out by the state's shape (state.fork).
        return fork_state(state)

    def random_action(self, state, seat, actions, rng):
        # Uniform over action *kinds* (type and space) first, so that a space with many
        # parameter choices (General Store, Town Hall) does not crowd out the others.
        groups: dict[tuple, list] = {}
        for a in actions:
            groups.setdefault((a["type"], a.get("space")), []).append(a)
        keys = list(groups)
        return rng.choice(groups[keys[rng.randrange(len(keys))]])

    def _automatic(self, state, rng) -> dict | None:
        """The next automatic event, or None when a decision is awaited (tests)."""
        if self.outcome(state) is not None:
            return None
        _, more = self.advance(self.fork(state), rng)
        return more[0] if more else None

    def enter_phase(self, state, name: str, rng) -> list[dict]:
        return enter_phase(state, name, rng)

    # --- used by the view (the same functions decide runs) -----------------------------------
    def _starting_goods(self, seat, action) -> dict:
        return _check_starting_goods(None, seat, action)

    def _buy_goods(self, state, seat, action) -> dict:
        return _check_buy_goods(state, seat, action)

    def _return_ship(self, state, seat, action) -> dict:
        return _return_event(state, seat, action)

    def _buy_whale(self, state, seat, action) -> dict:
        return _check_buy_whale(state, seat, action)

    # --- views and outcome --------------------------------------------------
    def view(self, state, seat):
        v = clone(state)
        v["type"] = "new-bedford"
        v["viewer"] = seat
        v["to_act"] = sorted(self.to_act(state))
        # Every fact is public (FAQ 1), the ocean bag's contents by kind included.
        v["score_preview"] = [scoring.score_seat(state, s) for s in range(len(state["players"]))]
        v["building_names"] = {b: data.BUILDING_BY_ID[b]["name"] for b in state["buildings"]}
        # The tiles' printed faces: cost, kind and text, as a player reads them on the table.
        v["building_tiles"] = {
            b: {"name": data.BUILDING_BY_ID[b]["name"], "type": data.BUILDING_BY_ID[b]["type"],
                "cost": dict(data.BUILDING_BY_ID[b]["cost"]), "text": data.BUILDING_TEXT[b]}
            for b in state["buildings"]
        }
        v["awaiting"] = self._awaiting(state)
        # What the table shows (view.py): the printed reference, the track by row with ranks,
        # each ship's place in words, and the awaited decision with every choice's effect.
        v["reference"] = clone(table_view.REFERENCE)
        v["whaling_track"] = table_view.whaling_track(state)
        table_view.annotate_ships(v["players"], state)
        v["pending"] = table_view.pending(self, state, v["awaiting"])
        v["captains"] = table_view.captains_view(state)
        return v

    def event_view(self, event, seat):
        """Every event is public; a Captain's skipped turn and a pass made by itself get `why`, the
        reason as an id (the clients word it from the catalogs), from the event's shape, so old logs
        have it too: a turn that searched the orders carries the search (`rolled_heading`); Ahab's
        idle worker does not; a pass's `auto` names the whale limit or what the buyer cannot afford."""
        event = super().event_view(event, seat)
        kind = event.get("type")
        if kind == "captain_worker_skipped" and "why" not in event:
            event = {**event, "why": "orders_exhausted" if "rolled_heading" in event else "worker_sits_out"}
        elif kind in ("buy_passed", "pick_passed") and event.get("auto") and "why" not in event:
            event = {**event, "why": "at_whale_limit" if "whale limit" in event["auto"] else "cannot_afford_whale"}
        return event

    def _awaiting(self, state) -> dict | None:
        """The decision the game waits for, in words a client can show."""
        to_act = self.to_act(state)
        if not to_act or self.outcome(state) is not None:
            return None  # nobody (an automatic step, a Captain's turn) or the game is over
        (seat,) = to_act
        return {"seat": seat, **AWAITING[phase_of(state)](state)}

    def resample_hidden(self, state, viewer, rng):
        # Nothing is hidden: the bag's contents by kind are public and its draws are
        # chance outcomes written into `whales_drawn` when they happen (FAQ 1).
        return None

    def outcome(self, state):
        return clone(state["result"]) if state["result"] is not None else None


# The events' schema is written out in schemas.py (every field typed), replacing the one the
# core derives from the `on` table (types only).
NewBedford.event_schema = with_start_fields(schemas.EVENT_SCHEMA, NewBedford.options_schema)
# The view's pending options carry legal actions: typed by the action schema the core built.
schemas.LEGAL_ACTION["oneOf"] = NewBedford.action_schema["oneOf"]
