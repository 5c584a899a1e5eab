"""Scoring: opportunity cards, the harbor, the agent majority and the final scoring (seed-R p.12)."""

from __future__ import annotations

from . import board
from .data import (
    AGENT_MAJORITY_VP,
    BOAT_TYPES,
    CROPS,
    FIELD_VP,
    HARBOR_LAST_SPACE,
    HARBOR_SLOT_SPACES,
    OPPORTUNITY,
    PHASES,
    UNSCORED_FEATURE_VP,
)


def slot_space(slot: int) -> int:
    """The harbor-track space that riverboat slot `slot` (0 = leftmost) sits at."""
    if slot < len(HARBOR_SLOT_SPACES):
        return HARBOR_SLOT_SPACES[slot]
    return HARBOR_LAST_SPACE + 1  # beyond the printed slots: never reached


def reached_boats(p: dict) -> list[str]:
    """seed-R: only riverboats the harbor master has reached or passed score."""
    return [b for i, b in enumerate(p["boats"]) if slot_space(i) <= p["harbor"]]


def count_for_card(p: dict, card: dict) -> int:
    kind = card["count"]
    if kind == "crop_hexes":
        return sum(1 for c in p["crop"] if c == card["crop"])
    if kind == "boats":
        return len(p["boats"])
    if kind == "reached_boats":
        return len(reached_boats(p))
    if kind == "agents":
        return p["agents"]
    if kind == "coins":
        return p["coins"]
    if kind == "complete_fields":
        return len(board.complete_fields(p))
    if kind == "barns":
        return sum(1 for f in p["feature"] if f == "barn")
    if kind == "wells":
        return sum(1 for f in p["feature"] if f == "well")
    if kind == "largest_area":
        return board.largest_area(p)
    if kind == "harbor_steps":
        return p["harbor"] - p["harbor_start"]
    if kind == "harvested_pairs":
        return sum(p["harvested"].values()) // 2
    if kind == "boat_capacities":
        return len({BOAT_TYPES[b]["capacity"] for b in p["boats"]})
    if kind == "opportunity_cards":
        return len(p["opps"])
    raise ValueError(f"unknown opportunity count {kind!r}")


def opportunity_score(p: dict, card_id: str) -> int:
    card = OPPORTUNITY[card_id]
    return min(card["cap"], card["per"] * count_for_card(p, card))


def tiebreak(state: dict, seat: int) -> int:
    """seed-R: ties go to the player holding the earlier round-4 phase tile (lower is better)."""
    held = [i for i, owner in enumerate(state["phase_tiles"]) if owner == seat]
    return min(held) if held else len(state["phase_tiles"])


def harbor_leader(state: dict) -> int:
    n = state["n"]
    return min(range(n), key=lambda s: (-state["players"][s]["harbor"], tiebreak(state, s)))


def harbor_scores(state: dict) -> list[int]:
    """Full capacity of the reached boats for the farthest harbor master, half (rounded up) for
    everyone else."""
    leader = harbor_leader(state)
    out = []
    for s, p in enumerate(state["players"]):
        total = sum(BOAT_TYPES[b]["capacity"] for b in reached_boats(p))
        out.append(total if s == leader else (total + 1) // 2)
    return out


def agent_scores(state: dict) -> tuple[list[int], list[int | None]]:
    """20/10/5/0 by number of agents, ties to the earlier round-4 phase tile, at least one agent
    needed. Returns (vp per seat, place per seat or None)."""
    n = state["n"]
    ranked = sorted((s for s in range(n) if state["players"][s]["agents"] > 0),
                    key=lambda s: (-state["players"][s]["agents"], tiebreak(state, s)))
    vp = [0] * n
    place: list[int | None] = [None] * n
    for i, s in enumerate(ranked):
        place[s] = i + 1
        vp[s] = AGENT_MAJORITY_VP[i] if i < len(AGENT_MAJORITY_VP) else 0
    return vp, place


# The final-scoring categories, in the order of seed-R "Fin del juego"; each is a dict with its
# "vp" in a seat's outcome details (see RULES.md, "Outcome details").
FINAL_CATEGORIES = ("coins", "complete_fields", "unscored_features", "harbor", "agents")


def final_scoring(state: dict) -> list[dict]:
    """Every final-scoring category per seat (seed-R "Fin del juego"): for each, what it counts
    and the VP it gives, so that every number can be checked from the details alone."""
    harbor = harbor_scores(state)
    agents, places = agent_scores(state)
    leader = harbor_leader(state)
    out = []
    for s, p in enumerate(state["players"]):
        fields = board.complete_fields(p)
        barns = sum(1 for c in range(board.CELLS) if p["feature"][c] == "barn" and not p["scored"][c])
        wells = sum(1 for c in range(board.CELLS) if p["feature"][c] == "well" and not p["scored"][c])
        unscored = barns + wells + p["surveyors"]
        # seed-R "Puntuación del puerto": a boat counts when the harbor master reached its slot.
        boats = [{"boat": b, "capacity": BOAT_TYPES[b]["capacity"], "slot_space": slot_space(i),
                  "reached": slot_space(i) <= p["harbor"]} for i, b in enumerate(p["boats"])]
        held = [PHASES[i] for i, owner in enumerate(state["phase_tiles"]) if owner == s]
        row = {
            "seat": s,
            "in_game": {"vp": p["vp"], "by_source": dict(sorted(p["vp_by"].items()))},
            "coins": {"count": p["coins"], "vp_each": 1, "vp": p["coins"]},
            "complete_fields": {"colours": fields, "count": len(fields), "vp_each": FIELD_VP,
                                "vp": FIELD_VP * len(fields)},
            "unscored_features": {"barns": barns, "wells": wells, "surveyors_in_supply": p["surveyors"],
                                  "count": unscored, "vp_each": UNSCORED_FEATURE_VP,
                                  "vp": UNSCORED_FEATURE_VP * unscored},
            "harbor": {"position": p["harbor"], "farthest": s == leader, "boats": boats,
                       "boats_value": sum(b["capacity"] for b in boats if b["reached"]),
                       "full_or_half": "full" if s == leader else "half", "vp": harbor[s]},
            "agents": {"count": p["agents"], "rank": places[s], "vp": agents[s]},
        }
        row["final_vp"] = sum(row[k]["vp"] for k in FINAL_CATEGORIES)
        row["total"] = p["vp"] + row["final_vp"]
        t = tiebreak(state, s)
        row["tiebreak"] = {"phase_tiles_held": held, "earliest_phase_tile": PHASES[t] if t < len(PHASES) else None,
                           "rank": t + 1}
        row["harvested"] = {c: p["harvested"][c] for c in CROPS}
        out.append(row)
    return out


def summary(row: dict) -> dict:
    """One seat's `final_scoring` row as the outcome's details show it: up front only the lines
    that add up to the total (VP scored during the game, then each final-scoring category's VP,
    then the total), and what each of them counts in `breakdown`, one record per line (clients
    fold records into the full breakdown). Every figure of the row is kept (RULES.md "Outcome
    details")."""
    breakdown: dict = {"in_game": [row["in_game"]["by_source"]]}
    for k in FINAL_CATEGORIES:
        breakdown[k] = [{x: v for x, v in row[k].items() if x != "vp"}]
    breakdown["final_vp"] = [{"vp": row["final_vp"]}]
    breakdown["tiebreak"] = [row["tiebreak"]]
    breakdown["harvested"] = [row["harvested"]]
    # `in_game` stays an object ({"vp": …}, one line "In game › VP"): programs read `in_game.vp`.
    return {"seat": row["seat"], "in_game": {"vp": row["in_game"]["vp"]}, **{k: row[k]["vp"] for k in FINAL_CATEGORIES},
            "total": row["total"], "breakdown": breakdown}
