"""Players for the notification tests: whole tic-tac-toe games over REST against replicas,
retrying the same requestId on the other replica through any failure (as a client does)."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

import httpx

RETRY = {"UNAVAILABLE", "ABORTED", "DEADLINE_EXCEEDED", "INTERNAL", "UNKNOWN", "RESOURCE_EXHAUSTED"}


@dataclass
class Played:
    id: str
    version: int = 0
    finished: bool = False
    latencies: list[float] = field(default_factory=list)


async def _call(client: httpx.AsyncClient, bases: list[str], method: str, path: str, pick: int,
                **kw) -> tuple[dict, float]:
    """The answer, trying the replicas in turn (from `pick`) until one answers definitively."""
    for attempt in range(200):
        base = bases[(pick + attempt) % len(bases)]
        t0 = time.perf_counter()
        try:
            r = await client.request(method, base + path, **kw)
        except httpx.HTTPError:
            await asyncio.sleep(0.05)
            continue
        took = time.perf_counter() - t0
        if r.status_code < 300:
            return r.json(), took
        code = (r.json().get("error") or {}).get("code", "") if r.content else ""
        if r.status_code >= 500 or code in RETRY:
            await asyncio.sleep(0.05)
            continue
        raise AssertionError(f"{method} {path}: {r.status_code} {r.text}")
    raise AssertionError(f"{method} {path}: no replica answered")


async def play_game(client: httpx.AsyncClient, bases: list[str], rng: random.Random, n: int) -> Played:
    created, _ = await _call(client, bases, "POST", "/v1/games", n,
                             json={"engine": "tic-tac-toe", "players": 2})
    game = created["game"]
    played = Played(game["id"], game["version"])
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    free = list(range(9))
    step = 0
    while game["status"] != "GAME_STATUS_FINISHED":
        seat = game["toAct"][0]
        cell = rng.choice(free)
        step += 1
        game, took = await _call(client, bases, "POST", f"/v1/games/{played.id}/actions", n + step,
                                 headers={"Authorization": f"Bearer {tokens[seat]}"},
                                 json={"action": {"type": "place", "cell": cell}, "requestId": f"m{step}"})
        played.latencies.append(took)
        free.remove(cell)
    played.version, played.finished = game["version"], True
    return played


async def play_many(bases: list[str], games: int, concurrency: int, seed: int = 7,
                    during: object = None) -> list[Played]:
    """`games` whole games, `concurrency` at a time; `during(done_count)` is called after each."""
    rng = random.Random(seed)
    out: list[Played] = []
    sem = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(max_connections=concurrency * 2, max_keepalive_connections=concurrency * 2)
    async with httpx.AsyncClient(timeout=10, limits=limits) as client:
        async def one(i: int) -> None:
            async with sem:
                out.append(await play_game(client, bases, rng, i))
                if during is not None:
                    during(len(out))

        await asyncio.gather(*(one(i) for i in range(games)))
    return out


def expected_ids(p: Played) -> list[str]:
    """The webhooks a finished tic-tac-toe game of two seats taken at creation implies, in order
    (written out from the event kinds' definitions, not by the server's derivation). The last
    move's mark (version - 1) starts no turn: the game's end (its own event, in the same write)
    follows it at once."""
    g = p.id
    return [f"evt_{g}_0_game_created", f"evt_{g}_0_game_started",
            *(f"evt_{g}_{v}_turn_started" for v in range(1, p.version - 1)), f"evt_{g}_{p.version}_game_finished"]
