"""Quick match: the ticket RPCs, and the matching loop every replica runs (docs/matchmaking.md)."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import random
import socket
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

from tablero.server import metrics
from tablero.server.app import commands as cmd
from tablero.server.app.replies import rfc3339
from tablero.server.app.repository import new_game_id
from tablero.server.app.rules import InvalidOptions, start_event
from tablero.server.app.service import MAX_REQUEST_ID
from tablero.server.errors import (
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    OverQuota,
    PermissionDenied,
    Unauthenticated,
)
from tablero.server.logs import Outage
from tablero.server.portal.identity import User, has_control

from .matcher import matches
from .store import TooManyTickets

log = logging.getLogger("tablero.matchmaking")

ROUND = 0.1  # seconds between two matching rounds of the replica holding an engine's lease
IDLE_ROUND = 1.0  # ... while no ticket waits that it matches (a ticket made here starts one at once)
LEASE = 3.0  # seconds: a dead leader's engines are taken over after this
STALE = 5.0  # seconds after which a claimed match nobody finished is finished by any replica
WATCH_POLL = 0.25
DEFAULT_TIMEOUT, MAX_TIMEOUT = 120.0, 3600.0
STATUS = {"WAITING": "MATCH_TICKET_STATUS_WAITING", "MATCHING": "MATCH_TICKET_STATUS_WAITING",
          "MATCHED": "MATCH_TICKET_STATUS_MATCHED", "CANCELLED": "MATCH_TICKET_STATUS_CANCELLED",
          "EXPIRED": "MATCH_TICKET_STATUS_EXPIRED"}
ENDED = ("MATCHED", "CANCELLED", "EXPIRED")


def _number(w: dict[str, Any], name: str, default: float, top: float) -> float:
    v = w.get(name)
    if v is None or v == 0:
        return default
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or not 0 <= v <= top:
        raise InvalidArgument(f"{name} must be a number of seconds (or points) from 0 to {top:g}")
    return float(v)


def _without_defaults(engine: Any, options: dict[str, Any]) -> dict[str, Any]:
    """The options minus those given at the default their engine's options schema states."""
    props = (engine.options_schema or {}).get("properties") or {}
    key = json.dumps
    return {k: v for k, v in options.items()
            if not (isinstance(props.get(k), dict) and "default" in props[k]
                    and key(v, sort_keys=True) == key(props[k]["default"], sort_keys=True))}


class Matchmaking:
    def __init__(self, store: Any, games: Any) -> None:
        self.store = store
        self.games = games  # server.app.GameService
        # This replica, in the leases: host and process (for whoever looks at Redis), and a nonce.
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.formed = 0
        self.waiting = 0  # tickets waiting in the engines this replica matched in its last round
        self._added: asyncio.Event | None = None  # a ticket was made here since the last round

    # --- tickets ---------------------------------------------------------------------------
    async def create(self, w: dict[str, Any], user: User | None) -> dict[str, Any]:
        if user is None:
            raise Unauthenticated("matchmaking needs a portal JWT: Authorization: Bearer <jwt>", "TOKEN_MISSING")
        engine = self.games._engine(w.get("engine", ""))
        request_id = str(w.get("requestId") or "")
        if len(request_id) > MAX_REQUEST_ID or has_control(request_id):  # refused, as for actions: never cut
            raise InvalidArgument(f"requestId must be a string of at most {MAX_REQUEST_ID} characters, none of "
                                  "them a control character")
        # Default: the smallest table with someone to meet (a solo-capable engine's 1 only if asked).
        players = sorted({int(p) for p in (w.get("players") or [min(engine.max_seats, max(2, engine.min_seats))])})
        if not all(engine.min_seats <= p <= engine.max_seats for p in players):
            span = f"{engine.min_seats}" if engine.min_seats == engine.max_seats else \
                f"{engine.min_seats}-{engine.max_seats}"
            raise InvalidArgument(f"{engine.title} takes {span} players, not {players}")
        options = w.get("options") or {}
        if not isinstance(options, dict):
            raise InvalidArgument('"options" must be an object')
        options = _without_defaults(engine, options)  # {"cards": 6} is the game {} is: they match
        for n in players:  # options the engine refuses are refused now, not at match time
            try:
                start_event(engine, n, options, random.Random(0))
            except InvalidOptions as e:
                raise InvalidArgument(str(e)) from None
        now = time.time()
        timeout = _number(w, "timeoutSeconds", DEFAULT_TIMEOUT, MAX_TIMEOUT)
        bots_after = _number(w, "botsAfterSeconds", 0.0, MAX_TIMEOUT)
        if bots_after >= timeout:  # bots would never come: the ticket expires first
            raise InvalidArgument(f"botsAfterSeconds ({bots_after:g}) must be less than timeoutSeconds "
                                  f"({timeout:g}{', the default' if not w.get('timeoutSeconds') else ''}): "
                                  "the ticket would expire before bots fill the table")
        window = _number(w, "ratingWindow", 0.0, 1e6)
        known = await self.store.by_request(user.id, request_id) if request_id else None
        if known is not None and known["user"] == user.id:
            # A retry: its ticket, whatever the limits say now; the same id with other choices
            # is another request, refused (as CreateGame's and SubmitAction's are).
            asked = (engine.name, players, options, window, bots_after)
            made = (known["engine"], known["players"], known["options"], known["ratingWindow"], known["botsAfter"])
            if asked != made or abs(known["expires"] - known["created"] - timeout) > 0.01:
                raise InvalidArgument(f"requestId {request_id!r} was used for another match ticket (other choices); "
                                      "a new ticket needs a new requestId", "REQUEST_ID_REUSED")
            return {"ticket": self._reply(known)}
        await self.games.game_lobby.check_open_games(user.id)  # TABLERO_MAX_OPEN_GAMES_PER_USER applies
        rating = 0.0
        if self.games.ratings is not None:
            from tablero.server.ratings.model import Rating

            rating = Rating.loads((await self.games.ratings.store.get(engine.name, [user.id]))[user.id]).score
        ticket = {"id": "t" + uuid.uuid4().hex[:20], "user": user.id, "name": user.name, "engine": engine.name,
                  "players": players, "options": options, "ratingWindow": window,
                  # (times kept to the millisecond they are shown with: Redis' JSON keeps 14
                  # digits, so an unrounded time could round to another millisecond when read back)
                  "botsAfter": bots_after, "created": round(now, 3),
                  "expires": round(now + timeout, 3), "rating": rating, "status": "WAITING", "version": 1}
        try:
            ticket = await self.store.add(ticket, request_id)
        except TooManyTickets:
            raise OverQuota(f"user {user.id!r} already has the most waiting match tickets allowed; "
                            "cancel one or wait", "TICKETS_CAP") from None
        if self._added is not None:
            self._added.set()
        return {"ticket": self._reply(ticket)}

    async def is_retry(self, w: dict[str, Any], user: User | None) -> bool:
        """Whether this create repeats a request that made a ticket (it then creates nothing, so
        the create rate limit does not count it)."""
        rid = w.get("requestId")
        if user is None or not isinstance(rid, str) or not rid or len(rid) > MAX_REQUEST_ID:
            return False
        known = await self.store.by_request(user.id, rid)
        return known is not None and known["user"] == user.id

    async def _own(self, ticket_id: str, user: User | None) -> dict[str, Any]:
        if user is None:
            raise Unauthenticated("match tickets need their owner's portal JWT: Authorization: Bearer <jwt>",
                                  "TOKEN_MISSING")
        if not ticket_id:
            raise InvalidArgument("ticketId is required")
        t = await self.store.get(ticket_id)
        if t is None:
            raise NotFound(f"no match ticket {ticket_id!r}", "TICKET_NOT_FOUND")
        if t["user"] != user.id:
            raise PermissionDenied("this match ticket is another user's", "NOT_TICKET_OWNER")
        return t

    async def get(self, ticket_id: str, user: User | None) -> dict[str, Any]:
        return {"ticket": self._reply(await self._own(ticket_id, user))}

    async def cancel(self, ticket_id: str, user: User | None) -> dict[str, Any]:
        await self._own(ticket_id, user)
        t = await self.store.cancel(ticket_id, time.time())
        if t is None:
            raise NotFound(f"no match ticket {ticket_id!r}", "TICKET_NOT_FOUND")
        if t["status"] in ("MATCHED", "MATCHING"):
            raise FailedPrecondition("the ticket is matched already: play the game (or resign it)", "TICKET_MATCHED")
        return {"ticket": self._reply(t)}

    async def watch(self, ticket_id: str, user: User | None) -> AsyncIterator[dict[str, Any]]:
        first = await self._own(ticket_id, user)  # refusals before the stream starts
        return self._watch(first)

    async def _watch(self, t: dict[str, Any]) -> AsyncIterator[dict[str, Any]]:
        seen = 0
        while True:
            if t["status"] != "MATCHING" and t["version"] != seen:
                seen = t["version"]
                yield {"version": seen, "ticket": self._reply(t)}
            if t["status"] in ENDED:
                return
            await asyncio.sleep(WATCH_POLL)
            t = await self.store.get(t["id"]) or t

    def _reply(self, t: dict[str, Any]) -> dict[str, Any]:
        # Numbers as the same JSON whichever copy of the ticket answers (as made here, or read back
        # from Redis, whose JSON keeps 14 digits and writes 2.0 as 2): seconds as floats, times to
        # the millisecond.
        out = {"id": t["id"], "status": STATUS[t["status"]], "engine": t["engine"], "players": t["players"],
               "options": t.get("options") or {}, "ratingWindow": float(t.get("ratingWindow") or 0),
               "botsAfterSeconds": float(t.get("botsAfter") or 0), "createTime": round(float(t["created"]), 3),
               "expireTime": round(float(t["expires"]), 3), "rating": float(t.get("rating") or 0),
               "version": t["version"]}
        out.update(createTimestamp=rfc3339(out["createTime"]), expireTimestamp=rfc3339(out["expireTime"]))
        if t["status"] == "MATCHED":
            out.update(gameId=t["gameId"], seat=t["seat"], seatToken=self.games.signer.issue(t["gameId"], t["seat"]),
                       matchTime=round(float(t["matchTime"]), 3))
            out["matchTimestamp"] = rfc3339(out["matchTime"])
        return out

    # --- the matcher -----------------------------------------------------------------------
    async def round(self, now: float | None = None) -> int:
        """One round on this replica: finish stale matches, then match every engine whose
        lease this replica holds. Returns the matches formed."""
        now = time.time() if now is None else now
        for m in await self.store.stale(now - STALE):
            log.warning("match %s was claimed but not finished (its replica died?): finishing it", m["id"])
            await self._finish(m)
        formed = waiting = matched = 0
        for engine in await self.store.engines():
            if not await self.store.lease(engine, self.owner, LEASE):
                continue
            live = await self.store.waiting(engine)
            gone = [t["id"] for t in live if t["expires"] <= now]
            if gone:
                await self.store.expire(gone, now)
            live = [t for t in live if t["expires"] > now]
            waiting += len(live)
            for group, n in matches(live, now):
                made = await self._match(engine, group, n, now)
                formed, matched = formed + made, matched + made * len(group)
        self.formed += formed
        self.waiting = waiting
        metrics.MATCH_TICKETS_WAITING.set(waiting - matched)  # those still waiting after this round
        return formed

    async def _match(self, engine: str, group: list[dict[str, Any]], n: int, now: float) -> int:
        seats: list[dict[str, Any] | None] = [{"ticket": t["id"], "user": t["user"], "name": t.get("name")}
                                              for t in group] + [None] * (n - len(group))
        random.shuffle(seats)  # who moves first is left to chance
        match = {"id": new_game_id(), "engine": engine, "options": group[0].get("options") or {}, "seats": seats,
                 "claimed": now}
        if not await self.store.claim(match):
            return 0  # another replica took one of the tickets meanwhile
        await self._finish(match)
        return 1

    async def _finish(self, match: dict[str, Any]) -> None:
        """Create the match's game (with the id chosen at the claim: idempotent) and tell its tickets."""
        engine = self.games._engine(match["engine"])
        users = [None if s is None else {"id": s["user"], "name": s.get("name")} for s in match["seats"]]
        kinds = ["bot" if u is None else "human" for u in users]
        c = cmd.CreateGame(engine.name, len(kinds), match["options"], game_id=match["id"], matched=True)
        if not await self._exists(match["id"]):  # else made by a replica that died before telling the tickets
            try:
                await self.games._create(c, engine, kinds, users, [(k, u) for k, u in zip(kinds, users, strict=True)])
            except Exception:
                if not await self._exists(match["id"]):  # another replica finishing it made it meanwhile
                    raise
        await self.store.assign(match, time.time())

    async def _exists(self, game_id: str) -> bool:
        try:
            await self.games.games.meta(game_id)
            return True
        except NotFound:
            return False

    async def run(self, stopping: asyncio.Event) -> None:
        """Matching rounds until `stopping` is set (every replica runs this)."""
        outage = Outage(log, "matching round failed", "matching rounds work again")
        added = self._added = asyncio.Event()
        while not stopping.is_set():
            added.clear()  # (a ticket made from here on starts the next round at once)
            try:
                await self.round()
                outage.over()
            except Exception as e:  # noqa: BLE001 - the store is down, or a defect: logged, next round
                outage.failed(e)
            # Every ROUND while tickets wait here; else every IDLE_ROUND (an idle replica asked
            # its store twenty times a second for nothing), or as soon as a ticket is made here.
            wake = [asyncio.ensure_future(stopping.wait())]
            if not self.waiting:
                wake.append(asyncio.ensure_future(added.wait()))
            try:
                await asyncio.wait(wake, timeout=ROUND if self.waiting else IDLE_ROUND,
                                   return_when=asyncio.FIRST_COMPLETED)
            finally:  # (also when the loop itself is cancelled)
                for f in wake:
                    f.cancel()
