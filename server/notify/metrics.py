"""Prometheus metrics of the notifications (prefixed tablero_notify_).

Counters are bumped through `count()`: in the serving process it increments them at once; in
the worker process (server/notify/process.py) the counts are gathered and sent to the parent
every second (`forward`), which exposes them on its /metrics.
"""

from __future__ import annotations

import threading
from typing import Any

from prometheus_client import Counter, Gauge

DERIVED = Counter("tablero_notify_events", "Notification events derived from committed game events")
DELIVERIES = Counter("tablero_notify_deliveries", "Delivery attempts, by target (webhook endpoint id, push, "
                     "inbox) and result (ok, failed)", ["target", "result"])
RETRIES = Counter("tablero_notify_retries", "Deliveries rescheduled after a failed attempt, by target", ["target"])
DEAD = Counter("tablero_notify_dead_letters", "Deliveries given up (moved to the dead-letter list)", ["target"])
DEPTH = Gauge("tablero_notify_queue_depth", "Deliveries queued, by target", ["target"])
OLDEST = Gauge("tablero_notify_oldest_pending_seconds", "Age of the oldest due delivery's event, by target",
               ["target"])
SWEPT = Counter("tablero_notify_swept_games", "Games whose writes were derived by the sweep, not a signal (lost signals)")
PUSH_SKIPPED = Counter("tablero_notify_push_skipped", "Web Push messages not sent: the seat watches live")
PUSH_GONE = Counter("tablero_notify_push_gone", "Web Push subscriptions removed (the push service said 404/410)")

COUNTERS = {"derived": DERIVED, "deliveries": DELIVERIES, "retries": RETRIES, "dead": DEAD,
            "swept": SWEPT, "push_skipped": PUSH_SKIPPED, "push_gone": PUSH_GONE}
_gathered: dict[tuple[str, ...], float] | None = None  # set in the worker process
_lock = threading.Lock()


def count(name: str, *labels: str, n: float = 1) -> None:
    if _gathered is None:
        metric = COUNTERS[name]
        (metric.labels(*labels) if labels else metric).inc(n)
        return
    with _lock:
        _gathered[(name, *labels)] = _gathered.get((name, *labels), 0) + n


def gather() -> None:
    """In the worker process: keep the counts for `take()` instead of exposing them."""
    global _gathered
    _gathered = {}


def take() -> list[list[Any]]:
    global _gathered
    with _lock:
        out = [[*k, v] for k, v in (_gathered or {}).items()]
        _gathered = {}
    return out


def apply(counts: list[list[Any]]) -> None:
    """In the serving process: the worker's counts."""
    for *key, n in counts:
        if key and key[0] in COUNTERS:
            count(key[0], *map(str, key[1:]), n=float(n))
