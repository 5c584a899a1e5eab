"""`tablero admin`: the operator's path to delete or archive a game (issue 10 item 4).

    tablero admin export  GAME [--out FILE]   # the whole game as one JSON document (stdout by default)
    tablero admin archive GAME --out FILE     # export to FILE, then delete the game if it did not change
    tablero admin delete  GAME [--if-version N]
    tablero admin ratings rebuild             # every rating again from the rated games' logs
    tablero admin webhooks dead-letters | replay (--id ID | --all) | stats | drop TARGET   (server/notify/admin.py)

The store is the server's: TABLERO_REDIS_URL / TABLERO_DB (or --redis-url / --db), as for
`tablero serve`. Exit codes: 0 done, 1 no such game (or it changed meanwhile), 2 bad usage
or settings, 3 the store is unreachable. Deleting a game that replicas are serving is
safe: their next write or read finds it gone (cached metadata answers NOT_FOUND on write).
A deleted or archived game leaves the lobby too: its entry and its member of the lobby's
index (also when the game itself was gone already, e.g. expired).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from tablero.server.store import Conflict, GameNotFound, StoreError, open_store

# What an unreachable store raises: the store's own calls say StoreError; the ratings' rebuild and
# the notification queue call redis-py directly (exit 3 for all, not a traceback and exit 1).
# A file that is no SQLite database is said the same way (the store's own calls said it so already).
UNREACHABLE = (StoreError, RedisConnectionError, RedisTimeoutError, sqlite3.DatabaseError)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tablero admin", description="operator tools for the event store")
    p.add_argument("--redis-url", help="Redis URL (env TABLERO_REDIS_URL); without it: SQLite")
    p.add_argument("--db", help="SQLite file (env TABLERO_DB)")
    # The same flags after the verb, as `tablero admin webhooks stats --redis-url …` takes them
    # (SUPPRESS: one given before the verb is kept).
    store = argparse.ArgumentParser(add_help=False)
    store.add_argument("--redis-url", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    store.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    sub = p.add_subparsers(dest="verb", required=True)
    e = sub.add_parser("export", help="print (or write) everything kept of a game as JSON", parents=[store])
    e.add_argument("game")
    e.add_argument("--out", type=Path)
    a = sub.add_parser("archive", help="export a game to a file, then delete it if it did not change",
                       parents=[store])
    a.add_argument("game")
    a.add_argument("--out", type=Path, required=True)
    d = sub.add_parser("delete", help="delete everything of a game", parents=[store])
    d.add_argument("game")
    d.add_argument("--if-version", type=int, help="only if the game is at this version")
    r = sub.add_parser("ratings", help="ratings: rebuild every rating from the finished games' logs",
                       parents=[store])
    r.add_argument("action", choices=["rebuild"])
    w = sub.add_parser("webhooks", add_help=False, help="notifications: dead-letters, replay, stats, drop "
                       "(tablero admin webhooks -h)")
    w.add_argument("rest", nargs=argparse.REMAINDER)
    return p


def _out_path(out: Path) -> Path | str:
    """Where --out writes: the file a symlink names (the link stays), or a message (exit 2) when
    the path is no file that can be replaced (a folder, a device, a pipe: written atomically
    means renamed over, which would replace that thing itself)."""
    path = out.expanduser().resolve()
    if not path.parent.is_dir():
        return f"the folder of {str(out)!r} does not exist"
    if path.exists() and not path.is_file():
        return f"{str(out)!r} is not a regular file (a folder, a device or a pipe): give a file's path"
    return path


def _write_atomically(path: Path, document: dict) -> None:
    path = path.expanduser()
    fd, tmp = tempfile.mkstemp(prefix=".tablero-archive-", dir=path.parent)
    with os.fdopen(fd, "w") as f:
        json.dump(document, f, separators=(",", ":"))
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _lobby(store: Any, redis_url: str | None, db: str | None) -> Any:
    """The lobby the servers of this store keep (None: an in-memory server's, not reachable)."""
    from tablero.server.portal.lobby import RedisLobby, SQLiteLobby

    if redis_url:
        return RedisLobby(store._client)
    return SQLiteLobby(db) if db and db != ":memory:" else None


async def _entry(store: Any, redis_url: str | None, db: str | None, game_id: str) -> dict | None:
    """The game's lobby entry (who holds its seats), read before the game goes (on Redis the
    store's delete takes the entry with it)."""
    lobby = _lobby(store, redis_url, db)
    try:
        return None if lobby is None else await lobby.get(game_id)
    except Exception:  # noqa: BLE001 - only its users' notification lists depend on it
        return None


async def _leave_lobby(store: Any, redis_url: str | None, db: str | None, game_id: str,
                       entry: dict | None = None) -> None:
    """The game's lobby entry and index member go (the store's delete removes the entry on
    Redis, but the index is in another slot; the SQLite lobby is a table of its own), and so
    do its turn clock (its record and its place in the clocks' schedule) and its items in its
    users' notification lists."""
    from tablero.server.portal.clock import RedisClocks, SQLiteClocks

    lobby = _lobby(store, redis_url, db)
    try:
        if lobby is not None:
            await lobby.remove(game_id)
            await (RedisClocks(store._client) if redis_url else SQLiteClocks(db)).remove(game_id)
        await _leave_inboxes(redis_url, db, game_id, entry)
    except ValueError:  # an id no store accepts: never in the lobby
        pass
    except Exception as e:  # noqa: BLE001 - the game is gone all the same; listings drop it later
        print(f"tablero admin: {game_id} is gone, but its lobby entry or turn clock could not be removed ({e}); "
              "the servers drop them later", file=sys.stderr)


async def _leave_inboxes(redis_url: str | None, db: str | None, game_id: str, entry: dict | None) -> None:
    """The game's items go from its users' notification lists (a turn of a gone game would
    stay there, its link answering 404)."""
    users = {(s.get("user") or {}).get("id") for s in (entry or {}).get("seats", ())} - {None}
    if not users:
        return
    from tablero.server.notify import open_queue

    queue = open_queue(redis_url, db)
    try:
        for user in sorted(users):
            await queue.kv_del("inbox:" + user, game_id)
    finally:
        await queue.close()


def store_settings(prog: str, redis_url: str | None, db: str | None) -> tuple[str | None, str | None] | None:
    """The store's URL and file (server/config.py operator_store: checked as `tablero serve` checks
    them), or None once the reason was said in one line (exit 2). Unknown TABLERO_* names are
    said first, in the server's words (a misspelt TABLERO_REDIS_URL only said "no store")."""
    from tablero.server.config import ConfigError, operator_store, unknown_names_warning

    warning = unknown_names_warning()
    if warning:
        print(f"{prog}: warning: {warning}", file=sys.stderr)
    try:
        return operator_store(redis_url, db)
    except ConfigError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return None


async def _run(ns: argparse.Namespace) -> int:
    settings = store_settings("tablero admin", ns.redis_url, ns.db)
    if settings is None:
        return 2
    redis_url, db = settings
    store = open_store(redis_url, db)
    try:
        if ns.verb == "ratings":  # server/ratings (docs/ratings.md)
            from tablero.server.ratings.setup import rebuild

            print(json.dumps(await rebuild(store, redis_url, db)))
            return 0
        if ns.verb in ("export", "archive") and ns.out:
            out = _out_path(ns.out)
            if isinstance(out, str):
                print(f"tablero admin: {out} (nothing was {'archived' if ns.verb == 'archive' else 'written'})",
                      file=sys.stderr)
                return 2
            ns.out = out
        if ns.verb == "export":
            document = await store.export_game(ns.game)
            if ns.out:
                _write_atomically(ns.out, document)
            else:
                json.dump(document, sys.stdout, separators=(",", ":"))
                print()
            return 0
        if ns.verb == "archive":

            async def write(document: dict) -> None:
                _write_atomically(ns.out, document)

            entry = await _entry(store, redis_url, db, ns.game)
            document = await store.archive(ns.game, write)
            await _leave_lobby(store, redis_url, db, ns.game, entry)
            kept = len(document.get("events", ()))
            trimmed = f", versions {document.get('first_kept', 1)}-{document['version']}" if kept != document["version"] else ""
            print(f"archived {ns.game} ({kept} event{'' if kept == 1 else 's'}{trimmed}) to {ns.out}", file=sys.stderr)
            return 0
        entry = await _entry(store, redis_url, db, ns.game)
        deleted = await store.delete_game(ns.game, if_version=ns.if_version)
        await _leave_lobby(store, redis_url, db, ns.game, entry)
        if not deleted:
            print(f"tablero admin: no game {ns.game!r}", file=sys.stderr)
            return 1
        print(f"deleted {ns.game}", file=sys.stderr)
        return 0
    except GameNotFound:
        if ns.verb == "archive":
            await _leave_lobby(store, redis_url, db, ns.game)
        print(f"tablero admin: no game {ns.game!r}", file=sys.stderr)
        return 1
    except Conflict as e:
        print(f"tablero admin: {e} (it changed; nothing was deleted)", file=sys.stderr)
        return 1
    except UNREACHABLE as e:
        print(f"tablero admin: the store is unreachable: {e}", file=sys.stderr)
        return 3
    except BrokenPipeError:  # `export | head`: the reader has what it wanted
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 1
    except OSError as e:  # the file to write (a folder that is not writable, a full disk)
        where = f" {ns.out}" if getattr(ns, "out", None) else ""
        kept = " (nothing was deleted)" if ns.verb == "archive" else ""
        print(f"tablero admin: cannot write{where}: {e.strerror or e}{kept}", file=sys.stderr)
        return 2
    finally:
        await store.close()


def main(argv: list[str]) -> int:
    if argv[:1] == ["webhooks"]:  # the notifications' dead letters (server/notify/admin.py)
        from tablero.server.notify.admin import main as webhooks_main

        return webhooks_main(argv[1:])
    ns = _parser().parse_args(argv)
    if ns.verb == "webhooks":  # `tablero admin --db X webhooks stats`: the store flags passed on
        from tablero.server.notify.admin import main as webhooks_main

        store = (["--redis-url", ns.redis_url] if ns.redis_url else []) + (["--db", ns.db] if ns.db else [])
        return webhooks_main(store + ns.rest)
    return asyncio.run(_run(ns))
