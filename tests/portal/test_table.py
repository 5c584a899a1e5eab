"""Seat-control facts: resigning to a bot, forfeits, and what the outcome records."""

from tablero.server.portal.table import SEAT_LEFT, Table, is_platform


def test_resign_to_bot_keeps_the_game_going():
    t = Table.new(2, ["human", "human"])
    t.apply(t.leave(1, "resigned", "bot"))
    assert t.bots == {1} and t.ended is None and t.to_act({1}) == {1}
    assert t.outcome(None) is None


def test_two_player_forfeit_ends_the_game_for_the_other_seat():
    t = Table.new(2, ["human", "human"])
    e = t.leave(0, "timeout", "forfeit")
    assert is_platform(e) and e["type"] == SEAT_LEFT
    t.apply(e)
    out = t.outcome(None)
    assert out["winners"] == [1] and out["endedBy"] == "forfeit"
    assert out["details"][0]["forfeited"] == "timeout"
    assert t.to_act({0}) == set()


def test_three_player_forfeit_plays_on_and_the_forfeited_seat_cannot_win():
    t = Table.new(3, ["human", "human", "bot"])
    t.apply(t.leave(0, "resigned", "forfeit"))
    assert t.ended is None and t.bots == {0, 2}
    engine_out = {"scores": [50, 30, 40], "winners": [0], "details": [{"vp": 50}, {"vp": 30}, {"vp": 40}]}
    out = t.outcome(engine_out)
    assert out["winners"] == [2]
    assert out["details"][0] == {"seat": 0, "vp": 50, "forfeited": "resigned"}
    assert engine_out["winners"] == [0]  # not mutated


def test_an_abandoned_game_ends_with_no_winner():
    t = Table.new(3, ["human", "human", "human"])
    t.apply(t.leave(1, "abandoned", "forfeit"))
    out = t.outcome(None)
    assert out["winners"] == [] and out["endedBy"] == "abandoned"


def test_engine_events_are_not_platform_events():
    assert not is_platform({"type": "mark_placed"})


def test_fold_and_replay_skip_platform_events():
    from tablero.engines.core import LocalGame, fold

    from tablero import engines

    g = LocalGame("tic-tac-toe", seats=2, seed=1)
    g.act(0, {"type": "place", "cell": 4})
    log = [g.events[0], {"type": "tablero.seat_left", "seat": 1, "reason": "resigned", "then": "bot"}, *g.events[1:]]
    assert fold(g.engine, log) == g.state
    assert engines.replay(log).state == g.state
    assert LocalGame("tic-tac-toe", events=log).state == g.state


def test_a_seat_nobody_took_never_wins_a_forfeit():
    t = Table.new(2, ["human", "open"])
    e = t.leave(0, "resigned", "forfeit", [1])
    assert e["open"] == [1]
    t.apply(e)
    out = t.outcome(None)
    assert out["winners"] == [] and out["endedBy"] == "abandoned" and t.to_act({0}) == set()
    assert out["details"][0]["forfeited"] == "resigned"


def test_a_leave_with_every_seat_taken_writes_no_open_list_and_old_events_replay_as_before():
    t = Table.new(2, ["human", "human"])
    assert "open" not in t.leave(0, "resigned", "forfeit", [])
    old = Table.new(2, ["human", "open"])  # an event written before leaves named the open seats
    old.apply({"type": SEAT_LEFT, "seat": 0, "reason": "resigned", "then": "forfeit"})
    assert old.outcome(None)["winners"] == [1] and old.outcome(None)["endedBy"] == "forfeit"


def test_a_seat_taken_after_a_leave_that_named_it_open_can_win():
    # (an outside tester: seat 0 resigned with seat 2 open, seat 2 was then taken, seat 1 resigned:
    # the game ended "abandoned" with no winner, seat 2 still counted as nobody's)
    t = Table.new(3, ["human", "human", "open"])
    t.apply(t.leave(0, "resigned", "forfeit", [2]))
    assert t.ended is None
    t.apply(t.leave(1, "resigned", "forfeit", []))  # seat 2 was taken meanwhile: no open list
    out = t.outcome(None)
    assert out["winners"] == [2] and out["endedBy"] == "forfeit"


def test_the_creator_leaving_with_only_open_seats_or_bots_left_ends_a_bigger_game_too():
    for seats in (["human", "open", "open"], ["human", "bot", "open"]):
        t = Table.new(3, seats)
        t.apply(t.leave(0, "resigned", "forfeit", [2] if seats[1] == "bot" else [1, 2]))
        assert t.outcome(None)["winners"] == [] and t.outcome(None)["endedBy"] == "abandoned", seats
    t = Table.new(4, ["human", "open", "open", "human"])
    t.apply(t.leave(0, "resigned", "forfeit", [1, 2]))
    assert t.ended is None  # seat 3 still plays
    t.apply(t.leave(3, "resigned", "forfeit", [1, 2]))
    assert t.outcome(None)["endedBy"] == "abandoned" and t.outcome(None)["winners"] == []


def test_three_seats_one_open_a_forfeit_that_leaves_one_player_and_the_open_seat_plays_on():
    t = Table.new(3, ["human", "human", "open"])
    t.apply(t.leave(0, "resigned", "forfeit", [2]))
    assert t.ended is None  # two seats are still in it: the open one may yet be taken
    t.apply(t.leave(1, "resigned", "forfeit", [2]))
    assert t.outcome(None)["winners"] == [] and t.outcome(None)["endedBy"] == "abandoned"
    t = Table.new(3, ["human", "human", "open"])
    t.apply(t.leave(0, "resigned", "forfeit", []))  # the third seat was taken meanwhile
    t.apply(t.leave(1, "resigned", "forfeit", []))
    assert t.outcome(None)["winners"] == [2] and t.outcome(None)["endedBy"] == "forfeit"
