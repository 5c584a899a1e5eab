"""Every registered engine is played to the end through the public REST API:
seat 0 by a person choosing among the listed legal actions, the other seats
once by people too and once by server bots."""

import random

import httpx
import pytest

from tablero import engines
from tests.server.conftest import auth
from tests.server.support import ServerThread

MAX_REQUESTS = 6000


@pytest.fixture(scope="module")
def http(redis_url):
    """One server on the Redis store (the REST suite covers both stores)."""
    with ServerThread(redis_url=redis_url, snapshot_every=50) as s, httpx.Client(base_url=s.http, timeout=30) as c:
        yield c


def _play(http, name, seats, kinds, seed):
    rng = random.Random(seed)
    r = http.post("/v1/games", json={"engine": name, "players": seats, "seats": kinds})
    assert r.status_code == 200, r.text
    out = r.json()
    gid, tokens = out["game"]["id"], {s["seat"]: s["token"] for s in out["seats"]}
    g = out["game"]
    for _ in range(MAX_REQUESTS):
        if g["status"] == "GAME_STATUS_FINISHED":
            break
        humans = [s for s in g["toAct"] if s in tokens]
        assert humans, f"{name}: only bots may act but the server did not play them: {g['toAct']}"
        seat = rng.choice(humans)
        legal = http.get(f"/v1/games/{gid}/legal-actions", headers=auth(tokens[seat])).json()
        assert legal["actions"], f"{name}: seat {seat} must act but has no legal action"
        action = rng.choice(legal["actions"])
        r = http.post(f"/v1/games/{gid}/actions", headers=auth(tokens[seat]),
                      json={"action": action, "expectedVersion": legal["version"], "requestId": f"{gid}-{g['version']}"})
        assert r.status_code == 200, f"{name}: legal action {action} refused: {r.text}"
        g = r.json()
        assert "view" in g and isinstance(g["toAct"], list)
    assert g["status"] == "GAME_STATUS_FINISHED", f"{name}: not finished after {MAX_REQUESTS} requests"
    assert len(g["outcome"]["scores"]) == seats
    return gid, tokens


def _engines():
    out = []
    for name in engines.names():
        e = engines.get(name)
        out.append(pytest.param(name, e.min_seats, id=f"{name}-{e.min_seats}p"))
    return out


@pytest.mark.parametrize(("name", "seats"), _engines())
def test_a_person_plays_a_whole_game_against_bots(http, name, seats):
    _play(http, name, seats, ["human"] + ["bot"] * (seats - 1), seed=seats)


@pytest.mark.parametrize(("name", "seats"), _engines())
def test_people_play_a_whole_game_and_the_log_pages_through(http, name, seats):
    gid, tokens = _play(http, name, seats, ["human"] * seats, seed=7)
    n, token = 0, None
    while True:
        page = http.get(f"/v1/games/{gid}/events", headers=auth(tokens[0]),
                        params={"pageSize": 500, **({"pageToken": token} if token else {})}).json()
        n += len(page["events"])
        token = page["nextPageToken"]
        if not token:
            break
    assert n == http.get(f"/v1/games/{gid}").json()["version"]
