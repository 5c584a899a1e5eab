"""Redis master + two replicas + three Sentinels, two `tablero serve` replicas under load
(`redis+sentinel://`), and the master killed (issue 36, "Done when").

To make asynchronous replication's loss visible, both Redis replicas first stop receiving the
master's writes for a second (a wrong `masterauth`, their links killed), so the master holds
writes no replica has; then the master is SIGKILLed, the replicas' links mended, and the
Sentinels promote one of them. The players (tests/faults/app_load.py) retry every action with
its requestId until a definitive answer, on either replica; the audit reads the new master.

- With TABLERO_REDIS_MIN_REPLICAS_ACK=1 a move is acknowledged only once a replica has it: the
  moves written during the cut are answered UNAVAILABLE, and the retries land exactly once
  (after the failover, on a master that never had them). 0 lost, 0 duplicated.
- Without it the master acknowledges what no replica has: the failover loses those moves
  (counted and printed; none is duplicated).
The time to resume service is from the master's kill to the first move acknowledged after it.

Even with MIN_REPLICAS_ACK=1 the failover is a rollback for the watchers: a move the master
wrote during the cut is seen by them (the master publishes it) though its player is answered
UNAVAILABLE, and the promoted replica never had it. A live watch is reset to the new history
(where the retries apply the moves again, in their own order: goofspiel's simultaneous bids may
land the other way round); a watch that had ended with the game before the kill cannot be told,
so it is counted ("watches ended before the rollback"), not compared, as in the AOF rollback.

    pytest tests/faults/test_sentinel_failover.py -s -m slow
"""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.faults.app_load import Figures, Load, Replica, Setup, run
from tests.faults.sentinel_set import SentinelSet

pytestmark = pytest.mark.slow

CUT = 1.0  # seconds the replicas lag before the master dies


def _master_dies(sentinels: SentinelSet, timings: dict[str, float]):  # noqa: ANN202
    async def fault(setup: Setup, load: Load, fig: Figures) -> float:
        await asyncio.to_thread(sentinels.cut_replication)
        await asyncio.sleep(CUT)
        old = await asyncio.to_thread(sentinels.kill_master)
        killed = time.monotonic()
        await asyncio.to_thread(sentinels.heal_replication)
        await asyncio.to_thread(sentinels.wait_for_new_master, old)
        # The new history starts here, not at the kill: nothing is written in between, and a watch's
        # end pushed just after the kill (under load) is the old history's.
        fig.history_from = time.monotonic()
        timings["promoted"] = fig.history_from - killed
        return killed

    return fault


@pytest.mark.parametrize("acks", [1, 0], ids=["min-replicas-ack-1", "asynchronous"])
async def test_killing_the_master_under_load(acks: int) -> None:
    with SentinelSet(replicas=2, sentinels=3) as sentinels:
        env = {"TABLERO_REDIS_URL": sentinels.url, "TABLERO_STORE_SOCKET_TIMEOUT": "3",
               "TABLERO_STORE_SOCKET_CONNECT_TIMEOUT": "1", "TABLERO_REDIS_MIN_REPLICAS_ACK": str(acks),
               "TABLERO_REDIS_REPLICAS_ACK_TIMEOUT": "0.5"}
        replicas = [Replica(env), Replica(env)]
        try:
            for r in replicas:
                await asyncio.to_thread(r.start)
            timings: dict[str, float] = {}
            scenario = f"sentinel failover, MIN_REPLICAS_ACK={acks}"
            fig = await run(Setup(sentinels.url, replicas), scenario, _master_dies(sentinels, timings),
                            warm=1.5, after=2.0, tables=4, rollback=True)
        finally:
            for r in replicas:
                r.close()
    print(f"[sentinel] {scenario}: acknowledged {fig.acknowledged}, lost {fig.lost}, duplicated "
          f"{fig.duplicated + fig.misplaced}, client retries {fig.retries}, replica promoted "
          f"{timings.get('promoted', float('nan')):.2f} s after the kill, service resumed "
          f"{fig.recovery if fig.recovery is None else round(fig.recovery, 2)} s after the kill")
    assert fig.acknowledged > 50, fig.row()
    assert fig.duplicated == fig.misplaced == fig.illegal == 0, fig.problems[:10]
    assert fig.unexpected == 0, fig.problems[:10]
    assert fig.recovery is not None and fig.recovery < 20, fig.row()
    assert fig.diverged == 0, fig.problems[:10]
    if acks:
        assert fig.lost == 0, fig.problems[:10]
    else:
        # the scenario has teeth: what the master alone acknowledged during the cut is gone
        assert fig.lost > 0, fig.row()
