"""`tablero rank FILES...` / `python -m tablero.rankings FILES...`: merge lists read from JSON or CSV
files and print the ranking as an aligned table (or JSON, or CSV).

Files (their lists are concatenated, in the order given):
- `.json`: the REST body (`{"lists": [...], "aliases"?: {...}, "scheme"?: {...}}`) or a bare array
  of lists; `-` reads such JSON from standard input.
- `.csv` (UTF-8, comma-, semicolon- or tab-separated, header row required): one row per entry,
  columns `source,title,ranked,position,game` in any order; `source` and `game` are required, the
  others optional. Rows with the same source and title form one list, in first-seen order; source
  and title are matched as the API matches them (case, accents, punctuation ignored: "Canal A,Top"
  and "canal a,top" are one list). `ranked` is true/false (yes/no, 1/0, sí/si); a blank `ranked`
  takes the value of the list's other rows (all blank → true). In a ranked list, `position` is
  either blank on every row (file order is the order) or 1..n, each once; an unranked list has no
  positions.

Options: `--aliases FILE` (a JSON object spelling → canonical title, or a CSV with columns
`alias,title`), `--scheme FILE` (a JSON scheme; it wins over a scheme inside the list files),
`--format table|json|csv`, `--top N` (games ranked N or better, so a tie at the cut shows all).
Errors go to stderr as "tablero rank: error: ...", naming the file and line or list; exit code 2.
CSV output prefixes a `'` to a cell that starts with =, +, - or @, so a spreadsheet shows a title
such as "=Chess" as text instead of running it as a formula.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .errors import RankingError, escape_surrogates, format_path, json_type
from .scoring import aggregate
from .titles import title_key

PROG = "tablero rank"

CSV_COLUMNS = ("source", "title", "ranked", "position", "game")
ALIAS_COLUMNS = ("alias", "title")
_TRUE = {"true", "yes", "y", "1", "sí", "si", "s"}
_FALSE = {"false", "no", "n", "0"}
_BODY_FIELDS = {"lists", "aliases", "scheme"}


class InputError(Exception):
    """A file could not be read as lists (the message names the file and line)."""


@dataclass
class _Origin:
    """Where one list of the merged request came from, to point errors back at it."""

    file: str
    label: str  # "lists[2]" in a JSON file, 'list "Canal A" / "Top 2023"' in a CSV file
    lines: list[int] = field(default_factory=list)  # CSV: line of each entry


@dataclass
class _Loaded:
    lists: list[Any] = field(default_factory=list)
    origins: list[_Origin] = field(default_factory=list)
    aliases: dict[str, Any] = field(default_factory=dict)
    alias_files: dict[str, str] = field(default_factory=dict)  # alias -> the file that gave it
    scheme: Any = None
    scheme_file: str | None = None


def add_arguments(parser: argparse.ArgumentParser, prog: str | None = None) -> None:
    """Add the command's arguments to `parser` (mounted as `tablero rank`); then call `run(args)`.
    `prog`, when given, becomes the parser's program name; `run` names its errors after it."""
    if prog is not None:
        parser.prog = prog
    if not parser.description:
        parser.description = DESCRIPTION
    parser.set_defaults(rank_prog=parser.prog)
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="lists: .json (API body or array of lists; - for stdin) or .csv (source,title,ranked,position,game)",
    )
    parser.add_argument("--aliases", metavar="FILE", help="aliases: .json object {spelling: title} or .csv alias,title")
    parser.add_argument("--scheme", metavar="FILE", help="scoring scheme (.json); default: the post's table")
    parser.add_argument("--format", choices=("table", "json", "csv"), default="table", help="output (default: table)")
    parser.add_argument("--top", type=_positive, metavar="N", help="only games ranked N or better")


DESCRIPTION = "Merge published 'best games' lists into one ranking (docs/rankings.md)."


def main(argv: list[str] | None = None, prog: str = PROG) -> int:
    parser = argparse.ArgumentParser(prog=prog, description=DESCRIPTION)
    add_arguments(parser)
    return run(parser.parse_args(argv))


def run(args: argparse.Namespace, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    prog = getattr(args, "rank_prog", None) or PROG

    def fail(message: str) -> int:
        # Input may hold unpaired surrogates (JSON "\ud800"), which no output encoding accepts.
        print(f"{prog}: error: {escape_surrogates(message)}", file=stderr)
        return 2

    loaded = _Loaded()
    try:
        for name in args.files:
            _load_lists(name, loaded)
        if args.aliases:
            _merge_aliases(loaded, _load_aliases(args.aliases), args.aliases)
        if args.scheme:
            loaded.scheme, loaded.scheme_file = _read_json(args.scheme), args.scheme
    except InputError as error:
        return fail(str(error))
    body: dict[str, Any] = {"lists": loaded.lists, "aliases": loaded.aliases}
    if loaded.scheme is not None:
        body["scheme"] = loaded.scheme
    try:
        result = aggregate(body)
    except RankingError as error:
        return fail(_locate(error, loaded))
    if args.top is not None:
        result = {**result, "ranking": [row for row in result["ranking"] if row["rank"] <= args.top]}
    stdout.write({"table": format_table, "json": format_json, "csv": format_csv}[args.format](result))
    return 0


# --- reading ---------------------------------------------------------------------------------


def _load_lists(name: str, loaded: _Loaded) -> None:
    if name == "-":
        _add_json(name, _parse_json(name, sys.stdin.read()), loaded)
        return
    text = _read_text(name)
    if name.lower().endswith(".csv") or (not name.lower().endswith(".json") and text.lstrip()[:1] not in ("{", "[")):
        _add_csv(name, text, loaded)
    else:
        _add_json(name, _parse_json(name, text), loaded)


def _add_json(name: str, data: Any, loaded: _Loaded) -> None:
    prefix = ""
    if isinstance(data, dict):
        unknown = sorted(set(data) - _BODY_FIELDS)
        if unknown:
            raise InputError(f'{name}: unknown field "{unknown[0]}"; expected: lists, aliases, scheme')
        if data.get("scheme") is not None:
            if loaded.scheme is not None and data["scheme"] != loaded.scheme:
                raise InputError(f"{name}: its scheme differs from the one in {loaded.scheme_file}; use --scheme")
            loaded.scheme, loaded.scheme_file = data["scheme"], name
        if data.get("aliases") is not None:
            _merge_aliases(loaded, data["aliases"], name)
        data, prefix = data.get("lists"), "lists"
    if not isinstance(data, list):
        raise InputError(f"{name}: expected an array of lists or an object with lists, got {json_type(data)}")
    if not data:
        raise InputError(f"{name}: the file has no lists")
    for index, one in enumerate(data):
        loaded.lists.append(one)
        loaded.origins.append(_Origin(name, f"{prefix}[{index}]"))


def _add_csv(name: str, text: str, loaded: _Loaded) -> None:
    header, rows = _csv_rows(name, text, CSV_COLUMNS, required=("source", "game"))
    if not rows:
        raise InputError(f"{name}: no rows after the header (one row per entry: {','.join(CSV_COLUMNS)})")
    # Source and title are matched as the API matches them: "Canal A,Top" and "canal a,top" are
    # one list, shown as first written.
    groups: dict[tuple[str, str], tuple[str, str, list[tuple[int, dict[str, str]]]]] = {}
    for line, row in rows:
        source, title = row.get("source", ""), row.get("title", "")
        if not source:
            raise InputError(f"{name}:{line}: the source is blank (the channel or portal that published the list)")
        source_key = title_key(source)
        if not source_key:
            raise InputError(f'{name}:{line}: the source "{source}" has no letter or digit')
        ident = (source_key, title_key(title) if title else "")
        if ident not in groups:
            groups[ident] = (source, title, [])
        groups[ident][2].append((line, row))
    for source, title, members in groups.values():
        label = f'list "{source}"' + (f' / "{title}"' if title else "")
        ranked = _csv_ranked(name, label, members)
        given = [(line, row.get("position", "")) for line, row in members]
        if any(pos for _, pos in given):
            if not ranked:
                line = next(line for line, pos in given if pos)
                raise InputError(f"{name}:{line}: {label} is unranked but this row gives a position")
            members = _csv_order(name, label, members)
        one: dict[str, Any] = {"source": source, "ranked": ranked, "entries": [row["game"] for _, row in members]}
        if title:
            one["title"] = title
        loaded.lists.append(one)
        loaded.origins.append(_Origin(name, label, [line for line, _ in members]))


def _csv_ranked(name: str, label: str, members: list[tuple[int, dict[str, str]]]) -> bool:
    ranked: bool | None = None
    for line, row in members:
        text = row.get("ranked", "").casefold()
        if not text:
            continue
        if text in _TRUE:
            value = True
        elif text in _FALSE:
            value = False
        else:
            raise InputError(f'{name}:{line}: ranked must be true or false, not "{row["ranked"]}"')
        if ranked is not None and value != ranked:
            raise InputError(f"{name}:{line}: {label} is both ranked and unranked")
        ranked = value
    return True if ranked is None else ranked


def _csv_order(name: str, label: str, members: list[tuple[int, dict[str, str]]]) -> list[tuple[int, dict[str, str]]]:
    by_position: dict[int, tuple[int, dict[str, str]]] = {}
    for line, row in members:
        text = row.get("position", "")
        if not text:
            raise InputError(f"{name}:{line}: {label} gives positions on some rows only")
        try:
            position = int(text)
        except ValueError:
            raise InputError(f'{name}:{line}: position must be a whole number, not "{text}"') from None
        if not 1 <= position <= len(members):
            raise InputError(
                f"{name}:{line}: position {position} is outside 1..{len(members)} "
                f"({label} has {_plural(len(members), 'row')})"
            )
        if position in by_position:
            raise InputError(
                f"{name}:{line}: position {position} is already taken in {label} (line {by_position[position][0]})"
            )
        by_position[position] = (line, row)
    return [by_position[p] for p in sorted(by_position)]


def _csv_rows(
    name: str, text: str, columns: tuple[str, ...], required: tuple[str, ...]
) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    first = text.split("\n", 1)[0]
    delimiter = "\t" if "\t" in first else ";" if ";" in first and "," not in first else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = [cell.strip().casefold() for cell in next(reader)]
    except StopIteration:
        raise InputError(f"{name}: the file is empty (a header row {','.join(columns)} is expected)") from None
    for column in header:
        if column not in columns:
            raise InputError(f'{name}:1: unknown column "{column}"; expected: {", ".join(columns)}')
    if len(set(header)) != len(header):
        raise InputError(f"{name}:1: a column appears twice in the header")
    missing = [c for c in required if c not in header]
    if missing:
        raise InputError(f'{name}:1: missing column "{missing[0]}" (columns: {", ".join(columns)})')
    rows = []
    try:
        for cells in reader:
            if not any(cell.strip() for cell in cells):
                continue
            if len(cells) != len(header):
                raise InputError(
                    f"{name}:{reader.line_num}: {_plural(len(cells), 'field')}, the header has {len(header)}"
                )
            rows.append((reader.line_num, {col: cell.strip() for col, cell in zip(header, cells, strict=True)}))
    except csv.Error as error:
        raise InputError(f"{name}:{reader.line_num}: {error}") from None
    return header, rows


def _load_aliases(name: str) -> Any:
    if not name.lower().endswith(".csv"):
        return _read_json(name)
    _, rows = _csv_rows(name, _read_text(name), ALIAS_COLUMNS, required=ALIAS_COLUMNS)
    table: dict[str, str] = {}
    for line, row in rows:
        if row["alias"] in table and table[row["alias"]] != row["title"]:
            raise InputError(f'{name}:{line}: "{row["alias"]}" already points to "{table[row["alias"]]}"')
        table[row["alias"]] = row["title"]
    return table


def _merge_aliases(loaded: _Loaded, table: Any, name: str) -> None:
    if not isinstance(table, dict):
        raise InputError(f"{name}: aliases must be an object {{spelling: canonical title}}, got {json_type(table)}")
    for alias, target in table.items():
        if alias in loaded.aliases and loaded.aliases[alias] != target:
            raise InputError(
                f'{name}: alias "{alias}" points to "{target}" but {loaded.alias_files[alias]} says '
                f'"{loaded.aliases[alias]}"'
            )
        loaded.aliases[alias] = target
        loaded.alias_files.setdefault(alias, name)


def _read_text(name: str) -> str:
    try:
        return Path(name).read_text(encoding="utf-8-sig")
    except OSError as error:
        raise InputError(f"{name}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise InputError(f"{name}: not UTF-8 text") from None


def _read_json(name: str) -> Any:
    return _parse_json(name, _read_text(name))


def _parse_json(name: str, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"{name}:{error.lineno}:{error.colno}: invalid JSON: {error.msg}") from None


def _locate(error: RankingError, loaded: _Loaded) -> str:
    """The error's place in the user's files rather than in the merged request."""
    path = error.path
    detail = re.sub(r"\blists\[(\d+)\]", lambda m: _describe(loaded, int(m.group(1))), error.detail)
    if len(path) >= 2 and path[0] == "lists" and isinstance(path[1], int) and path[1] < len(loaded.origins):
        origin = loaded.origins[path[1]]
        rest = path[2:]
        if origin.lines:  # CSV: entries are lines of the file
            lines = origin.lines
            detail = re.sub(r"\bentries\[(\d+)\]", lambda m: f"line {lines[int(m.group(1))]}", detail)
            if len(rest) >= 2 and rest[0] == "entries" and isinstance(rest[1], int):
                return f"{origin.file}:{origin.lines[rest[1]]}: {detail}"
            return f"{origin.file}:{origin.lines[0]}: {origin.label}: {detail}"
        where = origin.label + format_path(("_", *rest))[1:]
        return f"{origin.file}: {where}: {detail}"
    if path and path[0] == "scheme" and loaded.scheme_file:
        return f"{loaded.scheme_file}: {error}"
    if path[:1] == ("aliases",) and loaded.alias_files:
        if len(path) >= 2 and path[1] in loaded.alias_files:
            return f"{loaded.alias_files[path[1]]}: {error}"
        files = dict.fromkeys(loaded.alias_files.values())  # the table as a whole: every file that gave it
        return f"{', '.join(files)}: {error}"
    return str(error)


def _describe(loaded: _Loaded, index: int) -> str:
    if index >= len(loaded.origins):
        return f"lists[{index}]"
    origin = loaded.origins[index]
    if origin.lines:
        return f"{origin.label} ({origin.file}:{origin.lines[0]})"
    return f"{origin.label} of {origin.file}"


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


# --- writing ---------------------------------------------------------------------------------


def format_table(result: dict) -> str:
    """The ranking as an aligned text table, with the totals below."""
    headers = ("#", "Game", "Points", "Position", "No.1", "Repeat", "Lists", "Places")
    right = (True, False, True, True, True, True, True, False)
    body = []
    for row in result["ranking"]:
        places = ", ".join(f"{p}×{n}" for p, n in row["positions"].items())
        unranked = row["appearances"] - sum(row["positions"].values())
        if unranked:
            places = ", ".join(filter(None, (places, f"unranked×{unranked}")))
        body.append(
            (
                str(row["rank"]),
                row["title"],
                _fmt(row["points"]),
                _fmt(row["positionPoints"]),
                _fmt(row["topBonus"]),
                _fmt(row["repetitionBonus"]),
                str(row["appearances"]),
                places,
            )
        )
    widths = [max([_width(h)] + [_width(r[i]) for r in body]) for i, h in enumerate(headers)]
    lines = []
    for cells in (headers, *body):
        out = []
        for cell, width, is_right in zip(cells, widths, right, strict=True):
            pad = " " * (width - _width(cell))
            out.append(pad + cell if is_right else cell + pad)
        lines.append("  ".join(out).rstrip())
    totals = result["totals"]
    lines.append("")
    lines.append(
        f"{_plural(totals['lists'], 'list')} from {_plural(totals['sources'], 'source')} "
        f"naming {_plural(totals['games'], 'game')}"
    )
    return "\n".join(lines) + "\n"


def format_json(result: dict) -> str:
    return json.dumps(result, ensure_ascii=False, indent=2) + "\n"


def format_csv(result: dict) -> str:
    """One row per game; pos_1..pos_K count the lists that put it at each position."""
    last = max((int(p) for row in result["ranking"] for p in row["positions"]), default=0)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["rank", "title", "points", "position_points", "top_bonus", "repetition_bonus", "appearances"]
        + [f"pos_{p}" for p in range(1, last + 1)]
    )
    for row in result["ranking"]:
        writer.writerow(
            [
                row["rank"],
                _cell(row["title"]),
                row["points"],
                row["positionPoints"],
                row["topBonus"],
                row["repetitionBonus"],
            ]
            + [row["appearances"]]
            + [row["positions"].get(str(p), 0) for p in range(1, last + 1)]
        )
    return out.getvalue()


def _cell(text: str) -> str:
    """A CSV text cell that a spreadsheet will not run as a formula ("=Chess" → "'=Chess")."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _fmt(value: int | float) -> str:
    return str(value) if isinstance(value, int) else f"{value:.2f}"


def _width(text: str) -> int:
    """Columns `text` takes in a terminal (wide East Asian characters take two)."""
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
