"""A portal's calls, as `client.notifications`, `client.players` and `client.matchmaking` (the
TypeScript SDK's `client.notifications/players/matchmaking`), over REST or gRPC alike:

    with Client(rest="http://127.0.0.1:8080", token=PORTAL_JWT) as c:
        page = c.notifications.list(unread_only=True)          # "whose turn is it" across games
        board = c.players.leaderboard("tic-tac-toe", page_size=10)
        ticket = c.matchmaking.create_ticket("tic-tac-toe", players=2, bots_after_seconds=30)
        ticket = c.matchmaking.wait(ticket.id)                 # until matched, cancelled or expired
        if ticket.matched:
            seat = c.seat(ticket.game_id, ticket.seat_token, ticket.seat)

Every call sends the client's `token` (the portal JWT) unless it is given its own `token=`.
The AsyncClient's are the same, awaited (watch_ticket and all() are async iterators).
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .errors import Unavailable
from .portal_models import (
    JSON,
    Leaderboard,
    MatchTicket,
    Notification,
    NotificationPage,
    Player,
    PushLive,
    PushRegistration,
)

if TYPE_CHECKING:
    from .client import AsyncClient, Client

__all__ = ["AsyncMatchmaking", "AsyncNotifications", "AsyncPlayers", "Matchmaking", "Notifications", "Players"]

# A seat to be notified of: a Seat handle (game_id, token), a (game_id, token) pair or {"gameId", "token"}.
SeatLike = Any


def _seat_refs(seats: Iterable[SeatLike]) -> list[JSON]:
    out = []
    for s in seats:
        if isinstance(s, Mapping):
            out.append({"gameId": s.get("gameId") or s.get("game_id"), "token": s.get("token")})
        elif isinstance(s, tuple):
            out.append({"gameId": s[0], "token": s[1]})
        else:
            out.append({"gameId": s.game_id, "token": s.token})
    return out


def _subscription(subscription: Mapping[str, Any] | str) -> JSON:
    """A browser's PushSubscription as its toJSON() gives it, or just its endpoint."""
    return {"endpoint": subscription} if isinstance(subscription, str) else dict(subscription)


def _list_request(page_size: int | None, page_token: str | None, unread_only: bool) -> JSON:
    return {"pageSize": page_size or 0, "pageToken": page_token or "", "unreadOnly": unread_only}


def _board_request(engine: str, page_size: int | None, page_token: str | None, around: str | None) -> JSON:
    return {"engine": engine, "pageSize": page_size or 0, "pageToken": page_token or "", "aroundUserId": around or ""}


def _ticket_request(engine: str, players: int | Sequence[int] | None, options: JSON | None,
                    rating_window: float | None, bots_after_seconds: float | None, timeout_seconds: float | None,
                    request_id: str | None) -> JSON:
    body: JSON = {"engine": engine, "requestId": request_id or uuid.uuid4().hex}
    if players is not None:
        body["players"] = [players] if isinstance(players, int) else list(players)
    extra = {"options": options, "ratingWindow": rating_window, "botsAfterSeconds": bots_after_seconds,
             "timeoutSeconds": timeout_seconds}
    return {**body, **{k: v for k, v in extra.items() if v is not None}}


class _Watched:
    """Versions a ticket watch has yielded, across reconnections (the stream starts again with the
    ticket as it is then)."""

    def __init__(self) -> None:
        self.version, self.failures, self.broken_since = -1, 0, 0.0

    def new(self, item: JSON) -> MatchTicket | None:
        """The ticket if it changed since the last one yielded. Any item ends an outage: a stream
        the server answered (it starts with the ticket as it is), whether or not it changed."""
        t = MatchTicket.from_json(item)
        self.failures = 0
        if t.version <= self.version and not t.done:
            return None
        self.version = t.version
        return t

    def broke(self, client: Any, error: Unavailable) -> float:
        """The backoff before reconnecting; raises `error` past the client's retries (and, once the
        ticket had come, its watch_patience), as Client.watch gives up."""
        now = time.monotonic()
        if self.failures == 0:
            self.broken_since = now
        if client._opt.watch_gives_up(self.failures, self.broken_since, self.version >= 0):
            raise error
        self.failures += 1
        client.retry_count += 1
        from .client import _backoff

        return _backoff(self.failures - 1, client._opt.backoff, client._opt.max_backoff)


class Notifications:
    """The signed-in portal user's notification list and the browser's Web Push subscriptions
    (`tablero.v1.NotificationService`). A server without notifications answers FailedPrecondition
    (reason NOTIFICATIONS_OFF)."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def _call(self, rpc: str, request: JSON, token: str | None = None) -> JSON:
        return self._client.transport.portal(rpc, request, token or self._client.token)

    def list(self, *, page_size: int | None = None, page_token: str | None = None, unread_only: bool = False,
             token: str | None = None) -> NotificationPage:
        """One page, newest first (`page_size`: default 20, at most 100), with `unread` and
        `pending_turns` counted over the whole list."""
        return NotificationPage.from_json(self._call("ListNotifications", _list_request(page_size, page_token,
                                                                                         unread_only), token))

    def all(self, *, unread_only: bool = False, page_size: int | None = None,
            token: str | None = None) -> Iterator[Notification]:
        """Every notification, page after page."""
        page_token: str | None = None
        while True:
            page = self.list(page_size=page_size, page_token=page_token, unread_only=unread_only, token=token)
            yield from page.notifications
            page_token = page.next_page_token
            if not page_token:
                return

    def mark_read(self, ids: Sequence[str] | None = None, *, token: str | None = None) -> int:
        """Marks these notifications read (none given: all); how many were unread."""
        return int(self._call("MarkNotificationsRead", {"ids": list(ids or [])}, token).get("marked", 0))

    def push_key(self) -> str:
        """The server's VAPID public key (base64url): a browser's applicationServerKey."""
        return str(self._call("GetPushKey", {}).get("publicKey", ""))

    def register_push(self, subscription: Mapping[str, Any], seats: Iterable[SeatLike] = (), *,
                      token: str | None = None) -> PushRegistration:
        """Registers a browser's push subscription (its toJSON(): endpoint, keys) for `seats`
        (Seat handles, (game_id, seat_token) pairs) and, with a portal JWT, the signed-in user.
        A temporary DNS failure of the endpoint's host is Unavailable (DNS_UNAVAILABLE): retry."""
        request = {"subscription": _subscription(subscription), "seats": _seat_refs(seats)}
        return PushRegistration.from_json(self._call("RegisterPushSubscription", request, token))

    def delete_push(self, subscription: Mapping[str, Any] | str) -> bool:
        """Removes a push subscription; whether it was registered. Only its owner may: the
        portal user it was registered for (this client's JWT; the endpoint alone will do), or
        the browser that holds it (pass its toJSON(), whose keys prove it)."""
        request = {"subscription": _subscription(subscription)}
        return bool(self._call("DeletePushSubscription", request).get("removed"))

    def set_push_live(self, game_id: str, seat_token: str, live: bool = True) -> PushLive:
        """The seat's game is shown in a visible tab (no push for it while the mark lasts) or no longer."""
        request = {"gameId": game_id, "token": seat_token, "live": live}
        return PushLive.from_json(self._call("SetPushLive", request))


class Players:
    """Leaderboards and players' ratings (`tablero.v1.PlayerService`; public calls)."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def leaderboard(self, engine: str, *, page_size: int | None = None, page_token: str | None = None,
                    around_user_id: str | None = None) -> Leaderboard:
        """The engine's board, best first, by pages (`page_size`: default 20, at most 100; tokens:
        the answer's next_page_token / previous_page_token), or the page around a user."""
        request = _board_request(engine, page_size, page_token, around_user_id)
        return Leaderboard.from_json(self._client.transport.portal("GetLeaderboard", request, None))

    def get(self, user_id: str) -> Player:
        """A portal user's ratings per engine, games, wins and recent rated games."""
        return Player.from_json(self._client.transport.portal("GetPlayer", {"userId": user_id}, None))


class Matchmaking:
    """Quick match for the portal user (`tablero.v1.MatchmakingService`; docs/matchmaking.md)."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def _call(self, rpc: str, request: JSON, token: str | None) -> MatchTicket:
        return MatchTicket.from_json(self._client.transport.portal(rpc, request, token or self._client.token))

    def create_ticket(self, engine: str, players: int | Sequence[int] | None = None, *, options: JSON | None = None,
                      rating_window: float | None = None, bots_after_seconds: float | None = None,
                      timeout_seconds: float | None = None, request_id: str | None = None,
                      token: str | None = None) -> MatchTicket:
        """Queues the user: `players`, the table sizes accepted (one or several); bots fill the
        empty seats after `bots_after_seconds`. A requestId is made when not given, so a retry (on
        UNAVAILABLE) gets the same ticket, never a second one."""
        request = _ticket_request(engine, players, options, rating_window, bots_after_seconds, timeout_seconds,
                                  request_id)
        return self._client._retried(lambda: self._call("CreateMatchTicket", request, token))

    def get_ticket(self, ticket_id: str, *, token: str | None = None) -> MatchTicket:
        return self._call("GetMatchTicket", {"ticketId": ticket_id}, token)

    def cancel_ticket(self, ticket_id: str, *, token: str | None = None) -> MatchTicket:
        """Leaves the queue. A ticket matched already stays matched (FailedPrecondition TICKET_MATCHED)."""
        return self._call("CancelMatchTicket", {"ticketId": ticket_id}, token)

    def watch_ticket(self, ticket_id: str, *, token: str | None = None) -> Iterator[MatchTicket]:
        """The ticket at each change (first as it is now), until it is matched, cancelled or
        expired; reconnects when the stream breaks, as Client.watch does."""
        seen = _Watched()
        while True:
            try:
                for item in self._client.transport.watch_ticket(ticket_id, token or self._client.token):
                    t = seen.new(item)
                    if t is not None:
                        yield t
                        if t.done:
                            return
                return
            except Unavailable as e:
                wait = seen.broke(self._client, e)
            time.sleep(wait)

    def wait(self, ticket_id: str, *, token: str | None = None) -> MatchTicket:
        """The ticket once it is matched, cancelled or expired."""
        last = None
        for t in self.watch_ticket(ticket_id, token=token):
            last = t
        return last if last is not None else self.get_ticket(ticket_id, token=token)


class AsyncNotifications:
    """The asyncio twin of Notifications."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def _call(self, rpc: str, request: JSON, token: str | None = None) -> JSON:
        return await self._client.transport.portal(rpc, request, token or self._client.token)

    async def list(self, *, page_size: int | None = None, page_token: str | None = None, unread_only: bool = False,
                   token: str | None = None) -> NotificationPage:
        request = _list_request(page_size, page_token, unread_only)
        return NotificationPage.from_json(await self._call("ListNotifications", request, token))

    async def all(self, *, unread_only: bool = False, page_size: int | None = None,
                  token: str | None = None) -> AsyncIterator[Notification]:
        page_token: str | None = None
        while True:
            page = await self.list(page_size=page_size, page_token=page_token, unread_only=unread_only, token=token)
            for n in page.notifications:
                yield n
            page_token = page.next_page_token
            if not page_token:
                return

    async def mark_read(self, ids: Sequence[str] | None = None, *, token: str | None = None) -> int:
        return int((await self._call("MarkNotificationsRead", {"ids": list(ids or [])}, token)).get("marked", 0))

    async def push_key(self) -> str:
        return str((await self._call("GetPushKey", {})).get("publicKey", ""))

    async def register_push(self, subscription: Mapping[str, Any], seats: Iterable[SeatLike] = (), *,
                            token: str | None = None) -> PushRegistration:
        request = {"subscription": _subscription(subscription), "seats": _seat_refs(seats)}
        return PushRegistration.from_json(await self._call("RegisterPushSubscription", request, token))

    async def delete_push(self, subscription: Mapping[str, Any] | str) -> bool:
        request = {"subscription": _subscription(subscription)}
        return bool((await self._call("DeletePushSubscription", request)).get("removed"))

    async def set_push_live(self, game_id: str, seat_token: str, live: bool = True) -> PushLive:
        request = {"gameId": game_id, "token": seat_token, "live": live}
        return PushLive.from_json(await self._call("SetPushLive", request))


class AsyncPlayers:
    """The asyncio twin of Players."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def leaderboard(self, engine: str, *, page_size: int | None = None, page_token: str | None = None,
                          around_user_id: str | None = None) -> Leaderboard:
        request = _board_request(engine, page_size, page_token, around_user_id)
        return Leaderboard.from_json(await self._client.transport.portal("GetLeaderboard", request, None))

    async def get(self, user_id: str) -> Player:
        return Player.from_json(await self._client.transport.portal("GetPlayer", {"userId": user_id}, None))


class AsyncMatchmaking:
    """The asyncio twin of Matchmaking."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    async def _call(self, rpc: str, request: JSON, token: str | None) -> MatchTicket:
        return MatchTicket.from_json(await self._client.transport.portal(rpc, request, token or self._client.token))

    async def create_ticket(self, engine: str, players: int | Sequence[int] | None = None, *,
                            options: JSON | None = None, rating_window: float | None = None,
                            bots_after_seconds: float | None = None, timeout_seconds: float | None = None,
                            request_id: str | None = None, token: str | None = None) -> MatchTicket:
        request = _ticket_request(engine, players, options, rating_window, bots_after_seconds, timeout_seconds,
                                  request_id)
        return await self._client._retried(lambda: self._call("CreateMatchTicket", request, token))

    async def get_ticket(self, ticket_id: str, *, token: str | None = None) -> MatchTicket:
        return await self._call("GetMatchTicket", {"ticketId": ticket_id}, token)

    async def cancel_ticket(self, ticket_id: str, *, token: str | None = None) -> MatchTicket:
        return await self._call("CancelMatchTicket", {"ticketId": ticket_id}, token)

    async def watch_ticket(self, ticket_id: str, *, token: str | None = None) -> AsyncIterator[MatchTicket]:
        seen = _Watched()
        while True:
            try:
                async for item in self._client.transport.watch_ticket(ticket_id, token or self._client.token):
                    t = seen.new(item)
                    if t is not None:
                        yield t
                        if t.done:
                            return
                return
            except Unavailable as e:
                wait = seen.broke(self._client, e)
            await asyncio.sleep(wait)

    async def wait(self, ticket_id: str, *, token: str | None = None) -> MatchTicket:
        last = None
        async for t in self.watch_ticket(ticket_id, token=token):
            last = t
        return last if last is not None else await self.get_ticket(ticket_id, token=token)
