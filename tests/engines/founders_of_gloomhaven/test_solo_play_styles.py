"""Solo Founders: the planner's lines lean to drawn styles (solo_play.Style, planner.line_rng;
issue 34, bench/bots_results.md "Fourteenth pass").

The solo player's choices are almost fixed, so the play-outs hard's planner chooses between
differed in tie-breaks only; a line's style makes them differ in the choices that matter (which
building the vote places, influence or a road, which card first). Without a style (easy, medium,
any random player) the solo player plays as before."""

from __future__ import annotations

import random

from tablero.engines.core import LocalGame
from tablero.engines.founders_of_gloomhaven import planner, solo_play

NAME = "founders-of-gloomhaven"


def _at_vote() -> tuple[LocalGame, list[dict]]:
    """Seed 7's first vote (the solo player's 14 decisions): three proposals the influence pays,
    of work 11, 2 and 7."""
    g = LocalGame(NAME, seats=1, seed=7)
    rng = random.Random(7)
    for _ in range(14):
        g.act(0, g.engine.random_action(g.state, 0, g.legal_actions(0), rng))
    acts = g.legal_actions(0)
    assert [solo_play._proposal_work(g.state, a["proposal"]) for a in acts] == [11, 2, 7]
    return g, acts


class _Styled(random.Random):
    style = solo_play.DEFAULT


def _rng(seed: int, **style) -> random.Random:
    rng = _Styled(seed)
    rng.style = solo_play.Style(**style)
    return rng


def test_without_a_style_the_vote_places_the_least_work():
    g, acts = _at_vote()
    picks = {g.engine.random_action(g.state, 0, acts, random.Random(i))["proposal"] for i in range(30)}
    assert picks == {acts[1]["proposal"]}


def test_a_styled_line_may_vote_for_another_building():
    g, acts = _at_vote()
    picks = {g.engine.random_action(g.state, 0, acts, _rng(i, proposal_noise=12.0))["proposal"] for i in range(30)}
    assert len(picks) >= 2


def test_a_line_keeps_its_style_and_the_lines_differ_in_style():
    styles = [planner.line_rng(i / 100).style for i in range(100)]
    assert [planner.line_rng(i / 100).style for i in range(100)] == styles
    plain = sum(s == solo_play.DEFAULT for s in styles)
    assert 15 <= plain <= 55  # about a third plays the solo player's own habits
    assert len(set(styles)) > 20
