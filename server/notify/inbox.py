"""The in-app notification list of a portal user (`GET /v1/notifications`).

One item per game and user, the newest news of that game for them: "turn" while one of
their seats must act (a turn.started naming it), "result" once the game finished (with the
outcome). A turn.started that no longer names their seat removes their "turn" item. Items are
listed newest first, paged, and marked read (a new item of the game is unread again).
"""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Awaitable, Callable
from typing import Any

from tablero.server.app.replies import rfc3339

from .events import TURN_ENDED

DEFAULT_PAGE, MAX_PAGE = 20, 100
MAX_ITEMS = 200  # items kept per user


class Inbox:
    def __init__(self, queue: Any) -> None:
        self.q = queue

    async def record(self, user: str, seat: int, ev: dict[str, Any]) -> None:
        ns = "inbox:" + user
        game = ev["gameId"]
        if ev["type"] == TURN_ENDED:  # the seat is no longer to act (it moved, or left)
            if seat in ev["data"].get("seats", ()):
                old = json.loads(await self.q.kv_get(ns, game) or "null")
                if old is not None and old["kind"] == "turn" and old["seat"] == seat and old["version"] <= ev["version"]:
                    await self.q.kv_del(ns, game)
            return
        if ev["type"] == "turn.started":
            waiting = [s["seat"] for s in ev["data"].get("seats", ())]
            if seat not in waiting:
                old = json.loads(await self.q.kv_get(ns, game) or "null")
                if old is not None and old["kind"] == "turn" and old["version"] <= ev["version"]:
                    await self.q.kv_del(ns, game)
                return
            kind = "turn"
        else:
            kind = "result"
        old = json.loads(await self.q.kv_get(ns, game) or "null")
        if old is not None and (old["version"] > ev["version"] or old["id"] == ev["id"]):
            return  # older news, or this one again (a retried delivery keeps its read mark)
        if old is not None and old["kind"] == "result":
            return
        item = {"id": ev["id"], "kind": kind, "type": ev["type"], "gameId": game, "seat": seat,
                "version": ev["version"], "timestamp": ev["timestamp"], "read": False, "data": ev["data"]}
        await self.q.kv_set(ns, game, json.dumps(item))
        if kind == "result":
            await self._cap(ns)

    async def _drop_gone_turns(self, ns: str, items: list[dict[str, Any]],
                               gone: Callable[[str], Awaitable[bool]]) -> list[dict[str, Any]]:
        """`items` without the "turn" items of games that no longer exist, which are removed: a
        game that expired (TABLERO_ABANDONED_TTL) while the user was to act left its item listed
        for good, a turn that `pendingTurns` counted and whose game answered 404. (`tablero admin
        delete` removes its items itself; a result keeps its outcome and goes with the 200 cap.)"""
        turns = [i for i in items if i["kind"] == "turn"]
        missing = {i["gameId"] for i, g in zip(turns, await asyncio.gather(*(gone(i["gameId"]) for i in turns)),
                                                 strict=True) if g}
        for game_id in missing:
            await self.q.kv_del(ns, game_id)
        return [i for i in items if not (i["kind"] == "turn" and i["gameId"] in missing)]

    async def _cap(self, ns: str) -> None:
        """At most MAX_ITEMS per user: the oldest results go first (pending turns stay)."""
        items = [json.loads(v) for v in (await self.q.kv_all(ns)).values()]
        results = sorted((i for i in items if i["kind"] == "result"), key=lambda i: i["timestamp"])
        for old in results[:max(0, len(items) - MAX_ITEMS)]:
            await self.q.kv_del(ns, old["gameId"])

    async def list(self, user: str, page_size: int = 20, page_token: str = "",
                   unread_only: bool = False, gone: Callable[[str], Awaitable[bool]] | None = None) -> dict[str, Any]:
        """`gone` (a game id -> whether its game no longer exists): turn items of such games are
        removed first."""
        page_size = max(1, min(page_size or DEFAULT_PAGE, MAX_PAGE))
        after = _after(page_token)
        items = [json.loads(v) for v in (await self.q.kv_all("inbox:" + user)).values()]
        if gone is not None:
            items = await self._drop_gone_turns("inbox:" + user, items, gone)
        items.sort(key=_key)
        counts = {"unread": sum(1 for i in items if not i["read"]),
                  "pendingTurns": sum(1 for i in items if i["kind"] == "turn")}
        if unread_only:
            items = [i for i in items if not i["read"]]
        # Keyset paging: a page starts after the last item of the one before (by time, then id),
        # so items that go or come meanwhile skip nothing and repeat nothing that stayed (news of
        # a game moves its item to the front: the next walk from the top shows it).
        rest = items if after is None else [i for i in items if _key(i) > after]
        page = rest[:page_size]
        token = _token(page[-1]) if len(rest) > page_size else ""
        shown = [{**i, "eventTime": rfc3339(i["timestamp"])} for i in page]
        return {"notifications": shown, "nextPageToken": token, **counts}

    async def mark_read(self, user: str, ids: list[str] | None) -> int:
        ns = "inbox:" + user
        n = 0
        for game, raw in (await self.q.kv_all(ns)).items():
            item = json.loads(raw)
            if not item["read"] and (ids is None or item["id"] in ids):
                item["read"] = True
                await self.q.kv_set(ns, game, json.dumps(item))
                n += 1
        return n


def _key(item: dict[str, Any]) -> tuple[float, str]:
    return (-item["timestamp"], item["id"])


def _token(item: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps([item["timestamp"], item["id"]]).encode()).decode()


def _after(token: str) -> tuple[float, str] | None:
    """The position a pageToken names (after that item), or None for the first page."""
    if not token:
        return None
    try:
        ts, item_id = json.loads(base64.urlsafe_b64decode(token.encode()).decode())
        if not isinstance(ts, (int, float)) or isinstance(ts, bool) or not isinstance(item_id, str):
            raise ValueError
        return (-float(ts), item_id)
    except (ValueError, TypeError, UnicodeDecodeError):
        raise ValueError("pageToken is not one this list gave") from None
