"""The notification events derived from a game's metadata are the same whenever they are derived
(docs/webhooks.md: "the same log always gives the same events with the same ids")."""

from __future__ import annotations

from tablero.server.notify.events import derive_meta

META = {"engine": "tic-tac-toe", "players": 2, "seats": ["human", "open"]}
ALICE, BOB = {"id": "alice", "name": "Alice"}, {"id": "bob", "name": "Bob"}


def _kind(events, kind):
    """The events of `kind`, without their timestamps (when each was derived)."""
    return [{k: v for k, v in e.items() if k != "timestamp"} for e in events if e["type"] == kind]


def test_game_created_is_the_game_as_created_even_when_derived_after_a_join():
    """An outside pass found game.created naming bob on the open seat when it was derived after
    bob's join, and nobody when derived before: the seat's joiner is seat.joined's to tell."""
    _, before = derive_meta("g1", META, None, [], [ALICE, None], 0)
    _, after = derive_meta("g1", META, None, [1], [ALICE, BOB], 0)
    created = _kind(before, "game.created")
    assert created and _kind(after, "game.created") == created
    assert created[0]["data"]["seats"] == [{"seat": 0, "kind": "human", "userId": "alice"},
                                           {"seat": 1, "kind": "open", "userId": None}]
    assert [e["data"] for e in _kind(after, "seat.joined")] == [{"gameId": "g1", "version": 0, "seat": 1, "userId": "bob"}]
