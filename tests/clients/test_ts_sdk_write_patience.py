"""@tablero/client's act() during a server restart: an outside pass found it failing with
UNAVAILABLE, its `retries` (5) jittered backoffs from 50 ms lasting about 0.8 s, a restart 2-3 s.
The retried calls (act, create, join) now have a `writePatienceMs` (10 s) of their own, as watches
have `watchPatienceMs`: the move lands once the server is back, exactly once (its requestId)."""

from __future__ import annotations

import json
import subprocess
import time

from tests import plainhttp
from tests.clients.test_sdk_write_patience import GAP, _restartable
from tests.clients.test_ts_sdk import HERE, _node, sdk  # noqa: F401 (fixture)


def test_an_act_sent_during_a_restart_lands_once_the_server_is_back(sdk, tmp_path):  # noqa: F811
    (sdk / "examples" / "act_outage.mjs").write_text((HERE / "act_outage.mjs").read_text())
    first, second = _restartable(tmp_path)
    actor = None
    try:
        created = plainhttp.post(f"{first.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["human", "human"]})
        game_id, token = created.json()["game"]["id"], created.json()["seats"][0]["token"]
        code, err = first.terminate()
        assert code == 0, err
        actor = subprocess.Popen([_node(), str(sdk / "examples" / "act_outage.mjs"), first.http, game_id, token],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert actor.stdout.readline().strip() == "acting"
        time.sleep(GAP)
        second.start()
        out, err = actor.communicate(timeout=60)
        result = json.loads(out.strip().splitlines()[-1])
        assert actor.returncode == 0 and result["version"] == 2, out + err
        assert result["retries"] >= 1 and result["refused"] is True, result
        events = plainhttp.get(f"{second.http}/v1/games/{game_id}/events").json()["events"]
        assert [e["version"] for e in events] == [1, 2], events  # created, then the one move: once
    finally:
        if actor is not None and actor.poll() is None:
            actor.kill()
        first.kill()
        second.kill()
