"""Setup decisions (ours: the rulebook's setup pages are not available; facts B.2)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from tablero.engines.core import IllegalAction

from .board import EMPTY, adjacent_to_own, board_of, section_has
from .common import Action, Event, State, _p


# ============================================================================================
# setup decisions (ours: the rulebook's setup pages are not available; facts B.2)
# ============================================================================================
def _check_draft(state: State, seat: int, a: Action) -> None:
    if a["resource"] not in state["setup"]["pool"]:
        raise IllegalAction(f"{a['resource']} is not available; left: {', '.join(state['setup']['pool'])}")


def _draft(state: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "resource_drafted", "seat": seat, "resource": a["resource"]}]


def _draft_options(state: State, seat: int):
    return ({"type": "draft_resource", "resource": r} for r in state["setup"]["pool"])


def _check_start(state: State, seat: int, a: Action) -> None:
    res, cell = a["resource"], a["cell"]
    if res not in _p(state, seat)["resources"] or res in state["setup"]["placed"][seat]:
        raise IllegalAction(f"{res} is not one of your resources still to place")
    b = board_of(state)
    if cell not in b.numbered or state["occ"][cell] != EMPTY:
        raise IllegalAction("starting stalls go on free grey numbered spaces")
    if section_has(state, b.section[cell], res) or adjacent_to_own(state, seat, [cell]):
        raise IllegalAction("one tile of a resource per section, and never next to your own buildings")


def _start_stall(state: State, seat: int, a: Action, ctx: Any, rng: random.Random) -> list[Event]:
    return [{"type": "start_stall_placed", "seat": seat, "resource": a["resource"], "cell": a["cell"]}]


def _start_options(state: State, seat: int) -> Iterator[Action]:
    b = board_of(state)
    for res in _p(state, seat)["resources"]:
        if res in state["setup"]["placed"][seat]:
            continue
        for cell in sorted(b.numbered):
            a = {"type": "place_start", "resource": res, "cell": cell}
            try:
                _check_start(state, seat, a)
            except IllegalAction:
                continue
            yield a
