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


def _key(d):
    return (d["total"], d["tiebreak"]["whale_tokens"], d["tiebreak"]["unscored_money"])


def final_result(state) -> dict:
    details = [score_seat(state, s) for s in range(state["seats"])]
    cg = state.get("captain_game")
    if cg is None:
        best = max(_key(d) for d in details)
        return {
            "scores": [d["total"] for d in details],
            "winners": [d["seat"] for d in details if _key(d) == best],
            "details": details,
        }
    # Solo rules p.15: the player wins only with a higher score than every Captain. Our
    # reading: "higher" ranks by the rulebook's order (points, then whale tokens, then
    # unscored money), and a full tie with a Captain is not a win. Among the humans who beat
    # every Captain, the usual ranking decides; a Captain wins when it ranks first.
    caps = []
    for i in cg["captains"]:
        d = score_seat(state, i)
        d["player"] = d.pop("seat")
        d["captain"] = state["players"][i]["captain"]["name"]
        caps.append(d)
    best_captain = max(_key(d) for d in caps)
    beating = [d for d in details if _key(d) > best_captain]
    winners = []
    if beating:
        top = max(_key(d) for d in beating)
        winners = [d["seat"] for d in beating if _key(d) == top]
    best_human = max(_key(d) for d in details)
    return {
        "scores": [d["total"] for d in details],
        "winners": winners,
        "details": details,
        "captains": caps,
        "captain_winners": [d["captain"] for d in caps if _key(d) == best_captain and best_captain >= best_human],
    }
