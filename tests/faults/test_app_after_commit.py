"""A Redis outage that begins between an action's append and the bookkeeping after it
(`GameService._written`: the lobby's "game over" mark, the turn clock; for a game that
ends, run right after the reply) once answered the
committed action 500 INTERNAL (a raw `redis.exceptions.ConnectionError` from
`RedisLobby.mark` over the lean connection), and the client's retry of the same requestId,
answered from the idempotency record, skipped the mark: the lobby listed the finished game
as running for good. Found by bench/faults.py (scenario kill-everysec).

Reproduced in process (the lobby's mark fails once, as it does when Redis dies at that
moment): no raw Redis error escapes, and after the client's retry — or the background
repair, without one — the lobby says FINISHED.
"""

from __future__ import annotations

import asyncio

import pytest
import redis
from tablero.server.app import commands as cmd
from tablero.server.app.service import GameService
from tablero.server.auth import TokenSigner
from tablero.server.errors import AppError
from tablero.server.portal.lobby import MemoryLobby
from tablero.server.store.redis import RedisStore

from tests.redis_server import RedisServer


class LobbyLosingRedisOnce(MemoryLobby):
    """The lobby's "game over" mark fails once as RedisLobby's does when Redis just died."""

    failed = False

    async def mark(self, game_id, *, seat=None, user=None, status=None, bots=None) -> None:
        if status == "FINISHED" and not self.failed:
            self.failed = True
            raise redis.exceptions.ConnectionError("Error connecting to Redis: Connection refused")
        await super().mark(game_id, seat=seat, user=user, status=status, bots=bots)


@pytest.fixture
async def one_move_from_the_end():
    """(service, lobby, game id): X to play the winning move; the lobby's "game over" mark
    will fail once."""
    with RedisServer() as server:
        store = RedisStore(server.url)
        lobby = LobbyLosingRedisOnce()
        service = GameService(store, TokenSigner("s"), lobby=lobby)
        try:
            gid = (await service.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
            for i, (seat, cell) in enumerate([(0, 0), (1, 3), (0, 1), (1, 4)]):
                await service.submit_action(cmd.SubmitAction(gid, seat, {"type": "place", "cell": cell},
                                                             request_id=f"m{i}"))
            yield service, lobby, gid
        finally:
            await service.close()
            await service.games.drain()
            await store.close()


async def test_an_outage_after_the_commit_neither_500s_nor_leaves_the_lobby_stale(one_move_from_the_end) -> None:
    service, lobby, gid = one_move_from_the_end
    last = cmd.SubmitAction(gid, 0, {"type": "place", "cell": 2}, request_id="win")
    try:
        await service.submit_action(last)
    except AppError:
        pass  # e.g. UNAVAILABLE: the client retries
    except redis.exceptions.RedisError as e:  # before the fix: a 500 INTERNAL
        pytest.fail(f"a raw Redis error escaped after the commit (a 500 INTERNAL): {e!r}")
    again = await service.submit_action(last)  # the client's retry, same requestId
    assert again["game"]["version"] == 7 and again["game"]["status"] == "GAME_STATUS_FINISHED"
    assert (await lobby.get(gid))["status"] == "FINISHED", "the lobby lists a finished game as running"


async def test_without_a_retry_the_committed_write_is_answered_and_the_lobby_repaired(one_move_from_the_end) -> None:
    service, lobby, gid = one_move_from_the_end
    # The write is committed: it is answered as such, though the lobby failed after it.
    won = await service.submit_action(cmd.SubmitAction(gid, 0, {"type": "place", "cell": 2}, request_id="win"))
    assert won["game"]["status"] == "GAME_STATUS_FINISHED"
    for _ in range(100):  # the lobby's "game over" mark follows the reply
        if lobby.failed:
            break
        await asyncio.sleep(0.01)
    assert lobby.failed, "the lobby was never told that the game is over"
    assert (await lobby.get(gid))["status"] == "RUNNING"  # not yet: the repair is in the background
    for _ in range(100):
        if (await lobby.get(gid))["status"] == "FINISHED":
            break
        await asyncio.sleep(0.05)
    assert (await lobby.get(gid))["status"] == "FINISHED", "the background repair never recorded the end"
