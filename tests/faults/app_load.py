"""Bounded load through real `tablero serve` replicas, and the audit of what it left behind
(issue 17's app-level fault suite: tests/faults/test_app_faults.py, bench/faults.py).
Players use the public REST API only, as a client does: create a game, GET its legal actions, POST one with a
`requestId`, and retry the SAME requestId through any failure (connection refused or reset, timeout,
5xx/UNAVAILABLE, ABORTED), alternating replicas, until a definitive answer. Every game has SSE watchers (spectators;
they reconnect with the last version they hold, as EventSource does, and apply `reset` control messages).

`audit()` then checks, per game, against the store's log (read straight from Redis, the
source of truth) and both replicas' answers:
- every acknowledged action (2xx) is in the log exactly once, ending at the version its
  answer named (else lost, or duplicated / misplaced);
- the log replays (`engines.replay`) and re-decides: walked from its first event, every
  stretch of events is what `decide` gives for one of the submitted actions, legal there;
- every replica's GET of the game (each seat's view, the spectator's, version, to-act,
  outcome) and ListEvents (paged) equal each other and the store's log;
- every watcher's events (after its resets) equal the log, redacted for a spectator.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import redis
from redis.crc import key_slot
from tablero.engines.core.engine import clone
from tablero.engines.core.errors import EngineError
from tablero.engines.core.local import engine_for_log
from tablero.engines.core.rules import check_action
from tablero.server.app.replies import event_view
from tablero.server.store import GameNotFound
from tablero.server.store.redis import RedisStore, game_keys

from tablero import engines
from tests.faults.redis_proc import FaultyRedis
from tests.redis_server import RedisClusterServers
from tests.server.support import ROOT, ServerProcess

SECRET = "faults-secret"
RETRY_CODES = {"UNAVAILABLE", "ABORTED", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED", "INTERNAL", "UNKNOWN"}
# What the players play: (engine, players, options). goofspiel: chance (the prize deck),
# hidden information (secret bids) and simultaneous moves (both seats act at once).
GAMES = [("tic-tac-toe", 2, {}), ("goofspiel", 2, {"cards": 8})]


class Replica(ServerProcess):
    """A `tablero serve` subprocess whose output goes to a file (a pipe nobody reads would
    fill up and stall it under load); restartable on the same ports after a SIGKILL."""

    def __init__(self, env: dict[str, str]) -> None:
        super().__init__({"TABLERO_SECRET": SECRET, "TABLERO_LOG_LEVEL": "warning",
                          "TABLERO_SHUTDOWN_GRACE": "1", **env})
        fd, name = tempfile.mkstemp(prefix="tablero-replica-", suffix=".log")
        os.close(fd)
        self.log = Path(name)

    def start(self, timeout: float = 30) -> Replica:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tablero.server", "serve", "--host", "127.0.0.1",
                 "--grpc-port", str(self.grpc_port), "--http-port", str(self.http_port)],
                env=self.env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited:\n{self.log.read_text(errors='replace')[-3000:]}")
            try:
                if httpx.get(self.http + "/healthz", timeout=0.5).status_code == 200 and self._owns_port():
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def errors(self) -> list[str]:
        """Unhandled errors the server logged (a 500 is a defect, not an outage)."""
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return [line for line in text.splitlines() if "unhandled" in line.lower() or "Traceback" in line]

    def close(self) -> None:
        self.kill()
        self.log.unlink(missing_ok=True)


# --- the players ---------------------------------------------------------------------------
@dataclass
class Request:
    rid: str
    seat: int
    action: dict[str, Any]
    acked: int | None = None  # the version the 2xx answer named
    acked_at: float = 0.0
    refused: str = ""  # FAILED_PRECONDITION etc.: nothing appended (the game moved on)


@dataclass
class Watcher:
    events: list[dict[str, Any]] = field(default_factory=list)  # (redacted) events, index = version - 1
    resets: int = 0
    reconnects: int = 0
    errors: list[str] = field(default_factory=list)
    ended: bool = False
    ended_at: float = 0.0


@dataclass
class Game:
    id: str
    engine: str
    tokens: dict[int, str]
    requests: list[Request] = field(default_factory=list)
    watchers: list[Watcher] = field(default_factory=list)
    gone: bool = False  # NOT_FOUND: a rollback took the game's creation away


@dataclass
class Figures:
    scenario: str
    acknowledged: int = 0
    lost: int = 0
    duplicated: int = 0
    misplaced: int = 0
    illegal: int = 0
    diverged: int = 0  # replica views / ListEvents / watchers unequal to the store's log
    retries: int = 0
    refused: int = 0
    http_5xx: int = 0
    unexpected: int = 0  # answers no client should get (400, 403, 404, ... or a 500)
    games: int = 0
    gone: int = 0  # games whose creation a rollback undid
    resets: int = 0
    reconnects: int = 0
    ended_before_rollback: int = 0  # watches over before the rollback that hold another history
    recovery: float | None = None  # fault end -> first acknowledged write after it
    problems: list[str] = field(default_factory=list)
    lost_acked_at: list[float] = field(default_factory=list)  # when each lost action was answered
    marks: list[tuple[float, float]] = field(default_factory=list)  # a rollback's (copy, Redis back) times
    history_from: float | None = None  # the new history's start if after the fault's end (a promotion)

    def lost_outside_windows(self) -> int:
        """Lost actions answered outside every rollback's (copy, Redis back) window: a rollback to
        a copy (appendfsync always) must keep what was answered before the copy, and what is
        answered once Redis is back must be in its log."""
        return sum(not any(c <= a <= k + 0.5 for c, k in self.marks) for a in self.lost_acked_at)

    HEADER = ("| scenario | games | acknowledged | lost | duplicated | illegal | diverged | client retries "
              "| 5xx | watcher resets / reconnects | recovery |\n|---|---|---|---|---|---|---|---|---|---|---|")

    def row(self) -> str:
        rec = "n/a" if self.recovery is None else f"{self.recovery:.2f} s"
        dup = self.duplicated + self.misplaced
        lost = f"{self.lost} ({self.gone} games gone)" if self.gone else str(self.lost)
        return (f"| {self.scenario} | {self.games} | {self.acknowledged} | {lost} | {dup} | {self.illegal} "
                f"| {self.diverged} | {self.retries} | {self.http_5xx} | {self.resets} / {self.reconnects} | {rec} |")


class Load:
    """`tables` concurrent tables; each plays games one after another (one player task per
    seat) until stop(), alternating tic-tac-toe and goofspiel."""

    def __init__(self, urls: list[str], tables: int = 4, seed: int = 0, timeout: float = 4.0,
                 think: float = 0.01) -> None:
        self.urls, self.tables, self.timeout, self.think = urls, tables, timeout, think
        self.rng = random.Random(seed)
        self.games: list[Game] = []
        self.retries = self.refused = self.http_5xx = 0
        self.unexpected: list[str] = []
        self.answers_5xx: list[str] = []  # the first ones (UNAVAILABLE during an outage is expected)
        self.acks: list[float] = []
        self._stop = asyncio.Event()
        self._tasks: list[asyncio.Task] = []
        self._watch_tasks: list[asyncio.Task] = []
        self.client = httpx.AsyncClient(timeout=timeout, limits=httpx.Limits(max_connections=200))

    # -- a call with the client's retry policy
    async def call(self, method: str, path: str, *, token: str | None = None, body: Any = None,
                   start: int | None = None, give_up: float = 60.0) -> tuple[int, Any]:
        """Retries transport failures and retryable codes on the replicas in turn; returns the
        first definitive (status, body)."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        i = self.rng.randrange(len(self.urls)) if start is None else start
        deadline, pause = time.monotonic() + give_up, 0.02
        while True:
            url = self.urls[i % len(self.urls)] + path
            i += 1
            try:
                r = await self.client.request(method, url, headers=headers, json=body)
                data = r.json()
                code = data.get("error", {}).get("code", "") if isinstance(data, dict) and r.status_code >= 400 else ""
                if r.status_code < 400:
                    return r.status_code, data
                if r.status_code >= 500:
                    self.http_5xx += 1
                    if len(self.answers_5xx) < 20:
                        self.answers_5xx.append(f"{method} {path}: {r.status_code} {r.text[:300]}")
                    if code not in ("UNAVAILABLE", "DEADLINE_EXCEEDED"):
                        self.unexpected.append(f"{method} {path}: {r.status_code} {r.text[:300]}")
                if code not in RETRY_CODES:
                    return r.status_code, data
            except (httpx.TransportError, json.JSONDecodeError):
                pass
            self.retries += 1
            if time.monotonic() > deadline:
                raise TimeoutError(f"{method} {path}: no answer in {give_up} s")
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.4)

    async def _create(self, engine: str, players: int, options: dict) -> Game:
        status, out = await self.call("POST", "/v1/games", body={"engine": engine, "players": players,
                                                                  "options": options})
        assert status == 200, out
        game = Game(out["game"]["id"], engine, {s["seat"]: s["token"] for s in out["seats"]})
        self.games.append(game)
        return game

    async def _player(self, game: Game, seat: int) -> None:
        n = 0
        while True:
            status, legal = await self.call("GET", f"/v1/games/{game.id}/legal-actions?pageSize=100",
                                            token=game.tokens[seat])
            if status == 404:
                game.gone = True
                return
            if status != 200:
                self.unexpected.append(f"legal-actions {game.id}/{seat}: {status} {legal}")
                return
            if not legal.get("actions"):
                status, g = await self.call("GET", f"/v1/games/{game.id}", token=game.tokens[seat])
                if status != 200 or g["status"] == "GAME_STATUS_FINISHED" or self._stop.is_set():
                    return
                await asyncio.sleep(0.02)
                continue
            if self._stop.is_set():
                return
            action = self.rng.choice(legal["actions"])
            req = Request(f"{game.id}-{seat}-{n}", seat, action)
            n += 1
            game.requests.append(req)
            status, out = await self.call("POST", f"/v1/games/{game.id}/actions", token=game.tokens[seat],
                                          body={"action": action, "requestId": req.rid})
            if status == 200:
                req.acked, req.acked_at = out["version"], time.monotonic()
                self.acks.append(req.acked_at)
            elif status in (409, 422) and out.get("error", {}).get("code") == "FAILED_PRECONDITION":
                req.refused = out["error"]["message"]
                self.refused += 1
            elif status == 404:
                game.gone = True
                return
            else:
                self.unexpected.append(f"action {req.rid}: {status} {out}")
                return
            await asyncio.sleep(self.think * self.rng.random())

    async def _table(self, t: int) -> None:
        k = t
        while not self._stop.is_set():
            engine, players, options = GAMES[k % len(GAMES)]
            k += 1
            game = await self._create(engine, players, options)
            w = Watcher()
            game.watchers.append(w)
            self._watch_tasks.append(asyncio.ensure_future(self._watch(game, w, t)))
            await asyncio.gather(*(self._player(game, s) for s in range(players)))

    async def _watch(self, game: Game, w: Watcher, start: int) -> None:
        """A spectator's SSE stream; on any break, watch again from the last version held
        (on the other replica), as a browser's EventSource does."""
        i = start
        while not w.ended:
            url = self.urls[i % len(self.urls)]
            i += 1
            try:
                async with self.client.stream("GET", f"{url}/v1/games/{game.id}/watch?afterVersion={len(w.events)}",
                                              timeout=httpx.Timeout(self.timeout, read=30)) as r:
                    if r.status_code == 404:
                        w.ended = game.gone = True
                        return
                    if r.status_code != 200:
                        body = (await r.aread()).decode(errors="replace")
                        if r.status_code < 500:
                            w.errors.append(f"watch {r.status_code}: {body[:200]}")
                        raise httpx.TransportError("watch refused")
                    kind, data = "message", ""
                    async for line in r.aiter_lines():
                        if line.startswith("event: "):
                            kind = line[7:]
                        elif line.startswith("data: "):
                            data = line[6:]
                        elif line == "" and data:
                            self._on_item(w, kind, json.loads(data))
                            kind, data = "message", ""
                            if w.ended:
                                return
            except (httpx.TransportError, json.JSONDecodeError):
                pass
            w.reconnects += 1
            await asyncio.sleep(0.05)

    @staticmethod
    def _on_item(w: Watcher, kind: str, data: dict) -> None:
        if kind == "message":
            v = data["version"]
            if v != len(w.events) + 1:
                w.errors.append(f"event at version {v} after {len(w.events)}")
                if v <= len(w.events):
                    return
            w.events.append(data["event"])
        elif kind == "reset":
            w.resets += 1
            del w.events[data["version"]:]
        elif kind == "end":
            w.ended, w.ended_at = True, time.monotonic()
        elif kind in ("error", "tablero-error"):  # a failure is tablero-error only (issue 31)
            w.errors.append(f"error message: {data}")
        # shutdown: the stream ends, the loop watches again; the tablero-* copies of end, reset
        # and shutdown follow the former names acted on above

    def start(self) -> None:
        self._tasks = [asyncio.ensure_future(self._table(t)) for t in range(self.tables)]

    async def stop(self, timeout: float = 60) -> None:
        """Players finish the request in hand (retrying it to a definitive answer) and stop."""
        self._stop.set()
        done, pending = await asyncio.wait(self._tasks, timeout=timeout)
        for t in pending:
            t.cancel()
        for t in done:
            if t.exception() is not None:
                self.unexpected.append(f"player task failed: {t.exception()!r}")
        if pending:
            self.unexpected.append(f"{len(pending)} tables still busy {timeout} s after the stop")

    async def close(self) -> None:
        for t in self._watch_tasks:
            t.cancel()
        await asyncio.gather(*self._watch_tasks, return_exceptions=True)
        await self.client.aclose()

    def first_ack_after(self, t: float) -> float | None:
        later = [a for a in self.acks if a > t]
        return min(later) - t if later else None

    async def wait_for_ack_after(self, t: float, timeout: float = 30) -> float | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if (r := self.first_ack_after(t)) is not None:
                return r
            await asyncio.sleep(0.02)
        return None


# --- the audit -----------------------------------------------------------------------------
@dataclass
class LogAudit:
    acknowledged: int = 0
    lost: int = 0
    duplicated: int = 0
    misplaced: int = 0
    illegal: int = 0
    problems: list[str] = field(default_factory=list)
    lost_requests: list[Request] = field(default_factory=list)


def audit_log(log: list[dict], requests: list[Request]) -> LogAudit:
    """Walk the store's log from its first event: each stretch of events must be what
    `decide` gives for one submitted action, legal on the state before it (the log
    re-decides legally). An acknowledged action must be found exactly once, ending at the
    version its answer named. Engines whose `decide` draws nothing after the start
    (tic-tac-toe, goofspiel) re-decide to the very same events."""
    out = LogAudit(acknowledged=sum(r.acked is not None for r in requests))
    try:
        engines.replay(log)  # the log replays
        engine = engine_for_log(log)
    except Exception as e:  # noqa: BLE001 - any failure to replay is an illegal log
        out.illegal += 1
        out.problems.append(f"log does not replay: {e!r}")
        return out
    state = engine.evolve(None, clone(log[0]))
    found: dict[str, list[int]] = {}
    decided: dict[str, list[dict]] = {}  # the events each request's decision gave
    pos = 1
    while pos < len(log):
        fits = []
        for r in requests:
            try:
                check_action(engine, state, r.seat, r.action)
                new = engine.decide(state, r.seat, r.action, random.Random(0))
            except EngineError:
                continue
            if new and new == log[pos:pos + len(new)]:
                fits.append((r, new))
        # Two requests may decide the same events (the same move asked again after a
        # rollback lost the first): the one acknowledged at this version, else one not
        # found yet (a request found twice is a duplicate), else an acknowledged one.
        fits.sort(key=lambda f: (f[0].acked != pos + len(f[1]), f[0].rid in found, f[0].acked is None))
        match = fits[0] if fits else None
        again = [rid for rid, evs in decided.items() if evs == log[pos:pos + len(evs)]]
        if match is None and again:
            # a request's events once more, where they no longer decide legally (a retry
            # applied twice): a duplicate; the rest of the log cannot be walked
            out.duplicated += 1
            out.problems.append(f"{again[0]} appended again at {pos + 1}")
            break
        if match is None:
            out.illegal += 1
            out.problems.append(f"event {pos + 1} ({log[pos].get('type')}) is no legal decision of any request")
            break
        r, new = match
        for e in new:
            state = engine.evolve(state, clone(e))
        pos += len(new)
        found.setdefault(r.rid, []).append(pos)
        decided.setdefault(r.rid, new)
    for r in requests:
        at = found.get(r.rid, [])
        if len(at) > 1:
            out.duplicated += len(at) - 1
            out.problems.append(f"{r.rid} appended {len(at)} times, at {at}")
        if r.acked is None:
            continue
        if not at:
            out.lost += 1
            out.lost_requests.append(r)
        elif r.acked not in at:
            out.misplaced += 1
            out.problems.append(f"{r.rid} acknowledged at {r.acked}, found at {at}")
    return out


async def store_logs(redis_url: str, games: list[Game]) -> dict[str, list[dict]]:
    """The store's log of every game ([] for a game the store does not know)."""
    store = RedisStore(redis_url)
    try:
        logs = {}
        for g in games:
            try:
                logs[g.id] = await store.read(g.id)
            except GameNotFound:
                logs[g.id] = []
        return logs
    finally:
        await store.close()


async def _all_events(load: Load, url: str, game_id: str) -> list[dict]:
    events, token = [], ""
    while True:
        r = await load.client.get(f"{url}/v1/games/{game_id}/events", params={"pageSize": 7, "pageToken": token})
        r.raise_for_status()
        page = r.json()
        events.extend(page["events"])
        token = page.get("nextPageToken", "")
        if not token:
            return events


_GAME_FIELDS = ("version", "toAct", "view", "status", "outcome", "yourSeat")


async def check_views(load: Load, game: Game, log: list[dict]) -> list[str]:
    """Each replica's GetGame at every seat and as a spectator, and its ListEvents, equal
    each other and what the store's log gives."""
    engine = engine_for_log(log)
    local = engines.replay(log)
    problems = []
    for seat in [None, *sorted(game.tokens)]:
        headers = {"Authorization": f"Bearer {game.tokens[seat]}"} if seat is not None else {}
        want = {"version": len(log), "toAct": sorted(local.to_act()), "view": local.view(seat),
                "status": "GAME_STATUS_FINISHED" if local.outcome() is not None else "GAME_STATUS_RUNNING"}
        if local.outcome() is not None:
            want["outcome"] = local.outcome()
        if seat is not None:
            want["yourSeat"] = seat
        for url in load.urls:
            r = await load.client.get(f"{url}/v1/games/{game.id}", headers=headers)
            got = {k: v for k, v in r.json().items() if k in _GAME_FIELDS}
            if got != json.loads(json.dumps(want)):
                problems.append(f"{game.id} seat {seat} on {url}: {got} != store's {want}")
    redacted = [event_view(engine, e, None) for e in log]
    for url in load.urls:
        listed = await _all_events(load, url, game.id)
        if [e["version"] for e in listed] != list(range(1, len(log) + 1)) or [e["event"] for e in listed] != redacted:
            problems.append(f"{game.id} ListEvents on {url} differs from the store's log")
    return problems


async def audit(load: Load, redis_url: str, scenario: str, *, settle: float = 15.0,
                rolled_back_at: float | None = None) -> Figures:
    """After load.stop(): every invariant, per game, counted in Figures. `rolled_back_at`: when
    the store lost writes; a watch that had ended (the game was over) before then cannot be told
    the game runs again on another history: holding another, it is counted, not compared."""
    fig = Figures(scenario, games=len(load.games), retries=load.retries, refused=load.refused,
                  http_5xx=load.http_5xx, unexpected=len(load.unexpected))
    fig.problems.extend(load.unexpected[:10])
    logs = await store_logs(redis_url, load.games)
    # the watchers catch up (a push, or the sweep), then must hold the log, redacted
    deadline = time.monotonic() + settle
    want = {g.id: [event_view(engine_for_log(logs[g.id]), e, None) for e in logs[g.id]] if logs[g.id] else []
            for g in load.games}

    def ended_before(w: Watcher) -> bool:
        return rolled_back_at is not None and w.ended and w.ended_at < rolled_back_at

    def holds(w: Watcher, log: list[dict]) -> bool:
        return ended_before(w) or w.events == log

    while time.monotonic() < deadline and any(not holds(w, want[g.id]) for g in load.games for w in g.watchers):
        await asyncio.sleep(0.05)
    for g in load.games:
        if not logs[g.id]:  # created after the point a rollback went back to
            fig.gone += 1
            acked = [r for r in g.requests if r.acked is not None]
            fig.lost += len(acked)
            fig.acknowledged += len(acked)
            fig.lost_acked_at.extend(r.acked_at for r in acked)
            for url in load.urls:
                r = await load.client.get(f"{url}/v1/games/{g.id}")
                if r.status_code != 404:
                    fig.diverged += 1
                    fig.problems.append(f"{g.id}: gone from the store, {url} answers {r.status_code}")
            continue
        a = audit_log(logs[g.id], g.requests)
        if os.environ.get("FAULTS_DEBUG"):
            print(f"DEBUG {g.id} {g.engine} log {len(logs[g.id])} lost {a.lost} acked "
                  f"{sorted(r.acked for r in g.requests if r.acked)} watchers "
                  f"{[(len(w.events), w.ended, w.resets) for w in g.watchers]}")
        fig.acknowledged += a.acknowledged
        fig.lost += a.lost
        fig.duplicated += a.duplicated
        fig.misplaced += a.misplaced
        fig.illegal += a.illegal
        fig.lost_acked_at.extend(r.acked_at for r in a.lost_requests)
        fig.problems.extend(f"{g.id}: {p}" for p in a.problems)
        views = await check_views(load, g, logs[g.id])
        for w in g.watchers:
            fig.resets += w.resets
            fig.reconnects += w.reconnects
            fig.ended_before_rollback += ended_before(w) and w.events != want[g.id]
            if not holds(w, want[g.id]):
                at = next((f", first unlike at {i + 1}: {a} != the store's {b}" for i, (a, b) in enumerate(zip(
                    w.events, want[g.id], strict=False)) if a != b), "")
                views.append(f"{g.id} watcher holds {len(w.events)} events, the store {len(want[g.id])} (resets "
                             f"{w.resets}, reconnects {w.reconnects}, ended {w.ended}, errors {w.errors[:3]}{at})")
            elif w.errors:
                fig.problems.append(f"{g.id} watcher: {w.errors[:3]}")
        fig.diverged += len(views)
        fig.problems.extend(views)
    return fig


# --- scenarios (shared by tests/faults/test_app_faults.py and bench/faults.py) -------------
@dataclass
class Setup:
    """Two replicas on one store: a FaultyRedis (`redis`) or a Redis Cluster (`cluster`)."""

    redis_url: str
    replicas: list[Replica]
    redis: FaultyRedis | None = None
    cluster: RedisClusterServers | None = None

    @property
    def urls(self) -> list[str]:
        return [r.http for r in self.replicas]


def replicas_on(url: str) -> list[Replica]:
    env = {"TABLERO_REDIS_URL": url, "TABLERO_STORE_SOCKET_TIMEOUT": "3",
           "TABLERO_STORE_SOCKET_CONNECT_TIMEOUT": "1"}
    return [Replica(env), Replica(env)]


@contextmanager
def single_redis(fsync: str = "always") -> Iterator[Setup]:
    with FaultyRedis(fsync=fsync) as server:
        replicas = replicas_on(server.url)
        try:
            for r in replicas:
                r.start()
            yield Setup(server.url, replicas, redis=server)
        finally:
            for r in replicas:
                r.close()


@contextmanager
def redis_cluster() -> Iterator[Setup]:
    with RedisClusterServers() as c:
        replicas = replicas_on(c.url)
        extra: list[subprocess.Popen] = []
        c.extra = extra  # type: ignore[attr-defined]  # nodes a failover added
        try:
            for r in replicas:
                r.start()
            yield Setup(c.url, replicas, cluster=c)
        finally:
            for r in replicas:
                r.close()
            for p in extra:
                p.send_signal(signal.SIGKILL)
                p.wait()


Fault = Callable[[Setup, Load, Figures], Awaitable[float]]


async def run(setup: Setup, scenario: str, fault: Fault, *, warm: float = 1.2, after: float = 1.5,
              tables: int = 4, think: float = 0.02, repeat: int = 1, rollback: bool = False,
              quiet: bool = False) -> Figures:
    """Load; the fault `repeat` times (each returns when its outage ended; `after` seconds of
    load follow each); the players stop; the audit. recovery: the slowest of the faults."""
    for r in setup.replicas:  # a replica a scenario killed is back
        if r.proc is None or r.proc.poll() is not None:
            await asyncio.to_thread(r.start)
    server = setup.redis
    if server is not None and server.process is not None and server.running_fsync != server.fsync:
        # an earlier scenario restarted Redis with another policy (everysec): each scenario starts on the module's
        # own (a rollback's copy holds what was answered only under "always": everysec may answer before the AOF)
        await asyncio.to_thread(server.set_fsync, server.fsync)
    load = Load(setup.urls, tables=tables, seed=sum(map(ord, scenario)), think=think)
    fig = Figures(scenario)
    recoveries: list[float | None] = []
    fault_end: float | None = None
    try:
        load.start()
        await asyncio.sleep(warm)
        for _ in range(repeat):
            fault_end = await fault(setup, load, fig)
            recoveries.append(await load.wait_for_ack_after(fault_end, timeout=30))
            await asyncio.sleep(after)
        await load.stop()
        rolled_back_at = max(fault_end, fig.history_from or fault_end) if rollback and fault_end is not None else None
        audited = await audit(load, setup.redis_url, scenario, rolled_back_at=rolled_back_at)
    finally:
        await load.close()
    audited.marks = fig.marks
    audited.recovery = None if None in recoveries else max(recoveries)  # type: ignore[type-var]
    for r in setup.replicas:
        audited.problems.extend(f"{r.http}: {line}" for line in r.errors())
    if not quiet:
        print(f"\n[faults] {audited.row()}  refused {audited.refused}, watches ended before the rollback "
              f"{audited.ended_before_rollback}")
        for p in audited.problems[:15]:
            print(f"[faults]   {p}")
        if os.environ.get("FAULTS_DEBUG"):
            for line in load.answers_5xx:
                print(f"[faults]   5xx: {line}")
    return audited


def redis_kill(fsync: str, outage: float = 1.5) -> Fault:
    """SIGKILL redis-server, `outage` seconds down, restart it (AOF replayed) with `fsync`."""

    async def fault(setup: Setup, load: Load, fig: Figures) -> float:
        server = setup.redis
        assert server is not None
        await asyncio.to_thread(server.kill)
        before, server.fsync = server.fsync, fsync
        try:
            await asyncio.sleep(outage)
            await asyncio.to_thread(server.start)
        finally:
            server.fsync = before
        return time.monotonic()

    return fault


def aof_rollback(window: float = 0.4) -> Fault:
    """Copy the AOF under load, `window` seconds later SIGKILL Redis and restart it from the
    copy: the writes of the window are lost (a crash that loses acknowledged writes).
    Marks (copy time, time Redis is back) in fig.marks."""

    async def fault(setup: Setup, load: Load, fig: Figures) -> float:
        server = setup.redis
        assert server is not None
        # only under "always" is what was answered before the copy in it
        assert server.running_fsync == "always", server.running_fsync
        copied = time.monotonic()
        copy = await asyncio.to_thread(server.copy_aof)
        await asyncio.sleep(window)
        await asyncio.to_thread(server.kill)
        server.restore_aof(copy)
        await asyncio.to_thread(server.start)
        # A write that reached Redis before the kill may be answered only once Redis is back (the
        # request's bookkeeping after its append waits out the outage): the window ends then.
        fig.marks.append((copied, time.monotonic()))
        return time.monotonic()

    return fault


def replica_kill(down: float = 1.0) -> Fault:
    """SIGKILL one replica (alternately) under load; clients retry on the other; restart it
    after `down` s. Returns the kill time: the other replica should answer at once."""
    turn = [0]

    async def fault(setup: Setup, load: Load, fig: Figures) -> float:
        victim = setup.replicas[turn[0] % len(setup.replicas)]
        turn[0] += 1
        victim.kill()
        killed = time.monotonic()
        await asyncio.sleep(down)
        await asyncio.to_thread(victim.start)
        return killed

    return fault


def redis_pause(seconds: float = 2.0) -> Fault:
    async def fault(setup: Setup, load: Load, fig: Figures) -> float:
        assert setup.redis is not None
        setup.redis.pause()
        await asyncio.sleep(seconds)
        setup.redis.resume()
        return time.monotonic()

    return fault


def _slot_of(game_id: str) -> int:
    return key_slot(game_keys(game_id).events.encode())


def _role(port: int) -> str:
    client = redis.Redis(port=port)
    try:
        return str(client.info("replication").get("role"))
    finally:
        client.close()


def cluster_failover() -> Fault:
    """CLUSTER FAILOVER on a synced replica of the master that holds a live game (a replica
    is added to it first), so that master's games change node under load."""

    async def fault(setup: Setup, load: Load, fig: Figures) -> float:
        from tests.faults.test_cluster_faults import _add_replica

        c = setup.cluster
        assert c is not None
        live = [g for g in load.games if g.requests] or load.games
        # the master of the newest live game, if it is one of the cluster's first nodes (a
        # node a former failover added cannot get a replica through _add_replica)
        masters = [port for port in c.ports if _role(port) == "master"]
        probe = redis.Redis(port=masters[0])
        try:
            owners = {s[2][1] for g in reversed(live)
                      for s in probe.execute_command("CLUSTER SLOTS") if s[0] <= _slot_of(g.id) <= s[1]}
        finally:
            probe.close()
        master = next((port for port in masters if port in owners), masters[0])
        process, port = await asyncio.to_thread(_add_replica, c, master)
        c.extra.append(process)  # type: ignore[attr-defined]
        replica = redis.Redis(port=port)
        try:
            await asyncio.to_thread(replica.execute_command, "CLUSTER FAILOVER")
            while replica.info("replication").get("role") != "master":
                await asyncio.sleep(0.02)
        finally:
            replica.close()
        return time.monotonic()

    return fault


def slot_migration(games: int = 2) -> Fault:
    """Migrate the slots of `games` games being played to another master (MIGRATE key by
    key, with appends meanwhile: ASK/TRYAGAIN, then MOVED)."""

    async def fault(setup: Setup, load: Load, fig: Figures) -> float:
        from tests.faults.test_cluster_faults import _migrate_slot

        c = setup.cluster
        assert c is not None
        live = [g for g in load.games if g.requests][-games:]
        for g in live:
            await asyncio.to_thread(_migrate_slot, c, _slot_of(g.id))
        return time.monotonic()

    return fault
