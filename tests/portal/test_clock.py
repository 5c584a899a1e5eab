"""Turn clocks: deadlines per waiting seat, kept across simultaneous moves."""

import time

import pytest
from tablero.server.portal.clock import ClockRecord, parse_clock


def test_each_waiting_seat_gets_its_own_deadline():
    r = ClockRecord(1).advance(1, {0}, now=100.0)
    assert r.deadlines(30) == {0: 130.0} and r.due(30, 129.9) == [] and r.due(30, 130.0) == [0]


def test_simultaneous_moves_keep_each_late_seats_clock():
    r = ClockRecord(1).advance(1, {0, 1, 2}, now=100.0)
    r = r.advance(2, {0, 2}, now=110.0)  # seat 1 bid at 110; 0 and 2 still waiting since 100
    assert r.since == {0: 100.0, 2: 100.0}
    r = r.advance(3, {0, 1, 2}, now=120.0)  # a new round: seat 1 starts now, 0 and 2 keep waiting
    assert r.since == {0: 100.0, 1: 120.0, 2: 100.0} and r.next_due(30) == 130.0


def test_a_record_behind_the_game_starts_new_clocks_when_discovered():
    r = ClockRecord(5, {1: 50.0})
    assert r.advance(7, {0}, now=200.0).since == {0: 200.0}


@pytest.mark.parametrize(
    "bad",
    [5, {"moveSeconds": 0}, {"moveSeconds": "10"}, {"moveSeconds": 10, "onTimeout": "pass"}, {"moveSeconds": 10, "x": 1}],
)
def test_bad_clocks_are_refused(bad):
    with pytest.raises(ValueError, match="clock"):
        parse_clock(bad)


def test_clock_defaults_to_bot():
    assert parse_clock({"moveSeconds": 60}) == {"moveSeconds": 60, "onTimeout": "bot"}


@pytest.fixture(params=["memory", "sqlite", "redis"])
async def clocks(request, tmp_path):
    from tablero.server.portal.clock import MemoryClocks, RedisClocks, SQLiteClocks

    if request.param == "memory":
        yield MemoryClocks()
    elif request.param == "sqlite":
        yield SQLiteClocks(str(tmp_path / "c.db"))
    else:
        import redis.asyncio as aioredis

        from tests.redis_server import RedisServer

        with RedisServer() as server:
            client = aioredis.Redis.from_url(server.url)
            yield RedisClocks(client)
            await client.aclose()


async def test_the_schedule_lists_games_whose_clock_may_be_due(clocks):
    r = ClockRecord(1).advance(1, {0}, now=100.0)
    await clocks.put("g1", r, r.next_due(30))
    await clocks.put("g2", r, 500.0)
    assert await clocks.due(129.0) == [] and await clocks.due(130.0) == ["g1"]
    assert (await clocks.get("g1")).since == {0: 100.0}
    await clocks.put("g1", r, None)  # the game is over: nothing to schedule
    assert await clocks.due(1000.0) == ["g2"]
    await clocks.remove("g2")
    assert await clocks.due(1000.0) == [] and await clocks.get("g2") is None


async def _clocked_goofspiel(players: int, move_seconds: int, on_timeout: str):
    """A Goofspiel game (every seat bids at once) with a turn clock: (service, commands, game id)."""
    from tablero.server.app import GameService
    from tablero.server.app import commands as cmd
    from tablero.server.auth import TokenSigner
    from tablero.server.store import SQLiteStore

    games = GameService(SQLiteStore(), TokenSigner("s"))
    created = await games.create_game(cmd.CreateGame(
        engine="goofspiel", players=players, clock={"moveSeconds": move_seconds, "onTimeout": on_timeout}))
    return games, cmd, created["game"]["id"]


@pytest.mark.parametrize(("players", "winners"), [(2, []), (3, [])])
async def test_seats_that_miss_the_same_deadline_all_forfeit_and_none_wins(players, winners):
    # Goofspiel: every seat bids at once. Nobody bids: every deadline passes together, and
    # the seat swept last must not win for it (an outside tester saw seat 2 win that way).
    games, cmd, gid = await _clocked_goofspiel(players, 1, "forfeit")
    assert await games.sweep_clocks(now=time.time() + 5) == 1  # one append: every due seat at once
    g = (await games.get_game(cmd.GetGame(gid, None)))["game"]
    left = [e for e in (await games.list_events(cmd.ListEvents(gid, None)))["events"]
            if e["event"]["type"] == "tablero.seat_left"]
    assert sorted(e["event"]["seat"] for e in left) == list(range(players))
    assert g["outcome"]["winners"] == winners and g["outcome"]["endedBy"] == "forfeit"


async def test_a_seat_that_bid_in_time_wins_when_the_others_forfeit_together():
    games, cmd, gid = await _clocked_goofspiel(3, 1, "forfeit")
    actions = (await games.list_legal_actions(cmd.ListLegalActions(gid, seat=2)))["actions"]
    await games.submit_action(cmd.SubmitAction(gid, seat=2, action=actions[0]))
    assert await games.sweep_clocks(now=time.time() + 5) == 1
    g = (await games.get_game(cmd.GetGame(gid, None)))["game"]
    assert g["outcome"]["winners"] == [2] and g["outcome"]["endedBy"] == "forfeit"


async def test_late_seats_of_a_simultaneous_turn_have_their_turns_taken_together_at_their_deadline():
    # Goofspiel, 4 seats, onTimeout "bot": seat 0 bids, the other three don't. They shared one
    # deadline, so one sweep past it takes all three turns (an outside tester saw them taken one
    # per moveSeconds, each timeout restarting the others' clocks: the last waited 3x as long).
    games, cmd, gid = await _clocked_goofspiel(4, 30, "bot")
    actions = (await games.list_legal_actions(cmd.ListLegalActions(gid, seat=0)))["actions"]
    await games.submit_action(cmd.SubmitAction(gid, seat=0, action=actions[0]))
    g = (await games.get_game(cmd.GetGame(gid, None)))["game"]
    deadlines = {d["seat"]: d["deadline"] for d in g["deadlines"]}
    assert sorted(deadlines) == [1, 2, 3] and len(set(deadlines.values())) == 1
    now = time.time()
    assert await games.sweep_clocks(now=now + 29) == 0
    assert await games.sweep_clocks(now=now + 31) == 1  # one append: every late seat's turn
    events = [e["event"] for e in (await games.list_events(cmd.ListEvents(gid, None)))["events"]]
    assert sorted(e["seat"] for e in events if e["type"] == "tablero.turn_timed_out") == [1, 2, 3]
    g = (await games.get_game(cmd.GetGame(gid, None)))["game"]
    assert sorted(g["toAct"]) == [0, 1, 2, 3]  # the next prize: every seat bids again
    assert {d["seat"] for d in g["deadlines"]} == {0, 1, 2, 3}
    assert all(d["deadline"] >= now + 30 for d in g["deadlines"])  # a new turn: new deadlines


async def _clocked_vs_bot(on_timeout: str):
    from tablero.server.app import GameService
    from tablero.server.app import commands as cmd
    from tablero.server.auth import TokenSigner
    from tablero.server.store import SQLiteStore

    games = GameService(SQLiteStore(), TokenSigner("s"))
    created = await games.create_game(cmd.CreateGame(
        engine="tic-tac-toe", players=2, seats=["human", "bot"], clock={"moveSeconds": 10, "onTimeout": on_timeout}))
    return games, cmd, created["game"]["id"], created["game"]["deadlines"][0]["deadline"]


async def test_a_move_the_bot_answers_at_once_gives_the_next_turn_a_new_deadline(monkeypatch):
    # The person's seat is waiting before the move and again after the bot's answer, in the
    # same write: it is a new turn, with a new deadline (it kept the first turn's, and timed
    # out at once, in an outside tester's browser game).
    import time

    games, cmd, gid, first = await _clocked_vs_bot("bot")
    later = time.time() + 3
    monkeypatch.setattr(time, "time", lambda: later)
    out = await games.submit_action(cmd.SubmitAction(gid, 0, {"type": "place", "cell": 4}))
    assert out["game"]["toAct"] == [0] and out["game"]["version"] == 3  # the bot answered
    deadline = out["game"]["deadlines"][0]["deadline"]
    assert deadline == pytest.approx(later + 10, abs=0.5) and deadline > first + 2
    assert await games.sweep_clocks(now=first + 1) == 0  # the first turn's deadline is no longer due


async def test_a_turn_a_bot_took_over_on_timeout_gives_the_next_one_a_new_deadline(monkeypatch):
    import time

    games, cmd, gid, first = await _clocked_vs_bot("bot")
    monkeypatch.setattr(time, "time", lambda: first + 1)
    assert await games.sweep_clocks(now=first + 1) == 1  # the bot plays the late turn (and answers)
    g = (await games.get_game(cmd.GetGame(gid, None)))["game"]
    assert g["toAct"] == [0] and g["status"] == "GAME_STATUS_RUNNING"
    assert g["deadlines"][0]["deadline"] == pytest.approx(first + 11, abs=0.5)
    # one timeout, not one per sweep (three in a row ended a tester's game)
    monkeypatch.setattr(time, "time", lambda: first + 2)
    assert await games.sweep_clocks(now=first + 2) == 0


@pytest.mark.parametrize("on_timeout", ["bot", "forfeit"])
async def test_an_open_seat_nobody_took_runs_no_clock_until_someone_joins(on_timeout):
    # (an outside tester: the clock of a seat nobody took ran out, and a bot played it, or it
    # forfeited, so the creator won against nobody: wins to farm)
    from tablero.server.app import GameService
    from tablero.server.app import commands as cmd
    from tablero.server.auth import TokenSigner
    from tablero.server.store import SQLiteStore

    games = GameService(SQLiteStore(), TokenSigner("s"))
    created = await games.create_game(cmd.CreateGame(
        engine="tic-tac-toe", players=2, seats=["human", "open"], clock={"moveSeconds": 5, "onTimeout": on_timeout}))
    gid = created["game"]["id"]
    await games.submit_action(cmd.SubmitAction(gid, seat=0, action={"type": "place", "cell": 4}))
    g = (await games.get_game(cmd.GetGame(gid, None)))["game"]
    assert g["toAct"] == [1] and g["deadlines"] == []  # nobody sits there: no clock runs
    assert await games.sweep_clocks(now=time.time() + 60) == 0
    g = (await games.get_game(cmd.GetGame(gid, None)))["game"]
    assert g["status"] == "GAME_STATUS_RUNNING" and g["version"] == 2
    joined = time.time()
    await games.join_game(cmd.JoinGame(gid))
    g = (await games.get_game(cmd.GetGame(gid, None)))["game"]
    assert [d["seat"] for d in g["deadlines"]] == [1] and g["deadlines"][0]["deadline"] >= joined + 5
    assert await games.sweep_clocks(now=time.time() + 60) == 1  # the seat's clock runs now


@pytest.mark.parametrize("on_timeout", ["bot", "forfeit"])
async def test_no_clock_runs_while_the_game_waits_for_its_players(on_timeout):
    """(an outside tester: the creator, first to move, forfeited after moveSeconds while the
    game still waited in the lobby for an opponent, and the game ended "abandoned" before
    anyone could join.) Every clock starts when the last open seat is taken, from then."""
    from tablero.server.app import GameService
    from tablero.server.app import commands as cmd
    from tablero.server.auth import TokenSigner
    from tablero.server.store import SQLiteStore

    games = GameService(SQLiteStore(), TokenSigner("s"))
    created = await games.create_game(cmd.CreateGame(
        engine="goofspiel", players=3, seats=["human", "open", "open"],
        clock={"moveSeconds": 5, "onTimeout": on_timeout}))
    gid = created["game"]["id"]
    g = (await games.get_game(cmd.GetGame(gid, None)))["game"]
    assert g["toAct"] == [0, 1, 2] and g["deadlines"] == []  # waiting for players: no clock
    assert await games.sweep_clocks(now=time.time() + 60) == 0
    await games.join_game(cmd.JoinGame(gid))  # one of two open seats: still waiting
    g = (await games.get_game(cmd.GetGame(gid, None)))["game"]
    assert g["deadlines"] == [] and g["version"] == 1
    assert await games.sweep_clocks(now=time.time() + 60) == 0
    full = time.time()
    await games.join_game(cmd.JoinGame(gid))  # the last one: every clock starts now
    g = (await games.get_game(cmd.GetGame(gid, None)))["game"]
    assert [d["seat"] for d in g["deadlines"]] == [0, 1, 2]
    assert all(full + 5 <= d["deadline"] <= time.time() + 5 for d in g["deadlines"])
    assert await games.sweep_clocks(now=full + 4) == 0
    assert await games.sweep_clocks(now=time.time() + 6) == 1  # one write for every late seat
    g = (await games.get_game(cmd.GetGame(gid, None)))["game"]
    if on_timeout == "forfeit":
        assert g["status"] == "GAME_STATUS_FINISHED" and g["outcome"]["endedBy"] == "forfeit"
    else:
        assert g["status"] == "GAME_STATUS_RUNNING" and g["version"] > 1


async def test_a_retried_join_restarts_no_clock(monkeypatch):
    """(found beside an outside pass) A join retried with its requestId after its first answer
    was lost gets the same seat back, and must not start the game's clocks again: the deadlines
    announced at the real join stay (a late retry reset every waiting player's clock)."""
    from tablero.server.app import GameService
    from tablero.server.app import commands as cmd
    from tablero.server.auth import TokenSigner
    from tablero.server.store import SQLiteStore

    games = GameService(SQLiteStore(), TokenSigner("s"))
    created = await games.create_game(cmd.CreateGame(
        engine="goofspiel", players=2, seats=["human", "open"], clock={"moveSeconds": 30, "onTimeout": "bot"}))
    gid = created["game"]["id"]
    first = await games.join_game(cmd.JoinGame(gid, request_id="join-0123456789abcdef"))
    before = (await games.get_game(cmd.GetGame(gid, None)))["game"]["deadlines"]
    assert [d["seat"] for d in before] == [0, 1]
    later = time.time() + 10
    monkeypatch.setattr(time, "time", lambda: later)
    again = await games.join_game(cmd.JoinGame(gid, request_id="join-0123456789abcdef"))
    assert (again["seat"], again["token"]) == (first["seat"], first["token"])
    assert (await games.get_game(cmd.GetGame(gid, None)))["game"]["deadlines"] == before


async def test_a_game_that_waits_for_its_players_is_not_abandoned_until_it_starts():
    """(outside tester: TABLERO_ABANDON_AFTER ended lobby games still waiting for an opponent,
    so a link sent to a friend who came an hour later led to a game over.) A game waiting for its
    players has not started: nobody has a turn to abandon. It stays open however long it waits,
    and abandonment counts from when the last open seat is taken (its first turn's start)."""
    from tablero.server.app import GameService
    from tablero.server.app import commands as cmd
    from tablero.server.auth import TokenSigner
    from tablero.server.store import SQLiteStore

    games = GameService(SQLiteStore(), TokenSigner("s"), abandon_after=30)
    created = await games.create_game(cmd.CreateGame(
        engine="tic-tac-toe", players=2, seats=["human", "open"], clock={"moveSeconds": 5, "onTimeout": "bot"}))
    gid = created["game"]["id"]
    await games.submit_action(cmd.SubmitAction(gid, seat=0, action={"type": "place", "cell": 4}))
    idle = (await games.create_game(cmd.CreateGame(engine="tic-tac-toe", players=2, seats=["human", "open"])))
    for later in (10, 31, 3600, 30 * 86400):  # nobody came yet: still waiting, still open
        assert await games.sweep_clocks(now=time.time() + later) == 0
    for g in (gid, idle["game"]["id"]):
        game = (await games.get_game(cmd.GetGame(g, None)))["game"]
        assert game["status"] == "GAME_STATUS_RUNNING" and "outcome" not in game, game
    joined = time.time()
    await games.join_game(cmd.JoinGame(gid))  # the game starts: seat 1's turn
    assert await games.sweep_clocks(now=joined + 4) == 0
    g = (await games.get_game(cmd.GetGame(gid, None)))["game"]
    assert g["status"] == "GAME_STATUS_RUNNING" and g["toAct"] == [1]
    await games.submit_action(cmd.SubmitAction(gid, seat=1, action={"type": "place", "cell": 0}))
    await games.submit_action(cmd.SubmitAction(gid, seat=0, action={"type": "place", "cell": 8}))
    moved = time.time()
    # nobody acts for TABLERO_ABANDON_AFTER (30 s) once it has started: abandoned
    assert await games.sweep_clocks(now=moved + 4) == 0
    assert await games.sweep_clocks(now=moved + 31) == 1
    g = (await games.get_game(cmd.GetGame(gid, None)))["game"]
    assert g["outcome"]["endedBy"] == "abandoned" and g["outcome"]["winners"] == [], g
