"""Every phase a Founders of Gloomhaven view reports has its words in both catalogs. Found playing
in Spanish: the terminal's header said "Fase: site" while a trade stall's square was being chosen
(`label.phase` had no case for `site`, nor for solo's `solo_call`, so both clients fell back to the
phase's raw name, their `text` argument)."""

from __future__ import annotations

import re
from functools import cache

import pytest
from tablero.engines.core import messages
from tablero.engines.core.testkit import random_turns

ENGINE = "founders-of-gloomhaven"
# Phases random games seldom reach: solo's call of a vote (the hand holds only the Vote card).
RARE = {"solo_call"}


@cache
def phases() -> set[str]:
    """The phases nine random games' views report, and the rare ones (played when first asked,
    not when the suite is collected: seconds in every worker)."""
    seen: set[str] = set(RARE)
    for seats in (1, 2, 3):
        for seed in (1, 2, 3):
            for g, _seat, _legal in random_turns(ENGINE, seats, seed):
                seen.add(g.view(0)["phase"])
    return seen


def test_the_random_games_reach_a_stall_site():
    assert "site" in phases(), sorted(phases())


@pytest.mark.parametrize("lang", messages.LANGS)
def test_every_phase_is_worded(lang):
    text = messages.catalog(ENGINE, lang)["label.phase"]
    cases = set(re.findall(r"(?:^|[{}]\s*|\s)([a-z_]+) \{", text.split(",", 2)[2]))
    unworded = sorted(phases() - cases)
    assert not unworded, unworded
