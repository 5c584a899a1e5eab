"""Seat-control facts: resigning to a bot, forfeits, and what the outcome records."""

from server.portal.table import SEAT_LEFT, Table, is_platform


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
    import engines
    from engines.core import LocalGame, fold

    g = LocalGame("tic-tac-toe", seats=2, seed=1)
    g.act(0, {"type": "place", "cell": 4})
    log = [g.events[0], {"type": "tablero.seat_left", "seat": 1, "reason": "resigned", "then": "bot"}, *g.events[1:]]
    assert fold(g.engine, log) == g.state
    assert engines.replay(log).state == g.state
    assert LocalGame("tic-tac-toe", events=log).state == g.state
