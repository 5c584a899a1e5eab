"""A watch of a quiet game across two server outages (the Python SDK, REST and gRPC, sync and
async): an outside tester's watch gave up at once at the second restart, because its count of
failed tries (and the clock of its `watch_patience`) was reset only by an event, and nobody had
moved since the first. A reconnection the server answers now ends an outage."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from tablero_client import CANCELLED, AsyncClient, Client

from tests.clients.test_sdk import DIAGONAL, _restartable
from tests.ratings.support import KEYS, token
from tests.server.support import ServerProcess

pytestmark = pytest.mark.slow  # three server processes, one after another

# Small knobs, so that the gap between the outages (GAP) is longer than the patience while
# each outage (a server start: ~2-3 s, more on a loaded machine) is shorter than it.
KNOBS = {"retries": 2, "backoff": 0.05, "max_backoff": 0.2, "watch_patience": 12.0}
GAP = 14.0


class _Watcher:
    """One client's watch from `after`, run in a thread: the versions seen and what it raised."""

    def __init__(self, kind: str, asynchronous: bool, server: ServerProcess, game_id: str, after: int) -> None:
        self.kw = {"rest": server.http} if kind == "rest" else {"grpc": server.grpc}
        self.name = f"{'async ' if asynchronous else ''}{kind}"
        self.seen: list[int] = []
        self.errors: list[BaseException] = []
        target = self._run_async if asynchronous else self._run
        self.thread = threading.Thread(target=target, args=(game_id, after), daemon=True)
        self.thread.start()

    def _run(self, game_id: str, after: int) -> None:
        try:
            with Client(**self.kw, **KNOBS) as c:
                self.seen.extend(ev.version for ev in c.watch(game_id, after_version=after))
        except BaseException as e:  # noqa: BLE001 - surfaced by the test's assertions
            self.errors.append(e)

    def _run_async(self, game_id: str, after: int) -> None:
        async def main() -> None:
            async with AsyncClient(**self.kw, **KNOBS) as c:
                async for ev in c.watch(game_id, after_version=after):
                    self.seen.append(ev.version)
        try:
            asyncio.run(main())
        except BaseException as e:  # noqa: BLE001
            self.errors.append(e)


def test_a_quiet_watch_outlasts_a_second_outage(tmp_path):
    first, second = _restartable(tmp_path)
    third = ServerProcess(second.env)
    third.grpc_port, third.http_port, third.http, third.grpc = first.grpc_port, first.http_port, first.http, first.grpc
    try:
        with Client(rest=first.http) as c:
            created = c.create("tic-tac-toe", 2)
        after = created.game.version
        watchers = [_Watcher(kind, asynchronous, first, created.game.id, after)
                    for kind in ("rest", "grpc") for asynchronous in (False, True)]
        time.sleep(3)  # each stream open (and, over gRPC, open long enough to count as answered)
        broke = time.monotonic()
        first.kill()
        second.start()
        # Nobody moves: only the reconnections themselves are answered before the next outage.
        time.sleep(max(0.0, broke + GAP - time.monotonic()))
        assert [w.name for w in watchers if w.errors] == [], [w.errors for w in watchers]
        second.kill()
        third.start()
        with Client(rest=third.http, retries=50, backoff=0.05, max_backoff=0.25) as c:
            for seat, cell in DIAGONAL:
                game = c.act(created.game.id, created.token(seat), {"type": "place", "cell": cell})
        assert game.finished
        for w in watchers:
            w.thread.join(timeout=30)
        assert {w.name: [repr(e) for e in w.errors] for w in watchers if w.errors} == {}
        assert {w.name: w.seen for w in watchers} == {w.name: list(range(after + 1, game.version + 1)) for w in watchers}
    finally:
        for s in (first, second, third):
            s.kill()


def _successor(first: ServerProcess) -> ServerProcess:
    """A server on `first`'s ports, file and environment, not started."""
    s = ServerProcess(first.env)
    s.grpc_port, s.http_port, s.http, s.grpc = first.grpc_port, first.http_port, first.http, first.grpc
    return s


def test_a_quick_match_watch_outlasts_a_second_outage(tmp_path):
    """The same for a ticket's watch: after a reconnection the stream starts again with the
    ticket as it is, unchanged, which did not count as an answer either."""
    env = {"TABLERO_LOG_LEVEL": "warning", "TABLERO_DB": str(tmp_path / "games.db"), "TABLERO_PORTAL_KEYS": KEYS}
    servers = [ServerProcess(env).start()]
    servers += [_successor(servers[0]), _successor(servers[0])]
    jwt = token("outage-ann")
    seen: dict[str, list[str]] = {}
    errors: dict[str, BaseException] = {}
    try:
        with Client(rest=servers[0].http, token=jwt) as c:
            ticket = c.matchmaking.create_ticket("tic-tac-toe", players=2, timeout_seconds=300)

        def watch(name: str, kw: dict[str, str]) -> None:
            try:
                with Client(**kw, token=jwt, **KNOBS) as c:
                    seen[name] = [t.status for t in c.matchmaking.watch_ticket(ticket.id)]
            except BaseException as e:  # noqa: BLE001 - surfaced by the test's assertions
                errors[name] = e

        threads = [threading.Thread(target=watch, args=(name, kw), daemon=True)
                   for name, kw in (("rest", {"rest": servers[0].http}), ("grpc", {"grpc": servers[0].grpc}))]
        for t in threads:
            t.start()
        time.sleep(3)  # each watch has its ticket
        broke = time.monotonic()
        servers[0].kill()
        servers[1].start()
        time.sleep(max(0.0, broke + GAP - time.monotonic()))
        assert errors == {}
        servers[1].kill()
        servers[2].start()
        with Client(rest=servers[2].http, token=jwt, retries=50, backoff=0.05, max_backoff=0.25) as c:
            c.matchmaking.cancel_ticket(ticket.id)
        for t in threads:
            t.join(timeout=30)
        assert {k: repr(e) for k, e in errors.items()} == {}
        assert {k: v[-1] for k, v in seen.items()} == {"rest": CANCELLED, "grpc": CANCELLED}, seen
    finally:
        for s in servers:
            s.kill()
