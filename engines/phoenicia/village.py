"""A village's derived values: the tracks, levels, costs and discounts that follow
from what a player owns (seed-P 1a-1c, P-AID), and the end-of-game safety net.

Every function reads plain JSON (state.Player / state.GameState) and changes nothing
except `refresh`, which rewrites the VP and production tracks from the village.
"""

from __future__ import annotations

from . import data
from .data import CARD, CITY_CENTER, TABLEAUS, WORK_TABLEAUS
from .money import wealth
from .state import GameState, Player, Tile


# --- derived values of a player (everything on the tracks is derived from the village) ---
def count(player: Player, card: str) -> int:
    return player["cards"].count(card)


def tableau_level(player: Player, kind: str) -> int:
    """0 printed side, 1 improved, 2 advanced (one or two Trackers / Smelters, P-AID)."""
    t = TABLEAUS[kind]
    if not t["level_card"]:
        return 0
    return min(len(t["production"]) - 1, count(player, t["level_card"]))


def slot_production(player: Player, kind: str, index: int) -> int:
    pattern = TABLEAUS[kind]["production"][tableau_level(player, kind)]
    return pattern[index % len(pattern)]


def treasury_capacity(player: Player) -> int:
    caps = [CARD[c]["treasury"] for c in player["cards"] if CARD[c]["treasury"]]
    return max([data.TREASURY_SPACES, *caps])


def training_cost(player: Player) -> int:
    costs = [CARD[c]["training_cost"] for c in player["cards"] if CARD[c]["training_cost"]]
    return min([data.TRAINING_COST, *costs])


def discount(player: Player, card: str) -> int:
    """Seed-P 1a: cubes bought earlier give a discount; only the largest in a row applies."""
    best = 0
    for row in data.DISCOUNTS:
        k = count(player, row["holder"])
        if k and card in row["on"]:
            best = max(best, row["amounts"][min(k, len(row["amounts"])) - 1])
    return best


def discounts(player: Player) -> dict[str, int]:
    """`discount` of every card that has one, in the order of the discount rows (one pass
    over the rows, not one per card: the view lists them)."""
    best: dict[str, int] = {}
    for row in data.DISCOUNTS:
        k = count(player, row["holder"])
        if k:
            amount = row["amounts"][min(k, len(row["amounts"])) - 1]
            for c in row["on"]:
                if amount > best.get(c, 0):
                    best[c] = amount
    return {c: best[c] for row in data.DISCOUNTS for c in row["on"] if c in best}


def scoring(player: Player) -> dict[str, int]:
    """VP and production by source; the tracks always equal these sums."""
    cards_vp = sum(CARD[c]["vp"] for c in player["cards"])
    cards_prod = sum(CARD[c]["production"] for c in player["cards"])
    workers_vp = workers_prod = bought_vp = 0
    for tile in player["tiles"]:
        kind = tile["kind"]
        if kind == "city_center":
            bought_vp += sum(1 for s in tile["slots"] if s == "t")
            continue
        for i, s in enumerate(tile["slots"]):
            if s == "w":
                workers_vp += TABLEAUS[kind]["vp"]
                workers_prod += slot_production(player, kind, i)
    return {
        "vp": cards_vp + workers_vp + bought_vp, "production": cards_prod + workers_prod,
        "cards_vp": cards_vp, "workers_vp": workers_vp, "bought_vp": bought_vp,
        "cards_production": cards_prod, "workers_production": workers_prod,
    }


def vp_sources(player: Player) -> list[dict]:
    """The VP track as lines a player can add up (outcome details): each development
    card owned (copies x printed VP), the workers on each work tableau (workers x VP per
    worker; the starting village's two workers are counted there, 1 VP each on Hunting
    and Farming) and the City Center purchases (1 VP each). The lines sum to `vp`."""
    lines = []
    for name in sorted(set(player["cards"])):
        k, each = count(player, name), CARD[name]["vp"]
        lines.append({"source": "card", "card": name, "copies": k, "vp_each": each, "vp": k * each})
    for kind in owned_kinds(player):
        k = sum(1 for _, _, s in slots_of(player, kind) if s == "w")
        each = TABLEAUS[kind]["vp"]
        lines.append({"source": "workers", "tableau": kind, "workers": k, "vp_each": each, "vp": k * each})
    bought = sum(1 for _, _, s in slots_of(player, "city_center") if s == "t")
    if any(t["kind"] == "city_center" for t in player["tiles"]):
        lines.append({"source": "city_center", "purchases": bought, "vp_each": 1, "vp": bought})
    return lines


def refresh(player: Player) -> None:
    sc = scoring(player)
    player["vp"] = sc["vp"]
    player["production"] = sc["production"]


def hand_size(player: Player) -> int:
    return len(player["hand"]) + player["preset"]


def money(player: Player) -> int:
    return wealth(player["hand"], player["preset"], player["disks"])


def slots_of(player: Player, kind: str):
    """(tile index, slot index, content) over a kind's tiles, in placing order."""
    for ti, tile in enumerate(player["tiles"]):
        if tile["kind"] == kind:
            for si, s in enumerate(tile["slots"]):
                yield ti, si, s


def first(player: Player, kind: str, content: str | None) -> tuple[int, int] | None:
    for ti, si, s in slots_of(player, kind):
        if s == content:
            return ti, si
    return None


def owned_kinds(player: Player) -> list[str]:
    kinds = {t["kind"] for t in player["tiles"]}
    return [k for k in WORK_TABLEAUS if k in kinds]


def new_tile(kind: str) -> Tile:
    n = CITY_CENTER["spaces"] if kind == "city_center" else TABLEAUS[kind]["slots"]
    return {"kind": kind, "slots": [None] * n}


def max_wealth(player: Player) -> int:
    """The most a player can ever hold when bidding: a full hand of the highest cards
    plus a full treasury (total wealth never grows during the turns; seed-P 2d caps it)."""
    top = max([*data.PRODUCTION_DECK, data.PRESET_CARD_VALUE])
    return top * player["storehouses"] + treasury_capacity(player)


def may_still_gain_vp(player: Player, lucrative: bool = False) -> bool:
    """Could this village still gain VP without any new development card? (A worker that
    can be placed or moved, or a City Center space.) Deliberately generous: cost is ignored.
    `lucrative` (v3): a worker counts as movable only by a move the rules allow since v2, one
    that gains production or VP (seed-P 1b); v1 and v2 counted any move to a costlier activity,
    so a game whose only such moves gained nothing never ended."""
    kinds = owned_kinds(player)
    if player["untrained"] + player["trained"] and any(
            s != "w" for k in kinds for _, _, s in slots_of(player, k)):
        return True
    free = [k for k in kinds if first(player, k, None) is not None]
    for k in kinds:
        costlier = [d for d in free if TABLEAUS[d]["tool_cost"] > TABLEAUS[k]["tool_cost"]]
        if not lucrative:
            if first(player, k, "w") is not None and costlier:
                return True
            continue
        for _, si, s in slots_of(player, k):
            if s == "w" and any(_gains(player, k, si, d) for d in costlier):
                return True
    return first(player, "city_center", None) is not None


def _gains(player: Player, src: str, src_slot: int, dst: str) -> bool:
    """Whether moving the worker on `src_slot` of `src` to the first free space of `dst` (where
    a move puts it) gains production or VP."""
    where = first(player, dst, None)
    if where is None:
        return False
    production, vp = move_gain(player, src, src_slot, dst, where[1])
    return production > 0 or vp > 0


def dead_end(state: GameState) -> bool:
    """Our safety net (RULES.md "Exhausted game"): True when no VP can ever change again,
    so that nobody can ever reach 32 and the rulebook's end can never come. That needs:
    no card that anyone could ever pay for on display, no new card to come (the deck is
    empty, or the display is full of such cards and so never changes), and no village
    that could still place or move a worker or buy VP at a City Center (v3: a move counts
    only if the rules allow it, see may_still_gain_vp)."""
    players = state["players"]
    if state["deck"] and len(state["display"]) < state["seats"]:
        return False  # 2b will turn up new cards
    for card in state["display"]:
        if any(CARD[card]["min_bid"] - discount(p, card) <= max_wealth(p) for p in players):
            return False
    lucrative = state.get("version", 1) >= 3
    return not any(may_still_gain_vp(p, lucrative) for p in players)


def card_facts(name: str) -> dict:
    """What a development card shows face up (data.CARDS, the tableau upgrades it
    makes and its discount row), for views."""
    c = CARD[name]
    facts = {k: c[k] for k in ("set", "ab", "min_bid", "vp", "production", "storehouses", "untrained",
                                "trained", "tile", "treasury", "training_cost")}
    facts["improves"] = [k for k, t in TABLEAUS.items() if t["level_card"] == name]
    facts["discounts"] = [{"on": list(r["on"]), "amounts": list(r["amounts"])}
                          for r in data.DISCOUNTS if r["holder"] == name]
    return facts


def first_display(set1: list[str], n: int) -> tuple[list[str], list[str], list[str]]:
    """Seed-P setup: turn up one set-1 card per player; a Granary or Fort revealed is
    replaced at once and shuffled back into set 1. Returns (display, replaced, rest of
    set 1 before that shuffle)."""
    display, replaced, rest = [], [], list(set1)
    while len(display) < n and rest:
        c = rest.pop(0)
        (replaced if c in data.NOT_IN_FIRST_DISPLAY else display).append(c)
    return display, replaced, rest


def move_gain(player: Player, src: str, src_slot: int, dst: str, dst_slot: int) -> tuple[int, int]:
    """What moving a worker from space `src_slot` of a `src` tableau to space `dst_slot`
    of a `dst` tableau gains: (production, VP). Seed-P 1b: "gana sólo la diferencia de
    puntos de Producción y de Victoria"."""
    production = slot_production(player, dst, dst_slot) - slot_production(player, src, src_slot)
    return production, TABLEAUS[dst]["vp"] - TABLEAUS[src]["vp"]
