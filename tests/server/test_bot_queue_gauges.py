"""A server whose thinking bots are left to `tablero bots` workers (TABLERO_BOT_PROCESSES=0, as the
k8s bot-workers component sets) still reports the store's bot queue: when every worker is down it
is the only one left to (TableroBotQueueStalled fires on tablero_bot_queue_oldest_seconds)."""

from __future__ import annotations

import re
import time

from tests import plainhttp
from tests.server.support import ServerProcess, scrape


def _gauge(text: str, name: str) -> float:
    found = re.search(rf"^{name} (\S+)$", text, re.M)
    assert found, name
    return float(found.group(1))


def test_a_server_without_a_pool_reports_the_turns_no_worker_takes(tmp_path):
    env = {"TABLERO_BOT_PROCESSES": "0", "TABLERO_DB": str(tmp_path / "games.db"), "TABLERO_LOG_LEVEL": "warning"}
    with ServerProcess(env) as server:
        made = plainhttp.post(f"{server.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["bot:medium", "human"]},
                              timeout=10)
        assert made.status_code == 200, made.text
        deadline = time.monotonic() + 20
        depth = oldest = 0.0
        while time.monotonic() < deadline and not (depth == 1 and oldest >= 1):
            text = scrape(server.http)
            depth, oldest = _gauge(text, "tablero_bot_queue_depth"), _gauge(text, "tablero_bot_queue_oldest_seconds")
            time.sleep(0.2)
        assert (depth, oldest >= 1) == (1, True), (depth, oldest)  # (before: 0 and 0 for ever)
        game = plainhttp.get(f"{server.http}/v1/games/{made.json()['game']['id']}", timeout=10).json()
        assert game["version"] == 1  # nobody here thinks: the turn waits for a worker
