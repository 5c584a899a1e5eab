"""The final scores by category (the outcome's `details`), as the browser's final scores panel
shows them (clients/web/js/scores.js): a table with a column per seat (and per automa player,
New Bedford's Captains), the score first, then the first dozen plain lines of the breakdown, totals
before their parts, and a shared best score's tie-break lines that tell the tied seats apart; the
rest in a second table, "Full breakdown (n more lines)"."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

from . import i18n, words

MAIN = 12  # lines of the breakdown up front, as the browser's panel
LONG_GROUP = 8  # lines of one group beyond which it is folded away whole, as the browser's panel


def _leaves(d: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for k, v in d.items():
        path = f"{prefix}.{k}" if prefix else k
        out += _leaves(v, path) if isinstance(v, dict) else [(path, v)]
    return out


def _get(d: Any, path: str) -> Any:
    for k in path.split("."):
        d = d.get(k) if isinstance(d, dict) else None
    return d


def _records(v: Any) -> bool:
    return isinstance(v, list) and any(isinstance(x, dict) for x in v)


def _part(m: i18n.Catalog, x: str) -> str:
    """A row's name: the engine's label.details when it words that row itself ("Money"), else its
    name (`name.*`), else the id in words."""
    if m.has("label.details"):
        said = m.format("label.details", {"detail": x, "text": "\0"})
        if said != "\0":
            return said
    if m.has(f"name.{x}"):
        return m.format(f"name.{x}")
    text = words.humanize(x)
    return m.format("label.details", {"detail": x, "text": text}) if m.has("label.details") else text


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:] if text[1:2].islower() else text  # "PV cada uno" stays


def _word(m: i18n.Catalog, x: str) -> str:
    """An id among a record's values ("card", "hunting"): its name, else how label.details words it, else as sent."""
    if m.has(f"name.{x}"):
        return m.format(f"name.{x}")
    if m.has("label.details"):
        said = m.format("label.details", {"detail": x, "text": "\0"})
        if said != "\0":
            return _lower(said)
    return str(i18n.value(m, x))


def _record(m: i18n.Catalog, r: Any) -> str:
    """One record of a list ("boat 3b, capacity 3, reached yes"): its keys named as the rows are
    (the engine's label.details, lower-cased as words: "barco 3b, capacidad 3, alcanzado sí"), its
    values as cells; zero and empty entries left out, as words.fmt does."""
    if not isinstance(r, dict):
        return words.fmt(r)
    parts = [(k, x) for k, x in r.items() if x not in (0, None, False) and x != [] and x != {}]
    if not parts:
        return m.format("value.nothing")
    said = []
    for k, x in parts:
        name = _lower(_part(m, k))
        value = _word(m, x) if isinstance(x, str) else _cell(m, x)
        said.append(f"{name} {value}")
    return ", ".join(said)


def _worded(m: i18n.Catalog, key: str, r: Any) -> str:
    """A record the engine words as a sentence (its catalog's `record.<list>`, e.g. Phoenicia's
    "Fuerte ×1: 2 PV"): its values as sent (a boolean as `true`/`false`, for a select), each id's
    name as `<key>_name`, and a list's as `<key>_name` (the language's list) with `<key>_count`, each
    item by the catalog's `record.<key>` where it has one: a record by its fields (Riverboat's boats
    "3a (capacidad 3, …)", not "barcos barco 3a"), an id by `{id}` and `{name}` (its colours
    "amarillo" for a field, not the crop card's "amarilla"); else as _record words any record."""
    if not isinstance(r, dict) or not m.has(key):
        return _record(m, r)
    args = dict(r)
    for k, x in r.items():
        if isinstance(x, bool):
            args[k] = "true" if x else "false"
        elif isinstance(x, str):
            args[f"{k}_name"] = _word(m, x)
        elif isinstance(x, list):
            args[f"{k}_count"] = len(x)
            args[f"{k}_name"] = m.list([_worded(m, f"record.{k}", y) if isinstance(y, dict) else _item(m, f"record.{k}", y)
                                        for y in x])
    return m.format(key, args)


def _item(m: i18n.Catalog, key: str, x: Any) -> str:
    """An id in a worded record's list: as the catalog's `key` words it (`{id}`, `{name}`), else its name."""
    name = _word(m, x) if isinstance(x, str) else _cell(m, x)
    return m.format(key, {"id": x, "name": name}) if m.has(key) else name


def _cell(m: i18n.Catalog, v: Any, path: str = "") -> str:
    if v is None:
        return "—"
    if _records(v):
        key = "record." + path.rsplit(".", 1)[-1]
        return "; ".join(_worded(m, key, x) for x in v)
    shown = i18n.value(m, v)
    if isinstance(v, bool):
        return m.format("value.yes" if v else "value.no")
    return m.number(shown) if isinstance(shown, int | float) else str(shown)


def columns(outcome: dict[str, Any], names: list[str], captain: Any) -> list[dict[str, Any]]:
    """Each column: its name, score, whether it won and its breakdown (seats, then Captains)."""
    details = [d for d in outcome.get("details") or [] if isinstance(d, dict)]
    scores = outcome.get("scores") or []
    winners = outcome.get("winners") or []
    cols = []
    for s, name in enumerate(names):
        detail = next((d for d in details if d.get("seat") == s), details[s] if s < len(details) else {})
        cols.append({"name": name, "score": scores[s] if s < len(scores) else None, "win": s in winners,
                     "detail": {k: v for k, v in detail.items() if k != "seat"}})
    for c in outcome.get("captains") or []:
        if isinstance(c, dict):
            cols.append({"name": captain(c), "score": c.get("total"), "win": c.get("captain") in (outcome.get("captain_winners") or []),
                         "detail": {k: v for k, v in c.items() if k not in ("player", "captain")}})
    return cols


def _repeats_score(cols: list[dict[str, Any]], path: str) -> bool:
    """A line that is every column's score again (Founders' "points" beside "Score"): not shown
    twice; a "total" stays, under the lines it adds up (the browser's scores.js alike)."""
    return "." not in path and path != "total" and all(isinstance(c["score"], int | float) and not isinstance(c["detail"].get(path), bool)
                                   and c["detail"].get(path) == c["score"] for c in cols)


def rows(cols: list[dict[str, Any]], most: int = MAIN) -> tuple[list[str], list[str]]:
    """The breakdown's lines up front (`most` plain ones, and the rest of their groups) and the
    rest, as the browser splits them."""
    every: list[str] = []
    for c in cols:
        for p, _ in _leaves(c["detail"]):
            if p not in every and not _repeats_score(cols, p):
                every.append(p)
    def parent(p: str) -> str:
        return p.rsplit(".", 1)[0] if "." in p else ""

    # A long group is the long tail, folded away whole (Phoenicia's "VP by card › …", a line per
    # development card); a group shown is shown whole (New Bedford's whales add up on screen).
    sizes = {g: sum(1 for p in every if "." in p and parent(p) == g) for g in {parent(p) for p in every if "." in p}}
    plain = [p for p in every if sizes.get(parent(p), 0) <= LONG_GROUP and not any(_records(_get(c["detail"], p)) for c in cols)]
    main = sorted((p for p in plain if "tie" not in p.lower()), key=lambda p: p.count("."))[:most]  # totals before their parts
    main += [p for p in plain if p not in main and "." in p and any("." in q and parent(q) == parent(p) for q in main)]
    numbers = [c["score"] for c in cols if isinstance(c["score"], int | float)]
    best = max(numbers) if numbers else None
    tied = [c for c in cols if c["score"] == best]
    if len(tied) > 1:  # the tie-break lines that tell the tied seats apart, up front too
        main += [p for p in plain if p not in main and "tie" in p.lower()
                 and len({repr(_get(c["detail"], p)) for c in tied}) > 1]
    # In the order they came, a total last (under the lines it adds up: a server may send the
    # outcome's keys in any order, e.g. sorted).
    # A group's lines together, where its first line came (a Captain's victory building beside the
    # seat's, not after the money): the browser's scores.js alike.
    def at(p: str) -> int:
        return next(i for i, q in enumerate(every) if "." in q and parent(q) == parent(p)) if "." in p else every.index(p)

    main.sort(key=lambda p: (p.rsplit(".", 1)[-1] == "total", at(p), every.index(p)))
    return main, [p for p in every if p not in main]


def _table(m: i18n.Catalog, cols: list[dict[str, Any]], paths: list[str], title: str, score: bool) -> Table:
    # no borders but under the heading: rows of one line where they fit (80 columns hold 4 seats)
    t = Table(title=title, title_style="bold", title_justify="left", box=box.SIMPLE_HEAD)
    labels = [" › ".join(_part(m, x) for x in p.split(".")) for p in paths]
    t.add_column("")
    for c in cols:
        t.add_column(Text(c["name"]), justify="right")
    if score:
        t.add_row(Text(m.format("web.score"), style="bold"),
                  *(Text(_cell(m, c["score"]), style="bold reverse" if c["win"] else "bold") for c in cols))
    for p, label in zip(paths, labels, strict=True):
        t.add_row(Text(label), *(Text(_cell(m, _get(c["detail"], p), p)) for c in cols))
    return t


def _without_repeated_lines(m: i18n.Catalog, cols: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The columns without the lines the engine's catalog says are another line again
    (`label.details_same_as`: Phoenicia's "VP city center" is its "Bought VP", and the lines shown
    did not add up to the score); the browser's scores.js alike."""
    if not m.has("label.details_same_as"):
        return cols
    keys = {k for c in cols for k in c["detail"]}
    same = {k for k in keys if m.format("label.details_same_as", {"detail": k}) in keys - {k}}
    return [{**c, "detail": {k: v for k, v in c["detail"].items() if k not in same}} for c in cols]


def breakdown(m: i18n.Catalog, outcome: dict[str, Any], names: list[str], captain: Any,
              most: int = MAIN) -> tuple[Table | None, Table | None]:
    """(the rest of the breakdown, the scores and its first lines), or Nones when the outcome has no
    breakdown. The rest is printed before the main table: the player sees the main table last, at the bottom."""
    cols = _without_repeated_lines(m, columns(outcome, names, captain))
    if not any(c["detail"] for c in cols):
        return None, None
    main, more = rows(cols, most)
    rest = _table(m, cols, more, m.format("web.breakdown", {"n": len(more)}), False) if more else None
    return rest, _table(m, cols, main, m.format("web.final_scores"), True)
