"""Over the API, each seat gets exactly the engine's view and redacted events for its
own seat (a spectator those of seat None), for every engine: the log as stored is
replayed here and compared with what the server sent."""

import asyncio
import random

import httpx
import pytest
from tablero.engines.core import canonical_json, replay
from tablero.server.store.sqlite import SQLiteStore

from tablero import engines
from tests.server.conftest import auth
from tests.server.support import ServerThread


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("views") / "games.db")
    with ServerThread(db=db) as s, httpx.Client(base_url=s.http, timeout=30) as c:
        yield c, db


def _stored_log(db, gid):
    async def read():
        store = SQLiteStore(db)
        try:
            return await store.read(gid)
        finally:
            await store.close()

    return asyncio.run(read())


@pytest.mark.parametrize("name", engines.names())
def test_every_seat_sees_exactly_its_own_view_and_events(served, name):
    c, db = served
    e = engines.get(name)
    seats = e.max_seats
    out = c.post("/v1/games", json={"engine": name, "players": seats}).json()
    gid, tokens = out["game"]["id"], {s["seat"]: s["token"] for s in out["seats"]}
    rng = random.Random(3)
    for step in range(60):
        g = c.get(f"/v1/games/{gid}").json()
        if g["status"] == "GAME_STATUS_FINISHED":
            break
        seat = rng.choice(g["toAct"])
        actions = c.get(f"/v1/games/{gid}/legal-actions", headers=auth(tokens[seat])).json()["actions"]
        assert c.post(f"/v1/games/{gid}/actions", headers=auth(tokens[seat]),
                      json={"action": rng.choice(actions)}).status_code == 200
        if step % 15 != 14:
            continue
        log = _stored_log(db, gid)
        local = replay(log)
        for viewer in [None, *range(seats)]:
            headers = auth(tokens[viewer]) if viewer is not None else {}
            got = c.get(f"/v1/games/{gid}", headers=headers).json()
            assert got["version"] == len(log)
            assert canonical_json(got["view"]) == canonical_json(local.view(viewer)), (name, viewer)
            events = c.get(f"/v1/games/{gid}/events", headers=headers, params={"pageSize": 1000}).json()["events"]
            assert [canonical_json(x["event"]) for x in events] == \
                [canonical_json(local.event_view(ev, viewer)) for ev in log], (name, viewer)
