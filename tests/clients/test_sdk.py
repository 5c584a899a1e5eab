"""The SDK against a real server, over REST and gRPC."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import threading
import time

import pytest
from tablero_client import (
    FINISHED,
    RUNNING,
    Aborted,
    AsyncClient,
    Client,
    FailedPrecondition,
    IllegalAction,
    InvalidArgument,
    MalformedAction,
    NotFound,
    NotYourTurn,
    SeatTaken,
    StaleVersion,
    TableroError,
    Unauthenticated,
    Unavailable,
)
from tablero_client.models import BOT, HUMAN, OPEN

from tests.server.support import ServerProcess

DIAGONAL = [(0, 4), (1, 0), (0, 2), (1, 1), (0, 6)]  # X wins on 2-4-6


def test_engines(target):
    with Client(**target) as c:
        names = [e.name for e in c.engines()]
        assert {"tic-tac-toe", "new-bedford", "riverboat", "phoenicia"} <= set(names)
        ttt = c.engine("tic-tac-toe")
        assert (ttt.min_seats, ttt.max_seats) == (2, 2) and ttt.version >= 1
        with pytest.raises(NotFound):
            c.engine("no-such-game")


def test_whole_game_events_and_history(target):
    with Client(**target) as c:
        created = c.create("tic-tac-toe", 2)
        assert created.game.status == RUNNING and created.game.to_act == [0]
        seats = [created.seat(0), created.seat(1)]
        game = created.game
        for seat, cell in DIAGONAL:
            assert seats[seat].legal_actions().seat == seat
            game = seats[seat].act({"type": "place", "cell": cell})
        assert game.status == FINISHED and game.finished
        assert game.outcome["winners"] == [0]
        assert game.your_seat == 0
        # The log, page by page (page size 2 forces several pages), and live watch of a finished game.
        events = list(c.events(game.id, page_size=2))
        assert [e.version for e in events] == list(range(1, game.version + 1))
        assert events[0].type == "game_started" and events[-1].type == "game_won"
        assert [e.version for e in seats[1].watch()] == [e.version for e in events]
        assert [e.version for e in seats[1].watch(after_version=4)] == list(range(5, game.version + 1))
        # A past version, as a spectator.
        past = c.game(game.id, version=2)
        assert past.version == 2 and past.your_seat is None and past.view["board"][4] == 0


def test_errors_mirror_the_api_codes(target):
    with Client(**target) as c:
        created = c.create("tic-tac-toe", 2)
        x, o = created.seat(0), created.seat(1)
        with pytest.raises(FailedPrecondition) as e:
            o.act({"type": "place", "cell": 0})  # not O's turn
        assert e.value.code == "FAILED_PRECONDITION" and e.value.message
        with pytest.raises(NotFound):
            c.game("nosuchgame123")
        with pytest.raises(Unauthenticated):
            c.act(created.game.id, "not-a-token", {"type": "place", "cell": 0})
        with pytest.raises(InvalidArgument):
            c.create("tic-tac-toe", 7)
        with pytest.raises(Aborted):
            x.act({"type": "place", "cell": 0}, expected_version=created.game.version + 5)
        # A STALE_VERSION is raised at once, even with retry_aborted (a retry fails the same way).
        retries = c.retry_count
        with pytest.raises(Aborted) as stale:
            x.act({"type": "place", "cell": 0}, expected_version=created.game.version + 5, retry_aborted=True)
        assert stale.value.reason == "STALE_VERSION" and c.retry_count == retries
        with pytest.raises(MalformedAction):
            x.act({"cell": 0})  # no type: refused before any call (a ValueError too)
        assert issubclass(MalformedAction, ValueError) and issubclass(MalformedAction, InvalidArgument)
        deep: object = 0
        for _ in range(120):
            deep = [deep]
        with pytest.raises(InvalidArgument) as refused:  # too deep for a Struct: refused with the API's code
            x.act({"type": "place", "cell": deep})
        # (gRPC: the SDK cannot build the Struct, MALFORMED_ACTION; REST: the server's JSON reader)
        assert refused.value.reason in ("MALFORMED_ACTION", "INVALID_ARGUMENT"), refused.value
        assert isinstance(Aborted("x"), TableroError)


def test_errors_carry_the_servers_reason_and_the_commonest_have_classes(target):
    """`.reason` on both transports (REST error.reason, gRPC ErrorInfo), and the classes of the
    reasons a program acts on most, subclasses of their code's."""
    with Client(**target) as c:
        created = c.create("tic-tac-toe", 2)
        x, o = created.seat(0), created.seat(1)
        with pytest.raises(NotYourTurn) as e:
            o.act({"type": "place", "cell": 0})
        assert isinstance(e.value, FailedPrecondition) and e.value.reason == "NOT_YOUR_TURN"
        x.act({"type": "place", "cell": 4})
        with pytest.raises(IllegalAction) as e:
            o.act({"type": "place", "cell": 4})  # taken
        assert e.value.reason == "ILLEGAL_ACTION"
        with pytest.raises(StaleVersion) as e:
            o.act({"type": "place", "cell": 0}, expected_version=1)
        assert isinstance(e.value, Aborted) and e.value.metadata == {"version": "2"}
        with pytest.raises(SeatTaken) as e:
            c.join(created.game.id)
        with pytest.raises(NotFound) as e:
            c.game("nosuchgame123")
        assert e.value.reason == "GAME_NOT_FOUND"
        with pytest.raises(Unauthenticated) as e:
            c.act(created.game.id, "not-a-token", {"type": "place", "cell": 0})
        assert e.value.reason == "TOKEN_INVALID"
        with pytest.raises(InvalidArgument) as e:
            next(iter(c.watch(created.game.id, after_version=99)))
        assert e.value.reason == "INVALID_ARGUMENT"
        with pytest.raises(InvalidArgument) as e:
            c.create("chess", 2)
        assert e.value.reason == "UNKNOWN_ENGINE"
        with pytest.raises(NotFound) as e:
            c.engine_messages("chess")
        assert e.value.reason == "ENGINE_NOT_FOUND"  # as GetEngine, on both transports


def test_a_refused_watch_says_the_servers_message(target):
    """A watch after a version the game has not reached: over REST the 400 answer is an SSE
    `event: tablero-error` message; its message must read as over gRPC, not as a dump of the body."""
    with Client(**target) as c:
        created = c.create("tic-tac-toe", 2)
        created.seat(0).act({"type": "place", "cell": 4})
        with pytest.raises(InvalidArgument) as e:
            next(iter(c.watch(created.game.id, after_version=99)))
        assert e.value.message == "afterVersion 99 is beyond the game's current version 2"
        assert str(e.value) == "INVALID_ARGUMENT: afterVersion 99 is beyond the game's current version 2"


def test_watched_events_carry_their_hash_and_a_lost_history_is_aborted_alike(target):
    """Each watched event has the log's hash; a resume whose hash the log no longer holds (a
    Redis rollback while the client was away: a hash the log never had stands in for it) is
    ABORTED "history rewritten; resume from version N" over both transports (REST's `reset`
    message mapped to it)."""
    with Client(**target) as c:
        created = c.create("tic-tac-toe", 2)
        created.seat(0).act({"type": "place", "cell": 4})
        seen = []
        for ev in c.watch(created.game.id):
            seen.append(ev)
            if ev.version == 2:
                break
        assert [len(e.hash) for e in seen] == [16, 16] and seen[0].hash != seen[1].hash
        with pytest.raises(Aborted, match="history rewritten; resume from version 0"):
            next(iter(c.transport.watch(created.game.id, None, 2, "ffffffffffffffff")))
        assert next(iter(c.transport.watch(created.game.id, None, 1, seen[0].hash)))["version"] == 2
        # events() lists the same hashes: a client that lists the log, then watches from its end
        listed = list(c.events(created.game.id))
        assert [(e.version, e.hash) for e in listed] == [(e.version, e.hash) for e in seen]
        created.seat(1).act({"type": "place", "cell": 0})
        assert next(iter(c.watch(created.game.id, after_version=2, after_hash=listed[-1].hash))).version == 3
        with pytest.raises(Aborted, match="history rewritten"):
            next(iter(created.seat(0).watch(after_version=2, after_hash="ffffffffffffffff")))


async def _async_watch_error(target, game_id: str) -> TableroError:
    async with AsyncClient(**target) as c:
        try:
            async for _ev in c.watch(game_id, after_version=99):
                pass
        except TableroError as e:
            return e
    raise AssertionError("the watch was not refused")


def test_a_refused_async_watch_says_the_servers_message(target):
    with Client(**target) as c:
        created = c.create("tic-tac-toe", 2)
    err = asyncio.run(_async_watch_error(target, created.game.id))
    assert isinstance(err, InvalidArgument)
    assert err.message == "afterVersion 99 is beyond the game's current version 1"


def test_request_id_makes_retries_safe(target):
    with Client(**target) as c:
        created = c.create("tic-tac-toe", 2)
        x = created.seat(0)
        first = x.act({"type": "place", "cell": 4}, request_id="move-1")
        again = x.act({"type": "place", "cell": 4}, request_id="move-1")
        assert first.version == again.version == 2
        assert len(list(x.events())) == 2


def test_a_join_retried_with_its_request_id_gets_the_same_seat(target):
    """join sends a requestId (made when not given): a retry of a join whose answer was lost
    gets the same seat and token, on both transports, sync and async."""
    with Client(**target) as c:
        created = c.create("tic-tac-toe", seats=["open", "open"])
        first = c.join(created.game.id, request_id="join-1-0123456789ab")
        again = c.join(created.game.id, request_id="join-1-0123456789ab")
        assert (again.seat, again.token) == (first.seat, first.token)
        other = c.join(created.game.id)  # a requestId of its own: the other seat
        assert other.seat != first.seat

        async def retried() -> tuple[int | None, str]:
            async with AsyncClient(**target) as a:
                s = await a.join(created.game.id, request_id="join-1-0123456789ab")
                return s.seat, s.token

        assert asyncio.run(retried()) == (first.seat, first.token)


def test_a_create_retried_with_its_request_id_gets_the_same_game(target):
    """create sends a requestId (made when not given): a retry of a create whose answer was lost
    gets the same game and tokens, on both transports, sync and async; reused with other choices
    it is refused."""
    with Client(**target) as c:
        first = c.create("tic-tac-toe", seats=["human", "open"], request_id=f"create-{next(iter(target))}-0123456789ab")
        again = c.create("tic-tac-toe", seats=["human", "open"], request_id=f"create-{next(iter(target))}-0123456789ab")
        assert again.game.id == first.game.id and again.seat(0).token == first.seat(0).token
        assert c.create("tic-tac-toe", seats=["human", "open"]).game.id != first.game.id  # an id of its own
        with pytest.raises(InvalidArgument) as e:
            c.create("goofspiel", request_id=f"create-{next(iter(target))}-0123456789ab")
        assert e.value.reason == "REQUEST_ID_REUSED"

        async def retried() -> str:
            async with AsyncClient(**target) as a:
                made = await a.create("tic-tac-toe", seats=["human", "open"],
                                      request_id=f"create-{next(iter(target))}-0123456789ab")
                return made.game.id

        assert asyncio.run(retried()) == first.game.id


def test_seat_kinds_join_and_bots(target):
    with Client(**target) as c:
        created = c.create("tic-tac-toe", seats=["human", "open"])
        assert [s.kind for s in created.game.seats] == [HUMAN, OPEN]
        joined = c.join(created.game.id)
        assert joined.seat == 1 and joined.game().your_seat == 1
        with pytest.raises(FailedPrecondition):
            c.join(created.game.id)  # no open seat left
        vs_bot = c.create("tic-tac-toe", seats=["human", "bot"])
        assert vs_bot.game.seats[1].kind == BOT
        with pytest.raises(KeyError):
            vs_bot.seat(1)  # bots have no token
        me = vs_bot.seat(0)
        game = vs_bot.game
        while not game.finished:  # the server answers for the bot inside each act
            game = me.act(random.choice(me.legal_actions().actions))
        assert game.status == FINISHED


def test_watch_sees_moves_live(target):
    with Client(**target) as c:
        created = c.create("tic-tac-toe", 2)
        seats = [created.seat(0), created.seat(1)]
        got: list[int] = []

        def watch() -> None:
            for ev in seats[1].watch(after_version=1):
                got.append(ev.version)

        t = threading.Thread(target=watch, daemon=True)
        t.start()
        time.sleep(0.3)
        for seat, cell in DIAGONAL:
            seats[seat].act({"type": "place", "cell": cell})
        t.join(timeout=10)
        assert not t.is_alive(), "the watch did not end with the game"
        assert got == list(range(2, 8))


def test_async_client_plays_a_game(target):
    async def main() -> tuple[str, list[int], int]:
        async with AsyncClient(**target) as c:
            created = await c.create("tic-tac-toe", 2)
            seats = [created.seat(0), created.seat(1)]
            game = created.game
            for seat, cell in DIAGONAL:
                game = await seats[seat].act({"type": "place", "cell": cell})
            versions = [e.version async for e in seats[0].watch()]
            pages = [e.version async for e in c.events(game.id, page_size=3)]
            assert versions == pages
            engines = await c.engines()
            return game.status, versions, len(engines)

    status, versions, n = asyncio.run(main())
    assert status == FINISHED and versions == list(range(1, 8)) and n >= 5


DRAW = [(0, 4), (1, 0), (0, 2), (1, 6), (0, 3), (1, 5), (0, 1), (1, 7), (0, 8)]  # ends at version 11


def _draw(c: Client):
    """A finished draw: its id and the handle of seat 0."""
    created = c.create("tic-tac-toe", 2)
    for seat, cell in DRAW:
        game = created.seat(seat).act({"type": "place", "cell": cell})
    assert game.finished and game.version == 11
    return game.id, created.seat(0)


def test_events_after_a_version(target):
    with Client(**target) as c:
        gid, _ = _draw(c)
        assert [e.version for e in c.events(gid, page_size=2, after_version=4)] == list(range(5, 12))
        assert [e.version for e in c.events(gid, after_version=11)] == []
        assert [e.version for e in c.events(gid, after_version=0)] == list(range(1, 12))
        with pytest.raises(InvalidArgument, match="afterVersion 12 is beyond the game's current version 11"):
            list(c.events(gid, after_version=12))
        with pytest.raises(InvalidArgument, match="afterVersion must be a non-negative integer"):
            list(c.events(gid, after_version=-1))

        async def main() -> list[int]:
            async with AsyncClient(**target) as ac:
                return [e.version async for e in ac.events(gid, page_size=3, after_version=6)]

        assert asyncio.run(main()) == list(range(7, 12))


@pytest.fixture(scope="module")
def trimming_server():
    """Events a snapshot covers are dropped (snapshots at 4 and 8: versions 8-11 of a draw stay)."""
    env = {"TABLERO_LOG_LEVEL": "warning", "TABLERO_TRIM_ON_SNAPSHOT": "true", "TABLERO_SNAPSHOT_EVERY": "4"}
    with ServerProcess(env) as s:
        yield s


@pytest.mark.parametrize("transport", ["rest", "grpc"])
def test_a_trimmed_log_lists_from_the_after_version_the_server_names(trimming_server, transport):
    kw = {"rest": trimming_server.http} if transport == "rest" else {"grpc": trimming_server.grpc}
    with Client(**kw) as c:
        gid, x = _draw(c)
        deadline = time.monotonic() + 10
        while True:  # the snapshot and its trim are written off the reply path
            try:
                list(c.events(gid))
            except FailedPrecondition as e:
                assert "list with afterVersion=7 or later" in e.message
                break
            assert time.monotonic() < deadline, "the snapshot's trim did not happen"
            time.sleep(0.05)
        assert [e.version for e in c.events(gid, page_size=1, after_version=7)] == [8, 9, 10, 11]
        assert [e.type for e in x.events(page_size=3, after_version=9)] == ["mark_placed", "game_drawn"]


def _restartable(tmp_path) -> tuple[ServerProcess, ServerProcess]:
    """A running server on a SQLite file, and its successor (same ports, same file), not started."""
    env = {"TABLERO_LOG_LEVEL": "warning", "TABLERO_DB": str(tmp_path / "games.db")}
    first = ServerProcess(env).start()
    second = ServerProcess(env)
    second.grpc_port, second.http_port = first.grpc_port, first.http_port
    second.http, second.grpc = first.http, first.grpc
    return first, second


class _Watching:
    """`events` iterated in a thread: the versions seen and what it raised, once versions 1 and 2
    (the game's start and its first move) have come."""

    def __init__(self, events) -> None:
        self.seen: list[int] = []
        self.errors: list[BaseException] = []
        self.thread = threading.Thread(target=self._run, args=(events,), daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while len(self.seen) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert self.seen == [1, 2]

    def _run(self, events) -> None:
        try:
            for ev in events:
                self.seen.append(ev.version)
        except BaseException as e:  # noqa: BLE001 - surfaced by the tests' assertions
            self.errors.append(e)


@pytest.mark.parametrize("transport", ["rest", "grpc"])
def test_act_retries_and_watch_reconnects_across_a_restart(tmp_path, transport):
    """The server goes away and comes back (same ports, same SQLite file): act() retries with the
    same requestId and succeeds; watch() reconnects after the last version it saw."""
    first, second = _restartable(tmp_path)
    kw = {"rest": first.http} if transport == "rest" else {"grpc": first.grpc}
    c = Client(**kw, retries=160, backoff=0.05, max_backoff=0.25, timeout=5)
    try:
        created = c.create("tic-tac-toe", 2)
        x, o = created.seat(0), created.seat(1)
        x.act({"type": "place", "cell": 4})
        w = _Watching(o.watch())
        first.kill()
        restarter = threading.Timer(1.0, second.start)
        restarter.start()
        before = c.retry_count
        game = o.act({"type": "place", "cell": 0})  # sent while the server is down
        restarter.join()
        assert game.version == 3 and c.retry_count > before
        for seat, cell in [(x, 2), (o, 1), (x, 6)]:
            game = seat.act({"type": "place", "cell": cell})
        assert game.finished
        w.thread.join(timeout=20)
        assert not w.errors and not w.thread.is_alive()
        assert w.seen == list(range(1, game.version + 1))
    finally:
        c.close()
        first.kill()
        second.kill()


@pytest.mark.parametrize("transport", ["rest", "grpc"])
def test_a_watch_with_the_default_options_outlasts_a_server_restart(tmp_path, transport):
    """An outside tester: with Client() as it comes (retries=5), watch() raised Unavailable 0.7 s
    into an ordinary restart (the server gone ~3 s): its reconnects had only act()'s retry
    budget. It now waits `watch_patience` seconds (30) before giving up."""
    first, second = _restartable(tmp_path)
    kw = {"rest": first.http} if transport == "rest" else {"grpc": first.grpc}
    mover = Client(rest=first.http, retries=200, backoff=0.05, max_backoff=0.25)
    watcher = Client(**kw)  # the defaults
    try:
        created = mover.create("tic-tac-toe", 2)
        x, o = created.seat(0), created.seat(1)
        x.act({"type": "place", "cell": 4})
        w = _Watching(watcher.watch(created.game.id, created.token(1)))
        first.kill()
        time.sleep(3.0)  # longer than five retries from 0.05 s take
        assert not w.errors, w.errors
        second.start()
        for seat, cell in [(o, 0), (x, 2), (o, 1), (x, 6)]:
            game = seat.act({"type": "place", "cell": cell})
        assert game.finished
        w.thread.join(timeout=30)
        assert not w.errors and not w.thread.is_alive(), w.errors
        assert w.seen == list(range(1, game.version + 1))
    finally:
        watcher.close()
        mover.close()
        first.kill()
        second.kill()


def test_watch_patience_must_be_a_duration():
    with pytest.raises(ValueError, match="watch_patience"):
        Client(rest="http://127.0.0.1:9", watch_patience=-1)


def test_act_gives_up_after_its_retries():
    # write_patience=0: the `retries` alone (tests/clients/test_sdk_write_patience.py: both)
    with Client(rest="http://127.0.0.1:9", retries=2, backoff=0.01, write_patience=0) as c:  # nothing listens on port 9
        with pytest.raises(Unavailable):
            c.act("g", "t", {"type": "place", "cell": 0})
        assert c.retry_count == 2


def test_sdk_needs_no_server_code():
    """A portal installs only tablero-client: nothing of server/ or engines/ may be imported."""
    code = ("import sys, tablero_client, tablero_client.cli, tablero_client.loadtest, tablero_client.play, "
            "tablero_client.render.new_bedford, tablero_client.render.riverboat, tablero_client.render.phoenicia\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('server', 'engines', 'tests'))\n"
            "assert not bad, bad\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd="/")


def test_generated_stubs_are_current():
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "clients" / "python" / "gen_stubs.py"
    p = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr


def test_a_struct_over_grpc_comes_out_in_one_order():
    """A protobuf Struct is a map: its keys come out in another order in each process, so a
    board drawn from a gRPC answer listed its parts differently each time. They are sorted."""
    from google.protobuf import struct_pb2
    from tablero_client._grpc import to_json

    s = struct_pb2.Struct()
    s.update({"view": {"farm": 1.0, "forest": 2.0, "bank": 3.0, "zeta": {"b": 1.5, "a": [2.0, {"y": 1, "x": 2}]}}})
    out = to_json(s)
    assert list(out["view"]) == ["bank", "farm", "forest", "zeta"] and list(out["view"]["zeta"]) == ["a", "b"]
    assert out["view"]["zeta"]["a"] == [2, {"x": 2, "y": 1}] and list(out["view"]["zeta"]["a"][1]) == ["x", "y"]
    assert out["view"]["farm"] == 1 and isinstance(out["view"]["farm"], int)


@pytest.mark.parametrize("asynchronous", [False, True])
def test_a_rest_watch_that_goes_silent_reconnects_and_misses_nothing(server, monkeypatch, asynchronous):
    """A watch stream that died without a word (its connection silently dropped): past the
    keep-alive silence the read fails, and watch() reconnects after the last version it saw."""
    from tablero_client import _rest

    from tests.relay import FreezingRelay

    monkeypatch.setattr(_rest, "WATCH_SILENCE", 1.0)  # the server's keep-alives come every 15 s
    relay = FreezingRelay(server.http_port)
    got: list[int] = []
    try:
        with Client(rest=server.http) as direct:
            created = direct.create("tic-tac-toe", 2)
            seats = [created.seat(0), created.seat(1)]

            def watch() -> None:
                if asynchronous:
                    async def main() -> None:
                        async with AsyncClient(rest=f"http://127.0.0.1:{relay.port}") as c:
                            async for ev in c.watch(created.game.id, created.token(1), after_version=1):
                                got.append(ev.version)
                    asyncio.run(main())
                else:
                    with Client(rest=f"http://127.0.0.1:{relay.port}") as c:
                        for ev in c.watch(created.game.id, created.token(1), after_version=1):
                            got.append(ev.version)

            t = threading.Thread(target=watch, daemon=True)
            t.start()
            deadline = time.monotonic() + 10
            while relay.freeze() == 0:  # the watch's connection, silenced once it is open
                assert time.monotonic() < deadline, "the watch never connected"
                time.sleep(0.05)
            for seat, cell in DIAGONAL:
                seats[seat].act({"type": "place", "cell": cell})
            t.join(timeout=20)
            assert not t.is_alive(), "the watch hung on its silent stream"
            assert got == list(range(2, 8))
    finally:
        relay.close()


def test_a_watch_on_a_server_never_reached_gives_up_after_its_retries():
    """Patience is for a server that went away, not for a wrong address: nothing listens on
    port 9, so watch() raises after `retries` tries (about a second), not 30 s."""
    with Client(rest="http://127.0.0.1:9", retries=3, backoff=0.01) as c:
        t0 = time.monotonic()
        with pytest.raises(Unavailable):
            list(c.watch("g"))
        assert time.monotonic() - t0 < 5 and c.retry_count == 3
