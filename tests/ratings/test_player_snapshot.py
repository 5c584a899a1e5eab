"""A player's page is read at one moment: right after a rated game ends, GET /v1/players/{id}
never shows the game among the recent ones while the totals do not count it yet (an outside
tester saw `"gamesPlayed": 0, "recentGames": [{..., "won": true}]` once in six runs).

The interleaving is provoked deterministically on a real SQLite file: another connection (as
another server process would) commits the game's rating just as the read of the player's page
reaches its second statement."""

from __future__ import annotations

import asyncio
import json

from tablero.server.errors import NotFound
from tablero.server.ratings.model import Rating
from tablero.server.ratings.service import Ratings
from tablero.server.ratings.store import Change, SQLiteRatings


def _game_for(user: str) -> Change:
    after = Rating.loads(None)
    new = json.dumps([after.mu + 1.0, after.sigma, 1, 1])
    recent = json.dumps({"gameId": "G_1", "engine": "tic-tac-toe", "won": True, "ratingAfter": 3.43})
    return Change(user=user, expected=None, new=new, score=3.43, name="Me", recent=recent)


def test_a_rating_committed_between_the_reads_of_a_players_page_is_seen_whole_or_not_at_all(tmp_path):
    path = str(tmp_path / "games.db")
    reader, writer = SQLiteRatings(path), SQLiteRatings(path)
    fired: list[str] = []

    def commit_meanwhile(sql: str) -> None:
        # The first statement of the page's read has run; before the next one runs, the game is rated.
        if not fired and "rt_recent" in sql:
            fired.append(sql)
            writer._commit("G_1", "tic-tac-toe", [_game_for("me")], False)

    reader._db.set_trace_callback(commit_meanwhile)
    service = Ratings(reader, games=None)
    try:
        page = asyncio.run(service.player("me"))["player"]
    except NotFound:
        page = None  # read before the commit, all of it
    assert fired, "the read never reached the recent games"
    if page is not None:
        assert page["gamesPlayed"] == len(page["recentGames"]) == 1, page
    reader._db.set_trace_callback(None)
    page = asyncio.run(service.player("me"))["player"]
    assert page["gamesPlayed"] == 1 and page["wins"] == 1 and len(page["recentGames"]) == 1, page
    assert page["userName"] == "Me" and page["ratings"][0]["rank"] == 1
