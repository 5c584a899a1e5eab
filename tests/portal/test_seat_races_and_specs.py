"""Seats and portal users on two replicas: defects an outside acceptance pass found, each
with its fix's test.
- A user's joins that race (two devices, a retry, two replicas) hand out one seat (two joins
  at once gave one user two seats: 7 in 15 tries on one replica, every try across two).
- The open-games cap holds under concurrent creates and joins (27 of 30 creates passed a
  cap of 20).
- A seat whose player left with onLeave "bot" is a bot's in GetGame and in the lobby alike,
  a joined open seat too (the lobby said HUMAN, an open seat said OPEN in both).
- Bad seat specs are refused (userName without userId, a name on a "me" seat, control
  characters) instead of being dropped or shown to everyone.
- The creator's CreateGame reply is seen from their own "me" seat."""

import asyncio

import pytest
import redis.asyncio as aioredis
from tablero.server.app import InvalidArgument
from tablero.server.app import commands as cmd
from tablero.server.app.service import GameService
from tablero.server.auth import TokenSigner
from tablero.server.errors import OverQuota
from tablero.server.portal.identity import User
from tablero.server.portal.lobby import RedisLobby, SQLiteLobby
from tablero.server.store import SQLiteStore
from tablero.server.store.redis import RedisStore


@pytest.fixture(params=["sqlite-file", "redis"])
async def two_replicas(request, tmp_path):
    """Two services on one store and one lobby, as two replicas (or workers) are; an
    open-games cap of 3."""
    if request.param == "redis":
        url = request.getfixturevalue("redis_url")
        clients = [aioredis.Redis.from_url(url) for _ in range(2)]
        stores = [RedisStore(url) for _ in range(2)]
        lobbies = [RedisLobby(c) for c in clients]
    else:
        path = str(tmp_path / "g.db")
        clients = []
        stores = [SQLiteStore(path) for _ in range(2)]
        lobbies = [SQLiteLobby(path + ".lobby") for _ in range(2)]
    services = [GameService(s, TokenSigner("s"), lobby=lb, max_open_games_per_user=3)
                for s, lb in zip(stores, lobbies, strict=True)]
    yield services
    for s in stores:
        await s.close()
    for c in clients:
        await c.aclose()


async def test_a_users_racing_joins_get_one_seat_on_every_replica(two_replicas):
    a, b = two_replicas
    a.max_open_games = b.max_open_games = 0  # no cap: nothing else orders the joins
    for i in range(5):
        ann = User(f"ann{i}", "Ann")
        gid = (await a.create_game(cmd.CreateGame("goofspiel", 3, seats=("me", "open", "open"), user=ann)))["game"]["id"]
        bob = User(f"bob{i}", "Bob")
        joins = [cmd.JoinGame(gid, bob) for _ in range(4)]
        answers = await asyncio.gather(*(svc.join_game(j) for svc, j in zip((a, b, a, b), joins, strict=True)))
        assert {r["seat"] for r in answers} == {1}, answers  # one seat, the same token for every device
        assert len({r["token"] for r in answers}) == 1
        seats = (await b.get_game(cmd.GetGame(gid, None)))["game"]["seats"]
        assert [(s.get("userId"), s["claimed"]) for s in seats] == [(ann.id, True), (bob.id, True), (None, False)]
        # The other open seat is still there for someone else.
        assert (await b.join_game(cmd.JoinGame(gid, User(f"cy{i}"))))["seat"] == 2


async def test_the_open_games_cap_holds_when_a_users_creates_and_joins_race(two_replicas):
    a, b = two_replicas
    dee = User("dee")
    creates = [(a, b)[i % 2].create_game(cmd.CreateGame("tic-tac-toe", 2, seats=("me", "open"), user=dee))
               for i in range(8)]
    answers = await asyncio.gather(*creates, return_exceptions=True)
    assert sum(isinstance(r, dict) for r in answers) == 3, answers
    assert all(isinstance(r, OverQuota) for r in answers if not isinstance(r, dict))
    # Joins into several games at once count the same way.
    eve = User("eve")
    games = [(await a.create_game(cmd.CreateGame("tic-tac-toe", 2, seats=("me", "open"), user=User(f"h{i}"))))
             ["game"]["id"] for i in range(6)]
    joins = await asyncio.gather(*((a, b)[i % 2].join_game(cmd.JoinGame(g, eve)) for i, g in enumerate(games)),
                                 return_exceptions=True)
    assert sum(isinstance(r, dict) for r in joins) == 3, joins


async def test_games_the_user_left_do_not_count_against_the_open_games_cap(two_replicas):
    """An outside pass resigned from every game at the cap (three-seat games that went on
    without the user) and could create no game: the cap counted the seats the user had left.
    A forfeited seat and a seat left to a bot no longer count."""
    a, b = two_replicas
    fay = User("fay")
    made = []
    for i, on_leave in enumerate(("forfeit", "forfeit", "bot")):
        gid = (await a.create_game(cmd.CreateGame("goofspiel", 3, seats=("me", "open", "open"), user=fay,
                                                  on_leave=on_leave)))["game"]["id"]
        for j in (1, 2):
            await b.join_game(cmd.JoinGame(gid, User(f"g{i}{j}")))
        made.append(gid)
    with pytest.raises(OverQuota):
        await b.create_game(cmd.CreateGame("tic-tac-toe", 2, seats=("me", "open"), user=fay))
    for gid in made:
        await a.resign(cmd.Resign(gid, 0))
        assert (await a.get_game(cmd.GetGame(gid, None)))["game"]["status"] == "GAME_STATUS_RUNNING"
    for svc in (a, b):
        assert (await svc.create_game(cmd.CreateGame("tic-tac-toe", 2, seats=("me", "open"), user=fay)))["game"]["id"]


async def test_a_seat_left_to_a_bot_is_a_bots_in_the_game_and_in_the_lobby(two_replicas):
    a, b = two_replicas
    ann = User("ann")
    created = await a.create_game(cmd.CreateGame(
        "goofspiel", 3, seat_specs=({"kind": "me"}, {"kind": "human", "userId": "bob"}, {"kind": "open"}),
        on_leave="bot", user=ann))
    gid = created["game"]["id"]
    assert (await a.join_game(cmd.JoinGame(gid, User("cy"))))["seat"] == 2
    await b.resign(cmd.Resign(gid, 1))
    await a.resign(cmd.Resign(gid, 2))
    for svc in (a, b):
        seats = (await svc.get_game(cmd.GetGame(gid, None)))["game"]["seats"]
        assert [s["kind"] for s in seats] == ["SEAT_KIND_HUMAN", "SEAT_KIND_BOT", "SEAT_KIND_BOT"]
        listed = next(g for g in (await svc.list_games(cmd.ListGames()))["games"] if g["id"] == gid)
        assert [s["kind"] for s in listed["seats"]] == ["SEAT_KIND_HUMAN", "SEAT_KIND_BOT", "SEAT_KIND_BOT"]
        assert [s.get("userId") for s in listed["seats"]] == ["ann", "bob", "cy"]


@pytest.mark.parametrize(("spec", "reason"), [
    ({"kind": "human", "userName": "Bob"}, "userName names the user of userId"),
    ({"kind": "human", "userId": "bo\nb"}, "control characters"),
    ({"kind": "human", "userId": "bob", "userName": "B\u0000ob"}, "control characters"),
    ({"kind": "human", "userId": "bob", "userName": "B\ud800"}, "lone surrogates"),  # e.g. over gRPC's Struct
])
async def test_bad_seat_specs_are_refused(two_replicas, spec, reason):
    a, _ = two_replicas
    with pytest.raises(InvalidArgument, match=reason):
        await a.create_game(cmd.CreateGame("tic-tac-toe", 2, seat_specs=({"kind": "me"}, spec), user=User("ann")))
    with pytest.raises(InvalidArgument, match="takes its name from the portal JWT"):
        await a.create_game(cmd.CreateGame("tic-tac-toe", 2, seat_specs=({"kind": "me", "userName": "X"},
                                                                        {"kind": "bot"}), user=User("ann")))


async def test_the_creators_reply_is_seen_from_their_own_seat(two_replicas):
    a, _ = two_replicas
    mine = await a.create_game(cmd.CreateGame("goofspiel", 2, seats=("bot", "me"), user=User("ann")))
    assert mine["game"]["yourSeat"] == 1 and mine["game"]["view"]["hand"] is not None
    anonymous = await a.create_game(cmd.CreateGame("goofspiel", 2))  # a token for each seat: no one seat
    assert "yourSeat" not in anonymous["game"]
