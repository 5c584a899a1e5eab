"""The event handlers (`ON`): what each event does to the state. They never decide anything and
never draw randomness."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from tablero.engines.core import clone

from . import data as D
from .board import EMPTY, ROAD, board_of
from .common import Event, State, _card_category, _order_from, _p, _version
from .placement import _prestige_footprints


def _on_stall_site(s: State, e: Event) -> None:
    s["cur"]["stall"] = {"resource": e["resource"], "access": e["access"]}


def _on_first_road_due(s: State, e: Event) -> None:
    s["cur"]["first_road"] = True


def _on_first_road_built(s: State, e: Event) -> None:
    _place_road(s, e["seat"], e["cell"])
    s["cur"]["first_road"] = e["cell"]


# ============================================================================================
# event handlers
# ============================================================================================
def _player(race: str, resources: list[str], money: int, hand: list[str]):
    return {"race": race, "resources": resources, "money": money, "fleeting": 0, "lasting": 0,
            "score": {"prerequisites": 0, "deliveries": 0, "advisers": 0, "completions": 0, "achievements": 0,
                      "actions": 0},
            "hand": hand, "played": [], "workers": 0, "placed": [], "houses": 0, "bridges": 0, "roads": 0,
            "advisers": 0}


def _add_tile(state: State, kind: str, res: str | None, owner: int | None, cells: Sequence[int],
              claims: Iterable[int] = (), prereq: Iterable[list] = (), card: str | None = None) -> int:
    b = board_of(state)
    tid = len(state["tiles"])
    tile = {"kind": kind, "res": res, "owner": owner, "cells": list(cells), "claims": list(claims),
            "section": b.section[cells[0]], "prereq": [list(p) for p in prereq]}
    if card is not None:
        tile["card"] = card
    state["tiles"].append(tile)
    for c in cells:
        state["occ"][c] = tid
    return tid


def _award(state: State, seat: int, pts: int, source: str) -> None:
    if seat is not None and seat >= 0 and pts:
        _p(state, seat)["score"][source] += pts


def _on_started(_, e: Event):
    b = D.edition_of_version(e.get("engine_version", 1)).BOARDS[e["map"]]
    n = e["seats"]
    state = {
        "n": n, "solo": n == 1, "map": e["map"], "variants": dict(e["variants"]),
        "neutral": list(e["neutral"]),
        "players": [_player(r, list(res), D.START_MONEY, list(e["hands"][i]))
                    for i, (r, res) in enumerate(zip(e["races"], e["resources"], strict=True))],
        "occ": [EMPTY] * b.size, "tiles": [], "supply": dict(D.SUPPLY), "roads_left": D.ROAD_SUPPLY,
        "offer": list(e["offer"]), "adviser_deck": list(e["secret"]["adviser_deck"]),
        "proposals": list(e["proposals"]), "proposal_deck": list(e["secret"]["proposal_deck"]),
        "proposal_discard": [], "removed": [],
        "prestige": [], "completions": 0,
        "active": 0, "turn": {"category": None, "queue": [], "refill": False, "completions_before": 0},
        "cur": {"seat": 0, "role": "play"}, "roads": None, "reset": None, "vote": None,
        "achievements": dict(e["achievements"]) if e["achievements"] else None, "ach_scored": {},
        "cycle": 1, "over": None, "history": None, "setup": None,
    }
    if e.get("engine_version", 1) >= 2:  # v1 states stay as they were (their logs keep their hashes)
        state["version"] = e["engine_version"]
        state["stall_votes"] = 0
    if e.get("draft"):
        state["setup"] = {"draft": list(e["draft"]), "pool": [r for r in D.BASIC if r not in
                                                              {x for res in e["resources"] for x in res}],
                          "place": list(range(n)), "placed": [[] for _ in range(n)]}
        state["cur"] = None
    legacy = D.BOARDS[e["map"]]
    for seat, res, cell in e["stalls"]:
        if b is not legacy:
            # the start event names squares of the v1-4 map (start() draws alike for every version,
            # so old logs re-decide); a v5 map puts the stall on the same numbered space (same
            # section and number; the same rank among equal ones, top to bottom)
            cell = b.space_cell[legacy.space_key[cell]]
        _add_tile(state, "stall", res, seat, [cell])
        state["supply"][res] -= 1
    return state


def _on_card_played(s: State, e: Event) -> None:
    seat = e["seat"]
    pl = _p(s, seat)
    card = e.get("card") if e["face_up"] else e["private"][str(seat)]["card"]
    pl["hand"].remove(card)
    if s["solo"] and e["face_up"] and card in D.ADVISERS:
        s["removed"].append(card)  # solo: an adviser played face up leaves the game (p. 18)
    else:
        pl["played"].append({"card": card, "face_up": e["face_up"]})
    s["turn"] = {"category": None, "queue": [], "refill": False, "completions_before": s["completions"]}
    if not e["face_up"]:
        s["cur"] = {"seat": seat, "role": "basic"}
        return
    followers = [] if s["solo"] else _order_from(s, seat)[1:]
    if card == "income":
        s["turn"].update(category="any", queue=followers)
        s["cur"] = None
        return
    cat = _card_category(card)
    adv = D.ADVISERS.get(card, {})
    s["turn"].update(category=cat, queue=followers, refill=cat == "recruit")
    s["cur"] = {"seat": seat, "role": "lead", "category": cat, "card": card,
                "discount": adv.get("discount", 0), "bonus": dict(adv.get("bonus", {}))}


def _on_recruited(s: State, e: Event) -> None:
    pl = _p(s, e["seat"])
    pl["money"] -= e["cost"]
    pl["hand"].append(e["adviser"])
    pl["fleeting"] += e["fleeting"]
    pl["lasting"] += e["lasting"]
    pl["advisers"] += 1
    _award(s, e["seat"], e["points"], "advisers")
    s["offer"][e["slot"]] = None
    if _version(s) >= 6:
        # v6: whatever card was followed (the 2-player Income card too: p. 14 "puede llevar a cabo
        # la acción de seguimiento de reclutar"), the offer slides left and refills once the
        # follows are done (p. 12). v1-v5 refilled only after a Recruit card or adviser.
        s["turn"]["refill"] = True
    s["cur"] = None


def _on_imported(s: State, e: Event) -> None:
    pl = _p(s, e["seat"])
    pl["money"] -= e["cost"]
    claims = [e["seat"]] if e["claim"] else []
    _add_tile(s, "stall", e["resource"], e["owner"], [e["cell"]], claims)
    s["supply"][e["resource"]] -= 1
    s["cur"] = None


def _on_access(s: State, e: Event) -> None:
    _p(s, e["seat"])["money"] -= e["cost"]
    if e["to"] is not None:
        _p(s, e["to"])["money"] += e["cost"]
    t = s["tiles"][e["tile"]]
    # copy on write: tiles are never changed in place, so a fork may share them (_fork)
    s["tiles"][e["tile"]] = dict(t, claims=[*t["claims"], e["seat"]])
    s["cur"] = None


def _on_upgraded(s: State, e: Event) -> None:
    _p(s, e["seat"])["money"] -= e["cost"]
    kind = "t2" if D.TIER[e["resource"]] == 2 else "t3"
    _add_tile(s, kind, e["resource"], e["seat"], e["cells"], prereq=e["prereqs"])
    s["supply"][e["resource"]] -= 1
    for _, owner, pts in e["prereqs"]:
        _award(s, owner, pts, "prerequisites")
    s["cur"] = None


def _on_house(s: State, e: Event) -> None:
    pl = _p(s, e["seat"])
    pl["money"] -= e["cost"]
    pl["houses"] += 1
    if not s["variants"]["no_workers"]:
        pl["workers"] += 1  # each house unlocks a worker (p. 13)
    _add_tile(s, "house", None, e["seat"], [e["cell"]])
    s["cur"] = None


def _on_bridge(s: State, e: Event) -> None:
    pl = _p(s, e["seat"])
    pl["money"] -= e["cost"]
    pl["bridges"] += 1
    b = board_of(s)
    tid = len(s["tiles"])
    s["tiles"].append({"kind": "bridge", "res": None, "owner": e["seat"], "cells": [e["cell"]], "claims": [],
                       "section": None, "prereq": []})
    s["occ"][e["cell"]] = tid
    assert b.crossing[e["cell"]]
    s["cur"] = None


def _place_road(s: State, seat: int, cell: int) -> None:
    s["occ"][cell] = ROAD
    s["roads_left"] -= 1
    _p(s, seat)["roads"] += 1


def _on_road(s: State, e: Event) -> None:
    _place_road(s, e["seat"], e["cell"])
    r = s["roads"]
    if r is not None and r["seat"] == e["seat"]:
        r["queue"].pop(0)
        if not r["queue"]:
            s["roads"] = None
    else:
        s["cur"] = None


def _on_roads_due(s: State, e: Event) -> None:
    s["roads"] = {"seat": e["seat"], "queue": list(e["queue"])}


def _on_roads_skipped(s: State, e: Event) -> None:
    s["roads"] = None


def _on_basic(s: State, e: Event) -> None:
    pl = _p(s, e["seat"])
    if e["kind"] == "money":
        pl["money"] += 1
    else:
        pl["fleeting"] += 1
    s["cur"] = None


def _on_gained(s: State, e: Event) -> None:
    pl = _p(s, e["seat"])
    pl["money"] += e["money"]
    pl["fleeting"] += e["fleeting"]
    pl["lasting"] += e["lasting"]
    _award(s, e["seat"], e["points"], e["source"])


def _on_worker(s: State, e: Event) -> None:
    pl = _p(s, e["seat"])
    pl["placed"].append(e["target"])
    if e["target"] != "race":
        for pb in s["prestige"]:
            if pb["card"] == e["target"]:
                pb["worker"] = e["seat"]
    s["cur"] = None


def _on_delivered(s: State, e: Event) -> None:
    pb = s["prestige"][e["building"]]
    pb["delivered"][e["requirement"]] = e["owner"]
    pb["claim"] = False  # solo: a delivery removes the neutral claim token (p. 18)
    if "stall_votes" in s:
        s["stall_votes"] = 0
    for seat, pts in e["points"]:
        _award(s, seat, pts, "deliveries")


def _on_completed(s: State, e: Event) -> None:
    s["prestige"][e["building"]]["complete"] = True
    s["completions"] += 1
    for seat, pts in e["points"]:
        _award(s, seat, pts, "completions")


def _on_income(s: State, e: Event) -> None:
    pl = _p(s, e["seat"])
    pl["money"] += e["money"]
    pl["fleeting"] += e["fleeting"]


def _on_follower(s: State, e: Event) -> None:
    s["turn"]["queue"].pop(0)
    s["cur"] = {"seat": e["seat"], "role": "follow", "category": s["turn"]["category"]}


def _on_offer_refilled(s: State, e: Event) -> None:
    rest = [a for a in s["offer"] if a is not None]
    while len(rest) < len(D.OFFER_COSTS) and s["adviser_deck"]:
        rest.append(s["adviser_deck"].pop(0))
    s["offer"] = rest + [None] * (len(D.OFFER_COSTS) - len(rest))
    s["turn"]["refill"] = False


def _on_achievement(s: State, e: Event) -> None:
    s["ach_scored"].setdefault(e["achievement"], [])
    for seat in e["scorers"]:
        s["ach_scored"][e["achievement"]].append(seat)
        _award(s, seat, e["value"], "achievements")


def _on_turn_passed(s: State, e: Event) -> None:
    s["active"] = e["active"]
    s["cur"] = {"seat": e["active"], "role": "play"}
    s["turn"] = {"category": None, "queue": [], "refill": False, "completions_before": s["completions"]}


def _on_vote_called(s: State, e: Event) -> None:
    _p(s, e["seat"])["hand"].remove("vote")
    s["turn"] = {"category": None, "queue": [], "refill": False, "completions_before": s["completions"]}
    s["reset"] = {"seat": e["seat"], "n": e["benefits"]}
    s["cur"] = None


def _on_reset_benefit(s: State, e: Event) -> None:
    pl = _p(s, e["seat"])
    if e["kind"] == "money":
        pl["money"] += 1
    elif e["kind"] == "influence":
        pl["fleeting"] += 1
    else:
        _place_road(s, e["seat"], e["cell"])
    s["reset"]["n"] -= 1


def _on_cards_returned(s: State, e: Event) -> None:
    pl = _p(s, e["seat"])
    pl["hand"] = pl["hand"] + [c["card"] for c in pl["played"]] + ["vote"]
    pl["played"] = []
    for pb in s["prestige"]:
        if pb["worker"] == e["seat"]:
            pb["worker"] = None
    pl["placed"] = []
    s["reset"] = None


def _on_claims_paid(s: State, e: Event) -> None:
    pl = _p(s, e["seat"])
    pl["fleeting"] -= e["pay"]["fleeting"]
    pl["lasting"] -= e["pay"]["lasting"]
    for pb in s["prestige"]:
        pb["claim"] = False


def _on_vote_opened(s: State, e: Event) -> None:
    n = s["n"]
    s["vote"] = {"caller": e["caller"], "votes": [None] * n, "stage": "choose" if s["solo"] else "voting",
                 "tied": [], "decider": None, "winner": None, "placer": None, "card": None, "stuck": False}


def _on_vote_cast(s: State, e: Event) -> None:
    s["vote"]["votes"][e["seat"]] = dict(e["private"][str(e["seat"])])


def _spend_influence(s: State, votes: list[dict[str, Any]]) -> None:
    for seat, v in enumerate(votes):
        pl = _p(s, seat)
        pl["lasting"] -= v["lasting"]
        pl["fleeting"] = 0  # all fleeting influence goes back, spent or not (p. 15)


def _set_winner(s: State, winner: int, placer: int) -> None:
    v = s["vote"]
    card = s["proposals"][winner]
    v.update(stage="placing", winner=winner, placer=placer, card=card,
             stuck=not _prestige_footprints(s, card, first=True))


def _on_revealed(s: State, e: Event) -> None:
    v = s["vote"]
    v["votes"] = [dict(x) for x in e["votes"]]
    v["tied"] = list(e["tied"])
    _spend_influence(s, e["votes"])
    if e["winner"] is not None:
        _set_winner(s, e["winner"], e["placer"])
    else:
        v.update(stage="tie", decider=e["decider"])


def _on_chosen(s: State, e: Event) -> None:
    pl = _p(s, e["seat"])
    pl["fleeting"] -= e["pay"]["fleeting"]
    pl["lasting"] -= e["pay"]["lasting"]
    _set_winner(s, e["proposal"], e["placer"])


def _on_unplaceable(s: State, e: Event) -> None:
    v = s["vote"]
    s["removed"].append(e["card"])  # removed from the game and replaced (p. 16)
    v["card"] = None


def _on_proposals_drawn(s: State, e: Event) -> None:
    s["proposal_deck"] = list(e["secret"]["deck"])
    if e["reshuffled"]:
        s["proposal_discard"] = []
    v = s["vote"]
    if v is not None and v["stage"] == "placing":
        v["card"] = e["cards"][0] if e["cards"] else None
        if v["card"] is None:
            v["stage"] = "done"
        else:
            v["stuck"] = not _prestige_footprints(s, v["card"], first=True)
        s["proposals"][v["winner"]] = v["card"] or s["proposals"][v["winner"]]
        return
    if s["solo"]:
        keep = [c for i, c in enumerate(s["proposals"]) if i != v["winner"]]
        s["proposals"] = keep + list(e["cards"])
    else:
        s["proposals"] = list(e["cards"])


def _on_placed(s: State, e: Event) -> None:
    tid = _add_tile(s, "prestige", None, None, e["cells"], card=e["card"])
    n_req = len(D.edition(s).PRESTIGE[e["card"]]["requires"])
    if s["solo"]:  # neutral claim tokens on every building still needing resources (p. 18)
        for pb in s["prestige"]:
            if not pb["complete"]:
                pb["claim"] = True
    s["prestige"].append({"card": e["card"], "tile": tid, "delivered": [None] * n_req, "complete": False,
                          "worker": None, "claim": s["solo"]})
    v = s["vote"]
    if not s["solo"]:
        s["proposal_discard"].extend(c for i, c in enumerate(s["proposals"]) if i != v["winner"])
    v["stage"] = "done"


def _on_vote_closed(s: State, e: Event) -> None:
    s["vote"] = None
    s["cur"] = None
    if s["solo"]:
        _p(s, 0)["fleeting"] = 0  # fleeting influence is lost after each vote (p. 18)
        s["cycle"] += 1


def _on_ended(s: State, e: Event) -> None:
    s["over"] = {k: e[k] for k in ("reason", "scores", "winners", "details", "tie_break")}
    s["cur"] = None
    s["roads"] = None
    s["reset"] = None
    s["vote"] = None


def _on_vote_skipped(s: State, e: Event) -> None:
    s["stall_votes"] += 1


def _on_event_card(s: State, e: Event) -> None:
    s["over"]["shaping_history"] = {k: clone(e[k]) for k in ("seat", "race", "card", "buildings", "delivered_to",
                                                               "blanks")}


def _on_history(s: State, e: Event) -> None:
    s["history"] = {k: e[k] for k in ("seat", "building", "section", "governing_body")}


def _on_drafted(s: State, e: Event) -> None:
    st = s["setup"]
    _p(s, e["seat"])["resources"].append(e["resource"])
    st["pool"].remove(e["resource"])
    st["draft"].pop(0)
    if not st["draft"]:
        s["neutral"] = sorted(st["pool"])


def _on_start_stall(s: State, e: Event) -> None:
    st = s["setup"]
    _add_tile(s, "stall", e["resource"], e["seat"], [e["cell"]])
    s["supply"][e["resource"]] -= 1
    st["placed"][e["seat"]].append(e["resource"])
    if len(st["placed"][e["seat"]]) == len(_p(s, e["seat"])["resources"]):
        st["place"].pop(0)
    if not st["place"]:
        s["setup"] = None
        s["cur"] = {"seat": 0, "role": "play"}

ON = {
    "game_started": _on_started, "resource_drafted": _on_drafted, "start_stall_placed": _on_start_stall, "card_played": _on_card_played, "adviser_recruited": _on_recruited,
    "stall_imported": _on_imported, "stall_site": _on_stall_site, "access_bought": _on_access, "building_upgraded": _on_upgraded,
    "house_built": _on_house, "bridge_built": _on_bridge, "road_built": _on_road, "roads_due": _on_roads_due,
    "roads_skipped": _on_roads_skipped, "basic_taken": _on_basic, "gained": _on_gained,
    "worker_placed": _on_worker, "delivered": _on_delivered, "completed": _on_completed,
    "income_collected": _on_income, "follower_up": _on_follower, "offer_refilled": _on_offer_refilled,
    "achievement_scored": _on_achievement, "turn_passed": _on_turn_passed, "vote_called": _on_vote_called,
    "reset_benefit": _on_reset_benefit, "cards_returned": _on_cards_returned, "claims_paid": _on_claims_paid,
    "vote_opened": _on_vote_opened, "vote_cast": _on_vote_cast, "votes_revealed": _on_revealed,
    "proposal_chosen": _on_chosen, "prestige_unplaceable": _on_unplaceable, "proposals_drawn": _on_proposals_drawn,
    "prestige_placed": _on_placed, "vote_closed": _on_vote_closed, "game_ended": _on_ended,
    "history_recorded": _on_history, "event_card_given": _on_event_card, "vote_skipped": _on_vote_skipped,
    "first_road_due": _on_first_road_due, "first_road_built": _on_first_road_built,
}
