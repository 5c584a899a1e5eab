"""@tablero/client's join() is retried while the server is away, as its README says ("retried like
`create`"): an outside pass found a join sent during a restart failing at once with UNAVAILABLE,
because the engine check before the claim (a GetGame) was not retried, only the claim itself."""

from __future__ import annotations

import json
import subprocess
import time

import pytest

from tests import plainhttp
from tests.clients.test_ts_sdk import HERE, _node, sdk  # noqa: F401 (fixture)
from tests.server.support import ServerProcess


@pytest.mark.slow
def test_a_join_sent_during_a_restart_claims_the_seat_once_the_server_is_back(sdk, tmp_path):  # noqa: F811
    (sdk / "examples" / "join_outage.mjs").write_text((HERE / "join_outage.mjs").read_text())
    db = str(tmp_path / "games.db")
    first = ServerProcess({"TABLERO_LOG_LEVEL": "warning"}, "--db", db).start()
    second = ServerProcess({"TABLERO_LOG_LEVEL": "warning"}, "--db", db)
    second.grpc_port, second.http_port, second.http = first.grpc_port, first.http_port, first.http
    joiner = None
    try:
        created = plainhttp.post(f"{first.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["human", "open"]})
        game_id = created.json()["game"]["id"]
        first.terminate()
        joiner = subprocess.Popen([_node(), str(sdk / "examples" / "join_outage.mjs"), first.http, game_id],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert joiner.stdout.readline().strip() == "joining"
        time.sleep(1.5)  # the join has been refused (connection refused) a few times by now
        second.start()
        out, err = joiner.communicate(timeout=60)
        result = json.loads(out.strip().splitlines()[-1])
        assert joiner.returncode == 0 and result["seat"] == 1 and result["token"], out + err
        assert result["retries"] >= 1
        game = plainhttp.get(f"{second.http}/v1/games/{game_id}").json()
        assert [s["claimed"] for s in game["seats"]] == [True, True]
    finally:
        if joiner is not None and joiner.poll() is None:
            joiner.kill()
        first.kill()
        second.kill()
