"""Notifications (issue 32): signed webhooks, Web Push "your turn", the in-app list.

    events.py    notification events derived from a game's log (pure)
    queue.py     the durable queue: signals, per-game lanes, dead letters (Redis / SQLite)
    worker.py    the Notifier: signal after commits, derive, deliver with backoff
    webhooks.py  TABLERO_WEBHOOKS, Standard Webhooks signing, the guarded send
    webpush.py   VAPID, subscriptions, pywebpush
    inbox.py     GET /v1/notifications
    api.py       the NotificationService RPCs (proto/tablero/v1/notifications.proto)
    admin.py     `tablero admin webhooks dead-letters | replay | stats | drop`
See docs/webhooks.md.
"""

from __future__ import annotations

from typing import Any


def open_queue(redis_url: str | None, db: str | None) -> Any:
    """The queue in the server's store: Redis (its own client), else the SQLite file, else memory."""
    from .queue import RedisQueue, SQLiteQueue

    if redis_url:
        import redis.asyncio as aioredis

        if redis_url.startswith("redis+cluster://"):
            from redis.asyncio.cluster import RedisCluster

            client = RedisCluster.from_url("redis://" + redis_url.removeprefix("redis+cluster://").split(",")[0])
        else:
            client = aioredis.Redis.from_url(redis_url, socket_keepalive=True, health_check_interval=2,
                                             max_connections=64)
        return RedisQueue(client)
    return SQLiteQueue(db if db and db != ":memory:" else None)


def build(config: Any, service: Any) -> Any:
    """The Notifier the settings ask for, hooked into `service`; None when nothing is configured
    (no endpoint, no VAPID key, no portal): then no write pays for notifications."""
    from .webhooks import parse_endpoints
    from .worker import Notifier, Settings

    endpoints = parse_endpoints(config.webhooks)
    inbox = bool(config.portal_keys)
    if not endpoints and not config.vapid_private_key and not inbox:
        return None
    pusher = None
    if config.vapid_private_key:
        from .webpush import Pusher

        pusher = Pusher(config.vapid_private_key, config.vapid_subject, config.webhooks_timeout)
    settings = Settings(retry_for=config.webhooks_retry_for, backoff=config.webhooks_backoff,
                        backoff_max=config.webhooks_backoff_max, timeout=config.webhooks_timeout,
                        concurrency=config.webhooks_concurrency, allow_private=config.webhooks_allow_private,
                        sweep=config.notify_sweep)
    notifier = Notifier(open_queue(config.redis_url, config.db), service, endpoints=endpoints, pusher=pusher,
                        settings=settings, inbox=inbox)
    service.notify = notifier.signal
    service.notify_created = notifier.q.expect_open  # a creation whose signal is lost is swept up
    service.notifier = notifier  # the NotificationService RPCs (server/notify/api.py)
    return notifier
