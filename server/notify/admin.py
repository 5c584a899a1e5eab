"""`tablero admin webhooks`: the operator's view of the notification queue's dead letters.

    tablero admin webhooks dead-letters [--json]    # deliveries given up after TABLERO_WEBHOOKS_RETRY_FOR
    tablero admin webhooks replay (--id EVENT_ID | --all)
    tablero admin webhooks stats [TARGET ...]        # queued deliveries and oldest age per target
                                                     # (default: TABLERO_WEBHOOKS' endpoints, push, inbox
                                                     # and every other target the store has queued for)
    tablero admin webhooks drop TARGET [TARGET ...]  # delete the deliveries queued for endpoints no server
                                                     # sends to any more (removed from TABLERO_WEBHOOKS)

The store is the server's (TABLERO_REDIS_URL / TABLERO_DB or --redis-url / --db). A replayed
delivery goes back to the end of its lane (its endpoint and game) and is sent again with its
webhook-id, by whichever replica claims it. A dropped delivery is gone (its dead letters stay).
Exit codes: 0 done, 1 nothing matched, 2 bad usage (or drop of a target the settings still send to),
3 the store is unreachable.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import sys
from datetime import UTC, datetime

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from tablero.server.store import StoreError

from . import open_queue

# exit 3, as `tablero admin`'s (a file that is no SQLite database too, as its verbs say it)
UNREACHABLE = (StoreError, RedisConnectionError, RedisTimeoutError, sqlite3.DatabaseError)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tablero admin webhooks", description="dead letters of the notifications")
    p.add_argument("--redis-url", help="Redis URL (env TABLERO_REDIS_URL); without it: SQLite")
    p.add_argument("--db", help="SQLite file (env TABLERO_DB)")
    store = argparse.ArgumentParser(add_help=False)  # the same flags after the verb (SUPPRESS: keep the first)
    store.add_argument("--redis-url", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    store.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    sub = p.add_subparsers(dest="verb", required=True)
    d = sub.add_parser("dead-letters", help="list the deliveries given up", parents=[store])
    d.add_argument("--json", action="store_true", help="one JSON document per line")
    r = sub.add_parser("replay", help="queue dead letters again", parents=[store])
    g = r.add_mutually_exclusive_group(required=True)
    g.add_argument("--id", help="the event id (webhook-id) to replay")
    g.add_argument("--all", action="store_true")
    s = sub.add_parser("stats", help="queued deliveries and the oldest one's age, per target", parents=[store])
    s.add_argument("targets", nargs="*", help="endpoint ids (default: those of TABLERO_WEBHOOKS, push, inbox, and every other "
                                            "target with deliveries queued in the store)")
    x = sub.add_parser("drop", help="delete the deliveries queued for targets no server sends to any more",
                       parents=[store])
    x.add_argument("targets", nargs="+", help="endpoint ids no longer in TABLERO_WEBHOOKS (as `stats` lists them)")
    return p


def _drop_refused(targets: list[str]) -> bool:
    """`drop` of a target this shell's settings still send to (so would the servers', which would
    then miss its deliveries): an endpoint TABLERO_WEBHOOKS names, Web Push (`push`) with
    TABLERO_VAPID_PRIVATE_KEY set, the notification list (`inbox`) with TABLERO_PORTAL_KEYS set.
    Said on stderr; checked before the store is opened."""
    from .webhooks import parse_endpoints
    from .worker import INBOX, PUSH

    live = {e.id for e in parse_endpoints(os.environ.get("TABLERO_WEBHOOKS"))}
    live |= {PUSH} if os.environ.get("TABLERO_VAPID_PRIVATE_KEY") else set()
    live |= {INBOX} if os.environ.get("TABLERO_PORTAL_KEYS") else set()
    named = live & set(targets)
    if named:
        print(f"tablero admin webhooks: {', '.join(sorted(named))} is still sent to by these settings "
              "(TABLERO_WEBHOOKS, TABLERO_VAPID_PRIVATE_KEY for push, TABLERO_PORTAL_KEYS for inbox): "
              "change them there (and roll the servers) first", file=sys.stderr)
        return True
    return False


async def _drop(q, targets: list[str]) -> int:
    """`drop`: exit 1 when none of the targets had any queued."""
    total = 0
    for target in targets:
        n = await q.drop(target)
        total += n
        print(f"{target:<20} {n:>8} dropped")
    return 0 if total else 1


async def _run(ns: argparse.Namespace) -> int:
    if ns.verb == "drop" and _drop_refused(ns.targets):
        return 2
    from tablero.server.admin import store_settings

    settings = store_settings("tablero admin webhooks", ns.redis_url, ns.db)  # checked as the server's
    if settings is None:
        return 2
    redis_url, db = settings
    q = open_queue(redis_url, db)
    try:
        if ns.verb == "dead-letters":
            dead = await q.dead_letters()
            for rec in dead:
                if ns.json:
                    print(json.dumps({k: v for k, v in rec.items() if k != "raw"}, separators=(",", ":")))
                else:
                    ev = rec["item"]["event"]
                    when = datetime.fromtimestamp(rec["dead_at"], UTC).strftime("%Y-%m-%d %H:%M:%S")
                    print(f"{ev['id']}  {ev['type']:<14} game {ev['gameId']}  to {rec['target']}  "
                          f"{rec['attempts']} attempts, given up {when} UTC: {rec.get('error', '')}")
            print(f"{len(dead)} dead letter{'' if len(dead) == 1 else 's'}", file=sys.stderr)
            return 0
        if ns.verb == "replay":
            n = await q.replay("*" if ns.all else ns.id)
            print(f"{n} deliver{'y' if n == 1 else 'ies'} queued again", file=sys.stderr)
            return 0 if n else 1
        if ns.verb == "drop":
            return await _drop(q, ns.targets)
        from .webhooks import parse_endpoints

        targets = ns.targets
        if not targets:  # the configured ones (even when empty), then any other the store has queues of
            targets = [e.id for e in parse_endpoints(os.environ.get("TABLERO_WEBHOOKS"))] + ["push", "inbox"]
            targets += [t for t in await q.queued_targets() if t not in targets]
        for target, (depth, age) in (await q.stats(targets)).items():
            print(f"{target:<20} {depth:>8} queued   oldest {age:.1f} s")
        return 0
    finally:
        await q.close()


def main(argv: list[str]) -> int:
    ns = _parser().parse_args(argv)
    try:
        return asyncio.run(_run(ns))
    except UNREACHABLE as e:  # (it was a traceback and exit 1)
        print(f"tablero admin webhooks: the store is unreachable: {e}", file=sys.stderr)
        return 3
