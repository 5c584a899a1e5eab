"""The NotificationService RPCs (proto/tablero/v1/notifications.proto), served like every RPC:
REST routes and OpenAPI from the google.api.http annotations, gRPC, the same edge (identity,
rate limits, logs). Each entry: (seat need, run(games, wire, seat), errors besides INTERNAL);
server/api/edge.py turns them into its Handlers. `games.notifier` is the server's Notifier
(None: notifications are off, FAILED_PRECONDITION).
"""

from __future__ import annotations

import asyncio
import hmac
import socket
import time
from typing import Any
from urllib.parse import urlsplit

from tablero.server.api import observe
from tablero.server.errors import (
    AppError,
    FailedPrecondition,
    InvalidArgument,
    PermissionDenied,
    ResolverUnavailable,
    Unauthenticated,
)
from tablero.server.pagesize import page_size

from .inbox import DEFAULT_PAGE, MAX_PAGE, Inbox
from .webhooks import Refused, resolve

MAX_SEATS = 32
_OFF = ("notifications are off on this server (no TABLERO_WEBHOOKS, TABLERO_VAPID_PRIVATE_KEY or "
        "TABLERO_PORTAL_KEYS)")


def _notifier(games: Any, push: bool = False) -> Any:
    notifier = getattr(games, "notifier", None)
    if notifier is None:
        raise FailedPrecondition(_OFF, "NOTIFICATIONS_OFF")
    if push and notifier.pusher is None:
        raise FailedPrecondition("Web Push is off on this server (no TABLERO_VAPID_PRIVATE_KEY)", "NOTIFICATIONS_OFF")
    return notifier


def _signed_in() -> Any:
    user = observe.current().user
    if user is None:
        raise Unauthenticated("sign in: send the portal's JWT as Authorization: Bearer <jwt>", "TOKEN_MISSING")
    return user


OTHER_LIST = "it was handed out to another user, or for another unreadOnly: ask for the first page"


def _seat(games: Any, game_id: Any, token: Any) -> int:
    if not isinstance(game_id, str) or not game_id or not isinstance(token, str) or not token:
        raise InvalidArgument('each seat is {"gameId", "token"} (the seat\'s token)')
    try:
        return games.signer.verify(token, game_id)
    except AppError as e:  # TOKEN_INVALID (malformed, not ours) or WRONG_GAME, as on the game's own calls
        raise type(e)(f"that token is not a seat token of game {game_id}: {e.message}", e.reason) from None


async def list_notifications(games: Any, w: dict[str, Any], _seat_: Any) -> dict[str, Any]:
    notifier, user = _notifier(games), _signed_in()
    size = page_size(w.get("pageSize"), DEFAULT_PAGE, MAX_PAGE)
    # The inbox's own cursor, signed (server/app/paging.py) and bound to the user and unreadOnly.
    of, token = [user.id, bool(w.get("unreadOnly"))], w.get("pageToken") or ""
    try:
        after = games.pages.bound(token, "ListNotifications", of, OTHER_LIST) if token else ""
        if not isinstance(after, str):
            raise ValueError("not one this server signed")
        page = await Inbox(notifier.q).list(user.id, size, after, bool(w.get("unreadOnly")), notifier.gone)
    except ValueError as e:  # BadPageToken, or the inbox's: a pageToken it did not give
        raise InvalidArgument(f"pageToken is not one this list gave: {e}", "PAGE_TOKEN_INVALID") from None
    if page["nextPageToken"]:
        page["nextPageToken"] = games.pages.bind("ListNotifications", of, page["nextPageToken"])
    # `version` is an int64: a string in protobuf's JSON mapping (REST as Connect; the OpenAPI
    # document says so), a number only inside `data` (a Struct, as webhooks carry it).
    page["notifications"] = [{**n, "version": str(n["version"])} for n in page.get("notifications", ())]
    return page


async def mark_read(games: Any, w: dict[str, Any], _seat_: Any) -> dict[str, Any]:
    notifier, user = _notifier(games), _signed_in()
    ids = w.get("ids") or None
    return {"marked": await Inbox(notifier.q).mark_read(user.id, ids)}


# getaddrinfo's failures that say nothing of the name: the resolver could not answer now, and a
# retry may well succeed (503). EAI_NONAME and EAI_NODATA (no such name, no address) stay 400.
_TEMPORARY_DNS = frozenset(getattr(socket, n) for n in ("EAI_AGAIN", "EAI_FAIL", "EAI_MEMORY", "EAI_SYSTEM")
                           if hasattr(socket, n))


async def _check_endpoint(host: str, port: int, allow_private: bool, timeout: float) -> None:
    """A subscription's push service must resolve, to public addresses only (unless allowed):
    400 when it does not, 503 DNS_UNAVAILABLE (with Retry-After) when DNS fails for a moment."""
    try:
        async with asyncio.timeout(timeout):
            await resolve(host, port, allow_private)
    except Refused as e:
        raise InvalidArgument(f"the subscription's endpoint is refused: {e}") from None
    except socket.gaierror as e:
        if e.errno in _TEMPORARY_DNS:
            raise ResolverUnavailable(f"the subscription's endpoint host {host[:100]!r} could not be resolved for a "
                                      f"moment ({e.strerror}): retry") from None
        raise InvalidArgument(f"the subscription's endpoint is refused: {host[:100]!r} does not resolve "
                              f"({e.strerror})") from None
    except OSError as e:  # TimeoutError among them: the resolver did not answer in time
        raise ResolverUnavailable(f"the subscription's endpoint host {host[:100]!r} could not be resolved for a "
                                  f"moment ({type(e).__name__}): retry") from None


async def push_key(games: Any, w: dict[str, Any], _seat_: Any) -> dict[str, Any]:
    return {"publicKey": _notifier(games, push=True).pusher.public_key}


async def register(games: Any, w: dict[str, Any], _seat_: Any) -> dict[str, Any]:
    from .webpush import (  # pywebpush is imported only where Web Push is used
        check_keys,
        check_subscription,
        subscription_id,
    )

    notifier = _notifier(games, push=True)
    try:
        sub = check_subscription(w.get("subscription"))
    except ValueError as e:
        raise InvalidArgument(str(e)) from None
    parts = urlsplit(sub["endpoint"])
    # a push service on the internet (the send checks again: DNS may change)
    await _check_endpoint(parts.hostname or "", parts.port or 443, notifier.s.allow_private, notifier.s.timeout)
    try:
        check_keys(sub)
    except ValueError as e:
        raise InvalidArgument(str(e)) from None
    seats = w.get("seats") or []
    if len(seats) > MAX_SEATS:
        raise InvalidArgument(f"at most {MAX_SEATS} seats per call")
    owners = [f"seat:{s.get('gameId')}:{_seat(games, s.get('gameId'), s.get('token'))}" for s in seats]
    user = observe.current().user
    if user is not None:
        owners.append(f"user:{user.id}")
    if not owners:
        raise InvalidArgument("name seats (gameId and token) or sign in to subscribe")
    old = await notifier.subs.get(subscription_id(sub))
    if old is not None and not _same_keys(old["subscription"], sub):
        # A push subscription's keys never change (a new one has a new endpoint): whoever sends
        # other keys for a registered endpoint knows its URL only. Taking it over would add them
        # as an owner (who may delete it) and make its pushes unreadable for its browser.
        raise PermissionDenied("this push endpoint is registered with other keys: only the browser that "
                               "subscribed it can register it again")
    return {"id": await notifier.subs.add(sub, owners), "owners": len(owners)}


def _same_keys(stored: dict[str, Any], sent: Any) -> bool:
    """Whether `sent` (a request's subscription) carries the keys `stored` was registered with:
    its `auth` is a secret only the subscribing browser (and whoever it gave it to) knows."""
    keys = sent.get("keys") if isinstance(sent, dict) else None
    if not isinstance(keys, dict):
        return False
    return all(isinstance(keys.get(k), str) and hmac.compare_digest(
        keys[k].rstrip("=").encode(), str(stored["keys"][k]).rstrip("=").encode()) for k in ("p256dh", "auth"))


async def unregister(games: Any, w: dict[str, Any], _seat_: Any) -> dict[str, Any]:
    """Only the subscription's owner removes it, as only an owner registers it: the portal user
    it was registered for (their JWT), or the browser that subscribed it (the subscription's
    keys, as PushSubscription.toJSON() gives them: what a seat-only registration can show).
    Knowing its endpoint is not enough (outside pass: anyone could unsubscribe anyone)."""
    from .webpush import subscription_id

    notifier = _notifier(games)
    sent = w.get("subscription") or {}
    endpoint = sent.get("endpoint") if isinstance(sent, dict) else None
    if not endpoint or not isinstance(endpoint, str):
        raise InvalidArgument('"subscription": {"endpoint", "keys"} is needed')
    user = observe.current().user
    if user is None and not (isinstance(sent.get("keys"), dict) and sent["keys"]):
        raise Unauthenticated("removing a push subscription needs its owner: sign in (the portal's JWT as "
                              "Authorization: Bearer <jwt>) or send the subscription's keys as registered",
                              "TOKEN_MISSING")
    sid = subscription_id({"endpoint": endpoint})
    doc = await notifier.subs.get(sid)
    if doc is None:
        return {"removed": False}
    if not ((user is not None and f"user:{user.id}" in doc.get("owners", ())) or _same_keys(doc["subscription"], sent)):
        raise PermissionDenied("this push subscription is not yours: it was registered for another user, and the "
                               "keys sent are not its keys")
    await notifier.subs.remove(sid)
    return {"removed": True}


async def set_live(games: Any, w: dict[str, Any], _seat_: Any) -> dict[str, Any]:
    notifier = _notifier(games)
    seat = _seat(games, w.get("gameId"), w.get("token"))
    on = bool(w.get("live"))
    await notifier.mark_live(w["gameId"], seat, time.time() + notifier.s.live_ttl if on else None)
    return {"live": on, "ttlSeconds": notifier.s.live_ttl if on else 0}


_ERR = ("INVALID_ARGUMENT", "UNAUTHENTICATED", "FAILED_PRECONDITION", "RESOURCE_EXHAUSTED", "UNAVAILABLE")
HANDLERS: dict[str, tuple[str, Any, tuple[str, ...]]] = {
    "ListNotifications": ("none", list_notifications, _ERR),
    "MarkNotificationsRead": ("none", mark_read, _ERR),
    "GetPushKey": ("none", push_key, ("FAILED_PRECONDITION", "RESOURCE_EXHAUSTED")),
    "RegisterPushSubscription": ("none", register, (*_ERR, "PERMISSION_DENIED")),
    "DeletePushSubscription": ("none", unregister, (*_ERR, "PERMISSION_DENIED")),
    "SetPushLive": ("none", set_live, (*_ERR, "PERMISSION_DENIED")),
}
