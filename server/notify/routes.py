"""REST routes of the notifications (plain HTTP routes beside the RPCs; see docs/webhooks.md).

    GET  /v1/push/key                     the server's VAPID public key (applicationServerKey)
    POST /v1/push/subscriptions           {"subscription", "seats": [{"gameId", "token"}]}; a portal
                                          JWT (Authorization: Bearer) subscribes the user too
    POST /v1/push/subscriptions:delete    {"subscription": {"endpoint"}}
    POST /v1/push/live                    {"gameId", "token", "live": bool}: a tab shows the game
    GET  /v1/notifications                the portal user's list (pageSize, pageToken, unreadOnly)
    POST /v1/notifications:markRead       {"ids": [...]} (none: all)
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from server.api.status import error_body
from server.auth import bearer
from server.portal.identity import IdentityError, looks_like_jwt

from .inbox import Inbox
from .webhooks import Refused, resolve
from .webpush import check_subscription, subscription_id

MAX_BODY = 16 * 1024
MAX_SEATS = 32


class _Refused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code = status, code


def _err(status: int, code: str, message: str) -> _Refused:
    return _Refused(status, code, message)


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise _err(413, "RESOURCE_EXHAUSTED", f"the body is larger than {MAX_BODY} bytes")
    try:
        doc = json.loads(raw or b"{}")
    except ValueError:
        raise _err(400, "INVALID_ARGUMENT", "the body is not JSON") from None
    if not isinstance(doc, dict):
        raise _err(400, "INVALID_ARGUMENT", "the body must be a JSON object")
    return doc


def _user(api: Any, request: Request, required: bool) -> Any:
    token = bearer(request.headers.get("authorization"))
    if token is None or not looks_like_jwt(token):
        if required:
            raise _err(401, "UNAUTHENTICATED", "sign in: send the portal's JWT as Authorization: Bearer <jwt>")
        return None
    try:
        return api.portal_keys.verify(token)
    except IdentityError as e:
        raise _err(401, "UNAUTHENTICATED", f"portal JWT refused: {e}") from None


def _seat(api: Any, game_id: Any, token: Any) -> int:
    if not isinstance(game_id, str) or not isinstance(token, str):
        raise _err(400, "INVALID_ARGUMENT", 'each seat is {"gameId", "token"} (the seat token)')
    try:
        return api.games.signer.verify(token, game_id)
    except Exception:  # noqa: BLE001 - whatever the signer refuses
        raise _err(403, "PERMISSION_DENIED", f"that token is not a seat token of game {game_id}") from None


def routes(notifier: Any, api: Any) -> list[Route]:
    def handler(fn: Any) -> Any:
        async def run(request: Request) -> JSONResponse:
            try:
                return JSONResponse(await fn(request))
            except _Refused as e:
                return JSONResponse(error_body(e.code, str(e)), status_code=e.status)
            except ValueError as e:
                return JSONResponse(error_body("INVALID_ARGUMENT", str(e)), status_code=400)
        return run

    async def key(request: Request) -> dict[str, Any]:
        if notifier.pusher is None:
            raise _err(412, "FAILED_PRECONDITION", "Web Push is off on this server (no TABLERO_VAPID_PRIVATE_KEY)")
        return {"publicKey": notifier.pusher.public_key}

    async def subscribe(request: Request) -> dict[str, Any]:
        if notifier.pusher is None:
            raise _err(412, "FAILED_PRECONDITION", "Web Push is off on this server (no TABLERO_VAPID_PRIVATE_KEY)")
        doc = await _body(request)
        sub = check_subscription(doc.get("subscription"))
        parts = urlsplit(sub["endpoint"])
        try:  # a push service on the internet (the send checks again: DNS may change)
            await resolve(parts.hostname or "", parts.port or 443, notifier.s.allow_private)
        except (Refused, OSError) as e:
            raise _err(400, "INVALID_ARGUMENT", f"the subscription's endpoint is refused: {e}") from None
        user = _user(api, request, required=False)
        seats = doc.get("seats") or []
        if not isinstance(seats, list) or len(seats) > MAX_SEATS:
            raise _err(400, "INVALID_ARGUMENT", f'"seats" must be a list of at most {MAX_SEATS}')
        owners = [f"seat:{s.get('gameId')}:{_seat(api, s.get('gameId'), s.get('token'))}"
                  for s in seats if isinstance(s, dict)]
        if user is not None:
            owners.append(f"user:{user.id}")
        if not owners:
            raise _err(400, "INVALID_ARGUMENT", "name seats (gameId and token) or sign in to subscribe")
        sid = await notifier.subs.add(sub, owners)
        return {"id": sid, "owners": len(owners)}

    async def unsubscribe(request: Request) -> dict[str, Any]:
        doc = await _body(request)
        endpoint = (doc.get("subscription") or {}).get("endpoint") if isinstance(doc.get("subscription"), dict) \
            else None
        if not isinstance(endpoint, str):
            raise _err(400, "INVALID_ARGUMENT", '"subscription": {"endpoint"} is needed')
        sid = subscription_id({"endpoint": endpoint})
        existed = await notifier.subs.get(sid) is not None
        await notifier.subs.remove(sid)
        return {"removed": existed}

    async def live(request: Request) -> dict[str, Any]:
        doc = await _body(request)
        seat = _seat(api, doc.get("gameId"), doc.get("token"))
        on = bool(doc.get("live", True))
        await notifier.mark_live(doc["gameId"], seat, time.time() + notifier.s.live_ttl if on else None)
        return {"live": on, "ttl": notifier.s.live_ttl if on else 0}

    async def listing(request: Request) -> dict[str, Any]:
        user = _user(api, request, required=True)
        q = request.query_params
        try:
            size = int(q.get("pageSize") or q.get("page_size") or 20)
        except ValueError:
            raise _err(400, "INVALID_ARGUMENT", "pageSize must be an integer") from None
        unread = (q.get("unreadOnly") or q.get("unread_only") or "").lower() in ("1", "true")
        return await Inbox(notifier.q).list(user.id, size, q.get("pageToken") or q.get("page_token") or "", unread)

    async def mark_read(request: Request) -> dict[str, Any]:
        user = _user(api, request, required=True)
        doc = await _body(request)
        ids = doc.get("ids")
        if ids is not None and (not isinstance(ids, list) or not all(isinstance(i, str) for i in ids)):
            raise _err(400, "INVALID_ARGUMENT", '"ids" must be a list of notification ids (none: all)')
        return {"marked": await Inbox(notifier.q).mark_read(user.id, ids)}

    return [
        Route("/v1/push/key", handler(key), methods=["GET"]),
        Route("/v1/push/subscriptions", handler(subscribe), methods=["POST"]),
        Route("/v1/push/subscriptions:delete", handler(unsubscribe), methods=["POST"]),
        Route("/v1/push/live", handler(live), methods=["POST"]),
        Route("/v1/notifications", handler(listing), methods=["GET"]),
        Route("/v1/notifications:markRead", handler(mark_read), methods=["POST"]),
    ]
