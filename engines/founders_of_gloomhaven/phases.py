"""The phase table `PHASES`: who acts, and the automatic phases (the reset's end, the vote's end,
the solo call, the advance after each action), each of which ends at once: its `on_end` events,
then the phase its `then` chooses, entered by `enter_phase`."""

from __future__ import annotations

import random

from tablero.engines.core import Phase, branch

from . import data as D
from .common import STALL_VOTES, R, State, _closest, _order_from, _p, _version
from .delivery import _apply
from .history import _event_card_events, _history_due
from .turn import _achievement_events, _income_event
from .vote import _can_pay, _payment, _solo_cost


# ============================================================================================
# automatic steps
# ============================================================================================
def _end_events(state: State, reason: str) -> list[dict]:
    ach = _achievement_events(state, "end")
    s = _apply(state, ach) if ach else state
    final = _final_event(s, reason)
    return [*ach, final, *_event_card_events(s, final["winners"])]


def _final_event(s: State, reason: str) -> dict:
    state = s
    n = state["n"]
    details = []
    scores = []
    for seat in range(n):
        pl = _p(s, seat)
        by = dict(pl["score"])
        by["influence"] = pl["fleeting"] + pl["lasting"]
        by["money"] = pl["money"] // 4
        total = sum(by.values())
        scores.append(total)
        details.append({"seat": seat, "race": pl["race"], "points": total, "by_source": by,
                        "money_left": pl["money"], "turn_distance": (seat - state["active"]) % n})
    if state["solo"]:
        won = reason == "solo_complete"
        winners = [0] if won else []
    else:
        best = max(scores)
        winners = [_closest(state, [i for i in range(n) if scores[i] == best], state["active"])]
    return {"type": "game_ended", "reason": reason, "scores": scores, "winners": winners, "details": details,
            "tie_break": "closest in turn order to the active player"}


def _at_once(state: State) -> bool:
    """at once (an automatic phase)"""
    return True


def _game_over(s: State) -> str:
    return "history" if _history_due(s) else "over"


def _end_of_action(state: State, rng: random.Random) -> list[dict]:
    """the offer refilled, achievements scored; the sixth completion ends the game

    After an action and its follow actions (p. 11, 16, 19); nothing while a follower is still up."""
    evs: list[dict] = []
    turn = state["turn"]
    if turn["queue"]:
        return evs
    if turn["refill"]:
        evs.append({"type": "offer_refilled"})
    s = _apply(state, evs) if evs else state
    if s["achievements"]:
        imm = _achievement_events(s, "immediate")
        if imm:
            evs += imm
            s = _apply(s, imm)
        if turn["completions_before"] < 2 <= s["completions"] and s["achievements"]["mid"] not in s["ach_scored"]:
            evs += _achievement_events(s, "mid") or [{"type": "achievement_scored", "achievement":
                                                      s["achievements"]["mid"], "scorers": [], "value": 0}]
    if not state["solo"] and state["completions"] >= D.COMPLETIONS_TO_END:
        s = _apply(state, evs) if evs else state
        return evs + _end_events(s, "six_completions")
    return evs


def _after_action(s: State) -> str:
    """The next follower, the game's end, or the next turn (solo: the vote once only the Call
    to Vote card is left in hand)."""
    if s["over"] is not None:
        return _game_over(s)
    if s["turn"]["queue"]:
        return "follow"
    return "solo_call" if s["solo"] and _p(s, 0)["hand"] == ["vote"] else "play"


def _reset_end(state: State, rng: random.Random) -> list[dict]:
    """cards and workers back, income for the others; no proposal: the vote is skipped (v1: the game ends)

    Seed-FoG pp. 14-15."""
    v = state["reset"]
    caller = v["seat"]
    evs = [{"type": "cards_returned", "seat": caller}]
    for s in _order_from(state, caller)[1:]:
        evs.append(_income_event(state, s))
    if not state["proposals"]:
        if _version(state) < 2:
            # v1 (kept for its logs): every prestige card is built or out of the game; the game ends
            return [*evs, *_end_events(_apply(state, evs), "no_proposals")]
        # v2: nothing to vote on; the reset and the income stand and play goes on (the rulebook's
        # only end is the sixth completion, p. 16). Last resort so a game can never loop forever:
        # STALL_VOTES x seats skipped votes in a row without a delivery end it (RULES.md).
        evs.append({"type": "vote_skipped", "seat": caller})
        if state["stall_votes"] + 1 >= STALL_VOTES * state["n"]:
            return [*evs, *_end_events(_apply(state, evs), "stalled")]
    return evs


def _after_reset(s: State) -> str:
    """The vote, or (no proposal) the next turn, or the game's end."""
    if s["over"] is not None:
        return _game_over(s)
    return "vote" if s["proposals"] else "advance"


def _draw_proposals(state: State, rng: random.Random, k: int, keep: list[str]):
    """Draw k proposals from the bottom of the deck; a second card of a type already in the
    set goes on top of the deck and is replaced (seed-FoG p. 16). Returns (cards, event)."""
    if _version(state) >= 9:
        return _draw_proposals_v9(state, rng, k, keep)
    deck = list(state["proposal_deck"])
    discard = list(state["proposal_discard"])
    have = list(keep)
    drawn, reshuffled, returned = [], None, []
    tries = 0
    while len(drawn) < k:
        if not deck:
            if not discard:
                break
            deck = discard
            rng.shuffle(deck)
            reshuffled = list(deck)
            discard = []
        card = deck.pop()
        tries += 1
        if tries < 40 and any(D.prestige_type(card) == D.prestige_type(c) for c in have + drawn if c):
            deck.insert(0, card)
            returned.append(card)
            continue
        drawn.append(card)
    # the deck's new order is a hidden fact: it travels in the event's secret part
    return {"type": "proposals_drawn", "cards": drawn, "returned": returned, "reshuffled": reshuffled is not None,
            "secret": {"deck": deck}}


def _draw_proposals_v9(state: State, rng: random.Random, k: int, keep: list[str]):
    """v9 (seed-FoG p. 16): "Si no hay suficientes cartas en el mazo de robo, barajea los descartes y
    úsalos como nuevo mazo de robo. Si se roban dos cartas del mismo tipo de edificio en el mismo
    conjunto de tres, sustituye la de más a la derecha y ponla encima del mazo de robo."
    Cards come from the bottom (the end of `deck`); a card put back goes on top (index 0), so it
    is not drawn again while cards lie under it. When none does, the discards are shuffled in
    under the cards put back (ours: the text does not say where those go). With no card left to
    draw, the set stays short rather than hold two cards of one type (ours)."""
    deck = list(state["proposal_deck"])
    discard = list(state["proposal_discard"])
    have = [c for c in keep if c]
    drawn, returned = [], []
    reshuffled = False
    fresh = len(deck)  # cards under those put back during this draw
    while len(drawn) < k:
        if not fresh:
            if not discard:
                break
            rng.shuffle(discard)
            deck += discard  # under the cards put back: the next ones drawn
            fresh, discard, reshuffled = len(discard), [], True
        card = deck.pop()
        fresh -= 1
        if any(D.prestige_type(card) == D.prestige_type(c) for c in have + drawn):
            deck.insert(0, card)
            returned.append(card)
            continue
        drawn.append(card)
    return {"type": "proposals_drawn", "cards": drawn, "returned": returned, "reshuffled": reshuffled,
            "secret": {"deck": deck}}


def _vote_end(state: State, rng: random.Random) -> list[dict]:
    """an unplaceable building replaced; or new proposals drawn and the vote closed

    A building that cannot be placed is removed and replaced (p. 16); once placed (or none
    is left), new proposals are drawn and the vote closes."""
    v = state["vote"]
    if v["stage"] == "placing" and v["card"] is not None and v["stuck"]:
        ev = _draw_proposals(state, rng, 1, [])
        return [{"type": "prestige_unplaceable", "card": v["card"]}, ev]
    if v["stage"] == "done":
        if state["solo"]:
            keep = [c for i, c in enumerate(state["proposals"]) if i != v["winner"]]
            return [_draw_proposals(state, rng, 1, keep), {"type": "vote_closed"}]
        return [_draw_proposals(state, rng, 3, []), {"type": "vote_closed"}]
    return []


def _after_vote(s: State) -> str:
    """The replacement building is placed (or replaced again), or the vote is over."""
    v = s["vote"]
    if v is None:
        return "advance"
    return "place" if v["stage"] == "placing" and v["card"] is not None and not v["stuck"] else "vote_end"


def _claims_cost(state: State, claims: int) -> int:
    """Influence (in fleeting) to remove `claims` neutral claim tokens at a solo vote (p. 18:
    "pagando el coste de influencia bajo la carta correspondiente a cada una en la oferta de
    propuestas"). v3: the tokens take the offer's cards in order — the first the left card's
    (free), the second the middle card's, the third the right card's, any further one the right
    card's too (ours). v1/v2 read every token at the middle card's cost."""
    if _version(state) < 3:
        return claims * _solo_cost(state, 1)
    if _version(state) >= 9:
        # v9: the influence is what lies under a card; none lies under the left card, so the
        # tokens take the middle card, then the right card (and the right card again for more)
        return sum(_solo_cost(state, min(k + 1, 2)) for k in range(claims))
    return sum(_solo_cost(state, min(k, 2)) for k in range(claims))


def _solo_call(state: State, rng: random.Random) -> list[dict]:
    """the solo vote called: cards back, income, claims paid; after the 7th cycle, the game's end

    Solo: once only the Call to Vote card is left, the vote happens (cycles 1-6) or the
    game ends (after the 7th cycle) (seed-FoG p. 18)."""
    seat = 0
    if state["cycle"] >= 7:
        complete = all(pb["complete"] for pb in state["prestige"])
        return _end_events(state, "solo_complete" if complete else "solo_incomplete")
    evs = [{"type": "vote_called", "seat": seat, "benefits": 0}, {"type": "cards_returned", "seat": seat},
           _income_event(state, seat)]
    s = _apply(state, evs)
    claims = sum(1 for pb in s["prestige"] if pb["claim"])
    if claims:
        cost = _claims_cost(s, claims)
        pl = _p(s, seat)
        if not _can_pay(pl, cost):
            return [*evs, *_end_events(s, "solo_claims_unpaid")]
        evs.append({"type": "claims_paid", "seat": seat, "claims": claims, "pay": _payment(s, pl, cost)})
    if not s["proposals"]:
        return [*evs, {"type": "vote_closed"}]
    return evs


def _after_solo_call(s: State) -> str:
    """The solo vote, or (no proposal) the next turn, or the game's end."""
    if s["over"] is not None:
        return _game_over(s)
    return "solo_choose" if s["proposals"] else "advance"


def enter_phase(s: State, name: str) -> list[dict]:
    """The events that start a phase after an automatic phase ends (`enter_phase` of the
    engine): the next follower or the next turn, the vote opened by its caller; none for
    the others (the ending phase's events already made them)."""
    if name == "follow":
        return [{"type": "follower_up", "seat": s["turn"]["queue"][0]}]
    if name in ("play", "solo_call"):
        return [{"type": "turn_passed", "active": s["active"] if s["solo"] else (s["active"] + 1) % s["n"]}]
    if name in ("vote", "solo_choose"):
        return [{"type": "vote_opened", "caller": s["active"]}]
    return []


def _cur_seat(s: State):
    return {s["cur"]["seat"]} if s["cur"] else set()


PHASES = (
    Phase("draft", to_act=lambda s: {s["setup"]["draft"][0]}, then="setup_place", rule="facts B.2",
          doc="setup: players draft their other basic resources (reverse turn order, snake with 2)"),
    Phase("setup_place", to_act=lambda s: {s["setup"]["place"][0]}, then="play", rule="facts B.2",
          doc="setup: each player places its starting trade stalls on grey numbered spaces"),
    Phase("play", to_act=_cur_seat, then=("lead", "basic", "advance", "reset", "reset_end"), rule=f"{R} p. 11", doc="the active player plays a card or calls a vote"),
    Phase("lead", to_act=_cur_seat, then=("advance",), rule=f"{R} p. 11", doc="the active player resolves the main action"),
    Phase("lead_road", to_act=_cur_seat, step=True, rule=f"{R} p. 12",
          doc="the Upgrade leader places the road built before the tile"),
    Phase("site", to_act=_cur_seat, step=True, rule=f"{R} p. 12", doc="the square of the trade stall being imported"),
    Phase("follow", to_act=_cur_seat, then=("advance",), rule=f"{R} p. 11",
          doc="a follower takes the card's follow action or a basic action"),
    Phase("basic", to_act=_cur_seat, then=("advance",), rule=f"{R} p. 14", doc="a basic action for a face-down card"),
    Phase("roads", to_act=lambda s: {s["roads"]["seat"]}, step=True, rule=f"{R} pp. 12, 14", doc="roads to place"),
    Phase("reset", to_act=lambda s: {s["reset"]["seat"]}, then=("reset_end",), rule=f"{R} p. 14", doc="the vote caller's reset benefits"),
    Phase("reset_end", to_act=lambda s: (), ends=_at_once, on_end=_reset_end,
          then=branch(_after_reset, "vote", "advance", "over", "history"), rule=f"{R} pp. 14-15",
          doc="cards and workers back, income for the others, the vote opens"),
    Phase("vote", to_act=lambda s: {i for i, v in enumerate(s["vote"]["votes"]) if v is None},
          then=("place", "tie", "vote_end"), rule=f"{R} p. 15",
          doc="every player still to vote chooses a proposal and influence in secret"),
    Phase("tie", to_act=lambda s: {s["vote"]["decider"]}, then=("place", "vote_end"), rule=f"{R} p. 15", doc="the tie is decided"),
    Phase("solo_choose", to_act=lambda s: {0}, then=("place", "vote_end"), rule=f"{R} p. 18", doc="the solo player chooses a proposal"),
    Phase("place", to_act=lambda s: {s["vote"]["placer"]}, then=("vote_end",), rule=f"{R} p. 16",
          doc="the player who gave most influence places the building"),
    Phase("vote_end", to_act=lambda s: (), ends=_at_once, on_end=_vote_end,
          then=branch(_after_vote, "place", "vote_end", "advance"), rule=f"{R} p. 16",
          doc="an unplaceable building replaced, or new proposals and the vote's close"),
    Phase("solo_call", to_act=lambda s: (), ends=_at_once, on_end=_solo_call,
          then=branch(_after_solo_call, "solo_choose", "advance", "over", "history"), rule=f"{R} p. 18",
          doc="the solo vote or the end"),
    Phase("advance", to_act=lambda s: (), ends=_at_once, on_end=_end_of_action,
          then=branch(_after_action, "follow", "play", "solo_call", "over", "history"), rule=f"{R} pp. 11, 16, 19",
          doc="followers, offer refill, achievements, end of turn"),
    Phase("history", to_act=lambda s: set(s["over"]["winners"][:1]), then="over", rule=f"{R} p. 19",
          doc="versions 1-7: the winner shapes the history of Gloomhaven"),
    Phase("over", to_act=lambda s: (), doc="the game is over"),
)
