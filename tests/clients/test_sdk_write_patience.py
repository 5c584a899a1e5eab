"""act() during a server restart (the Python SDK, REST and gRPC, sync and async): an outside pass
found it failing with UNAVAILABLE although the README says it retries while the server is
restarting: its `retries` (5) jittered backoffs from 0.05 s last about 0.8 s, a restart 2-3 s.
The retried calls now have a `write_patience` (10 s) of their own, as watches have theirs: the
move sent while the server is away lands once it is back, exactly once (its requestId)."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from tablero_client import AsyncClient, Client

from tests import plainhttp
from tests.server.support import ServerProcess

# The server away this long, then its successor starts (a second or two on a quiet machine, up
# to 8 s on a starved one: CI ran out the 10 s patience with a 3 s gap). Past what the retries
# alone last (5 jittered backoffs from 0.05 s: at most 1.55 s), so the patience is what waits.
GAP = 2.0


def _restartable(tmp_path) -> tuple[ServerProcess, ServerProcess]:
    """A running server on a SQLite file (`--db`), and its successor (same ports, same file)."""
    db = str(tmp_path / "games.db")
    first = ServerProcess({"TABLERO_LOG_LEVEL": "warning"}, "--db", db).start()
    second = ServerProcess({"TABLERO_LOG_LEVEL": "warning"}, "--db", db)
    second.grpc_port, second.http_port, second.http, second.grpc = first.grpc_port, first.http_port, first.http, first.grpc
    return first, second


class _Move:
    """X's move in `game_id` by a client of the default knobs, in a thread: the answer's version
    or what it raised."""

    def __init__(self, kw: dict, asynchronous: bool, game_id: str, token: str, cell: int) -> None:
        self.kw, self.args = kw, (game_id, token, {"type": "place", "cell": cell})
        self.version: int | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run_async if asynchronous else self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            with Client(**self.kw) as c:
                self.version = c.act(*self.args).version
        except BaseException as e:  # noqa: BLE001 - the test's assertion names it
            self.error = e

    def _run_async(self) -> None:
        async def main() -> None:
            async with AsyncClient(**self.kw) as c:
                self.version = (await c.act(*self.args)).version
        try:
            asyncio.run(main())
        except BaseException as e:  # noqa: BLE001
            self.error = e


@pytest.mark.parametrize("kind", ["rest", "grpc"])
def test_an_act_sent_during_a_restart_lands_once_the_server_is_back(tmp_path, kind):
    first, second = _restartable(tmp_path)
    try:
        games = []
        for _ in range(2):
            created = plainhttp.post(f"{first.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["human", "human"]})
            games.append((created.json()["game"]["id"], created.json()["seats"][0]["token"]))
        code, err = first.terminate()
        assert code == 0, err
        kw = {"rest": first.http} if kind == "rest" else {"grpc": first.grpc}
        moves = [_Move(kw, asynchronous, game_id, token, 4) for (game_id, token), asynchronous in zip(games, (False, True), strict=True)]
        time.sleep(GAP)
        assert all(m.thread.is_alive() for m in moves), [repr(m.error) for m in moves]  # still retrying
        second.start()
        for m in moves:
            m.thread.join(timeout=30)
        assert [(m.version, repr(m.error) if m.error else None) for m in moves] == [(2, None), (2, None)]
        for game_id, _ in games:
            events = plainhttp.get(f"{second.http}/v1/games/{game_id}/events").json()["events"]
            assert [e["version"] for e in events] == [1, 2], events  # created, then the one move: once
            assert plainhttp.get(f"{second.http}/v1/games/{game_id}").json()["version"] == 2
    finally:
        first.kill()
        second.kill()


def test_write_patience_must_be_a_duration():
    for bad in (-1, -0.5, float("nan")):
        with pytest.raises(ValueError, match="write_patience"):
            Client(rest="http://127.0.0.1:9", write_patience=bad)
        with pytest.raises(ValueError, match="write_patience"):
            AsyncClient(rest="http://127.0.0.1:9", write_patience=bad)
    Client(rest="http://127.0.0.1:9", write_patience=0).close()  # 0: the `retries` alone


def test_an_aborted_conflict_is_retried_retries_times_only_whatever_the_patience():
    """The patience is for a server that is away (UNAVAILABLE); CONFLICT stays within `retries`."""
    from tablero_client import Aborted, Unavailable
    from tablero_client.client import _Options

    opt = _Options(retries=2, backoff=0.05, max_backoff=2.0, write_patience=10.0)
    now = time.monotonic()
    conflict, down = Aborted("busy", reason="CONFLICT"), Unavailable("away")
    assert [opt.retries_call(conflict, n, now, True) for n in range(4)] == [True, True, False, False]
    assert not opt.retries_call(conflict, 0, now, False)
    assert not opt.retries_call(Aborted("stale", reason="STALE_VERSION"), 0, now, True)
    assert opt.retries_call(down, 50, now, False)  # past `retries`, within the patience
    assert not opt.retries_call(down, 50, now - 10.0, False)  # past both
    assert opt.retries_call(down, 1, now - 60.0, False)  # within `retries`


@pytest.mark.parametrize("kind", ["rest", "grpc"])
def test_act_retries_past_its_retries_until_the_patience_is_spent(kind):
    """Nothing listens on port 9: act() retries `retries` times, then on until `write_patience`
    seconds have passed since the first failure, and raises Unavailable."""
    from tablero_client import Unavailable

    kw = {"rest": "http://127.0.0.1:9"} if kind == "rest" else {"grpc": "127.0.0.1:9"}
    with Client(**kw, retries=2, backoff=0.01, max_backoff=0.05, write_patience=0.6) as c:
        t0 = time.monotonic()
        with pytest.raises(Unavailable):
            c.act("g", "t", {"type": "place", "cell": 0})
        assert 0.6 <= time.monotonic() - t0 < 5 and c.retry_count > 2


def test_async_act_retries_past_its_retries_until_the_patience_is_spent():
    from tablero_client import Unavailable

    async def main() -> tuple[float, int]:
        async with AsyncClient(rest="http://127.0.0.1:9", retries=2, backoff=0.01, max_backoff=0.05,
                               write_patience=0.6) as c:
            t0 = time.monotonic()
            with pytest.raises(Unavailable):
                await c.act("g", "t", {"type": "place", "cell": 0})
            return time.monotonic() - t0, c.retry_count

    took, retried = asyncio.run(main())
    assert 0.6 <= took < 5 and retried > 2
