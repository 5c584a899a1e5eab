"""Small builders for ranking requests in tests."""

from __future__ import annotations

from tablero.rankings import aggregate


def ranked(source: str, *entries: str, title: str | None = None) -> dict:
    one: dict = {"source": source, "entries": list(entries)}
    if title is not None:
        one["title"] = title
    return one


def unranked(source: str, *entries: str) -> dict:
    return {"source": source, "ranked": False, "entries": list(entries)}


def by_title(body: dict) -> dict[str, dict]:
    """The ranking rows of `aggregate(body)` keyed by shown title."""
    return {row["title"]: row for row in aggregate(body)["ranking"]}


def order(body: dict) -> list[tuple[int, str]]:
    return [(row["rank"], row["title"]) for row in aggregate(body)["ranking"]]
