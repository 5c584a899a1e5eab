"""New Bedford's judgement for the medium and hard bots (engines/core/search.py): not rules.

A seat's standing is its lead over the best other player (Captains included). Each player is
worth their points now by the engine's own scoring (`scoring.score_seat`: whales kept,
buildings, Victory bonuses) plus what is on the table, valued by what it still turns into:

- **ships**: a whale in a hold (its points, less the lay still to pay); a ship at sea per
  whaling phase still ahead of it (its row less one, at most the phases left in the game); a
  ship on the Dock or at home a share of a far trip (5 phases while there is time), so that
  preparing and launching are steps up, not costs;
- **goods by their use**: food for the launches of the ships not at sea, lumber to prepare them
  and, with bricks, for one more building count at a "needed" rate; goods beyond that only at
  their sale price's share (so gathering stops when the plan is fed, and the surplus is sold);
- **money**: $5 = a point, smoothly ($0.2 a dollar), and more up to the lays of the whales in
  the holds (a whale not paid for is sold at half its lay, and in solo a Captain buys it);
- **action buildings**: a point per building (scored) plus their uses in the rounds left.

A sale of goods opened (`selling`) counts as finished, its kinds not yet said selling the
goods beyond the need. The weights (`P`) were tuned on solo games against Starbuck and
2-player games (bench/bots_results.md, 2026-12-06).

Two hooks of the search (`search.Evaluation`): `unfinished` (a sale said kind by kind, goods
bought before the placement: judged once the turn's placement is made, as every other
placement, after which the game goes on) and `plies` (hard's rollout: the other seats' answers
at 2-4 players, only the seat's own next decision in solo).
"""

from __future__ import annotations

from tablero.engines.core.search import Budget, Evaluation

from . import data

P = {
    "hold": 0.8,        # a whale in a hold, per point it is worth home (its lay is still to pay)
    "phase": 1.1,       # a ship at sea, per whaling phase it still takes part in
    "sea": 0.5,         # a ship at sea, as such
    "dock": 0.55,       # a ship on the Dock: this share of a far trip
    "home": 0.25,       # a ship at home: this share of a far trip
    "food": 0.45,       # a needed food (launches)
    "lumber": 0.45,     # a needed lumber (preparing ships, one more building)
    "brick": 0.6,       # a needed brick (one more building)
    "spare": 0.15,      # a good beyond the need, per $ it sells for
    "use": 1.0,         # an action building, per game left (share of the 12 rounds)
    "money": 0.2,       # a $ (5 = a point)
    "lay_money": 0.5,   # a $ up to the lays of the whales in the holds
}
BUILDING_NEED = {"lumber": 5, "brick": 5}  # goods for one more building, while there is time


def _phases_left(state) -> int:
    """Whaling phases still ahead (the one of this round included until it starts)."""
    if state["final"] or state["phase"] == "over":
        return 0
    n = data.ROUNDS - state["round"] + 1
    if state["phase"] == "whaling":
        n -= 1
    return max(0, n)


def _pending_sale(state, sel, have, need) -> int:
    """A sale of goods opened but not finished, as if done (`have` loses the goods sold): the
    counts said so far, and of the kinds still to say the goods beyond the need (at least one
    good in all). Returns the money it brings."""
    space = data.SPACES[sel["space"]]
    prices = space["prices"]
    sold = dict(sel["sold"])
    for g in sel["kinds"]:
        if g not in sold:
            sold[g] = max(0, have[g] - need[g])
    if not any(sold.values()):
        rest = [g for g in sel["kinds"] if g not in sel["sold"] and have[g] > 0]
        if rest:
            sold[max(rest, key=lambda g: prices[g])] = 1
    money = 0
    for g, n in sold.items():
        n = min(n, have[g])
        have[g] -= n
        money += prices[g] * n + (prices[g] if n and space.get("double_first") else 0)
    if not state["occupancy"].get(sel["space"]):
        money += space.get("bonus", {}).get("money", 0)
    tile = state["buildings"].get(sel["space"])
    if tile is not None and tile["owner"] != sel["seat"]:
        money -= data.BUILDING_FEE
    return money


def points(state, i: int) -> float:
    """Player `i`'s points now plus the worth of what is on the table (the module's doc)."""
    from . import scoring

    p = state["players"][i]
    total = scoring.score_seat(state, i)["total"]
    phases = _phases_left(state)
    trip = P["phase"] * min(5, max(0, phases - 1))  # a ship launched far next round
    ships = 0.0
    food_need = lumber_need = 0
    lays = 0
    for s in p["ships"]:
        hold = s["hold"]
        ships += P["hold"] * sum(data.WHALES[k]["points"] * n for k, n in hold.items())
        lays += sum(data.WHALES[k]["lay"] * n for k, n in hold.items())
        if s["at"] in ("sea", "returning"):
            row = s["row"] or 0
            ships += P["sea"] * (phases > 0) + P["phase"] * min(max(0, row - 1), phases)
        elif s["at"] == "dock":
            ships += P["dock"] * trip
            food_need += min(6, phases + 1) if phases > 1 else 0
        else:
            ships += P["home"] * trip
            if phases > 2:
                food_need += min(6, phases)
                lumber_need += 2
    left = phases / data.ROUNDS
    owned = [b for b, t in state["buildings"].items() if t["owner"] == i]
    use = sum(1 for b in owned if data.BUILDING_BY_ID[b]["type"] == "action") * P["use"] * left
    brick_need = 0
    if phases > 1:
        lumber_need += BUILDING_NEED["lumber"]
        brick_need += BUILDING_NEED["brick"]
    have = {g: p[g] for g in data.GOODS}
    money = p["money"]
    need = {"food": food_need, "lumber": lumber_need, "brick": brick_need}
    sel = state.get("selling")
    if sel is not None and sel["seat"] == i:
        money += _pending_sale(state, sel, have, need)
    goods = 0.0
    if p["captain"] is None:
        for g in data.GOODS:
            used = min(have[g], need[g])
            goods += P[g] * used + P["spare"] * data.GOOD_VALUE[g] * (have[g] - used)
    money_v = P["money"] * money + (P["lay_money"] - P["money"]) * min(money, lays)
    total -= p["money"] // data.MONEY_PER_POINT  # the score's $5 = 1 point, replaced by the smooth worth
    return total + ships + use + goods + money_v


def standing(state, seat: int) -> float:
    """`seat`'s lead over the best other player (a Captain too)."""
    mine = points(state, seat)
    others = [points(state, i) for i in range(len(state["players"])) if i != seat]
    return mine - max(others) if others else mine


def unfinished(state, seat: int) -> bool:
    """`seat` is in the middle of its turn: a sale of goods said kind by kind, or goods bought
    before the placement (search.Evaluation.unfinished)."""
    sel = state.get("selling")
    return (sel is not None and sel["seat"] == seat) or bool(state["bought"])


SOLO_PLIES = 1  # hard's rollout in solo (the Captains move by themselves): 1 of the seat's own decisions


def plies(state, budget: Budget) -> int:
    """Hard's rollout: the other seats' answers at 2-4 players (`budget.rollout_plies`), in solo
    `SOLO_PLIES` (search.Evaluation.plies)."""
    return budget.rollout_plies if state["seats"] > 1 else SOLO_PLIES


# Hard (bench/bots_results.md, 2026-12-06, 2 players against medium, 40-50 games each): 3 plies of
# rollout (the other seat's answer, the seat's next move, the other's answer) 65 % at 50 ms against
# about 52 % with 1 ply (57.5 % with 2, 55 % with 5); 100 ms 76 %; 8 candidates, 40 or 6 rollout
# actions no better. In solo 1 ply (SOLO_PLIES).
EVALUATION = Evaluation(standing, Budget(medium_seconds=0.02, medium_actions=400, hard_seconds=0.1,
                                         hard_candidates=5, rollout_plies=3, rollout_actions=12,
                                         rollout_epsilon=0.0), unfinished=unfinished, plies=plies)
