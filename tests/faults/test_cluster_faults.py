"""Redis Cluster: a game's slot migrates to another node (MIGRATE, ASK, MOVED) while it is
played and watched. Every acknowledged append stays exactly once at its version, and the
watcher keeps receiving pushes (its shard subscription follows the slot)."""

from __future__ import annotations

import asyncio
import subprocess
import time
from contextlib import aclosing

import redis
from redis.crc import key_slot
from tablero.server.store import DuplicateRequest, StoreError
from tablero.server.store.redis import RedisStore, channel_of, game_keys

from tests.redis_server import RedisClusterServers, _answers_ping, _free_port


def _migrate_slot(cluster: RedisClusterServers, slot: int) -> tuple[int, int]:
    """Move `slot` from its owner to another master; returns (from port, to port)."""
    clients = {port: redis.Redis(port=port) for port in cluster.ports}
    try:
        ids = {port: c.execute_command("CLUSTER MYID").decode() for port, c in clients.items()}
        owner = next(
            port for port, c in clients.items()
            if any(s[0] <= slot <= s[1] and s[2][1] == port for s in c.execute_command("CLUSTER SLOTS"))
        )
        target = next(port for port in cluster.ports if port != owner)
        src, dst = clients[owner], clients[target]
        dst.execute_command("CLUSTER SETSLOT", slot, "IMPORTING", ids[owner])
        src.execute_command("CLUSTER SETSLOT", slot, "MIGRATING", ids[target])
        while True:
            keys = src.execute_command("CLUSTER GETKEYSINSLOT", slot, 100)
            if not keys:
                break
            src.execute_command("MIGRATE", "127.0.0.1", target, "", 0, 5000, "KEYS", *keys)
            time.sleep(0.05)  # let appends run against a half-migrated slot (ASK / TRYAGAIN)
        for c in clients.values():
            c.execute_command("CLUSTER SETSLOT", slot, "NODE", ids[target])
        return owner, target
    finally:
        for c in clients.values():
            c.close()


async def test_a_slot_migration_under_load_loses_nothing_and_push_follows_the_slot() -> None:
    with RedisClusterServers() as cluster:
        writer = RedisStore(cluster.url)
        watching = RedisStore(cluster.url, sweep_interval=60)  # pushes only: no sweep to hide a gap
        try:
            g = f"migrating-{time.monotonic_ns()}"
            slot = key_slot(game_keys(g).events.encode())
            assert key_slot(channel_of(g).encode()) == slot
            await writer.create(g, {}, [])
            acked: list[tuple[int, int]] = []
            got: list[int] = []

            async def watch() -> None:
                async with aclosing(watching.watch(g, 0)) as events:
                    async for version, event in events:
                        assert event == {"i": version - 1}
                        got.append(version)

            watcher = asyncio.ensure_future(watch())
            await asyncio.sleep(0.3)

            async def play(moves: range) -> None:
                version = len(acked)
                for i in moves:
                    while True:
                        try:
                            version = await writer.append(g, version, [{"i": i}], request_id=f"m{i}")
                            acked.append((version, i))
                            break
                        except DuplicateRequest as d:
                            acked.append((d.version, i))
                            version = d.version
                            break
                        except StoreError:
                            await asyncio.sleep(0.05)
                    await asyncio.sleep(0.01)

            playing = asyncio.ensure_future(play(range(0, 60)))
            await asyncio.sleep(0.2)
            await asyncio.to_thread(_migrate_slot, cluster, slot)
            await asyncio.wait_for(playing, 30)
            # after the migration, a new append is pushed at once (not at the 60 s sweep)
            await asyncio.sleep(1.0)
            started = time.monotonic()
            await play(range(60, 61))
            async with asyncio.timeout(5):
                while len(got) < 61:
                    await asyncio.sleep(0.01)
            pushed_after = time.monotonic() - started
            watcher.cancel()
            entries = await writer.read_entries(g)
        finally:
            await writer.close()
            await watching.close()
    assert [e.event["i"] for e in entries] == list(range(61))  # exactly once, in order
    assert acked == [(i + 1, i) for i in range(61)]
    assert got == list(range(1, 62))
    print(f"\n[faults] slot migration: acked {len(acked)}, lost 0, duplicated 0, push after {pushed_after:.3f} s")
    assert pushed_after < 2.0


def _add_replica(cluster: RedisClusterServers, master_port: int) -> tuple[subprocess.Popen[bytes], int]:
    """Start one more cluster node and make it a replica of `master_port`."""
    port, bus = _free_port(), _free_port()
    assert cluster.dir is not None
    node_dir = cluster.dir / f"replica-{port}"
    node_dir.mkdir()
    process = subprocess.Popen(
        [
            cluster.binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--dir", str(node_dir), "--cluster-enabled", "yes", "--cluster-port", str(bus),
            "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 20
    while not _answers_ping(port):
        assert time.monotonic() < deadline and process.poll() is None, "replica did not start"
        time.sleep(0.02)
    master, replica = redis.Redis(port=master_port), redis.Redis(port=port)
    try:
        replica.execute_command("CLUSTER MEET", "127.0.0.1", master_port, cluster.bus_ports[cluster.ports.index(master_port)])
        master_id = master.execute_command("CLUSTER MYID").decode()
        while True:  # the replica must know the master before it can replicate it
            try:
                replica.execute_command("CLUSTER REPLICATE", master_id)
                break
            except redis.ResponseError:
                assert time.monotonic() < deadline, "replica never learnt the master"
                time.sleep(0.1)
        while replica.info("replication").get("master_link_status") != "up":
            assert time.monotonic() < deadline, "replica never synced"
            time.sleep(0.05)
    finally:
        master.close()
        replica.close()
    return process, port


async def test_a_manual_failover_under_load_loses_nothing() -> None:
    with RedisClusterServers() as cluster:
        writer = RedisStore(cluster.url)
        watching = RedisStore(cluster.url, sweep_interval=0.5)
        replica_process = None
        try:
            g = f"failover-{time.monotonic_ns()}"
            await writer.create(g, {}, [])
            slot = key_slot(game_keys(g).events.encode())
            probe = redis.Redis(port=cluster.ports[0])
            owner = next(s[2][1] for s in probe.execute_command("CLUSTER SLOTS") if s[0] <= slot <= s[1])
            probe.close()
            replica_process, replica_port = await asyncio.to_thread(_add_replica, cluster, owner)
            acked: list[tuple[int, int]] = []
            got: list[int] = []

            async def watch() -> None:
                async with aclosing(watching.watch(g, 0)) as events:
                    async for version, event in events:
                        assert event == {"i": version - 1}
                        got.append(version)

            watcher = asyncio.ensure_future(watch())

            async def play(moves: range) -> None:
                version = len(acked)
                for i in moves:
                    while True:
                        try:
                            version = await writer.append(g, version, [{"i": i}], request_id=f"m{i}")
                            acked.append((version, i))
                            break
                        except DuplicateRequest as d:
                            acked.append((d.version, i))
                            version = d.version
                            break
                        except StoreError:
                            await asyncio.sleep(0.05)
                    await asyncio.sleep(0.01)

            playing = asyncio.ensure_future(play(range(0, 80)))
            await asyncio.sleep(0.3)
            started = time.monotonic()
            replica = redis.Redis(port=replica_port)
            await asyncio.to_thread(replica.execute_command, "CLUSTER FAILOVER")
            while replica.info("replication").get("role") != "master":
                await asyncio.sleep(0.02)
            promoted = time.monotonic() - started
            replica.close()
            await asyncio.wait_for(playing, 60)
            async with asyncio.timeout(10):
                while len(got) < 80:
                    await asyncio.sleep(0.01)
            watcher.cancel()
            entries = await writer.read_entries(g)
        finally:
            await writer.close()
            await watching.close()
            if replica_process is not None:
                replica_process.kill()
                replica_process.wait()
    assert [e.event["i"] for e in entries] == list(range(80))
    assert acked == [(i + 1, i) for i in range(80)]
    assert got == list(range(1, 81))
    print(f"\n[faults] manual failover: acked {len(acked)}, lost 0, duplicated 0, promoted in {promoted:.2f} s")
