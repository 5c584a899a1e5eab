"""The generic engine kit, played with the Captains: every option set the engine offers the
kit (`NewBedford.kit_options`) at every seat count it allows."""

import pytest
from tablero.engines.core import InvalidOptions, LocalGame, testkit

from tablero import engines

ENGINE = engines.get("new-bedford")


def _valid(seats: int, options: dict) -> bool:
    try:
        LocalGame(ENGINE, seats=seats, seed=1, options=options)
    except InvalidOptions:
        return False
    return True


CASES = [
    (seats, i, options)
    for i, options in enumerate(ENGINE.kit_options)
    if options
    for seats in range(ENGINE.min_seats, ENGINE.max_seats + 1)
    if _valid(seats, options)
]


def test_the_kit_option_sets_cover_solo_multi_captain_and_multi_human_games():
    covered = {(seats, len(o.get("captains", []))) for seats, _, o in CASES}
    assert {(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (3, 1)} <= covered


@pytest.mark.parametrize(("seats", "i", "options"), CASES, ids=[f"{s}p-opts{i}" for s, i, _ in CASES])
@pytest.mark.parametrize("seed", [1000, 1001, 1002])
def test_random_games_with_captains_pass_the_kit(seats, i, options, seed):
    testkit.run_all(ENGINE, seats, seed, options)


@pytest.mark.parametrize(("seats", "i", "options"), CASES, ids=[f"{s}p-opts{i}" for s, i, _ in CASES])
def test_bad_actions_are_rejected_without_change_with_captains(seats, i, options):
    testkit.check_rejections(ENGINE, seats, seed=seats * 31 + i, options=options)
