"""The portal features on the embedded store: the lobby and the clocks in the SQLite file
(they survive a restart), the rate limits in the process."""

import json
import time

import jwt

from tests import plainhttp
from tests.server.support import ServerThread

KEY = "k1-" + "z" * 40


def who(user: str) -> dict[str, str]:
    t = jwt.encode({"sub": user, "exp": int(time.time()) + 600}, KEY, algorithm="HS256", headers={"kid": "k1"})
    return {"Authorization": f"Bearer {t}"}


def test_lobby_and_clock_survive_a_restart_and_limits_apply_in_process(tmp_path):
    db = str(tmp_path / "games.db")
    settings = {"db": db, "portal_keys": json.dumps({"k1": KEY}), "rate_limit": "1/m,15"}
    with ServerThread(**settings) as s:
        r = plainhttp.post(f"{s.http}/v1/games", headers=who("ann"), json={
            "engine": "tic-tac-toe", "seats": ["me", "open"], "clock": {"moveSeconds": 2, "onTimeout": "forfeit"}})
        assert r.status_code == 200, r.text
        gid = r.json()["game"]["id"]
        # the clocks run once every seat is taken (no clock while the game waits for players)
        r = plainhttp.post(f"{s.http}/v1/games/{gid}/join", json={}, headers=who("cy"))
        assert r.status_code == 200, r.text
    with ServerThread(**settings) as s:  # restarted on the same file
        listed = plainhttp.get(f"{s.http}/v1/games", params={"mine": "true"}, headers=who("ann")).json()["games"]
        assert [g["id"] for g in listed] == [gid]
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            g = plainhttp.get(f"{s.http}/v1/games/{gid}", headers=who("ann")).json()
            if g["status"] == "GAME_STATUS_FINISHED":
                break
            time.sleep(0.3)
        assert g["outcome"]["details"][0]["forfeited"] == "timeout" and g["yourSeat"] == 0
        codes = [plainhttp.get(f"{s.http}/v1/engines", headers=who("bo")).status_code for _ in range(25)]
        assert codes == [200] * 15 + [429] * 10  # (1/m: no refill to speak of during the test)
        # Anonymous callers share their address's bucket (this test's earlier anonymous calls: none).
        anon = [plainhttp.get(f"{s.http}/v1/engines").status_code for _ in range(16)]
        assert anon == [200] * 15 + [429]


def test_an_abandoned_game_is_ended_and_recorded(tmp_path):
    with ServerThread(db=str(tmp_path / "g.db"), abandon_after=1.0) as s:
        gid = plainhttp.post(f"{s.http}/v1/games", json={"engine": "goofspiel", "players": 2}).json()["game"]["id"]
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            g = plainhttp.get(f"{s.http}/v1/games/{gid}").json()
            if g["status"] == "GAME_STATUS_FINISHED":
                break
            time.sleep(0.3)
        assert g["outcome"]["endedBy"] == "abandoned" and g["outcome"]["winners"] == [] and g["toAct"] == []
        left = [e["event"] for e in plainhttp.get(f"{s.http}/v1/games/{gid}/events").json()["events"]
                if e["event"]["type"] == "tablero.seat_left"]
        assert [e["reason"] for e in left] == ["abandoned"]
        listed = plainhttp.get(f"{s.http}/v1/games", params={"status": "GAME_STATUS_FINISHED"}).json()["games"]
        assert [x["id"] for x in listed] == [gid]
