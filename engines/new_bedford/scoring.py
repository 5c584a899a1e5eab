"""End of game scoring (rulebook p.9 and quick reference p.25): whale points, then
1 point per building, then the Victory buildings' bonuses, then $5 = 1 point.
Ties: most whale tokens, then most unscored money, then a shared win."""

from __future__ import annotations

from . import data


def victory_bonus(building_id: str, whales: dict[str, int], owned: int) -> int:
    vp = data.BUILDING_BY_ID[building_id].get("vp")
    if not vp:
        return 0
    if "fixed" in vp:
        return vp["fixed"]
    base = whales["right"] if vp["per"] == "right_whales" else owned
    return base // vp["every"] * vp["points"]


def score_seat(state, seat: int) -> dict:
    p = state["players"][seat]
    whales = {k: p["returned"][k] for k in data.WHALE_KINDS}
    whale_points = sum(data.WHALES[k]["points"] * n for k, n in whales.items())
    owned = [b for b, t in state["buildings"].items() if t["owner"] == seat]
    # Every building, Victory buildings included, is worth 1 point to its owner.
    building_points = len(owned)
    victory = {b: victory_bonus(b, whales, len(owned)) for b in owned if data.BUILDING_BY_ID[b].get("vp")}
    victory_points = sum(victory.values())
    money_points = p["money"] // data.MONEY_PER_POINT
    total = whale_points + building_points + victory_points + money_points
    return {
        "seat": seat,
        "whales": whales,
        "whale_points": whale_points,
        "buildings": owned,
        "building_points": building_points,
        "victory_buildings": victory,
        "victory_points": victory_points,
        "money": p["money"],
        "money_points": money_points,
        "total": total,
        "tiebreak": {
            "whale_tokens": sum(whales.values()),
            "unscored_money": p["money"] % data.MONEY_PER_POINT,
        },
    }


def final_result(state) -> dict:
    details = [score_seat(state, s) for s in range(state["seats"])]

    def key(d):
        return (d["total"], d["tiebreak"]["whale_tokens"], d["tiebreak"]["unscored_money"])

    best = max(key(d) for d in details)
    return {
        "scores": [d["total"] for d in details],
        "winners": [d["seat"] for d in details if key(d) == best],
        "details": details,
    }
