"""New Bedford (Nat Levan): the base game for 2-4 players.

The state is one JSON object (see `_initial_state`). A round is four phases
(rulebook p.4): actions (worker placement, spaces.py), movement (ships move
toward Return; returning ships pay the lay or sell, others buy), whaling (draw
1 + ships-at-sea tokens from the ocean bag; ships pick farthest first) and end
of round. After round 12 the movement phase repeats until every ship has
returned, then the game is scored (scoring.py).

Decisions a player makes: the $5 of starting goods, each worker placement (with
the optional purchase of 2 lumber or 2 food before it), how to settle each
returning ship (pay or sell each whale), buying whales another player sold, and
picking a drawn whale token. Everything else (phase changes, movement, bag
draws, Post Office income, scoring) is decided automatically in the same
`decide` call, so the log always stops at a real decision.

Seats are listed clockwise; "the player to the left" is the next seat. Games
against the automa Captains (El Océano Solitario, captains.py) append each
Captain to `players` after the seats, with a `captain` entry: Captains are
players but never seats, and their turns run as automatic steps.
"""

from __future__ import annotations

from engines.core import (
    Engine,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    clone,
    reject_unknown_fields,
    require_action_type,
    require_fields,
)

from . import captains, data, schemas, scoring, spaces
from . import view as table_view
from .data import GOODS, TOKEN_KINDS, WHALE_KINDS, WHALES

ACTION_TYPES = {
    "choose_starting_goods",
    "buy_goods",
    "place_worker",
    "return_ship",
    "buy_whale",
    "pick_whale",
    "pass",
    "choose_for_captain",
}


# Fields each action may carry; place_worker's further parameters depend on the space
# (spaces.resolve checks exactly which ones a space takes).
FIELDS = {
    "choose_starting_goods": {"type", "lumber", "food", "brick", "money"},
    "buy_goods": {"type", "good"},
    "place_worker": {"type", "space", *spaces.PARAMETERS},
    "return_ship": {"type", "pay", "sell"},
    "buy_whale": {"type", "kind"},
    "pick_whale": {"type", "kind"},
    "pass": {"type"},
    "choose_for_captain": {"type", "choice"},
}
# Fields an action cannot do without (a missing one is a malformed action, named).
REQUIRED = {
    "choose_starting_goods": ("lumber", "food", "brick", "money"),
    "buy_goods": ("good",),
    "place_worker": ("space",),
    "return_ship": ("pay", "sell"),
    "buy_whale": ("kind",),
    "pick_whale": ("kind",),
    "pass": (),
    "choose_for_captain": ("choice",),
}


def _zero(kinds) -> dict[str, int]:
    return {k: 0 for k in kinds}


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


def ships_at_sea(state) -> list[list[int]]:
    """Ships on the six sea spaces in whaling order: farthest from Return first, then by
    rank 1st, 2nd, 3rd (rulebook p.8)."""
    return [list(e) for row in reversed(data.SEA_ROWS) for e in state["track"][row]]


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


def _whale_field(action: dict, key: str) -> dict[str, int]:
    v = action.get(key)
    if not isinstance(v, dict):
        raise InvalidAction(f"{action['type']}: {key!r} must be an object of whale counts by kind")
    out = _zero(WHALE_KINDS)
    for k, n in v.items():
        if k not in WHALE_KINDS:
            raise InvalidAction(f"{action['type']}: {key!r} takes only {', '.join(WHALE_KINDS)}, not {k!r}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise InvalidAction(f"{action['type']}: {key}.{k} must be a non-negative integer")
        out[k] = n
    return out


def _kind_field(action: dict) -> str:
    k = action.get("kind")
    if k not in TOKEN_KINDS:
        raise InvalidAction(f"{action['type']}: 'kind' must be one of {', '.join(WHALE_KINDS)}")
    if k == "empty":
        raise IllegalAction("Empty Sea tokens cannot be taken or bought")
    return k


class NewBedford(Engine):
    name = "new-bedford"
    title = "New Bedford"
    min_seats = 1
    max_seats = 4
    version = 1
    max_random_steps = 4000
    action_schema = schemas.ACTION_SCHEMA
    event_schema = schemas.EVENT_SCHEMA
    view_schema = schemas.VIEW_SCHEMA
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
            raise InvalidOptions("expert and turners_mill are options of games against Captains")
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

    def _initial_state(self, event) -> dict:
        n = event["seats"]
        caps = event.get("captains") or []
        occupancy = {sid: [] for sid in data.BOARD_SPACE_IDS}
        for b in event["buildings"]:
            if data.BUILDING_BY_ID[b]["type"] == "action":
                occupancy[b] = []
        state = {
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

    # --- whose turn ---------------------------------------------------------
    def to_act(self, state) -> set[int]:
        # Captains are players but never seats: never in to_act (their turns are automatic).
        seat = self._actor(state)
        return set() if seat is None or seat >= state["seats"] else {seat}

    def _actor(self, state) -> int | None:
        """The player (a seat, or a Captain's player index) the game waits for."""
        phase = state["phase"]
        n = state["seats"]
        cg = state.get("captain_game")
        if cg is not None and cg["choice"] is not None:
            return cg["choice"]["chooser"]
        if phase == "setup":
            # Rulebook p.2: starting goods are chosen in turn order (Captains use none: p.11).
            if cg is not None:
                return [p for p in cg["order"] if p < n][state["setup_done"]]
            return (state["first_player"] + state["setup_done"]) % n
        if phase == "actions":
            # Rulebook p.4: from the Ship's Wheel clockwise, one worker at a time.
            if cg is not None:
                order = cg["order"]
                return order[state["placed"] % len(order)] if state["placed"] < len(order) * data.WORKERS else None
            if state["placed"] < n * data.WORKERS:
                return (state["first_player"] + state["placed"]) % n
            return None
        if phase == "inn":
            return state["inn"]["seat"] if state["inn"]["left"] > 0 else None
        if phase == "movement":
            sale = state["sale"]
            if sale is not None:
                return sale["queue"][sale["turn"]] if sale["queue"] else None
            if state["track"][data.RETURN_ROW]:
                return state["track"][data.RETURN_ROW][0][0]
            return None
        if phase == "whaling":
            return state["picks"][0][0] if state["picks"] else None
        return None

    # --- legal actions ------------------------------------------------------
    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        cg = state.get("captain_game")
        if cg is not None and cg["choice"] is not None:
            return [{"type": "choose_for_captain", "choice": o["choice"]} for o in cg["choice"]["choices"]]
        phase = state["phase"]
        if phase == "setup":
            return [{"type": "choose_starting_goods", **c} for c in starting_goods_choices()]
        if phase in ("actions", "inn"):
            out = []
            if not state["bought"] and state["players"][seat]["money"] >= data.PURCHASE_PRICE:
                out += [{"type": "buy_goods", "good": g} for g in data.PURCHASE_GOODS]
            return out + spaces.placements(state, seat)
        if phase == "movement":
            sale = state["sale"]
            if sale is not None:
                money = state["players"][seat]["money"]
                buys = [{"type": "buy_whale", "kind": k} for k in WHALE_KINDS
                        if sale["whales"][k] and WHALES[k]["lay"] <= money]
                return buys + [{"type": "pass"}]
            _, ship = state["track"][data.RETURN_ROW][0]
            return return_options(state, seat, ship)
        if phase == "whaling":
            avail = [{"type": "pick_whale", "kind": k} for k in WHALE_KINDS if state["sea_tokens"][k]]
            return avail + [{"type": "pass"}]
        return []

    def random_action(self, state, seat, actions, rng):
        # Uniform over action *kinds* (type and space) first, so that a space with many
        # parameter choices (General Store, Town Hall) does not crowd out the others.
        groups: dict[tuple, list] = {}
        for a in actions:
            groups.setdefault((a["type"], a.get("space")), []).append(a)
        keys = list(groups)
        return rng.choice(groups[keys[rng.randrange(len(keys))]])

    # --- decide -------------------------------------------------------------
    def decide(self, state, seat, action, rng):
        t = require_action_type(action, ACTION_TYPES)
        # The action's shape first (malformed: InvalidAction), then whether it is allowed now.
        reject_unknown_fields(action, FIELDS[t])
        require_fields(action, REQUIRED[t])
        if state["phase"] == "over":
            raise IllegalAction("the game is over")
        actor = self._actor(state)
        if seat != actor:
            if actor is not None and actor >= state["seats"]:
                raise IllegalAction(f"seat {seat} may not act now; a Captain is taking its turn")
            raise IllegalAction(f"seat {seat} may not act now; waiting for seat {actor}")
        cg = state.get("captain_game")
        if cg is not None and cg["choice"] is not None:
            if t != "choose_for_captain":
                raise IllegalAction(f"{t}: first choose for the Captain (choose_for_captain)")
            events = [self._choose_for_captain(state, seat, action)]
        elif t == "choose_for_captain":
            raise IllegalAction("no Captain is waiting for a choice")
        else:
            events = self._decide_player(state, seat, t, action)
        s = clone(state)
        for e in events:
            s = self.evolve(s, e)
        while True:
            e = self._automatic(s, rng)
            if e is None:
                return events
            events.append(e)
            s = self.evolve(s, e)

    def _decide_player(self, state, seat, t, action) -> list[dict]:
        phase = state["phase"]
        if phase == "setup":
            if t != "choose_starting_goods":
                raise IllegalAction("first choose your starting goods worth $5")
            return [self._starting_goods(seat, action)]
        if phase in ("actions", "inn"):
            if t == "buy_goods":
                return [self._buy_goods(state, seat, action)]
            if t == "place_worker":
                return [spaces.resolve(state, seat, action)]
            raise IllegalAction(f"{t}: now you place a worker (you may first buy 2 lumber or 2 food)")
        if phase == "movement":
            if state["sale"] is not None:
                if t == "pass":
                    return [{"type": "buy_passed", "seat": seat}]
                if t == "buy_whale":
                    return [self._buy_whale(state, seat, action)]
                raise IllegalAction(f"{t}: now you may buy one of the whales being sold, or pass")
            if t != "return_ship":
                raise IllegalAction(f"{t}: your ship has returned; pay the lay or sell each whale (return_ship)")
            return [self._return_ship(state, seat, action)]
        if phase == "whaling":
            _, ship = state["picks"][0]
            if t == "pass":
                return [{"type": "pick_passed", "seat": seat, "ship": ship}]
            if t == "pick_whale":
                kind = _kind_field(action)
                if not state["sea_tokens"][kind]:
                    raise IllegalAction(f"Whaling: no {WHALES[kind]['name']} token was drawn (or it was taken)")
                return [{"type": "whale_picked", "seat": seat, "ship": ship, "kind": kind}]
            raise IllegalAction(f"{t}: now your Ship {ship} may pick one drawn whale token, or pass")
        raise IllegalAction("the game is over")

    def _choose_for_captain(self, state, seat, action) -> dict:
        choice = action.get("choice")
        if not isinstance(choice, str):
            raise InvalidAction("choose_for_captain: 'choice' must be a string (a space id, or ship1/ship2)")
        offer = state["captain_game"]["choice"]
        for o in offer["choices"]:
            if o["choice"] == choice:
                return {**clone(o["event"]), "chosen_by": seat}
        raise IllegalAction(f"choose_for_captain: {choice!r} is not one of "
                            f"{', '.join(o['choice'] for o in offer['choices'])}")

    def _starting_goods(self, seat, action) -> dict:
        goods = {}
        for k in ("lumber", "food", "brick", "money"):
            v = action.get(k)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise InvalidAction(f"choose_starting_goods: {k!r} must be a non-negative integer")
            goods[k] = v
        value = goods["money"] + sum(goods[g] * data.GOOD_VALUE[g] for g in GOODS)
        if value != data.STARTING_VALUE:
            raise IllegalAction(
                f"starting goods must be worth exactly ${data.STARTING_VALUE} "
                f"(lumber $1, food $1, brick $2); yours are worth ${value}"
            )
        return {"type": "starting_goods_chosen", "seat": seat, "goods": goods}

    def _buy_goods(self, state, seat, action) -> dict:
        good = action.get("good")
        if good not in data.PURCHASE_GOODS:
            raise InvalidAction("buy_goods: 'good' must be 'lumber' or 'food'")
        if state["bought"]:
            raise IllegalAction("you may buy 2 lumber or 2 food only once per turn")
        if state["players"][seat]["money"] < data.PURCHASE_PRICE:
            raise IllegalAction(f"buying 2 {good} costs ${data.PURCHASE_PRICE}")
        return {"type": "goods_bought", "seat": seat, "good": good,
                "amount": data.PURCHASE_AMOUNT, "price": data.PURCHASE_PRICE}

    def _return_ship(self, state, seat, action) -> dict:
        _, ship = state["track"][data.RETURN_ROW][0]
        hold = state["players"][seat]["ships"][ship - 1]["hold"]
        pay = _whale_field(action, "pay")
        sell = _whale_field(action, "sell")
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

    def _buy_whale(self, state, seat, action) -> dict:
        kind = _kind_field(action)
        if not state["sale"]["whales"][kind]:
            raise IllegalAction(f"no {WHALES[kind]['name']} is for sale")
        price = WHALES[kind]["lay"]
        if state["players"][seat]["money"] < price:
            raise IllegalAction(f"a {WHALES[kind]['name']} costs its full lay, ${price}")
        return {"type": "whale_bought", "seat": seat, "kind": kind, "price": price}

    # --- automatic steps ----------------------------------------------------
    def _automatic(self, s, rng) -> dict | None:
        """The next event that needs no decision, or None when someone must decide."""
        phase = s["phase"]
        n = s["seats"]
        cg = s.get("captain_game")
        if cg is not None:
            if cg["choice"] is not None:
                return None
            e = captains.auto_step(s, rng)
            if e is not None:
                return e
            n = len(s["players"])
        if phase == "actions":
            if s["placed"] < n * data.WORKERS:
                return None
            if s["inn"] is not None:
                # Inn (FAQ 5): after everyone placed, before movement, pick up both workers.
                return {"type": "inn_workers_picked_up", "seat": s["inn"]["seat"],
                        "spaces": list(s["players"][s["inn"]["seat"]]["workers"])}
            return self._movement_event(s)
        if phase == "inn":
            return None if s["inn"]["left"] > 0 else self._movement_event(s)
        if phase == "movement":
            sale = s["sale"]
            if sale is not None:
                if not sale["queue"] or not any(sale["whales"].values()):
                    # Rulebook p.7: tokens nobody buys are removed from the game.
                    return {"type": "sale_closed", "seat": sale["seller"], "discarded": dict(sale["whales"])}
                buyer = sale["queue"][sale["turn"]]
                money = s["players"][buyer]["money"]
                if not any(sale["whales"][k] and WHALES[k]["lay"] <= money for k in WHALE_KINDS):
                    return {"type": "buy_passed", "seat": buyer, "auto": "cannot afford any whale for sale"}
                return None
            returning = s["track"][data.RETURN_ROW]
            if returning:
                seat, ship = returning[0]
                if any(s["players"][seat]["ships"][ship - 1]["hold"].values()):
                    options = return_options(s, seat, ship)
                    if len(options) > 1:
                        return None
                    # No lay can be paid even after selling: every whale must be sold (p.7).
                    return {**self._return_ship(s, seat, options[0]), "forced": True}
                zero = _zero(WHALE_KINDS)
                return {"type": "ship_returned", "seat": seat, "ship": ship, "pay": zero, "sell": dict(zero),
                        "lay_paid": 0, "sale_money": 0}
            if s["final"]:
                if ships_at_sea(s):
                    # Rulebook p.9: after round 12, repeat movement until every ship has returned.
                    return self._movement_event(s)
                if cg is not None:
                    for i in cg["captains"]:
                        trim = captains.trim_whales(s, i)
                        if trim is not None:
                            return {"type": "captain_whales_trimmed", "player": i,
                                    "captain": s["players"][i]["captain"]["name"], **trim}
                return {"type": "game_ended", **scoring.final_result(s)}
            return self._whaling_event(s, rng)
        if phase == "whaling":
            if s["picks"] and any(s["sea_tokens"][k] for k in WHALE_KINDS):
                return None
            return self._round_end_event(s)
        return None

    def _movement_event(self, s) -> dict:
        return {"type": "ships_moved", "final": s["final"],
                "returning": [list(e) for e in s["track"][data.RETURN_ROW + 1]]}

    def _whaling_event(self, s, rng) -> dict:
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

    def _round_end_event(self, s) -> dict:
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

    # --- evolve -------------------------------------------------------------
    def evolve(self, state, event):
        t = event["type"]
        if t == "game_started":
            return self._initial_state(event)
        handler = getattr(self, "_on_" + t)
        handler(state, event)
        return state

    def _on_starting_goods_chosen(self, s, e):
        p = s["players"][e["seat"]]
        for k, v in e["goods"].items():
            p[k] += v
        s["setup_done"] += 1
        if s["setup_done"] == s["seats"]:  # the humans (Captains take no starting goods)
            s["phase"] = "actions"

    def _on_goods_bought(self, s, e):
        p = s["players"][e["seat"]]
        p["money"] -= e["price"]
        p[e["good"]] += e["amount"]
        s["bought"] = True

    def _on_worker_placed(self, s, e):
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
        self._apply_placement(s, seat, e)
        if e.get("inn_placement"):
            s["inn"]["left"] -= 1
        else:
            s["placed"] += 1
        s["bought"] = False

    def _apply_placement(self, s, seat, e):
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

    def _on_inn_workers_picked_up(self, s, e):
        seat = e["seat"]
        for space in e["spaces"]:
            s["occupancy"][space].remove(seat)
        s["players"][seat]["workers"] = []
        s["phase"] = "inn"
        s["bought"] = False

    def _on_ships_moved(self, s, e):
        # Rulebook p.7: every ship moves one space toward Return, nearest shore first, so
        # each row moves up whole and keeps its rank order.
        track = s["track"]
        for row in range(data.RETURN_ROW, data.FARTHEST_ROW):
            track[row] = track[row + 1]
            for seat, n in track[row]:
                s["players"][seat]["ships"][n - 1]["row"] = row
                if row == data.RETURN_ROW:
                    s["players"][seat]["ships"][n - 1]["at"] = "returning"
        track[data.FARTHEST_ROW] = []
        s["phase"] = "movement"

    def _on_ship_returned(self, s, e):
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

    def _on_whale_bought(self, s, e):
        p = s["players"][e["seat"]]
        p["money"] -= e["price"]
        p["returned"][e["kind"]] += 1
        sale = s["sale"]
        sale["whales"][e["kind"]] -= 1
        sale["turn"] = (sale["turn"] + 1) % len(sale["queue"])

    def _on_buy_passed(self, s, e):
        sale = s["sale"]
        sale["queue"].pop(sale["turn"])
        if sale["turn"] >= len(sale["queue"]):
            sale["turn"] = 0

    def _on_sale_closed(self, s, e):
        for k, v in e["discarded"].items():
            s["out_of_game"][k] += v
        s["sale"] = None

    def _on_whales_drawn(self, s, e):
        for k in TOKEN_KINDS:
            s["bag"][k] += e["returned_to_bag"][k] - e["drawn"][k]
        s["sea_tokens"] = dict(e["drawn"])
        s["picks"] = ships_at_sea(s)
        s["phase"] = "whaling"

    def _on_whale_picked(self, s, e):
        s["picks"].pop(0)
        s["sea_tokens"][e["kind"]] -= 1
        s["players"][e["seat"]]["ships"][e["ship"] - 1]["hold"][e["kind"]] += 1

    def _on_pick_passed(self, s, e):
        s["picks"].pop(0)

    def _on_round_ended(self, s, e):
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

    def _on_game_ended(self, s, e):
        s["result"] = {k: e[k] for k in ("scores", "winners", "details")}
        if "captains" in e:
            s["result"]["captains"] = e["captains"]
            s["result"]["captain_winners"] = e["captain_winners"]
        s["phase"] = "over"

    # --- Captains (captains.py) ---------------------------------------------------------
    def _on_captain_heading(self, s, e):
        cap = s["players"][e["player"]]["captain"]
        cap["helm"], cap["heading"], cap["turn_heading"] = e["to"], e["heading"], e["heading"]

    def _end_captain_turn(self, s, e):
        cap = s["players"][e["player"]]["captain"]
        cap["helm"], cap["heading"], cap["turn_heading"] = e.get("helm", cap["helm"]), e.get(
            "heading", cap["heading"]), None
        if e.get("inn_placement"):
            s["inn"]["left"] -= 1
        else:
            s["placed"] += 1
        s["bought"] = False
        s["captain_game"]["choice"] = None

    def _on_captain_worker_placed(self, s, e):
        seat = e["player"]
        if "owner_paid" in e:
            s["players"][e["owner_paid"]["seat"]]["money"] += e["owner_paid"]["money"]
        self._apply_placement(s, seat, e)
        s["captain_game"]["last_captain_space"] = e["space"]
        self._end_captain_turn(s, e)

    def _on_captain_choice_offered(self, s, e):
        cap = s["players"][e["player"]]["captain"]
        cap["helm"], cap["heading"] = e["helm"], e["heading"]
        s["captain_game"]["choice"] = {"chooser": e["chooser"], "player": e["player"], "captain": e["captain"],
                                       "heading": e["heading"], "entry": e["entry"], "choices": clone(e["choices"])}

    def _on_captain_token_drawn(self, s, e):
        if e["ship"] is not None:
            s["bag"][e["kind"]] -= 1
            s["players"][e["player"]]["ships"][e["ship"] - 1]["hold"][e["kind"]] += 1
        elif e["returned"]:
            s["players"][e["player"]]["captain"]["idle"] = True
        self._end_captain_turn(s, e)

    def _on_captain_worker_skipped(self, s, e):
        self._end_captain_turn(s, e)

    def _on_captain_whales_trimmed(self, s, e):
        p = s["players"][e["player"]]
        for k, v in e["sold"].items():
            p["returned"][k] -= v
            s["out_of_game"][k] += v

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

    def _awaiting(self, state) -> dict | None:
        """The decision the game waits for, in words a client can show."""
        seat = self._actor(state)
        if seat is None or seat >= state["seats"]:
            return None  # nobody, or a Captain taking its turn
        phase = state["phase"]
        cg = state.get("captain_game")
        if cg is not None and cg["choice"] is not None:
            c = cg["choice"]
            return {"seat": seat, "decision": "choose_for_captain", "captain": c["captain"], "player": c["player"],
                    "heading": c["heading"], "entry": c["entry"]}
        if phase == "setup":
            return {"seat": seat, "decision": "choose_starting_goods"}
        if phase in ("actions", "inn"):
            return {"seat": seat, "decision": "place_worker", "inn": phase == "inn",
                    "may_buy_goods": not state["bought"]}
        if phase == "movement":
            sale = state["sale"]
            if sale is not None:
                return {"seat": seat, "decision": "buy_whale", "seller": sale["seller"],
                        "for_sale": dict(sale["whales"])}
            return {"seat": seat, "decision": "return_ship", "ship": state["track"][data.RETURN_ROW][0][1]}
        return {"seat": seat, "decision": "pick_whale", "ship": state["picks"][0][1]}

    def resample_hidden(self, state, viewer, rng):
        # Nothing is hidden: the bag's contents by kind are public and its draws are
        # chance outcomes written into `whales_drawn` when they happen (FAQ 1).
        return None

    def outcome(self, state):
        return clone(state["result"]) if state["result"] is not None else None

