"""Prometheus metrics (names fixed in ARCHITECTURE.md, prefixed tablero_)."""

from __future__ import annotations

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from tablero.server import metrics_workers

# No `_created` series: one per counter and histogram child, nothing a dashboard or alert reads.
disable_created_metrics()

# Latency buckets from 50 µs: most moves finish in well under a millisecond (the default
# buckets started at 5 ms, so the p50 could not be resolved), the slow tail up to 10 s.
LATENCY_BUCKETS = (0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                   0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

# Under `serve --workers N` each worker counts in its own registry and /metrics merges the
# workers' expositions (server/metrics_workers.py): counters and histograms summed, gauges summed
# over live workers, or their maximum for the gauges in GAUGE_MAX.

RPC_REQUESTS = Counter("tablero_rpc_requests", "RPCs handled, by transport, method and status code",
                       ["transport", "method", "code"])
RPC_LATENCY = Histogram("tablero_rpc_latency_seconds", "RPC latency by transport and method",
                        ["transport", "method"], buckets=LATENCY_BUCKETS)
ACTIONS = Counter("tablero_actions", "Actions submitted, by engine and result", ["engine", "result"])
REPLAYED_EVENTS = Histogram("tablero_replayed_events", "Events replayed to load a game",
                            buckets=(0, 1, 5, 10, 25, 50, 100, 250, 500, 1000, 5000))
CACHE_HITS = Counter("tablero_cache_hits", "Game loads served from the in-process cache")
CACHE_MISSES = Counter("tablero_cache_misses", "Game loads that needed the store (snapshot + replay)")
STORE_LATENCY = Histogram("tablero_store_latency_seconds", "Event store call latency by operation", ["op"],
                          buckets=LATENCY_BUCKETS)
WATCH_STREAMS = Gauge("tablero_watch_streams", "Open watch streams (gRPC + SSE)")
GAMES_CREATED = Counter("tablero_games_created", "Games created, by engine", ["engine"])
GAMES_FINISHED = Counter("tablero_games_finished", "Games that reached an outcome, by engine", ["engine"])
CONFLICTS = Counter("tablero_append_conflicts", "Optimistic-concurrency conflicts on append (retried)")

HISTORY_REWRITTEN = Counter("tablero_history_rewritten",
                            "Times a cache or write found the store's history rewritten (lost acknowledged writes)")
WATCH_RESETS = Counter("tablero_watch_resets", "Reset messages sent to watchers after a history rewrite")
BOT_STEPS = Counter("tablero_bot_steps", "Bot turns played by the background bot worker", ["engine"])
BOT_BACKLOG = Gauge("tablero_bot_backlog", "Games waiting for the bot worker")
BOT_QUEUE_DEPTH = Gauge("tablero_bot_queue_depth", "Thinking bots' turns (medium, hard) in the store's bot queue, "
                        "waiting or in thought (the bot workers' scaling metric)")
BOT_QUEUE_OLDEST = Gauge("tablero_bot_queue_oldest_seconds",
                         "How long the longest-waiting due turn in the bot queue has waited for a worker "
                         "(0 when every turn is taken or none waits)")
MATCH_TICKETS_WAITING = Gauge("tablero_match_tickets_waiting",
                              "Match tickets waiting for a match, of the engines whose matching this replica "
                              "leads (summed over replicas: every waiting ticket), as of the last matching round")
RATINGS_PENDING = Gauge("tablero_ratings_pending",
                        "Games registered for rating and not rated yet (the store's pending set: rated games "
                        "running, and finished ones the ratings sweep has still to rate), as of this replica's "
                        "last sweep; store-wide, the same on every replica")
GAMES_RUNNING = Gauge("tablero_games_running",
                      "Games in progress held in this replica's cache (refreshed every few seconds)")
BUILD_INFO = Gauge("tablero_build_info", "Always 1: the running build (version, Python, store kind)",
                   ["version", "python", "store"])
HTTP_CLIENT_TIMEOUTS = Counter("tablero_http_client_timeouts",
                               "REST requests answered 408 because the client sent them too slowly, by phase "
                               "(headers: TABLERO_HEADER_TIMEOUT, body: TABLERO_BODY_TIMEOUT); the client's fault",
                               ["phase"])
REPLICA_ACK_FAILURES = Counter("tablero_store_replica_ack_failures",
                               "Appends not confirmed by TABLERO_REDIS_MIN_REPLICAS_ACK replicas in time "
                               "(answered UNAVAILABLE)")


# Gauges whose workers' values are combined by their maximum under `--workers N` (each worker sees
# the same store-wide figure, or the same build); every other gauge is the sum of the live workers'.
GAUGE_MAX = frozenset({"tablero_bot_queue_depth", "tablero_bot_queue_oldest_seconds", "tablero_build_info",
                       "tablero_notify_queue_depth", "tablero_notify_oldest_pending_seconds",
                       "tablero_ratings_pending"})


def set_build_info(store: str) -> None:
    import platform
    from importlib.metadata import PackageNotFoundError, version

    try:
        ours = version("tablero")
    except PackageNotFoundError:
        ours = "unknown"
    BUILD_INFO.labels(ours, platform.python_version(), store).set(1)


_CHILDREN: dict[tuple[object, tuple[str, ...]], object] = {}


def child(metric: Counter | Histogram | Gauge, *values: str):  # type: ignore[no-untyped-def]
    """`metric.labels(*values)`, kept: a label set's child is looked up once per process
    (prometheus_client's own lookup takes a lock and costs several µs per request)."""
    key = (metric, values)
    found = _CHILDREN.get(key)
    if found is None:
        found = _CHILDREN[key] = metric.labels(*values)
    return found


def exposition() -> tuple[bytes, str]:
    where = metrics_workers.directory()
    if where is not None:  # `serve --workers N`: the merge over all workers
        return metrics_workers.exposition(where, GAUGE_MAX), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
