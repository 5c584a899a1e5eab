"""Riverboat and Phoenicia final scores say "VP" as the boards do ("1 VP and 2 harbor steps"), not
"Vp": found playing `tablero play riverboat --players 2 --bot hard` to the end, whose breakdown read
`Harbor › Vp`, `Coins › Vp each`, `Final vp` (Phoenicia: `Cards vp`, `Vp by card`). The rows'
names come from each engine's `label.details` (en); the Spanish ones already said "PV"."""

from __future__ import annotations

import re

import pytest

from .final_screen import final_screen


@pytest.mark.parametrize("engine", ["riverboat", "phoenicia"])
def test_the_final_breakdown_says_vp_in_capitals(engine) -> None:
    text = final_screen(engine, "en", width=200)
    assert re.search(r"\bVP\b", text), text
    # rows' names: "Harbor › Vp", "Final vp" (a nested value's own keys, "vp each 2", are no row name)
    wrong = re.findall(r"(?m)(?:^\s*|› )((?:[A-Z][a-z]+ )+vp\b|Vp\b[a-z ]*)", text)
    assert not wrong, wrong
