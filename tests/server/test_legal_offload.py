"""Legal actions are computed off the event loop (server/app/offload.py): a game whose legal
actions take long does not stall other games' moves.

The shipped engines list their legal actions in well under a millisecond now (New Bedford's
thousands of sale combinations became a step-by-step sale), so the slow list is a
tic-tac-toe whose `legal_actions` does ~0.4 s of pure-Python work first — CPU that holds
the GIL like a big enumeration, not a sleep — registered as an engine of a real `tablero
serve` process (its own GIL: the clients' threads do not compete with the server's)."""

from __future__ import annotations

import contextlib
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import httpx
import pytest
from tablero.engines.core import registry
from tablero.engines.tic_tac_toe.engine import TicTacToe
from tablero.server.app.offload import EngineCalls

from tests import plainhttp
from tests.server.conftest import auth
from tests.server.support import ROOT, ServerProcess

SLOW_S = 0.4


class SlowLegalActions(TicTacToe):
    name = "test-slow-legal-actions"

    def legal_actions(self, state, seat):
        deadline, n = time.perf_counter() + SLOW_S, 0
        while time.perf_counter() < deadline:
            n += 1
        return super().legal_actions(state, seat)


def register() -> None:
    registry.register(SlowLegalActions())


class SlowEngineServer(ServerProcess):
    """`tablero serve` in its own process (its own GIL), with the slow engine registered."""

    def start(self) -> SlowEngineServer:
        boot = ("import sys; from tests.server.test_legal_offload import register; register(); "
                "from tablero.server.__main__ import main; sys.exit(main(sys.argv[1:]))")
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - the process writes it; closed with the test
        self.proc = subprocess.Popen(
            [sys.executable, "-c", boot, "serve", "--host", "127.0.0.1", "--grpc-port", str(self.grpc_port),
             "--http-port", str(self.http_port)],
            env={**self.env, "TABLERO_LOG_LEVEL": "warning"}, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.log.seek(0)
                raise RuntimeError(f"server exited: {self.log.read().decode(errors='replace')}")
            with contextlib.suppress(httpx.HTTPError):
                if plainhttp.get(self.http + "/readyz", timeout=0.5).status_code == 200 and self._owns_port():
                    return self
            time.sleep(0.1)
        raise RuntimeError("server did not become ready")


HAMMERS = 4


def _moves_while_slow_lists_are_read(mode: str, games: int = 3) -> list[float]:
    """Seconds each tic-tac-toe move took (5 a game) while HAMMERS clients read the slow game's
    legal actions (each burns a core for SLOW_S: the fewer games, the less CPU the suite spends)."""
    with SlowEngineServer({"TABLERO_LEGAL_EXECUTOR": mode, "TABLERO_LEGAL_WORKERS": "2"}) as server, \
            httpx.Client(base_url=server.http, timeout=60) as http:
        slow = http.post("/v1/games", json={"engine": SlowLegalActions.name, "players": 2}).json()
        slow_url = f"/v1/games/{slow['game']['id']}/legal-actions"
        slow_token = slow["seats"][0]["token"]
        # The first list runs on the loop (it is not known to be slow yet); from then on the pool.
        assert http.get(slow_url, headers=auth(slow_token)).status_code == 200
        stop = threading.Event()
        reads, failed = [0], []
        # Clients made here: making an httpx.Client (its TLS context) takes a while in a thread.
        clients = [httpx.Client(base_url=server.http, timeout=60) for _ in range(HAMMERS)]
        ready = threading.Barrier(HAMMERS + 1)

        def hammer(c: httpx.Client) -> None:
            # (a failed read is kept and the hammer goes on: a thread that died of it would
            # leave the moves nothing to wait behind, and its assertion would be lost)
            ready.wait()
            while not stop.is_set():
                try:
                    r = c.get(slow_url, headers=auth(slow_token))
                except httpx.HTTPError as e:
                    failed.append(repr(e))
                    continue
                if r.status_code != 200:
                    failed.append(f"{r.status_code} {r.text[:200]}")
                reads[0] += 1

        hammers = [threading.Thread(target=hammer, args=(c,)) for c in clients]
        for t in hammers:
            t.start()
        try:
            ready.wait()
            time.sleep(0.1)  # every hammer's first list is on its way
            took = []
            for _ in range(games):
                out = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
                gid, (x, o) = out["game"]["id"], [s["token"] for s in out["seats"]]
                for token, cell in ((x, 0), (o, 3), (x, 1), (o, 4), (x, 2)):
                    started = time.perf_counter()
                    r = http.post(f"/v1/games/{gid}/actions", headers=auth(token),
                                  json={"action": {"type": "place", "cell": cell}})
                    took.append(time.perf_counter() - started)
                    assert r.status_code == 200, r.text
        finally:
            stop.set()
            for t in hammers:
                t.join()
            for c in clients:
                c.close()
        assert reads[0] >= HAMMERS  # the slow lists were being read all along
        assert not failed, failed
        return took


# Times moves against 0.4 s lists on a loaded machine: a failure is run once more, and named
# in the -ra summary (tests/markers.py RERUN_ONCE).
@pytest.mark.flaky(reruns=1)
def test_a_slow_legal_action_list_does_not_stall_another_games_moves():
    took = _moves_while_slow_lists_are_read("thread")
    median, worst = statistics.median(took), max(took)
    print(f"\n[offload] thread: {len(took)} moves beside {HAMMERS} clients reading {SLOW_S} s legal-action "
          f"lists: median {median * 1000:.1f} ms, max {worst * 1000:.1f} ms")
    # each move waits for the GIL now and then (two pool threads burn CPU), never for a list
    assert median < SLOW_S / 3 and worst < 2 * SLOW_S, took


# Times moves against 0.4 s lists on a loaded machine: a failure is run once more, and named
# in the -ra summary (tests/markers.py RERUN_ONCE).
@pytest.mark.flaky(reruns=1)
def test_inline_the_same_moves_wait_for_the_slow_lists():
    """TABLERO_LEGAL_EXECUTOR=inline (the behaviour before): the moves wait behind the slow
    lists. This is what the test above would see without the executor."""
    took = _moves_while_slow_lists_are_read("inline", games=1)  # each move waits ~HAMMERS lists: 5 tell
    median = statistics.median(took)
    print(f"\n[offload] inline: median {median * 1000:.1f} ms, max {max(took) * 1000:.1f} ms")
    assert median > SLOW_S, took


async def test_calls_go_to_the_pool_while_they_are_slow_on_average():
    burn = lambda: sum(range(400_000))  # noqa: E731 - ~10 ms of CPU
    costs = []
    for _ in range(3):
        started = time.thread_time()
        burn()
        costs.append(time.thread_time() - started)
    # The bound is 0.6 of a burn on this machine: a run of burns moves the average to nearly a
    # whole one (over it). The lone slow call is 0.75 of a burn (over the bound on its own, so
    # an average that followed the last call would send it to the pool): it moves the average
    # to 0.19 of one, still under the bound when that call's CPU time is 3x what was measured
    # here (a CPU shared with other workers: a whole burn against half a burn failed CI).
    calls = EngineCalls("thread", workers=1, inline_below=statistics.median(costs) * 0.6)
    try:
        for _ in range(10):
            assert await calls.run("e", "legal_actions", lambda: 1) == 1
        assert calls.offloaded == 0  # cheap: inline
        outlier = lambda: sum(range(300_000))  # noqa: E731 - 0.75 of a burn
        await calls.run("e", "legal_actions", outlier)  # one slow call (a GC pause, say): still inline
        assert await calls.run("e", "legal_actions", lambda: 2) == 2
        assert calls.offloaded == 0
        for _ in range(3 * calls.SAMPLE):  # slow again and again: on the pool
            await calls.run("e", "legal_actions", burn)
            if calls.slow("e", "legal_actions"):
                break
        assert calls.slow("e", "legal_actions")
        assert await calls.run("e", "legal_actions", lambda: 3) == 3
        assert calls.offloaded >= 1
        await calls.run("e", "view", lambda: 4)  # another call of the engine is judged on its own
        assert not calls.slow("e", "view")
        offloaded = calls.offloaded
        # waiting is not CPU: a call that sleeps (or waits for the GIL) stays inline
        await calls.run("e", "view", time.sleep, 0.1)
        await calls.run("e", "view", lambda: 5)
        assert calls.offloaded == offloaded
        for _ in range(30):  # cheap again (measured on the pool): back inline
            await calls.run("e", "legal_actions", lambda: 6)
        assert not calls.slow("e", "legal_actions")
        offloaded = calls.offloaded
        for _ in range(10 * calls.SAMPLE):  # far under the bound: sampled, and inline
            await calls.run("e", "view", lambda: 7)
        assert calls.offloaded == offloaded
    finally:
        calls.close()
    always = EngineCalls("thread", inline_below=0)
    assert await always.run("e", "legal_actions", lambda: 6) == 6 and always.offloaded == 1
    always.close()
    inline = EngineCalls("inline")
    assert await inline.run("e", "legal_actions", burn) and inline.offloaded == 0
    with pytest.raises(ValueError, match="thread.*inline"):
        EngineCalls("process")  # type: ignore[arg-type]
