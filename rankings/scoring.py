"""Merging many published lists into one ranking ("top de los tops", issue 6).

Per game, over every list that names it:
- position points: the scheme's points for its position in each ranked list (past the end of the
  table: 0), plus, for each unranked list, the scheme's unranked share (default: the mean of the
  table over positions 1..n, n = that list's length);
- top bonus: the scheme's topBonus for each ranked list where it is number one;
- repetition bonus: the scheme's repetitionBonus for each list that names it, ranked or not.

Arithmetic is exact (fractions); each of the three parts is then rounded to 2 decimals, half up,
and `points` is the sum of the rounded parts, so the figures shown always add up.

Order: points (as reported) descending; then countback as in Formula 1 — more first places, then
more second places, and so on (unranked appearances have no place); then more appearances; then
alphabetically by matching key (case, accents and a leading article ignored) and shown title.
Ranks are standard competition ranks ("1, 2, 2, 4"): games equal on points, countback and
appearances share a rank; the alphabetical order between them is only a presentation order.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Any

from .errors import RankingError, has_surrogate, json_type
from .limits import MAX_TEXT_LENGTH
from .request import Request, parse_request
from .scheme import Scheme, exact
from .titles import Aliases, display, title_key

DECIMALS = 2
_SCALE = 10**DECIMALS
_LAST = (math.inf, 0)  # countback sentinel: a position no game reaches


class _Tally:
    """What the lists said about one game."""

    __slots__ = ("positions", "unranked", "spellings")

    def __init__(self) -> None:
        self.positions: dict[int, int] = {}  # position in a ranked list -> how many lists
        self.unranked: dict[int, int] = {}  # length of an unranked list -> how many such lists
        self.spellings: dict[str, int] = {}  # spelling (whitespace tidied) -> how many entries, first seen first


def aggregate(body: Any) -> dict:
    """The merged ranking for a REST/JSON request body; raises RankingError for bad input.

    `body` is `{"lists": [{"source", "title"?, "ranked"?, "entries"}], "aliases"?, "scheme"?}`;
    the answer is `{"ranking": [{"rank", "title", "points", "positionPoints", "topBonus",
    "repetitionBonus", "appearances", "positions": {"1": n, …}}], "totals": {"lists", "sources",
    "games"}}` (the JSON mapping of AggregateRankingsRequest/Response, proto/tablero/v1/rankings.proto).
    """
    return rank(parse_request(body))


def rank(request: Request) -> dict:
    games = _tally(request)
    rows = _score(games, request.scheme, request.aliases)
    rows.sort(key=lambda row: row[0])
    ranking = []
    previous = None
    for index, (order, out) in enumerate(rows):
        tied = order[:3]
        if tied != previous:
            current_rank, previous = index + 1, tied
        out["rank"] = current_rank
        ranking.append(out)
    return {
        "ranking": ranking,
        "totals": {"lists": len(request.lists), "sources": request.sources, "games": len(games)},
    }


def _tally(request: Request) -> dict[str, _Tally]:
    aliases = request.aliases
    known: dict[str, str] = {}  # entry as written -> game key
    written: dict[str, int] = {}  # entry as written -> how many lists write it so
    places: dict[str, list[int]] = {}  # game key -> its places: a position, or -n for an unranked list of n
    for list_index, one in enumerate(request.lists):
        entries = one.entries
        length = len(entries)
        seen: set[str] = set()
        for entry_index, raw in enumerate(entries):
            key = known.get(raw) if type(raw) is str else None
            if key is None:
                key = known[raw] = _read_entry(raw, ("lists", list_index, "entries", entry_index), aliases)
            seen.add(key)
            if len(seen) == entry_index:
                raise _duplicate(entries, known, entry_index, ("lists", list_index, "entries", entry_index))
            written[raw] = written.get(raw, 0) + 1
            mine = places.get(key)
            if mine is None:
                mine = places[key] = []
            mine.append(entry_index + 1 if one.ranked else -length)
    games: dict[str, _Tally] = {}
    for key, mine in places.items():
        tally = games[key] = _Tally()
        for place, count in Counter(mine).items():
            if place > 0:
                tally.positions[place] = count
            else:
                tally.unranked[-place] = count
    for raw, key in known.items():  # first seen first
        spellings = games[key].spellings
        shown = display(raw)
        spellings[shown] = spellings.get(shown, 0) + written[raw]
    return games


def _read_entry(raw: Any, path: tuple, aliases: Aliases) -> str:
    if not isinstance(raw, str):
        raise RankingError(f"expected a game title (a string), got {json_type(raw)}", path)
    if has_surrogate(raw):
        raise RankingError("the title contains an unpaired surrogate (not text)", path)
    if len(raw) > MAX_TEXT_LENGTH:
        raise RankingError(f"the title is longer than {MAX_TEXT_LENGTH} characters", path)
    key = title_key(raw)
    if not key:
        raise RankingError(f'"{raw}" has no letter or digit: not a game title', path)
    return aliases.resolve(key)


def _duplicate(entries: list, known: dict[str, str], again: int, path: tuple) -> RankingError:
    first = next(i for i, raw in enumerate(entries) if known[raw] == known[entries[again]])
    a, b = entries[first], entries[again]
    if a == b:
        detail = f'"{b}" appears twice in this list (also entries[{first}])'
    elif title_key(a) == title_key(b):
        detail = f'"{b}" appears twice in this list (entries[{first}] is "{a}", the same title)'
    else:
        detail = f'"{b}" appears twice in this list (entries[{first}] is "{a}", the same game through the aliases)'
    return RankingError(detail, path)


def _score(games: dict[str, _Tally], scheme: Scheme, aliases: Aliases) -> list[tuple[tuple, dict]]:
    # Table as integers over a common denominator, so the hot sum is integer arithmetic.
    table = [Fraction(exact(p)) for p in scheme.position_points]
    denominator = math.lcm(1, *(p.denominator for p in table))
    scaled = [int(p * denominator) for p in table]
    size = len(scaled)
    top_bonus = exact(scheme.top_bonus)
    repetition_bonus = exact(scheme.repetition_bonus)
    shares: dict[int, Fraction] = {}  # unranked list length -> points of each of its games
    rows = []
    for key, tally in games.items():
        positions = tally.positions
        points = sum(count * scaled[p - 1] for p, count in positions.items() if p <= size)
        position_points = points if denominator == 1 else Fraction(points, denominator)
        for length, count in tally.unranked.items():
            share = shares.get(length)
            if share is None:
                share = shares[length] = scheme.unranked_points(length)
            position_points += count * share
        appearances = sum(positions.values()) + sum(tally.unranked.values())
        firsts = positions.get(1, 0)
        parts = (
            _hundredths(position_points),
            _hundredths(firsts * top_bonus),
            _hundredths(appearances * repetition_bonus),
        )
        total = sum(parts)
        title = aliases.spelling(key) or max(tally.spellings.items(), key=lambda item: item[1])[0]
        countback = (*((p, -c) for p, c in sorted(positions.items())), _LAST)
        order = (-total, countback, -appearances, key, title)
        rows.append(
            (
                order,
                {
                    "rank": 0,
                    "title": title,
                    "points": _number(total),
                    "positionPoints": _number(parts[0]),
                    "topBonus": _number(parts[1]),
                    "repetitionBonus": _number(parts[2]),
                    "appearances": appearances,
                    "positions": {str(p): positions[p] for p in sorted(positions)},
                },
            )
        )
    return rows


def _hundredths(value: int | Fraction) -> int:
    """`value` in hundredths, rounded half up (values are never negative)."""
    if type(value) is int:
        return value * _SCALE
    return (value.numerator * 2 * _SCALE + value.denominator) // (2 * value.denominator)


def _number(hundredths: int) -> int | float:
    """An int when whole (305), else a float with at most 2 decimals (25.5, 36.43)."""
    if hundredths % _SCALE == 0:
        return hundredths // _SCALE
    return hundredths / _SCALE
