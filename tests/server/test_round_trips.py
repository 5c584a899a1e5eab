"""The request path's store calls (issue 10 item 2): one call per accepted action in the
common case (cached meta, the request-id check inside the append), a stale cache catches
up from the Conflict's tail without a read, and refusals are checked on a fresh state."""

from __future__ import annotations

import contextlib
from collections import Counter

import pytest
from tablero.server.app import FailedPrecondition
from tablero.server.app import commands as cmd
from tablero.server.app.service import GameService
from tablero.server.auth import TokenSigner
from tablero.server.store import SQLiteStore
from tablero.server.store.redis import RedisStore


def counting(cls):
    class Counting(cls):
        calls: Counter

        def count(self, name):
            self.calls[name] += 1

        async def get_meta(self, game_id, *, cached=False):
            self.count("get_meta" + ("(cached)" if cached else ""))
            return await super().get_meta(game_id, cached=cached)

        async def append_ex(self, *a, **k):
            self.count("append_ex")
            return await super().append_ex(*a, **k)

        async def read_entries(self, *a, **k):
            self.count("read_entries")
            return await super().read_entries(*a, **k)

        async def read(self, *a, **k):
            self.count("read")
            return await super().read(*a, **k)

        async def request_version(self, *a, **k):
            self.count("request_version")
            return await super().request_version(*a, **k)

        async def get_snapshot(self, *a, **k):
            self.count("get_snapshot")
            return await super().get_snapshot(*a, **k)

        async def version(self, *a, **k):
            self.count("version")
            return await super().version(*a, **k)

        async def load_newest(self, *a, **k):
            self.count("load_newest")
            return await super().load_newest(*a, **k)

    return Counting


@contextlib.asynccontextmanager
async def two_replicas(redis_url):
    """(store A, store B, service A, service B): two replicas on one Redis, B's calls counted."""
    sa, sb = counting(RedisStore)(redis_url), counting(RedisStore)(redis_url)
    sa.calls, sb.calls = Counter(), Counter()
    try:
        yield sa, sb, GameService(sa, TokenSigner("s")), GameService(sb, TokenSigner("s"))
    finally:
        await sa.close()
        await sb.close()


def act(gid, seat, cell, rid=None):
    return cmd.SubmitAction(gid, seat, {"type": "place", "cell": cell}, request_id=rid)


@pytest.fixture(params=["sqlite", "redis"])
def stores(request):
    def make():
        if request.param == "sqlite":
            s = counting(SQLiteStore)(str(request.getfixturevalue("tmp_path") / "g.db"))
        else:
            s = counting(RedisStore)(request.getfixturevalue("redis_url"))
        s.calls = Counter()
        return s
    return make


async def test_an_accepted_action_is_one_store_call(stores):
    store = stores()
    games = GameService(store, TokenSigner("s"))
    try:
        gid = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
        await games.submit_action(act(gid, 0, 0, "a"))
        store.calls.clear()
        await games.submit_action(act(gid, 1, 4, "b"))
        await games.submit_action(act(gid, 0, 8, "c"))
        remote = {k: v for k, v in store.calls.items() if k != "get_meta(cached)"}
        assert remote == {"append_ex": 2}, store.calls
    finally:
        await store.close()


async def test_a_stale_cache_catches_up_from_the_conflict_without_a_read(stores):
    sa = stores()
    games_a = GameService(sa, TokenSigner("s"))
    sb = stores() if isinstance(sa, RedisStore) else sa.__class__(sa.path)
    sb.calls = Counter()
    games_b = GameService(sb, TokenSigner("s"))
    try:
        gid = (await games_a.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
        await games_a.submit_action(act(gid, 0, 0))
        await games_b.submit_action(act(gid, 1, 4))
        await games_b.submit_action(act(gid, 0, 8))  # A's cache is two events behind, O to act in both
        sa.calls.clear()
        done = await games_a.submit_action(act(gid, 1, 2))
        assert done["game"]["version"] == 5
        remote = {k: v for k, v in sa.calls.items() if k != "get_meta(cached)"}
        assert remote == {"append_ex": 2}, sa.calls  # the conflict carried O@4, X@8: no read, no snapshot
        # a refusal on a stale cache is decided again on the store's state before it is given
        await games_b.submit_action(act(gid, 0, 6))
        with pytest.raises(FailedPrecondition):
            await games_a.submit_action(act(gid, 1, 6))  # taken, which only the store knows
        assert (await games_a.submit_action(act(gid, 1, 3)))["game"]["version"] == 7
        events = await sa.read(gid)
        assert [e.get("cell") for e in events[1:]] == [0, 4, 8, 2, 6, 3]
    finally:
        await sa.close()
        if sb is not sa:
            await sb.close()


async def test_another_replica_answers_a_game_created_with_every_seat_taken_without_the_lobby(redis_url):
    """The seat directory of a game whose seats were all taken at creation never changes: it
    travels with the game's metadata, so a replica that did not create the game names the
    seats' portal users without a lobby read (one round trip less per game and replica)."""
    import redis.asyncio as aioredis
    from tablero.server.portal.identity import User
    from tablero.server.portal.lobby import RedisLobby

    class CountingLobby(RedisLobby):
        gets = 0

        async def get(self, game_id):
            CountingLobby.gets += 1
            return await super().get(game_id)

    client = aioredis.Redis.from_url(redis_url)
    sa, sb = RedisStore(redis_url), RedisStore(redis_url)
    a = GameService(sa, TokenSigner("s"), lobby=RedisLobby(client))
    b = GameService(sb, TokenSigner("s"), lobby=CountingLobby(client))  # the same lobby, B's reads counted
    try:
        ann = User("ann", "Ann")
        full = await a.create_game(cmd.CreateGame(
            "tic-tac-toe", 2, seat_specs=({"kind": "me"}, {"kind": "human", "userId": "bob", "userName": "Bob"}),
            user=ann))
        gid = full["game"]["id"]
        done = await b.submit_action(act(gid, 0, 4))
        users = [(s.get("userId"), s.get("userName")) for s in done["game"]["seats"]]
        assert users == [("ann", "Ann"), ("bob", "Bob")]
        assert (await b.seat_of(gid, User("bob"))) == 1
        assert CountingLobby.gets == 0
        # A game with an open seat still asks the lobby (a join changes who holds it), once
        # every seat is taken too.
        open_ = (await a.create_game(cmd.CreateGame("tic-tac-toe", 2, seats=("me", "open"), user=ann)))["game"]["id"]
        await a.join_game(cmd.JoinGame(open_, User("cy", "Cy")))
        seats = (await b.get_game(cmd.GetGame(open_, None)))["game"]["seats"]
        assert [(s.get("userId"), s["claimed"]) for s in seats] == [("ann", True), ("cy", True)]
        assert CountingLobby.gets == 1
    finally:
        await sa.close()
        await sb.close()
        await client.aclose()


async def test_a_replica_that_watches_a_game_writes_it_without_a_load_or_a_conflict(redis_url):
    """A replica that only watched a game so far (a player's page opened there, the game
    created and moved on another replica) keeps its cache of the game following what its
    watcher is sent: its first write is one call (no load), and after the other replica's
    moves no conflict either."""
    async with two_replicas(redis_url) as (sa, sb, a, b):
        gid = (await a.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
        watch = await b.watch_game(cmd.WatchGame(gid, 1, 0))
        seen = [(await anext(watch))["version"]]  # the game's first event
        sb.calls.clear()
        await b.submit_action(act(gid, 0, 4, "b1"))  # B's first write of the game
        assert {k: v for k, v in sb.calls.items() if not k.startswith("get_meta")} == {"append_ex": 1}, sb.calls
        seen.append((await anext(watch))["version"])
        await a.submit_action(act(gid, 1, 0, "a1"))  # the other replica moves...
        seen.append((await anext(watch))["version"])
        sb.calls.clear()
        done = await b.submit_action(act(gid, 0, 8, "b2"))  # ...and B's cache followed it
        assert {k: v for k, v in sb.calls.items() if not k.startswith("get_meta")} == {"append_ex": 1}, sb.calls
        assert done["game"]["view"]["board"][:1] == [1] and done["game"]["version"] == seen[-1] + 1
        # Every version once, in order; B's state is the store's (the write was accepted on it).
        events = await sa.read(gid)
        assert [e.get("cell") for e in events[1:]] == [4, 0, 8]
        await watch.aclose()


async def test_a_watch_opened_on_a_replica_new_to_the_game_lets_its_first_move_skip_the_load(redis_url):
    """A player's page opened on another replica than the one that created the game, and its
    first move sent as soon as the stream has started (before the watcher was sent anything):
    the watch read the game when it opened, so that move is one call, not a load and then
    the append (under `serve --workers N` such moves were the slowest of a game)."""
    async with two_replicas(redis_url) as (sa, sb, a, b):
        gid = (await a.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
        watch = await b.watch_game(cmd.WatchGame(gid, 0, 0))
        assert sb.calls["load_newest"] == 1, sb.calls
        sb.calls.clear()
        done = await b.submit_action(act(gid, 0, 4, "b1"))
        assert {k: v for k, v in sb.calls.items() if not k.startswith("get_meta")} == {"append_ex": 1}, sb.calls
        assert done["game"]["version"] == 2
        assert [(await anext(watch))["version"] for _ in range(2)] == [1, 2]  # every event, in order
        await watch.aclose()


@pytest.mark.parametrize("watchers", [1, 6])
async def test_the_watchers_of_a_game_on_one_replica_follow_it_with_one_evolution_per_event(
        stores, monkeypatch, watchers):
    """Each watcher knows when the game is over by following its state; the watchers of one
    game on one replica share that state (GameService._follow): six watchers cost the engine
    no more evolutions than one, and every one of them is sent every event and ends with the
    game."""
    import asyncio

    from tablero import engines

    engine = engines.get("tic-tac-toe")
    evolved = Counter()
    original = type(engine).evolve

    def counting_evolve(self, state, event):
        evolved[event.get("type")] += 1
        return original(self, state, event)

    monkeypatch.setattr(type(engine), "evolve", counting_evolve)
    store = stores()
    service = GameService(store, TokenSigner("s"))
    try:
        gid = (await service.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
        streams = [await service.watch_game(cmd.WatchGame(gid, [0, 1, None][i % 3], 0)) for i in range(watchers)]

        async def seen(stream):
            return [e["version"] async for e in stream]

        tasks = [asyncio.ensure_future(seen(s)) for s in streams]
        await asyncio.sleep(0.05)
        evolved.clear()
        for i, cell in enumerate([4, 0, 8, 1, 2, 7, 6]):  # X wins on the diagonal 2-4-6
            await service.submit_action(act(gid, i % 2, cell))
            await asyncio.sleep(0.02)  # each event reaches the watchers before the next move
        versions = await asyncio.wait_for(asyncio.gather(*tasks), 10)
        last = await store.version(gid)
        assert versions == [list(range(1, last + 1))] * watchers  # every event, in order; each stream ended
        # the write evolves the replica's cache once per move; the watchers, once more in all
        assert evolved["mark_placed"] <= 2 * 7, evolved
    finally:
        await store.close()
