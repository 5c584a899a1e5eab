"""Which game ids a store accepts (the same rule for every adapter)."""

from __future__ import annotations


def check_game_id(game_id: str) -> str:
    """Return `game_id` if a store can keep it, else raise ValueError.

    An id must be a non-empty string without "{" or "}": the Redis store puts it in
    a cluster hash tag (`tablero:{<game_id>}:events`), and a brace would move the tag
    and split one game over several slots. Every adapter refuses the same ids, so a
    game that works on SQLite works on Redis too."""
    if not isinstance(game_id, str) or not game_id or "{" in game_id or "}" in game_id:
        raise ValueError(f"game id {game_id!r} must be a non-empty string without braces")
    return game_id
