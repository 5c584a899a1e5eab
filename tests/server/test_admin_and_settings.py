"""`tablero admin delete|archive|export` on a real Redis, and the new settings (issue 10)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest
from tablero.server.app import commands as cmd
from tablero.server.app.service import GameService
from tablero.server.auth import TokenSigner
from tablero.server.config import Config, ConfigError
from tablero.server.store.redis import RedisStore


def _admin(redis_url: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tablero.server", "admin", "--redis-url", redis_url, *args],
                          capture_output=True, text=True, timeout=60)


async def _game(redis_url: str) -> str:
    store = RedisStore(redis_url)
    try:
        games = GameService(store, TokenSigner("s"))
        gid = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
        await games.submit_action(cmd.SubmitAction(gid, 0, {"type": "place", "cell": 4}))
        await games.games.drain()
        return gid
    finally:
        await store.close()


async def _exists(redis_url: str, gid: str) -> bool:
    store = RedisStore(redis_url)
    try:
        await store.version(gid)
        return True
    except Exception:
        return False
    finally:
        await store.close()


async def test_archive_writes_the_whole_game_then_deletes_it(redis_url, tmp_path):
    gid = await _game(redis_url)
    out = tmp_path / "g.json"
    r = await asyncio.to_thread(_admin, redis_url, "archive", gid, "--out", str(out))
    assert r.returncode == 0, r.stderr
    doc = json.loads(out.read_text())
    assert doc["game_id"] == gid and doc["version"] == 2 and len(doc["events"]) == 2
    assert doc["events"][1]["cell"] == 4
    assert not await _exists(redis_url, gid)
    again = await asyncio.to_thread(_admin, redis_url, "delete", gid)
    assert again.returncode == 1 and "no game" in again.stderr


async def test_archive_of_a_trimmed_game_says_how_many_events_it_wrote(redis_url, tmp_path):
    store = RedisStore(redis_url, trim_on_snapshot=True)
    try:
        await store.create("trimmed", {"engine": "x"}, [{"type": "start"}])
        for v in range(1, 6):
            await store.append("trimmed", v, [{"type": "step", "n": v}])
        await store.put_snapshot("trimmed", 4, {"n": 3})
        assert await store.trim("trimmed") == 4
    finally:
        await store.close()
    out = tmp_path / "t.json"
    r = await asyncio.to_thread(_admin, redis_url, "archive", "trimmed", "--out", str(out))
    assert r.returncode == 0, r.stderr
    doc = json.loads(out.read_text())
    assert doc["first_kept"] == 4 and len(doc["events"]) == 3 and doc["version"] == 6
    assert "(3 events, versions 4-6)" in r.stderr, r.stderr


async def test_delete_checks_the_version_when_asked(redis_url):
    gid = await _game(redis_url)
    r = await asyncio.to_thread(_admin, redis_url, "delete", gid, "--if-version", "1")
    assert r.returncode == 1 and "changed" in r.stderr and await _exists(redis_url, gid)
    r = await asyncio.to_thread(_admin, redis_url, "delete", gid, "--if-version", "2")
    assert r.returncode == 0, r.stderr
    assert not await _exists(redis_url, gid)


async def _listed_game(redis_url: str) -> str:
    """A game with its lobby entry and index member, as a server writes them."""
    import redis.asyncio as aioredis
    from tablero.server.portal.lobby import RedisLobby

    store = RedisStore(redis_url)
    client = aioredis.from_url(redis_url)
    try:
        games = GameService(store, TokenSigner("s"), lobby=RedisLobby(client, fast=store._lean[0]))
        gid = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
        await games.submit_action(cmd.SubmitAction(gid, 0, {"type": "place", "cell": 4}))
        await games.games.drain()
        return gid
    finally:
        await client.aclose()
        await store.close()


async def _in_lobby(redis_url: str, gid: str) -> tuple[bool, bool]:
    """(the entry exists, the index has the game)."""
    import redis.asyncio as aioredis
    from tablero.server.store.redis import game_keys

    client = aioredis.from_url(redis_url)
    try:
        return bool(await client.exists(game_keys(gid).lobby)), await client.zscore("tablero:lobby", gid) is not None
    finally:
        await client.aclose()


@pytest.mark.parametrize("verb", ["delete", "archive"])
async def test_delete_and_archive_take_the_game_out_of_the_lobby(redis_url, tmp_path, verb):
    gid = await _listed_game(redis_url)
    assert await _in_lobby(redis_url, gid) == (True, True)
    out = ["--out", str(tmp_path / "g.json")] if verb == "archive" else []
    r = await asyncio.to_thread(_admin, redis_url, verb, gid, *out)
    assert r.returncode == 0, r.stderr
    assert not await _exists(redis_url, gid)
    assert await _in_lobby(redis_url, gid) == (False, False)


async def test_delete_of_a_gone_game_removes_what_the_lobby_kept_of_it(redis_url):
    """An entry left by an older server (no TTL) after its game expired: `admin delete`
    says there is no such game, and removes the entry and index member all the same."""
    import redis.asyncio as aioredis

    gid = await _listed_game(redis_url)
    client = aioredis.from_url(redis_url)
    try:
        for key in ("events", "meta", "claimed", "req"):
            await client.delete(f"tablero:{{{gid}}}:{key}")
    finally:
        await client.aclose()
    assert await _in_lobby(redis_url, gid) == (True, True)
    r = await asyncio.to_thread(_admin, redis_url, "delete", gid)
    assert r.returncode == 1 and "no game" in r.stderr
    assert await _in_lobby(redis_url, gid) == (False, False)


async def test_delete_on_sqlite_takes_the_game_out_of_the_lobby(tmp_path):
    from tablero.server.portal.lobby import SQLiteLobby
    from tablero.server.store import SQLiteStore

    db = str(tmp_path / "t.db")
    store = SQLiteStore(db)
    try:
        games = GameService(store, TokenSigner("s"), lobby=SQLiteLobby(db))
        gid = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
        await games.games.drain()
    finally:
        await store.close()
    assert await SQLiteLobby(db).get(gid) is not None
    r = await asyncio.to_thread(
        lambda: subprocess.run([sys.executable, "-m", "tablero.server", "admin", "--db", db, "delete", gid],
                               capture_output=True, text=True, timeout=60))
    assert r.returncode == 0, r.stderr
    assert await SQLiteLobby(db).get(gid) is None


def test_more_than_one_worker_needs_a_shared_store():
    with pytest.raises(ConfigError, match="TABLERO_WORKERS=2: more than one worker needs a shared store"):
        Config.load(workers=2)
    assert Config.load(workers=2, redis_url="redis://x:6379/0").workers == 2


def test_store_settings_are_validated_and_reach_the_store(monkeypatch):
    monkeypatch.setenv("TABLERO_STORE_WRITE_POOL_SIZE", "0")
    with pytest.raises(ConfigError, match="TABLERO_STORE_WRITE_POOL_SIZE"):
        Config.load()
    monkeypatch.setenv("TABLERO_STORE_WRITE_POOL_SIZE", "4")
    monkeypatch.setenv("TABLERO_FINISHED_TTL", "3600")
    monkeypatch.setenv("TABLERO_TRIM_ON_SNAPSHOT", "true")
    options = Config.load().store_options()
    assert options["write_pool_size"] == 4 and options["finished_ttl"] == 3600 and options["trim_on_snapshot"]
    monkeypatch.setenv("TABLERO_FINISHED_TTL", "")
    assert Config.load().store_options()["finished_ttl"] is None
    monkeypatch.setenv("TABLERO_ABANDONED_TTL", "-1")
    with pytest.raises(ConfigError, match="TABLERO_ABANDONED_TTL"):
        Config.load()



def test_a_deleted_game_is_not_found_by_a_watch_on_a_replica_that_had_it_cached(redis_url):
    """`admin delete` from another process: the replica that created the game (its state and
    metadata cached) answers an open watch and a new one NOT_FOUND, not UNAVAILABLE (which
    clients retry for ever), and then refuses watches with 404 before streaming."""
    import socket

    from tests import plainhttp
    from tests.server.support import ServerThread

    def open_watch(port: int, gid: str) -> socket.socket:
        s = socket.create_connection(("127.0.0.1", port))
        s.settimeout(30)
        s.sendall(f"GET /v1/games/{gid}/watch HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
        return s

    def read_until(s: socket.socket, *markers: bytes) -> bytes:
        got = b""
        while not any(m in got for m in markers):
            chunk = s.recv(4096)
            if not chunk:
                break
            got += chunk
        return got

    with ServerThread(redis_url=redis_url) as server:
        created = plainhttp.post(f"{server.http}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
        gid = created["game"]["id"]
        early = open_watch(server.http_port, gid)
        assert b"id: 1" in read_until(early, b"id: 1")
        assert _admin(redis_url, "delete", gid).returncode == 0
        with early:  # the open watch: told when its feed finds the game gone
            body = read_until(early, b"NOT_FOUND", b"UNAVAILABLE", b"event: reset")
            assert b"event: tablero-error" in body and b"NOT_FOUND" in body and b"GAME_NOT_FOUND" in body, body
        with open_watch(server.http_port, gid) as s:  # a new one on the same replica
            body = read_until(s, b"NOT_FOUND", b"UNAVAILABLE")
            assert b"NOT_FOUND" in body, body
        r = plainhttp.get(f"{server.http}/v1/games/{gid}/watch")
        assert r.status_code == 404 and r.json()["error"]["code"] == "NOT_FOUND"


async def test_delete_takes_the_turn_clock_too(redis_url):
    """A game with a turn clock: its record and its place in the clocks' schedule go with it
    (they were left until the deadline, up to the clock's length)."""
    import redis.asyncio as aioredis
    from tablero.server.portal.clock import RedisClocks

    store = RedisStore(redis_url)
    client = aioredis.from_url(redis_url)
    try:
        games = GameService(store, TokenSigner("s"), clocks=RedisClocks(client))
        gid = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2, clock={"moveSeconds": 604800})))["game"]["id"]
        await games.games.drain()
        assert await client.zscore("tablero:clocks", gid) is not None
        assert await RedisClocks(client).get(gid) is not None
        r = await asyncio.to_thread(_admin, redis_url, "delete", gid)
        assert r.returncode == 0, r.stderr
        assert await client.zscore("tablero:clocks", gid) is None
        assert await RedisClocks(client).get(gid) is None
    finally:
        await store.close()
        await client.aclose()


@pytest.mark.parametrize("args", [[], ["--db", ":memory:"], ["--db", "/nonexistent/typo.db"]])
def test_admin_without_a_store_says_so_instead_of_no_game(args, tmp_path, monkeypatch):
    """Without TABLERO_REDIS_URL / TABLERO_DB (or with a mistyped --db) there is no store to
    look in: exit 2 saying so, not "no game" (which reads as: already deleted)."""
    env = {k: v for k, v in __import__("os").environ.items() if k not in ("TABLERO_REDIS_URL", "TABLERO_DB")}
    r = subprocess.run([sys.executable, "-m", "tablero.server", "admin", *args, "export", "abc"],
                       capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert "no game" not in r.stderr
    assert ("no SQLite file" if "typo" in " ".join(args) else "no store configured") in r.stderr
    assert not (tmp_path / "typo.db").exists()


async def test_delete_takes_the_games_items_out_of_its_users_notification_lists(redis_url):
    """An outside pass deleted a running game with `admin delete` and its user's list kept a
    "turn" item whose link answered 404: the game's items go with it."""
    import redis.asyncio as aioredis
    from tablero.server.notify import open_queue
    from tablero.server.notify.inbox import Inbox
    from tablero.server.portal.identity import User
    from tablero.server.portal.lobby import RedisLobby

    store = RedisStore(redis_url)
    client = aioredis.from_url(redis_url)
    queue = open_queue(redis_url, None)
    try:
        games = GameService(store, TokenSigner("s"), lobby=RedisLobby(client))
        gid = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seats=("me", "open"),
                                                      user=User("del-ann"))))["game"]["id"]
        other = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2, seats=("me", "open"),
                                                        user=User("del-ann"))))["game"]["id"]
        await games.games.drain()
        inbox = Inbox(queue)
        for g in (gid, other):  # as the notifier records a turn of hers
            await queue.kv_set("inbox:del-ann", g, json.dumps({"id": f"evt_{g}", "kind": "turn", "gameId": g,
                                                               "seat": 0, "version": 1, "timestamp": 1.0,
                                                               "read": False, "data": {}}))
        r = await asyncio.to_thread(_admin, redis_url, "delete", gid)
        assert r.returncode == 0, r.stderr
        assert [n["gameId"] for n in (await inbox.list("del-ann"))["notifications"]] == [other]
    finally:
        await queue.close()
        await store.close()
        await client.aclose()


async def test_a_file_that_cannot_be_written_is_said_in_one_line_and_nothing_is_deleted(redis_url, tmp_path):
    """An outside pass got tracebacks (exit 1, which reads as "no such game") for an export to a
    missing folder and an archive to one that cannot be written, and one for `export | head`."""
    gid = await _game(redis_url)
    r = await asyncio.to_thread(_admin, redis_url, "export", gid, "--out", str(tmp_path / "no" / "x.json"))
    assert r.returncode == 2 and "Traceback" not in r.stderr and "does not exist" in r.stderr, r.stderr
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if not __import__("os").access(locked, __import__("os").W_OK):  # (root writes anywhere: skipped then)
            r = await asyncio.to_thread(_admin, redis_url, "archive", gid, "--out", str(locked / "x.json"))
            assert r.returncode == 2 and "Traceback" not in r.stderr and "cannot write" in r.stderr, r.stderr
    finally:
        locked.chmod(0o700)
    r = await asyncio.to_thread(_admin, redis_url, "archive", gid, "--out", "/proc/x.json")  # no file can go there
    assert r.returncode == 2 and "Traceback" not in r.stderr and "nothing was deleted" in r.stderr, r.stderr
    assert await _exists(redis_url, gid)
    piped = await asyncio.to_thread(lambda: subprocess.run(
        f"{sys.executable} -m tablero.server admin --redis-url {redis_url} export {gid} | head -c 10",
        shell=True, capture_output=True, text=True, timeout=60))
    assert "Traceback" not in piped.stderr and len(piped.stdout) == 10, piped.stderr


async def test_out_is_a_file_a_link_names_and_never_a_folder_device_or_pipe(redis_url, tmp_path):
    """The verifying pass archived to /dev/full as root: the atomic rename replaced the device with
    a file, exit 0, and the game was deleted; a FIFO and a symlink were replaced as well. A path
    that is no regular file is refused (exit 2, nothing archived); a symlink's file is written."""
    import os

    gid = await _game(redis_url)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for out in (fifo, tmp_path):
        r = await asyncio.to_thread(_admin, redis_url, "archive", gid, "--out", str(out))
        assert r.returncode == 2 and "not a regular file" in r.stderr and "Traceback" not in r.stderr, r.stderr
        assert out.exists() and not out.is_file()
    assert await _exists(redis_url, gid)
    target, link = tmp_path / "target.json", tmp_path / "link.json"
    link.symlink_to(target)
    r = await asyncio.to_thread(_admin, redis_url, "export", gid, "--out", str(link))
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and json.loads(target.read_text())["game_id"] == gid


@pytest.mark.parametrize("args", [("ratings", "rebuild"), ("webhooks", "stats"), ("webhooks", "dead-letters"),
                                  ("webhooks", "replay", "--all"), ("export", "abc")])
def test_every_admin_verb_says_an_unreachable_store_in_one_line_with_exit_3(args):
    """`ratings rebuild` and the `webhooks` verbs ended in redis-py's traceback with exit 1 when
    Redis was down; docs/operations.md gives 3 for "the store is unreachable"."""
    import socket

    with socket.socket() as s:  # a port nobody listens on once it is closed
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = _admin(f"redis://127.0.0.1:{port}/0", *args)
    assert r.returncode == 3 and "Traceback" not in r.stderr, r.stderr
    assert "the store is unreachable" in r.stderr and r.stderr.count("\n") == 1, r.stderr


@pytest.mark.parametrize("args", [("ratings", "rebuild"), ("delete", "abc"), ("archive", "abc", "--out", "OUT"),
                                  ("export", "abc")])
def test_a_db_file_that_is_no_sqlite_database_is_said_in_one_line(tmp_path, args):
    """`export` said it (exit 3); `ratings rebuild`, `delete` and `archive` ended in sqlite3's
    traceback (exit 1) from the lobby's or the ratings' own connection. Now a bad setting, as
    `tablero serve` says it (exit 2)."""
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    args = tuple(str(tmp_path / "out.json") if a == "OUT" else a for a in args)
    r = subprocess.run([sys.executable, "-m", "tablero.server", "admin", "--db", str(text), *args],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert "is not a SQLite database" in r.stderr and r.stderr.count("\n") == 1, r.stderr


async def test_the_store_flags_may_come_after_the_verb_as_for_webhooks(redis_url):
    """`tablero admin ratings rebuild --redis-url URL` was refused ("unrecognized arguments"),
    while `tablero admin webhooks stats --redis-url URL` took the flag there: every verb takes it
    before or after itself."""
    import redis

    redis_url = redis_url.rsplit("/", 1)[0] + "/7"  # a database of its own: the rebuild sees only this game
    with redis.Redis.from_url(redis_url) as r:
        r.flushdb()
    gid = await _game(redis_url)

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "tablero.server", "admin", *args],
                              capture_output=True, text=True, timeout=60)

    r = await asyncio.to_thread(run, "export", gid, "--redis-url", redis_url)
    assert r.returncode == 0 and json.loads(r.stdout)["game_id"] == gid, r.stderr
    r = await asyncio.to_thread(run, "ratings", "rebuild", "--redis-url", redis_url)
    assert r.returncode == 0, r.stderr
    r = await asyncio.to_thread(run, "delete", gid, "--if-version", "2", "--redis-url", redis_url)
    assert r.returncode == 0 and not await _exists(redis_url, gid), r.stderr
