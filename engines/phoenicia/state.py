"""The shape of a Phoenicia game state: plain JSON, typed for readers and checkers.

Nothing here runs; the engine builds and mutates plain dicts of these shapes, so
snapshots, hashes and replays stay JSON. A v1 state never holds the keys marked
"v2" (the golden logs hash it as it was).
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

# A space of a tableau: a worker ("w"), a tool disk ("t") or empty (None).
Space = Literal["w", "t"] | None


class Tile(TypedDict):
    kind: str  # hunting, farming, mining, clothmaking or city_center
    slots: list[Space]


class Player(TypedDict):
    hand: list[int]  # values of the production cards held (secret), sorted
    preset: int  # introductory 5s held (public value)
    disks: int  # treasury
    origins: list[list[int]]  # [value, reshuffle epoch] per card in hand (hidden bookkeeping)
    storehouses: int
    untrained: int
    trained: int
    cards: list[str]  # development cards owned
    tiles: list[Tile]
    vp: int  # the tracks, always equal to village.scoring()
    production: int


class Auction(TypedDict):
    card: str
    bid: int
    leader: int
    bidders: list[int]  # still in, clockwise from the opener
    next: int | None  # None once one bidder is left (the auction is being won)


class Payment(TypedDict):
    """A price the seat must pay now: for a won auction (`card`, `bid`) or, v2 and
    the grouped form of every priced turn action, for `action` (its payment-less form)."""

    seat: int
    price: int
    card: NotRequired[str]
    bid: NotRequired[int]
    action: NotRequired[dict]


class Discard(TypedDict):
    seats: dict[str, int]  # seat (as a string) -> cards still to discard
    when: Literal["turn", "admin"]


class Result(TypedDict):
    reason: Literal["city_state", "exhausted"]
    winners: list[int]
    overlord: int
    vp: list[int]
    money: list[int]


Phase = Literal["turn", "limits", "admin", "round_end", "over"]
Step = Literal["auctions", "workers", "tools", "converted"]


class GameState(TypedDict):
    seats: int
    round: int
    overlord: int
    last_overlord: int
    order: list[int]  # this round's turn order, the Overlord first
    turn: int  # index into order
    active: int | None  # None during administration
    phase: Phase
    step: Step
    auction: Auction | None
    payment: Payment | None
    discard: Discard | None
    display: list[str]
    deck: list[str]  # development deck (hidden order)
    production_deck: list[int]  # hidden order
    discard_pile: list[int]
    production_epoch: int
    production_old: int
    players: list[Player]
    result: Result | None
    version: NotRequired[int]  # v2: the rules version (absent: v1)
