"""Who is rated in a finished game, in what order, and the new ratings (pure functions).

Rules (docs/ratings.md):
- Only seats held by portal users are rated. Bot seats (created as bots, or added by
  matchmaking's bot fill) and New Bedford's Captains (not seats) take no part: the users are
  ranked among themselves by the game's result.
- A seat whose user left with onLeave "bot" still competes (a bot played on for it).
- A forfeit (resigned, timed out with onTimeout "forfeit") ranks below everyone who did not
  forfeit: a loss.
- An abandoned game (`endedBy: "abandoned"`) is not rated; neither is one with fewer than two
  portal users.
- Order: forfeiters last; then winners first; then by score, higher first; equal keys tie.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU, SIGMA = MODEL.mu, MODEL.sigma


@dataclass(frozen=True)
class Player:
    user: str
    name: str | None
    rank: int  # 1 = best; equal ranks tie
    won: bool
    seat: int


def placements(outcome: dict[str, Any] | None, users: list[dict[str, Any] | None],
               kinds: list[str]) -> list[Player] | None:
    """The rated players of a finished game, or None when the game is not rated."""
    if outcome is None or outcome.get("endedBy") == "abandoned":
        return None
    winners = set(outcome.get("winners") or [])
    scores = outcome.get("scores") or []
    details = outcome.get("details") or []
    forfeited = {d.get("seat", i) for i, d in enumerate(details) if isinstance(d, dict) and d.get("forfeited")}
    keyed = []
    for seat, user in enumerate(users):
        if user is None or not user.get("id") or (seat < len(kinds) and kinds[seat] == "bot"):
            continue
        score = scores[seat] if seat < len(scores) and isinstance(scores[seat], int | float) else 0
        key = (seat in forfeited, seat not in winners, -score)
        keyed.append((key, seat, user))
    if len(keyed) < 2:
        return None
    order = sorted({k for k, _, _ in keyed})
    return [Player(u["id"], u.get("name"), order.index(k) + 1, s in winners and s not in forfeited, s)
            for k, s, u in keyed]


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    wins: int = 0

    @property
    def score(self) -> float:
        """The leaderboard's number: the conservative estimate mu - 3 sigma (0 for a newcomer)."""
        return self.mu - 3 * self.sigma

    def dumps(self) -> str:
        return json.dumps([self.mu, self.sigma, self.games, self.wins])

    @classmethod
    def loads(cls, raw: str | bytes | None) -> Rating:
        if raw is None:
            return cls()
        mu, sigma, games, wins = json.loads(raw)
        return cls(mu, sigma, games, wins)

    def reply(self) -> dict[str, Any]:
        return {"mu": self.mu, "sigma": self.sigma, "rating": self.score, "gamesPlayed": self.games,
                "wins": self.wins}


def rate(players: list[Player], before: dict[str, Rating]) -> dict[str, Rating]:
    """The players' ratings after the game (Plackett-Luce, one team per player)."""
    teams = [[MODEL.rating(mu=before[p.user].mu, sigma=before[p.user].sigma)] for p in players]
    after = MODEL.rate(teams, ranks=[p.rank for p in players])
    out = {}
    for p, (r,) in zip(players, after, strict=True):
        old = before[p.user]
        out[p.user] = Rating(r.mu, r.sigma, old.games + 1, old.wins + (1 if p.won else 0))
    return out
