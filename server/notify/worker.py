"""The notifier of one replica: signals after commits, derivation, and delivery (see queue.py).

    notifier = Notifier(queue, service, endpoints=..., pusher=..., settings=...)
    service.notify = notifier.signal      # the hook: Bookkeeping._record and GameService._join call it
    service.notify_created = queue.expect_open  # before a creation (for the sweep; see sweep())
    await notifier.start(); ...; await notifier.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import random
import socket
import time
from typing import Any
from urllib.parse import urlsplit

import httpx
from tablero.engines.core import clone
from tablero.server.app.repository import LoadedGame
from tablero.server.errors import FailedPrecondition, NotFound
from tablero.server.logs import Outage
from tablero.server.portal.table import is_platform
from tablero.server.store.base import GameNotFound, Trimmed

from . import metrics as m
from .events import TURN_ENDED, Cursor, clock_turn, derive_meta, derive_step, unclaimed
from .webhooks import Endpoint, Refused, Sender, headers, payload, resolve, shown

log = logging.getLogger("tablero.notify")

PUSH, INBOX = "push", "inbox"
INBOX_KINDS = ("turn.started", "game.finished", TURN_ENDED)
CURSOR_TTL = 7 * 86400.0  # a finished game's cursor is kept a week (a late signal derives nothing)
MARK_WAIT = 0.5  # seconds a derivation waits for a claimed seat's lobby mark (_marked_directory)
UNMARKED_KEPT = 10_000  # claimed seats whose mark never came, remembered so as not to wait again
FAILURE_LOG_EVERY = 60.0  # seconds between two logged failed deliveries to one target


@dataclasses.dataclass
class Settings:
    retry_for: float = 86400.0  # seconds a delivery is retried before it is a dead letter
    backoff: float = 1.0  # first retry after about this long; doubles each time (jittered)
    backoff_max: float = 3600.0
    timeout: float = 10.0  # one delivery (connect + answer)
    concurrency: int = 8  # deliveries in flight per endpoint
    lease: float = 0.0  # a claimed lane is another replica's again after this long (0: 3 x timeout + 5 s)
    poll: float = 0.2  # seconds between claim rounds when idle
    allow_private: bool = False
    live_ttl: float = 30.0  # a watching tab counts as live for this long after its last sign
    sweep: float = 60.0  # an open game not derived for this long has its head checked (lost signals)


class Notifier:
    def __init__(self, queue: Any, service: Any, *, endpoints: list[Endpoint] = (), pusher: Any = None,
                 settings: Settings | None = None, inbox: bool = True) -> None:
        self.q, self.service = queue, service
        self.endpoints = {e.id: e for e in endpoints}
        self.pusher, self.inbox = pusher, inbox
        self.s = settings or Settings()
        if not self.s.lease:
            self.s.lease = 3 * self.s.timeout + 5
        self.consumer = f"{socket.gethostname()}-{os.getpid()}-{random.getrandbits(32):08x}"
        self.sender = Sender(self.s.timeout, self.s.allow_private)
        self._pending: list[str] = []
        self._flushed: asyncio.Future[None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._inflight: dict[str, int] = {}
        self._wake = asyncio.Event()
        self._stopping = False
        self._said: dict[str, float] = {}  # target -> when its last failed delivery was logged
        self._unmarked: dict[tuple[str, int], None] = {}  # claimed seats waited for in vain (bounded)
        from .webpush import Subscriptions

        self.subs = Subscriptions(queue)

    @property
    def targets(self) -> list[str]:
        return [*self.endpoints, *([PUSH] if self.pusher else []), *([INBOX] if self.inbox else [])]

    # -- 1. the hook: a game changed (awaited before the write is answered) --------------------
    async def signal(self, game_id: str) -> None:
        """Queue "game_id changed". Signals of concurrent writes go in one pipelined round trip."""
        self._pending.append(game_id)
        if self._flushed is None:
            self._flushed = asyncio.get_running_loop().create_future()
            asyncio.get_running_loop().call_soon(self._flush_soon)
        await asyncio.shield(self._flushed)

    def _flush_soon(self) -> None:
        games, fut = list(dict.fromkeys(self._pending)), self._flushed
        self._pending, self._flushed = [], None
        task = asyncio.get_running_loop().create_task(self._flush(games, fut))
        self._tasks.append(task)
        task.add_done_callback(self._tasks.remove)

    async def _flush(self, games: list[str], fut: asyncio.Future[None] | None) -> None:
        try:
            await self.q.signal(games)
        except Exception as e:  # noqa: BLE001 - the writer's bookkeeping retries it
            if fut is not None and not fut.done():
                fut.set_exception(e)
            return
        if fut is not None and not fut.done():
            fut.set_result(None)

    # -- 2. derivation --------------------------------------------------------------------------
    async def derive(self, game_id: str) -> int:
        """Derive what game_id's log implies since its cursor; queue it. Returns events derived."""
        for _ in range(5):
            raw = await self.q.cursor(game_id)
            try:
                cur, evs = await self._derive(game_id, raw)
            except NotFound:
                return 0
            deliveries = await self._deliveries(game_id, evs)
            ttl = CURSOR_TTL if cur.finished else None
            if await self.q.commit(game_id, raw, json.dumps(cur.to_json()), deliveries, ttl):
                if deliveries:
                    self._wake.set()
                m.count("derived", n=len(evs))
                return len(evs)
        raise RuntimeError("its cursor kept moving under this deriver")  # the signal stays pending: later

    async def _marked_directory(self, game_id: str, meta: dict[str, Any]) -> list[dict[str, Any]]:
        """The seat directory, once it names who took every claimed seat: a join claims its seat
        in the store, then marks it (with its portal user) in the lobby, so a derivation between
        the two would say the seat was joined by nobody (seat.joined with userId null). The mark
        follows within milliseconds; after MARK_WAIT the directory is taken as it is, and that
        seat is not waited for again."""
        claimed = set(meta.get("claimed", ()))
        waited = 0.0
        while True:
            seats = await self.service.seats.directory(game_id, meta)
            unmarked = [(game_id, s["seat"]) for s in seats if s["seat"] in claimed and not s.get("taken")]
            if not unmarked or all(key in self._unmarked for key in unmarked):
                return seats
            if waited >= MARK_WAIT:  # a join that never marked (its replica died between the two):
                for key in unmarked:  # not waited for again
                    self._unmarked[key] = None
                while len(self._unmarked) > UNMARKED_KEPT:
                    del self._unmarked[next(iter(self._unmarked))]
                return seats
            await asyncio.sleep(MARK_WAIT / 10)
            waited += MARK_WAIT / 10

    async def _derive(self, game_id: str, raw: str | None) -> tuple[Cursor, list[dict[str, Any]]]:
        games = self.service.games
        meta = await games.meta(game_id, exact=True)
        head = await games.current(game_id, meta)
        cur = Cursor.from_json(json.loads(raw)) if raw else None
        after = 0 if cur is None else cur.version
        start = entries = None
        if after < head.version:
            try:
                start = await games.at(game_id, after, meta) if after else \
                    LoadedGame(game_id, meta, head.engine, 0, None, [])
                entries = await games.store.read_entries(game_id, after_version=after)
            except (Trimmed, FailedPrecondition):  # a snapshot covers what was not derived yet: from the head on
                pass
        if unclaimed(meta, list(meta.get("claimed", ()))):
            # Joins are read after the log: a seat's join comes before its moves, so every move
            # read above finds its seat's join (seat.joined, game.started) derived first.
            meta = await games.meta(game_id, exact=True)
            # And the head is read with it: its deadlines say whether the clock runs (none runs
            # while a seat is open), so a join read here is a join whose clock runs. With the
            # metadata first read, a join between the two reads gave its seat's turn.started
            # the joiner but no deadline, and the join's own derivation a second one (`_clock`).
            head = dataclasses.replace(head, meta=meta)
        seats = await self._marked_directory(game_id, meta)
        users = [None] * meta["players"]
        for s in seats:
            users[s["seat"]] = s.get("user")
        cur, evs = derive_meta(game_id, meta, cur, list(meta.get("claimed", ())), users, head.version)
        if cur.version >= head.version:  # a join, say: no new entry; the clock may start now
            if cur.clocked:
                return cur, evs
            deadlines = {d["seat"]: d["deadline"] for d in await self.service.turn_clocks.deadlines(head)}
            return cur, evs + clock_turn(game_id, cur, evs, users, deadlines)
        deadlines = {d["seat"]: d["deadline"] for d in await self.service.turn_clocks.deadlines(head)}
        if start is None or entries is None:  # trimmed: from the head on
            kinds = head.kinds
            waiting = [s for s in head.to_act if kinds[s] != "bot"]
            return cur, evs + derive_step(game_id, head.version, {}, waiting, head.finished, head.outcome, cur,
                                          users, deadlines)
        steps = []  # (entry, the person seats to act after it, finished, outcome)
        state, platform = clone(start.state), list(start.platform)
        for entry in entries:
            if entry.version > head.version:
                break
            if is_platform(entry.event):
                platform.append(entry.event)
            else:
                state = head.engine.evolve(state, clone(entry.event))
            g = LoadedGame(game_id, meta, head.engine, entry.version, state, list(platform))
            kinds = g.kinds
            steps.append((entry, [s for s in g.to_act if kinds[s] != "bot"], g.finished, g.outcome))
        # A seat's deadline is the clock's newest (the head's): it belongs to the turn of a step
        # when the seat is still to act at every step from there to the head (the same turn).
        running = set(deadlines) if steps and steps[-1][0].version == head.version else set()
        still: list[set[int]] = []
        for _, waiting, _, _ in reversed(steps):
            running &= set(waiting)
            still.append(set(running))
        for i, ((entry, waiting, finished, outcome), seats) in enumerate(zip(steps, reversed(still), strict=True)):
            # An entry the game's end follows at once starts no turn: the move that won the game
            # passed the turn on before its last event (both in one write). A platform event
            # (a resignation, a timeout, an abandonment) is always a write of its own, so a turn
            # it ends had started: derived early or late, the same log gives the same events.
            nxt = steps[i + 1] if i + 1 < len(steps) else None
            ends = nxt is not None and nxt[2] and not is_platform(nxt[0].event)
            evs += derive_step(game_id, entry.version, entry.event, waiting, finished, outcome, cur, users,
                               {s: d for s, d in deadlines.items() if s in seats}, set() if ends else None)
        return cur, evs + clock_turn(game_id, cur, evs, users, deadlines)

    async def _deliveries(self, game_id: str, evs: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
        out = []
        now = time.time()
        for ev in evs:
            item = {"event": ev, "queued": now}
            for ep in self.endpoints.values():
                if ep.wants(ev["type"]):
                    out.append((ep.id, game_id, json.dumps(item)))
            if ev["type"] not in INBOX_KINDS:
                continue
            users = await self._users(game_id)
            if self.inbox:  # every user of the game: a turn that passed leaves their list
                for seat, uid in enumerate(users):
                    if uid:
                        out.append((INBOX, uid, json.dumps({**item, "user": uid, "seat": seat})))
            if self.pusher and ev["type"] == "turn.started":
                for seat in ev["data"].get("newly", ()):
                    uid = users[seat] if seat < len(users) else None
                    owners = [f"seat:{game_id}:{seat}", *([f"user:{uid}"] if uid else [])]
                    for sid in await self.subs.of(owners):
                        out.append((PUSH, f"{sid}:{game_id}", json.dumps({**item, "sub": sid, "seat": seat})))
        return out

    async def _users(self, game_id: str) -> list[str | None]:
        seats = await self.service.seats.directory(game_id)
        return [(s.get("user") or {}).get("id") for s in sorted(seats, key=lambda s: s["seat"])]

    async def sweep(self, limit: int = 100) -> int:
        """Check open games not derived for `Settings.sweep` seconds (oldest first, up to
        `limit`; any replica, each game once per period): derive those whose log has a write the
        cursor has not reached (its signal was lost: its replica died between the commit and the
        signal), or that may have a seat join not derived yet. Returns how many were checked."""
        taken = await self.q.take_open(self.s.sweep, limit)

        async def check(game_id: str, raw: str | None) -> None:
            cur = Cursor.from_json(json.loads(raw)) if raw else None
            try:
                version = await self.service.games.store.version(game_id)
            except (GameNotFound, NotFound):
                await self.q.forget_open(game_id)  # deleted or expired: nothing is left to derive
                return
            if cur is None or not cur.started or cur.version < version:
                if await self.derive(game_id):
                    m.count("swept")
                    log.info("notifications of game %s derived by the sweep (a lost signal)", game_id)

        results = await asyncio.gather(*(check(g, raw) for g, raw in taken), return_exceptions=True)
        for (g, _), r in zip(taken, results, strict=True):
            if isinstance(r, Exception):
                log.warning("sweep of game %s failed (checked again later): %s: %s", g, type(r).__name__, r)
        return len(taken)

    async def _sweep_loop(self) -> None:
        outage = Outage(log, "notification sweep failed", "notification sweep works again")
        while not self._stopping:
            try:
                more = await self.sweep() >= 100
                outage.over()
                if more:
                    continue  # more are due: on at once
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - the store is away: later
                outage.failed(e)
            await asyncio.sleep(min(5.0, self.s.sweep / 4))

    async def _derive_loop(self) -> None:
        # The store away: one line when it starts, one a minute, one when it is over (not one a round).
        outage = Outage(log, "notification derivation failed", "notification derivation works again")
        while not self._stopping:
            try:
                batch = await self.q.read_signals(self.consumer, 64, 1000)
                outage.over()
                # Games are independent (each one's derivation is a CAS on its own cursor). A game
                # whose derivation failed keeps its signals pending: claimed again later.
                games = list(dict.fromkeys(g for _, g in batch))
                results = await asyncio.gather(*(self.derive(g) for g in games), return_exceptions=True)
                failed = {g for g, r in zip(games, results, strict=True) if isinstance(r, BaseException)}
                for g, r in zip(games, results, strict=True):
                    if isinstance(r, BaseException):
                        log.warning("notifications of game %s not derived (retried later): %s: %s",
                                    g, type(r).__name__, r)
                await self.q.ack_signals([sid for sid, g in batch if g not in failed])
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - the store is away: the signals stay pending
                outage.failed(e)
                await asyncio.sleep(1.0)

    # -- 3. delivery ----------------------------------------------------------------------------
    async def _deliver_loop(self) -> None:
        outage = Outage(log, "notification claim failed", "notification claims work again")
        while not self._stopping:
            claimed = 0
            try:
                for target in self.targets:
                    free = self.s.concurrency - self._inflight.get(target, 0)
                    if free <= 0:
                        continue
                    for lane, token, raw, att in await self.q.claim(target, free, self.s.lease):
                        claimed += 1
                        self._inflight[target] = self._inflight.get(target, 0) + 1
                        task = asyncio.create_task(self._deliver(target, lane, token, raw, att))
                        self._tasks.append(task)
                        task.add_done_callback(self._tasks.remove)
                outage.over()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001
                outage.failed(e)
                await asyncio.sleep(1.0)
            if not claimed:
                self._wake.clear()
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.s.poll)

    async def _deliver(self, target: str, lane: str, token: str, raw: str, att: str) -> None:
        try:
            item = json.loads(raw)
            error = await self._send(target, item)
            now = time.time()
            now_us = int(now * 1_000_000)
            if error is None:
                await self.q.settle(target, lane, token, "ack", now_us)
                m.count("deliveries", target, "ok")
                return
            m.count("deliveries", target, "failed")
            if now - self._said.get(target, 0.0) >= FAILURE_LOG_EVERY:  # once a minute per target: seen, not a flood
                self._said[target] = now
                log.warning("delivery %s to %s failed (retried for %.0f s): %s", item["event"]["id"], target,
                            self.s.retry_for, error)
            a = json.loads(att) if att else {"attempts": 0, "first": now}
            a = {**a, "attempts": a["attempts"] + 1, "error": error[:300]}
            if now - a["first"] >= self.s.retry_for:
                record = {"target": target, "lane": lane, "raw": raw, "item": item, "dead_at": now, **a}
                await self.q.settle(target, lane, token, "dead", now_us, json.dumps(record))
                m.count("dead", target)
                log.warning("delivery %s to %s is a dead letter after %d attempts: %s",
                            item["event"]["id"], target, a["attempts"], error)
                return
            delay = min(self.s.backoff_max, self.s.backoff * 2 ** (a["attempts"] - 1))
            delay = delay / 2 + random.random() * delay / 2  # jitter: between half and all of it
            await self.q.settle(target, lane, token, "retry", int((now + delay) * 1_000_000), json.dumps(a))
            m.count("retries", target)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - the lease runs out and the lane is claimed again
            log.warning("delivery on %s failed to settle: %s: %s", target, type(e).__name__, e)
        finally:
            self._inflight[target] -= 1
            self._wake.set()

    async def _send(self, target: str, item: dict[str, Any]) -> str | None:
        """None when delivered; else why not (then it is retried)."""
        ev = item["event"]
        if target == INBOX:
            from .inbox import Inbox

            await Inbox(self.q).record(item["user"], item["seat"], ev)
            return None
        if target == PUSH:
            return await self._push(item)
        ep = self.endpoints.get(target)
        if ep is None:
            return "the endpoint is no longer configured"
        body = payload(ev)
        try:
            status, text = await self.sender.post(ep.url, body, headers(ep, ev["id"], body))
        except Refused as e:
            return str(e)
        except (httpx.HTTPError, TimeoutError, OSError) as e:
            return f"{type(e).__name__}: {e}"[:300]
        return None if 200 <= status < 300 else f"HTTP {status}: {text}"

    async def _push(self, item: dict[str, Any]) -> str | None:
        ev, sid = item["event"], item["sub"]
        game_id, seat = ev["gameId"], item["seat"]
        if await self.live(game_id, seat):
            m.count("push_skipped")
            return None  # the player is watching the game in an open tab
        doc = await self.subs.get(sid)
        if doc is None:
            return None  # unsubscribed since
        try:
            meta = await self.service.games.meta(game_id)
            to_act = (await self.service.games.current(game_id, meta)).to_act
        except (GameNotFound, NotFound):
            to_act = ()  # deleted (tablero admin delete) or expired since: no turn of it is left
        if seat not in to_act:
            # The turn is over (the seat moved or left, or the game ended or is gone) since it was
            # queued: a retry after the push service was down, or a backlog, says nothing stale.
            m.count("push_skipped")
            return None
        title = f"Your turn in {meta['engine'].replace('-', ' ').title()}"
        message = {"title": title, "gameId": game_id, "seat": seat, "eventId": ev["id"],
                   "url": f"/#/g/{game_id}"}
        parts = urlsplit(doc["subscription"]["endpoint"])
        try:
            await resolve(parts.hostname or "", parts.port or 443, self.s.allow_private)
            status = await self.pusher.send(doc["subscription"], message)
        except Exception as e:  # noqa: BLE001 - network, or a refused address: retry
            return f"{type(e).__name__}: {e}"[:300]
        if status in (404, 410):
            await self.subs.remove(sid)
            m.count("push_gone")
            return None
        return None if 200 <= status < 300 else f"push service answered {status}"

    async def gone(self, game_id: str) -> bool:
        """Whether the game no longer exists (deleted, or expired by a TTL)."""
        try:
            await self.service.games.store.version(game_id)
        except (GameNotFound, NotFound):
            return True
        return False

    # -- presence: a seat watching live in an open tab ------------------------------------------
    async def live(self, game_id: str, seat: int) -> bool:
        raw = await self.q.kv_get("live", f"{game_id}:{seat}")
        if raw is not None and float(raw) <= time.time():
            await self.q.kv_del("live", f"{game_id}:{seat}")  # the tab went away without saying so
        return raw is not None and float(raw) > time.time()

    async def mark_live(self, game_id: str, seat: int, until: float | None) -> None:
        key = f"{game_id}:{seat}"
        if until is None:
            await self.q.kv_del("live", key)
        else:
            await self.q.kv_set("live", key, str(until))

    # -- metrics and lifecycle ------------------------------------------------------------------
    async def _stats_loop(self) -> None:
        """The gauges of this server's targets and of the orphans: targets with deliveries queued
        that this server does not send to (an endpoint removed from TABLERO_WEBHOOKS, push without a
        VAPID key), which nothing claims. A new orphan is said in a warning (the first round: at
        start); a dropped one's series go."""
        orphans: set[str] = set()
        while not self._stopping:
            with contextlib.suppress(Exception):
                extra = [t for t in await self.q.queued_targets() if t not in self.targets]
                stats = await self.q.stats([*self.targets, *extra])
                for target, (depth, age) in stats.items():
                    m.DEPTH.labels(target).set(depth)
                    m.OLDEST.labels(target).set(age)
                for gone in orphans - set(extra):
                    for gauge in (m.DEPTH, m.OLDEST):
                        with contextlib.suppress(KeyError):
                            gauge.remove(gone)
                say_orphans({t: stats[t][0] for t in extra if t not in orphans})
                orphans = set(extra)
            await asyncio.sleep(5.0)

    async def start(self, work: bool = True, stats: bool = True) -> None:
        """The stats loop (queue depth and age, for this process's /metrics; not in the worker
        process, which has none: `stats` False), and unless `work` is False (a worker process does
        it) derivation and delivery."""
        loops = (self._derive_loop, self._deliver_loop, self._sweep_loop) if work else ()
        loops += (self._stats_loop,) if stats else ()
        if work:
            self._tasks.append(asyncio.create_task(self._check_endpoints()))
        for loop in loops:
            self._tasks.append(asyncio.create_task(loop()))

    async def _check_endpoints(self) -> None:
        """Say at start which webhook endpoints every delivery will be refused for (a private or
        loopback address without TABLERO_WEBHOOKS_ALLOW_PRIVATE=1, a name that does not resolve),
        instead of only in the metrics later. Checked again at every send (DNS may change)."""
        for ep in self.endpoints.values():
            parts = urlsplit(ep.url)
            port = parts.port or (443 if parts.scheme == "https" else 80)
            try:
                async with asyncio.timeout(self.s.timeout):
                    await resolve(parts.hostname or "", port, self.s.allow_private)
            except Refused as e:
                log.warning("webhook endpoint %s (%s): every delivery will be refused: %s", ep.id, shown(ep.url), e)
            except (OSError, TimeoutError) as e:
                log.warning("webhook endpoint %s (%s) does not resolve now: %s: %s", ep.id, shown(ep.url),
                            type(e).__name__, e)

    async def close(self) -> None:
        self._stopping = True
        for t in list(self._tasks):
            t.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.sender.close()


def say_orphans(depths: dict[str, int]) -> None:
    """Warn of targets with deliveries queued that this server does not send to: target -> how
    many (none: nothing said)."""
    if depths:
        log.warning("deliveries queued for targets this server does not send to (an endpoint removed from "
                    "TABLERO_WEBHOOKS?), which nothing claims: %s; drop them with: tablero admin webhooks drop %s",
                    ", ".join(f"{t} ({n} queued)" for t, n in depths.items()), " ".join(depths))


async def say_orphans_once(redis_url: str | None, db: str | None) -> None:
    """Without a notifier (nothing configured), at start: the targets with deliveries still
    queued in the shared store, said once (none is sent, counted or claimed here)."""
    from . import open_queue

    queue = None
    try:
        queue = open_queue(redis_url, db)
        say_orphans({t: n for t, (n, _) in (await queue.stats(await queue.queued_targets())).items()})
    except Exception as e:  # noqa: BLE001 - the store may not be up yet: nothing to say then
        log.info("queued deliveries not checked: %s: %s", type(e).__name__, e)
    finally:
        if queue is not None:
            with contextlib.suppress(Exception):
                await queue.close()
