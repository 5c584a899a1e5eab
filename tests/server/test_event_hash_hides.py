"""The event hash a client is shown tells nothing of what its seat may not see (an outside
acceptance pass recovered a sealed Goofspiel bid and Phoenicia's production cards from it): the
log's chain hash covers each event whole, hidden parts included, and chains from the previous
one's, so shown as it was, a seat could try the few values a hidden part may take until one gave
the shown hash. Clients are shown a keyed function of it (server.app.replies.public_hash); a
resume with a shown hash still works, and one with another history is still told so."""

from __future__ import annotations

import hashlib
import json

import pytest
from tablero.server.app import GameService
from tablero.server.app import commands as cmd
from tablero.server.auth import TokenSigner
from tablero.server.store.sqlite import SQLiteStore


def _sha_chain(prev: str, event: dict) -> str:
    return hashlib.sha1((prev + json.dumps(event, separators=(",", ":"))).encode()).hexdigest()[:16]


@pytest.mark.asyncio
async def test_a_sealed_bid_cannot_be_found_from_the_shown_hashes() -> None:
    store = SQLiteStore()
    games = GameService(store, TokenSigner("a-secret-of-this-deployment-0123456789"))
    try:
        created = await games.create_game(cmd.CreateGame(engine="goofspiel", players=2))
        gid = created["game"]["id"]
        await games.submit_action(cmd.SubmitAction(gid, 1, {"type": "bid", "card": 4}))
        listed = (await games.list_events(cmd.ListEvents(gid, 0)))["events"]
        prev, bid = listed[-2]["hash"], listed[-1]
        assert bid["event"]["type"] == "bid_placed" and "private" not in bid["event"]  # redacted for seat 0
        # The attack: every card, in the event's stored form, chained from the shown hash before it.
        for shown_prev in (prev, ""):
            tries = {_sha_chain(shown_prev, {**bid["event"], "private": {"1": {"card": card}}}) for card in range(0, 40)}
            assert bid["hash"] not in tries
        # The store's own chain (what the attack needs) is not what a client is shown.
        stored = await games.games.events(gid, 0, 100)
        assert bid["hash"] != stored[-1].hash and len(bid["hash"]) == 16
        # A resume from the shown hash goes on (nothing to reset); another history is reset.
        version = bid["version"]
        quiet = await games.watch_game(cmd.WatchGame(gid, 0, after_version=version, after_hash=bid["hash"]))
        await games.submit_action(cmd.SubmitAction(gid, 0, {"type": "bid", "card": 2}))
        first = await anext(quiet)
        assert type(first).__name__ != "Reset" and first["version"] == version + 1, first
        await quiet.aclose()
        other = await games.watch_game(cmd.WatchGame(gid, 0, after_version=version, after_hash=stored[-1].hash))
        assert type(await anext(other)).__name__ == "Reset"  # the store's own hash is not a client's
        await other.aclose()
    finally:
        await games.close()
        await store.close()


def test_replicas_with_the_same_secret_show_the_same_hash_and_others_do_not() -> None:
    from tablero.server.app.replies import public_hash

    a, b = TokenSigner("k1:secret-one-0123456789abcdef0123,k0:old"), TokenSigner("k1:secret-one-0123456789abcdef0123")
    assert public_hash(a.event_hash_key(), "00ff00ff00ff00ff") == public_hash(b.event_hash_key(), "00ff00ff00ff00ff")
    assert public_hash(TokenSigner("another-secret-0123456789abcdef").event_hash_key(), "00ff00ff00ff00ff") \
        != public_hash(a.event_hash_key(), "00ff00ff00ff00ff")
    assert public_hash(a.event_hash_key(), "") == ""  # entries written before the chain have none
