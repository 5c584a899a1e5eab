"""Prometheus metrics (names fixed in ARCHITECTURE.md, prefixed tablero_)."""

from __future__ import annotations

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, Counter, Gauge, Histogram, generate_latest

RPC_REQUESTS = Counter("tablero_rpc_requests", "RPCs handled, by transport, method and status code",
                       ["transport", "method", "code"])
RPC_LATENCY = Histogram("tablero_rpc_latency_seconds", "RPC latency by transport and method",
                        ["transport", "method"])
ACTIONS = Counter("tablero_actions", "Actions submitted, by engine and result", ["engine", "result"])
REPLAYED_EVENTS = Histogram("tablero_replayed_events", "Events replayed to load a game",
                            buckets=(0, 1, 5, 10, 25, 50, 100, 250, 500, 1000, 5000))
CACHE_HITS = Counter("tablero_cache_hits", "Game loads served from the in-process cache")
CACHE_MISSES = Counter("tablero_cache_misses", "Game loads that needed the store (snapshot + replay)")
STORE_LATENCY = Histogram("tablero_store_latency_seconds", "Event store call latency by operation", ["op"])
WATCH_STREAMS = Gauge("tablero_watch_streams", "Open watch streams (gRPC + SSE)")
GAMES_CREATED = Counter("tablero_games_created", "Games created, by engine", ["engine"])
GAMES_FINISHED = Counter("tablero_games_finished", "Games that reached an outcome, by engine", ["engine"])
CONFLICTS = Counter("tablero_append_conflicts", "Optimistic-concurrency conflicts on append (retried)")


def exposition() -> tuple[bytes, str]:
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
