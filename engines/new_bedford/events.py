"""New Bedford's events and what each one does to the state: the `on` table of the
RulesEngine (one handler per event type). Handlers only apply the facts an event carries;
they never decide or draw. The state stays plain JSON."""

from __future__ import annotations

from tablero.engines.core import clone

from . import captains, data
from .data import TOKEN_KINDS, WHALE_KINDS
from .state import State


def _zero(kinds) -> dict[str, int]:
    return {k: 0 for k in kinds}


def ships_at_sea(state) -> list[list[int]]:
    """Ships on the six sea spaces in whaling order: farthest from Return first, then by
    rank 1st, 2nd, 3rd (rulebook p.8)."""
    return [list(e) for row in reversed(data.SEA_ROWS) for e in state["track"][row]]


def _on_game_started(_state, event) -> State:
    n = event["seats"]
    caps = event.get("captains") or []
    occupancy = {sid: [] for sid in data.BOARD_SPACE_IDS}
    for b in event["buildings"]:
        if data.BUILDING_BY_ID[b]["type"] == "action":
            occupancy[b] = []
    state: State = {
        "seats": n,
        "round": 1,
        "first_player": event["first_player"],
        "phase": "setup",
        "setup_done": 0,
        "players": [
            {
                "money": 0, "lumber": 0, "food": 0, "brick": 0,
                "returned": _zero(WHALE_KINDS),
                "ships": [{"at": "home", "row": None, "hold": _zero(WHALE_KINDS)} for _ in data.SHIPS],
                "workers": [],
                "captain": None,
            }
            for _ in range(n + len(caps))
        ],
        "buildings": {b: {"owner": None, "used": False} for b in event["buildings"]},
        "track": [[] for _ in range(data.FARTHEST_ROW + 1)],
        "bag": dict(event["bag"]),
        "sea_tokens": _zero(TOKEN_KINDS),
        "out_of_game": _zero(TOKEN_KINDS),
        "occupancy": occupancy,
        "placed": 0,
        "bought": False,
        "inn": None,
        "sale": None,
        "picks": [],
        "final": False,
        "result": None,
    }
    if event.get("engine_version", 1) >= 3:
        # Games started from v3 on carry their version (rules gated by version: RULES.md);
        # v1-2 states stay as they were, so their logs keep their hashes.
        state["version"] = event["engine_version"]
    if caps:
        s = state
        ids = list(range(n, n + len(caps)))
        for i, c in zip(ids, caps, strict=True):
            s["players"][i]["captain"] = {"name": c["name"], "helm": c["helm"], "heading": c["heading"],
                                          "turn_heading": None, "idle": False}
        order = captains.round_order(n, ids, event["first_player"], 1)
        s["first_player"] = order[0]
        s["captain_game"] = {"humans": n, "captains": ids, "human_start": event["first_player"],
                             "order": order, "building_order": list(event["building_order"]),
                             "expert": event["expert"], "turners_mill": event["turners_mill"],
                             "choice": None, "last_captain_space": None}
    return state


def _on_starting_goods_chosen(s, e):
    p = s["players"][e["seat"]]
    for k, v in e["goods"].items():
        p[k] += v
    s["setup_done"] += 1
    if s["setup_done"] == s["seats"]:  # the humans (Captains take no starting goods)
        s["phase"] = "actions"


def _on_goods_bought(s, e):
    p = s["players"][e["seat"]]
    p["money"] -= e["price"]
    p[e["good"]] += e["amount"]
    s["bought"] = True


def _on_sale_opened(s, e):
    s["selling"] = {"seat": e["seat"], "space": e["space"], "kinds": list(e["kinds"]), "sold": {}}


def _on_goods_offered(s, e):
    s["selling"]["sold"][e["good"]] = e["count"]


def _on_worker_placed(s, e):
    s.pop("selling", None)  # a composed sale ends with its placement
    seat = e["seat"]
    p = s["players"][seat]
    if e.get("fee"):
        p["money"] -= e["fee"]
        owner = s["players"][e["owner"]]
        if owner["captain"] is None:
            # A Captain owner collects nothing (solo rules p.12): the $1 goes to the supply.
            owner["money"] += e["fee"]
    for k, v in e["pay"].items():
        p[k] -= v
    for k, v in e["gain"].items():
        p[k] += v
    _apply_placement(s, seat, e)
    if e.get("inn_placement"):
        s["inn"]["left"] -= 1
    else:
        s["placed"] += 1
    s["bought"] = False


def _apply_placement(s, seat, e):
    """The facts of a placement, a player's or a Captain's (spaces.py, captains.py)."""
    p = s["players"][seat]
    space = e["space"]
    s["occupancy"][space].append(seat)
    p["workers"].append(space)
    if space in s["buildings"]:
        s["buildings"][space]["used"] = True
    if "build" in e:
        s["buildings"][e["build"]]["owner"] = seat
    if "prepare" in e:
        ship = p["ships"][e["prepare"] - 1]
        ship["at"] = "dock"
    if "launch" in e:
        n, row = e["launch"]["ship"], e["launch"]["to"]
        ship = p["ships"][n - 1]
        ship["at"], ship["row"] = "sea", row
        s["track"][row].append([seat, n])  # the first open rank (rulebook p.6)
    if "move_out" in e:
        n, old, new = e["move_out"]["ship"], e["move_out"]["from"], e["move_out"]["to"]
        s["track"][old].remove([seat, n])  # ships behind move up one rank
        s["track"][new].insert(0, [seat, n])  # Lighthouse: rank 1st, others shift right
        p["ships"][n - 1]["row"] = new
    if "return_whales" in e:
        hold = p["ships"][e["return_whales"]["ship"] - 1]["hold"]
        for k, v in e["return_whales"]["whales"].items():
            hold[k] -= v
            p["returned"][k] += v
    if "remove_empty_sea" in e:
        s["sea_tokens"]["empty"] -= e["remove_empty_sea"]
        s["out_of_game"]["empty"] += e["remove_empty_sea"]
    if "take_ownership" in e:
        s["buildings"][e["take_ownership"]]["owner"] = seat
    if e.get("inn"):
        s["inn"] = {"seat": seat, "left": data.WORKERS}


def _on_inn_workers_picked_up(s, e):
    seat = e["seat"]
    for space in e["spaces"]:
        s["occupancy"][space].remove(seat)
    s["players"][seat]["workers"] = []
    s["phase"] = "inn"
    s["bought"] = False


def _on_ships_moved(s, e):
    track = s["track"]
    if e.get("in_order"):
        # After round 12 (v5, FAQ 7-8): the ships at sea come to Return one by one, in
        # whale-selection order (farthest first, then by rank): the event names the next.
        for seat, n in e["returning"]:
            ship = s["players"][seat]["ships"][n - 1]
            track[ship["row"]].remove([seat, n])
            track[data.RETURN_ROW].append([seat, n])
            ship["row"], ship["at"] = data.RETURN_ROW, "returning"
        s["phase"] = "movement"
        return
    # Rulebook p.7: every ship moves one space toward Return, nearest shore first, so
    # each row moves up whole and keeps its rank order.
    for row in range(data.RETURN_ROW, data.FARTHEST_ROW):
        track[row] = track[row + 1]
        for seat, n in track[row]:
            s["players"][seat]["ships"][n - 1]["row"] = row
            if row == data.RETURN_ROW:
                s["players"][seat]["ships"][n - 1]["at"] = "returning"
    track[data.FARTHEST_ROW] = []
    s["phase"] = "movement"


def _on_ship_returned(s, e):
    seat, n = e["seat"], e["ship"]
    p = s["players"][seat]
    s["track"][data.RETURN_ROW].remove([seat, n])
    p["money"] += e["sale_money"] - e["lay_paid"]
    for k, v in e["pay"].items():
        p["returned"][k] += v
    ship = p["ships"][n - 1]
    ship["at"], ship["row"], ship["hold"] = "home", None, _zero(WHALE_KINDS)
    if any(e["sell"].values()):
        # Rulebook p.7: then, clockwise from the seller, the others buy or pass (with
        # Captains: in turn order after the seller, Captains alternating: p.15).
        cg = s.get("captain_game")
        if cg is not None:
            order = cg["order"]
            k = order.index(seat)
            queue = order[k + 1:] + order[:k]
        else:
            queue = [(seat + i) % s["seats"] for i in range(1, s["seats"])]
        s["sale"] = {"seller": seat, "ship": n, "whales": dict(e["sell"]), "queue": queue, "turn": 0}


def _on_whale_bought(s, e):
    p = s["players"][e["seat"]]
    p["money"] -= e["price"]
    p["returned"][e["kind"]] += 1
    sale = s["sale"]
    sale["whales"][e["kind"]] -= 1
    sale["turn"] = (sale["turn"] + 1) % len(sale["queue"])


def _on_buy_passed(s, e):
    sale = s["sale"]
    sale["queue"].pop(sale["turn"])
    if sale["turn"] >= len(sale["queue"]):
        sale["turn"] = 0


def _on_sale_closed(s, e):
    for k, v in e["discarded"].items():
        s["out_of_game"][k] += v
    s["sale"] = None


def _on_whales_drawn(s, e):
    for k in TOKEN_KINDS:
        s["bag"][k] += e["returned_to_bag"][k] - e["drawn"][k]
    s["sea_tokens"] = dict(e["drawn"])
    s["picks"] = ships_at_sea(s)
    s["phase"] = "whaling"


def _on_whale_picked(s, e):
    s["picks"].pop(0)
    s["sea_tokens"][e["kind"]] -= 1
    s["players"][e["seat"]]["ships"][e["ship"] - 1]["hold"][e["kind"]] += 1


def _on_pick_passed(s, e):
    s["picks"].pop(0)


def _on_round_ended(s, e):
    if e["post_office"]:
        s["players"][e["post_office"]["seat"]]["money"] += e["post_office"]["money"]
    for occ in s["occupancy"].values():
        occ.clear()
    for p in s["players"]:
        p["workers"] = []
    for tile in s["buildings"].values():
        tile["used"] = False
    s["inn"], s["placed"], s["bought"], s["picks"] = None, 0, False, []
    s["first_player"] = e["first_player"]
    if "order" in e:
        cg = s["captain_game"]
        cg["order"] = list(e["order"])
        for i in cg["captains"]:
            s["players"][i]["captain"]["idle"] = False
    if e["last"]:
        s["final"] = True
        s["phase"] = "movement"
    else:
        s["round"] += 1
        s["phase"] = "actions"


def _on_game_ended(s, e):
    s["result"] = {k: e[k] for k in ("scores", "winners", "details")}
    if "captains" in e:
        s["result"]["captains"] = e["captains"]
        s["result"]["captain_winners"] = e["captain_winners"]
    s["phase"] = "over"


def _on_captain_heading(s, e):
    cap = s["players"][e["player"]]["captain"]
    cap["helm"], cap["heading"], cap["turn_heading"] = e["to"], e["heading"], e["heading"]


def _end_captain_turn(s, e):
    cap = s["players"][e["player"]]["captain"]
    cap["helm"], cap["heading"], cap["turn_heading"] = e.get("helm", cap["helm"]), e.get(
        "heading", cap["heading"]), None
    if e.get("inn_placement"):
        s["inn"]["left"] -= 1
    else:
        s["placed"] += 1
    s["bought"] = False
    s["captain_game"]["choice"] = None


def _on_captain_worker_placed(s, e):
    seat = e["player"]
    if "owner_paid" in e:
        s["players"][e["owner_paid"]["seat"]]["money"] += e["owner_paid"]["money"]
    _apply_placement(s, seat, e)
    s["captain_game"]["last_captain_space"] = e["space"]
    _end_captain_turn(s, e)


def _on_captain_choice_offered(s, e):
    cap = s["players"][e["player"]]["captain"]
    cap["helm"], cap["heading"] = e["helm"], e["heading"]
    s["captain_game"]["choice"] = {"chooser": e["chooser"], "player": e["player"], "captain": e["captain"],
                                   "heading": e["heading"], "entry": e["entry"], "choices": clone(e["choices"])}


def _on_captain_token_drawn(s, e):
    if e["ship"] is not None:
        s["bag"][e["kind"]] -= 1
        s["players"][e["player"]]["ships"][e["ship"] - 1]["hold"][e["kind"]] += 1
    elif e["returned"]:
        s["players"][e["player"]]["captain"]["idle"] = True
    _end_captain_turn(s, e)


def _on_captain_worker_skipped(s, e):
    _end_captain_turn(s, e)


def _on_captain_whales_trimmed(s, e):
    p = s["players"][e["player"]]
    for k, v in e["sold"].items():
        p["returned"][k] -= v
        s["out_of_game"][k] += v


ON = {
    "game_started": _on_game_started,
    "starting_goods_chosen": _on_starting_goods_chosen,
    "goods_bought": _on_goods_bought,
    "worker_placed": _on_worker_placed,
    "sale_opened": _on_sale_opened,
    "goods_offered": _on_goods_offered,
    "inn_workers_picked_up": _on_inn_workers_picked_up,
    "ships_moved": _on_ships_moved,
    "ship_returned": _on_ship_returned,
    "whale_bought": _on_whale_bought,
    "buy_passed": _on_buy_passed,
    "sale_closed": _on_sale_closed,
    "whales_drawn": _on_whales_drawn,
    "whale_picked": _on_whale_picked,
    "pick_passed": _on_pick_passed,
    "round_ended": _on_round_ended,
    "game_ended": _on_game_ended,
    "captain_heading": _on_captain_heading,
    "captain_worker_placed": _on_captain_worker_placed,
    "captain_choice_offered": _on_captain_choice_offered,
    "captain_token_drawn": _on_captain_token_drawn,
    "captain_worker_skipped": _on_captain_worker_skipped,
    "captain_whales_trimmed": _on_captain_whales_trimmed,
}
