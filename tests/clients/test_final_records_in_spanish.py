"""The final breakdown's lists of records (Riverboat's harbor boats, Phoenicia's VP sources) are
worded from the engine's catalog, as the rows are. Found playing `tablero play riverboat --players 2
--bot hard --lang es` to the end: among Spanish rows, `Puerto › Barcos` read `boat 3b, capacity 3,
slot space 1, reached yes; …` (the record's keys humanized in English, `yes` for true)."""

from __future__ import annotations

import re

import pytest

from .final_screen import final_screen

ENGLISH = re.compile(r"\b(boat|capacity|slot space|reached|yes|source|card|workers|copies|vp each|tableau)\b", re.I)


@pytest.mark.parametrize(("engine", "said"), [("riverboat", "barcos fluviales: 3"), ("phoenicia", " trabajadores × ")])
def test_the_breakdowns_records_read_in_spanish(engine, said) -> None:
    text = final_screen(engine, "es")
    assert said in text, text
    english = [m.group(0) for m in ENGLISH.finditer(text)]
    assert not english, (english, text)


def test_the_breakdowns_records_still_read_in_english() -> None:
    text = final_screen("riverboat", "en")
    assert re.search(r"riverboats: \w+ \(capacity \d, slot space \d+, (reached|not reached)\)", text), text


@pytest.mark.parametrize(("lang", "card", "workers", "city"), [
    ("es", r"[A-ZÁÉÍÓÚ][\w ]+ ×\d+: \d+ PV", r"(Caza|Agricultura): \d+ trabajador(es)? × \d PV",
     r"Centro de la Ciudad: \d+ compras? × 1 PV"),
    ("en", r"[A-Z][\w ]+ ×\d+: \d+ VP", r"(Hunting|Farming): \d+ workers? × \d VP", r"City Center: \d+ purchases? × 1 VP"),
])
def test_phoenicias_vp_sources_read_as_sentences(lang, card, workers, city) -> None:
    """An outside player: "Origen de los PV" read as a dump of fields ("copias 1, PV cada uno 2, carta
    …, origen carta; …"). The engine's `record.vp_sources` words each line as it adds up."""
    text = " ".join(final_screen("phoenicia", lang, width=3000).split())
    for pattern in (card, workers, city):
        assert re.search(pattern, text), (pattern, text)
    assert not re.search(r"\b(copias|copies|vp each|PV cada uno)\b", text), text


def test_an_empty_record_reads_nothing_in_the_players_language_and_the_total_comes_last() -> None:
    """An outside player: Riverboat's Spanish breakdown read "Agentes nothing" for a seat that sent
    none, and "Total" stood between the lines it adds up (the server may send the outcome's keys
    sorted)."""
    from tablero_client.render import i18n as term_i18n
    from tablero_client.render.scores import _record, rows

    m = term_i18n.catalog("riverboat", "es")
    assert _record(m, {}) == "nada"
    cols = [{"name": "a", "score": 9, "win": True, "detail": {"agents": 1, "coins": 2, "in_game": {"vp": 6}, "total": 9}}]
    main, _more = rows(cols)
    assert main[-1] == "total" and main[:-1] == ["agents", "coins", "in_game.vp"], main


def test_a_line_that_repeats_every_score_is_not_shown_twice() -> None:
    """Founders' final table showed "Score" and "Points" with the same numbers (its outcome's
    details carry each seat's total as `points`); a "total" under its parts stays."""
    from tablero_client.render.scores import rows

    cols = [{"name": "a", "score": 12, "win": True, "detail": {"race": "human", "points": 12, "by_source": {"money": 2}}},
            {"name": "b", "score": 7, "win": False, "detail": {"race": "orchid", "points": 7, "by_source": {"money": 1}}}]
    main, more = rows(cols)
    assert "points" not in main + more and "by_source.money" in main, (main, more)
    cols[1]["detail"]["points"] = 6  # not the score: a line of its own
    main, more = rows(cols)
    assert "points" in main, main
