"""Which game ids a store accepts (the same rule for every adapter), and the Redis keys
of a game (the one definition of their names, for the store and the lobby alike)."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple


def check_game_id(game_id: str) -> str:
    """Return `game_id` if a store can keep it, else raise ValueError.

    An id must be a non-empty string without "{" or "}": the Redis store puts it in
    a cluster hash tag (`tablero:{<game_id>}:events`), and a brace would move the tag
    and split one game over several slots. Every adapter refuses the same ids, so a
    game that works on SQLite works on Redis too."""
    if not isinstance(game_id, str) or not game_id or "{" in game_id or "}" in game_id:
        raise ValueError(f"game id {game_id!r} must be a non-empty string without braces")
    return game_id


class GameKeys(NamedTuple):
    """The Redis keys of one game, `tablero:{<game_id>}:<field name>`: one hash tag, so one
    cluster slot, and every script of the store may name them all (server/store/redis.py)."""

    events: str
    meta: str
    claimed: str
    req: str
    snap: str
    snaps: str  # past snapshots: a hash, version -> the snapshot's JSON (see SNAPSHOT_HISTORY)
    lobby: str  # the game's lobby entry (server/portal/lobby.py): expires and is deleted with the game


def game_keys(game_id: str) -> GameKeys:
    """The keys of one game, all sharing the hash tag {game_id}. ValueError for an id
    that would not make a hash tag (see check_game_id)."""
    if type(game_id) is not str:
        check_game_id(game_id)  # raises (and an id that is no string cannot be remembered)
    return _game_keys(game_id)


@lru_cache(maxsize=4096)  # asked a few times a move for the same few games
def _game_keys(game_id: str) -> GameKeys:
    check_game_id(game_id)
    prefix = f"tablero:{{{game_id}}}:"
    return GameKeys._make(prefix + name for name in GameKeys._fields)
