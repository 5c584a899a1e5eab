"""Model-based test: random operation sequences give the same results on every adapter as on
a plain in-memory model of the contract (and, where the backend is shared, whichever of two
store instances runs each operation)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tablero.server.store import Conflict, DuplicateRequest, EventStore, GameNotFound

from tests.store.test_contract import Backend

SEATS = [0, 1, 2, 3]

op = st.one_of(
    st.tuples(
        st.just("append"),
        st.sampled_from([-1, 0, 0, 0, 1]),  # expected version relative to the true one
        st.integers(0, 3),  # events appended
        st.sampled_from([None, None, "r0", "r1", "r2"]),  # request id
    ),
    st.tuples(st.just("claim"), st.lists(st.sampled_from(SEATS), min_size=1, max_size=4, unique=True)),
    st.tuples(st.just("snapshot"), st.integers(0, 12)),
    st.tuples(st.just("read"), st.integers(0, 12), st.one_of(st.none(), st.integers(1, 5))),
)


@dataclass
class Model:
    events: list[dict[str, Any]] = field(default_factory=list)
    requests: dict[str, int] = field(default_factory=dict)
    claimed: list[int] = field(default_factory=list)
    snapshot: tuple[int, Any] | None = None

    def run(self, operation: tuple[Any, ...], stamp: int) -> Any:
        kind = operation[0]
        if kind == "append":
            _, delta, count, rid = operation
            expected = len(self.events) + delta
            if rid is not None and rid in self.requests:
                return ("duplicate", self.requests[rid])
            if expected != len(self.events):
                return ("conflict", len(self.events))
            self.events += [{"type": "e", "stamp": stamp, "i": i} for i in range(count)]
            if rid is not None:
                self.requests[rid] = len(self.events)
            return len(self.events)
        if kind == "claim":
            for seat in operation[1]:
                if seat not in self.claimed:
                    self.claimed.append(seat)
                    return seat
            return None
        if kind == "snapshot":
            if self.snapshot is None or operation[1] > self.snapshot[0]:
                self.snapshot = (operation[1], {"at": operation[1], "stamp": stamp})
            return None
        _, after, limit = operation
        page = self.events[after:]
        return page if limit is None else page[:limit]


async def run_on_store(store: EventStore, game: str, operation: tuple[Any, ...], stamp: int) -> Any:
    kind = operation[0]
    if kind == "append":
        _, delta, count, rid = operation
        expected = await store.version(game) + delta
        try:
            return await store.append(
                game, expected, [{"type": "e", "stamp": stamp, "i": i} for i in range(count)], request_id=rid
            )
        except DuplicateRequest as e:
            return ("duplicate", e.version)
        except Conflict as e:
            return ("conflict", e.actual)
    if kind == "claim":
        return await store.claim_seat(game, operation[1])
    if kind == "snapshot":
        return await store.put_snapshot(game, operation[1], {"at": operation[1], "stamp": stamp})
    _, after, limit = operation
    return await store.read(game, after, limit)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=st.lists(st.tuples(op, st.booleans()), max_size=25))
async def test_random_operations_match_the_model(backend: Backend, operations: list[Any]) -> None:
    stores = backend.stores[:2] or [backend.open()]
    if backend.shared and len(stores) == 1:
        stores.append(backend.open())
    game = f"m-{uuid.uuid4().hex[:12]}"
    model = Model()
    await stores[0].create(game, {"engine": "model"}, [])
    for stamp, (operation, on_second) in enumerate(operations):
        store = stores[on_second and len(stores) > 1]
        assert await run_on_store(store, game, operation, stamp) == model.run(operation, stamp), operation
    for store in stores:
        assert await store.version(game) == len(model.events)
        assert await store.read(game) == model.events
        assert await store.get_snapshot(game) == model.snapshot
        assert (await store.get_meta(game)).get("claimed", []) == model.claimed
        for rid in ("r0", "r1", "r2"):
            assert await store.request_version(game, rid) == model.requests.get(rid)
    with pytest.raises(GameNotFound):
        await stores[0].version(game + "-missing")
