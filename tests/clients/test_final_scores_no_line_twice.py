"""Outside pass B: Phoenicia's final scores listed the VP bought at the City Center twice, as
"PV comprados 3" and "PV del centro de la ciudad 3" (the outcome's `bought_vp` and its alias
`vp_city_center`), so the lines under "Puntos 16" added up to 19. The engine's catalog says the
alias is that line again (`label.details_same_as`), and the terminal shows it once."""

from __future__ import annotations

import pytest

from .final_screen import final_screen, finished

SAID = {"es": ("PV comprados", "PV del centro de la ciudad"), "en": ("Bought VP", "VP city center")}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_vp_bought_at_the_city_center_are_one_line(lang) -> None:
    out = finished("phoenicia").outcome()
    for d, bought in zip(out["details"], (3, 0), strict=True):  # seat 1 bought 3 VP, seat 2 none
        d["bought_vp"] = d["vp_city_center"] = bought
    text = final_screen("phoenicia", lang, width=3000, outcome=out)
    bought, alias = SAID[lang]
    assert bought in text, text
    assert alias not in text, text


def test_a_line_that_only_shows_the_same_numbers_stays() -> None:
    """Only the line the catalog names as another's is left out: "Money" with the same numbers as
    "Bought VP" is a line of its own."""
    out = finished("phoenicia").outcome()
    for d, n in zip(out["details"], (3, 1), strict=True):
        d["bought_vp"] = d["vp_city_center"] = d["money"] = n
    text = final_screen("phoenicia", "en", width=3000, outcome=out)
    assert "Bought VP" in text and "Money" in text and "VP city center" not in text, text
