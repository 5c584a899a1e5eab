"""Bot turns run off the request path (issue 17 item 3): a request plays at most
INLINE_BOT_STEPS bot turns (on a thread), the bot worker plays the rest in bounded chunks
through the ordinary compare-and-set write, and other games keep their latency."""

from __future__ import annotations

import asyncio
import statistics
import time

import redis.asyncio as aioredis
from prometheus_client import REGISTRY
from tablero.server.app import commands as cmd
from tablero.server.app import rules
from tablero.server.app.service import GameService
from tablero.server.auth import TokenSigner
from tablero.server.portal.lobby import RedisLobby
from tablero.server.store import SQLiteStore
from tablero.server.store.redis import RedisStore

from tablero import engines


async def _until_finished(games: GameService, gid: str, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        g = (await games.get_game(cmd.GetGame(gid, None)))["game"]
        if g["status"] == "GAME_STATUS_FINISHED":
            return g
        await asyncio.sleep(0.05)
    raise AssertionError(f"game {gid} did not finish")


def _replays(engine_name: str, events: list[dict]) -> bool:
    engine = engines.get(engine_name)
    state = None
    for e in events:
        state = engine.evolve(state, e)
    return engine.outcome(state) is not None


async def test_five_phoenicia_bots_return_at_once_and_the_worker_plays_the_game():
    games = GameService(SQLiteStore(), TokenSigner("s"))
    t = time.perf_counter()
    created = (await games.create_game(cmd.CreateGame("phoenicia", 5, seats=("bot",) * 5)))["game"]
    took = time.perf_counter() - t
    assert created["status"] == "GAME_STATUS_RUNNING"
    assert created["version"] <= 1 + 4 * rules.INLINE_BOT_STEPS  # bounded, not the ~600 events of the game
    done = await _until_finished(games, created["id"])
    events = await games.store.read(created["id"])
    assert done["version"] == len(events) > created["version"]
    assert _replays("phoenicia", events)
    assert took < 1.0, took


async def test_other_games_keep_their_latency_while_bot_games_run():
    games = GameService(SQLiteStore(), TokenSigner("s"))
    stop = asyncio.Event()
    created = []

    async def bot_client() -> None:  # creates all-bot Phoenicia games in a loop, as in issue 17
        while not stop.is_set():
            g = (await games.create_game(cmd.CreateGame("phoenicia", 5, seats=("bot",) * 5)))["game"]
            created.append(g["id"])
            await asyncio.sleep(0.05)

    clients = [asyncio.ensure_future(bot_client()) for _ in range(6)]
    latencies, busy = [], 0
    try:
        for _round in range(8):
            gid = (await games.create_game(cmd.CreateGame("tic-tac-toe", 2)))["game"]["id"]
            for seat, cell in ((0, 0), (1, 1), (0, 3), (1, 4), (0, 6)):
                busy += not games.bots.idle.is_set()
                t = time.perf_counter()
                await games.submit_action(cmd.SubmitAction(gid, seat, {"type": "place", "cell": cell}))
                latencies.append(time.perf_counter() - t)
                await asyncio.sleep(0.01)
    finally:
        stop.set()
        await asyncio.gather(*clients)
    assert busy >= len(latencies) // 2, "the bot worker was idle during the measurement"
    p50 = statistics.median(latencies)
    assert p50 < 0.1, f"p50 {p50 * 1000:.1f} ms while bots played"  # was 0.93 s with bots on the loop
    for b in created[:3]:
        await _until_finished(games, b)


def _sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_any_replica_plays_a_waiting_bot_game_exactly_once(redis_url, monkeypatch):
    """Two replicas on one Redis both see the game waiting for its bots; the CAS write lets
    only one play each turn, and the log replays to a legal end. The game the bot worker
    finishes is FINISHED in the lobby and counted once; bot turns are counted once, however
    many replicas played them before losing the write."""
    sa, sb = RedisStore(redis_url), RedisStore(redis_url)
    # One lobby, as replicas share it, on a pool of its own that waits for a free connection,
    # as `tablero serve` builds it (a bare client on the store's pool fails at once with
    # "Too many connections" when both replicas' bookkeeping and a listing overlap).
    lobby_client = aioredis.Redis(connection_pool=aioredis.BlockingConnectionPool.from_url(
        redis_url, max_connections=16, timeout=5))
    lobby = RedisLobby(lobby_client)
    a, b = GameService(sa, TokenSigner("s"), lobby=lobby), GameService(sb, TokenSigner("s"), lobby=lobby)
    finished = _sample("tablero_games_finished_total", engine="phoenicia")
    steps = _sample("tablero_bot_steps_total", engine="phoenicia")
    computed = []  # bot turns played by either replica's worker, written or not
    play_bots = rules.play_bots

    def counting(*args, **kwargs):
        state, events = play_bots(*args, **kwargs)
        computed.append(len(events))
        return state, events

    monkeypatch.setattr(rules, "play_bots", counting)
    try:
        created = (await a.create_game(cmd.CreateGame("phoenicia", 5, seats=("bot",) * 5)))["game"]
        gid = created["id"]
        await b.get_game(cmd.GetGame(gid, None))  # B loads it, sees bots to act, queues it too
        await _until_finished(a, gid)
        events = await sa.read(gid)
        assert _replays("phoenicia", events)
        assert (await b.get_game(cmd.GetGame(gid, None)))["game"]["version"] == len(events)
        await a.bots.idle.wait()
        await b.bots.idle.wait()
        listed = (await a.list_games(cmd.ListGames(status="GAME_STATUS_FINISHED", page_size=100)))["games"]
        assert gid in [g["id"] for g in listed]
        assert _sample("tablero_games_finished_total", engine="phoenicia") == finished + 1
        assert _sample("tablero_bot_steps_total", engine="phoenicia") == steps + len(events) - created["version"]
        # A replica whose write lost to the other's stops playing the game; at most a chunk
        # per loss is played twice, not the game.
        assert sum(computed) <= 1.25 * len(events), (sum(computed), len(events))
    finally:
        await sa.close()
        await sb.close()
        await lobby_client.aclose()


async def test_watches_opened_while_the_bots_play_see_the_game_exactly():
    """A watch keeps its own copy of the state to know when the game ends. Opened while the
    bot worker played (evolving the cached state in place, on a thread, ahead of its cached
    version), it copied a state from the future: its next event no longer applied
    (ValueError deep in the engine: the watch failed), or it declared the game over early."""
    games = GameService(SQLiteStore(), TokenSigner("s"))
    for engine in ("phoenicia", "founders-of-gloomhaven"):
        gid = (await games.create_game(cmd.CreateGame(engine, 3, seats=("bot",) * 3)))["game"]["id"]

        async def follow(gid: str = gid) -> list[int]:
            seen = []
            async for item in await games.watch_game(cmd.WatchGame(gid, None, 0)):
                seen.append(item["version"])
            return seen

        watches = []
        while (await games.get_game(cmd.GetGame(gid, None)))["game"]["status"] != "GAME_STATUS_FINISHED":
            watches.append(asyncio.create_task(follow()))
            await asyncio.sleep(0.002)
        final = (await games.get_game(cmd.GetGame(gid, None)))["game"]["version"]
        assert len(watches) >= 3
        for seen in await asyncio.gather(*watches):
            assert seen == list(range(1, final + 1))


async def test_watches_opened_while_a_move_plays_the_bots_inline_stay_exact():
    """The same for the bots' answers to a person's move, played inline on a thread."""
    games = GameService(SQLiteStore(), TokenSigner("s"))
    gid = (await games.create_game(cmd.CreateGame("phoenicia", 3, seats=("human", "bot", "bot"))))["game"]["id"]
    seen: list[list[int]] = []

    async def follow() -> None:
        mine: list[int] = []
        seen.append(mine)
        async for item in await games.watch_game(cmd.WatchGame(gid, None, 0)):
            mine.append(item["version"])

    watches: list[asyncio.Task] = []

    async def opener() -> None:
        while True:
            watches.append(asyncio.create_task(follow()))
            await asyncio.sleep(0.001)

    opening = asyncio.create_task(opener())
    moves = 0
    while moves < 40:
        game = (await games.get_game(cmd.GetGame(gid, 0)))["game"]
        if game["status"] == "GAME_STATUS_FINISHED":
            break
        if 0 not in game["toAct"]:
            await asyncio.sleep(0.005)
            continue
        legal = (await games.list_legal_actions(cmd.ListLegalActions(gid, 0)))["actions"]
        await games.submit_action(cmd.SubmitAction(gid, 0, legal[-1]))
        moves += 1
    opening.cancel()
    await asyncio.sleep(0.05)  # the last events reach every watch
    for task in watches:
        if task.done():
            task.result()  # a watch that failed raises here
        else:
            task.cancel()
    now = (await games.get_game(cmd.GetGame(gid, None)))["game"]["version"]
    assert moves >= 3 and len(watches) > 5
    for versions in seen:
        assert versions == list(range(1, len(versions) + 1))
        assert versions[-1] == now if versions else True
