"""Decoding and checking an aggregation request (the REST JSON body, i.e. the protobuf JSON mapping
of AggregateRankingsRequest in proto/tablero/v1/rankings.proto).

As in the protobuf JSON mapping, a field may be spelled lowerCamelCase ("positionPoints") or as in
the proto ("position_points"), and null means "not given". Anything else unexpected — an unknown
field, a wrong type, a value out of range, a limit passed — is a RankingError naming the place.
Entries themselves are checked while they are scored (scoring.py), to walk them only once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .errors import Path, RankingError, has_surrogate, json_type
from .limits import (
    MAX_ALIASES,
    MAX_ENTRIES_PER_LIST,
    MAX_LISTS,
    MAX_POINTS,
    MAX_POSITION_POINTS,
    MAX_TEXT_LENGTH,
    MAX_TOTAL_ENTRIES,
)
from .scheme import DEFAULT_SCHEME, UNRANKED_RULES, Number, Scheme
from .titles import Aliases, title_key

_REQUEST_FIELDS = {"lists": "lists", "aliases": "aliases", "scheme": "scheme"}
_LIST_FIELDS = {"source": "source", "title": "title", "ranked": "ranked", "entries": "entries"}
_SCHEME_FIELDS = {
    "positionPoints": "positionPoints",
    "position_points": "positionPoints",
    "topBonus": "topBonus",
    "top_bonus": "topBonus",
    "repetitionBonus": "repetitionBonus",
    "repetition_bonus": "repetitionBonus",
    "unranked": "unranked",
    "unrankedShare": "unrankedShare",
    "unranked_share": "unrankedShare",
}
# The enum spelling of the unranked rule (proto `UnrankedShare`); UNSPECIFIED means the default.
UNRANKED_SHARES = {"UNRANKED_SHARE_MEAN": "mean", "UNRANKED_SHARE_ZERO": "zero", "UNRANKED_SHARE_UNSPECIFIED": None}


@dataclass(frozen=True)
class RankingList:
    """One published list: a source's (channel's) top, ranked (entries in order, best first) or not."""

    source: str
    title: str
    ranked: bool
    entries: list  # raw, checked while scoring


@dataclass(frozen=True)
class Request:
    lists: list[RankingList]
    aliases: Aliases
    scheme: Scheme
    sources: int  # distinct sources, matched like titles


def parse_request(body: Any) -> Request:
    fields = _read_object(body, (), _REQUEST_FIELDS, "the request body")
    scheme = parse_scheme(fields["scheme"], ("scheme",)) if "scheme" in fields else DEFAULT_SCHEME
    aliases = _parse_aliases(fields.get("aliases", {}))
    raw_lists = fields.get("lists", [])
    if not isinstance(raw_lists, list):
        raise RankingError(f"expected an array of lists, got {json_type(raw_lists)}", ("lists",))
    if not raw_lists:
        raise RankingError("there are no lists to aggregate", ("lists",))
    if len(raw_lists) > MAX_LISTS:
        raise RankingError(f"{len(raw_lists)} lists; at most {MAX_LISTS} may be aggregated at once", ("lists",))
    lists = []
    total = 0
    named: dict[tuple[str, str], int] = {}  # (source key, title key) -> list index; no title is title ""
    keys: dict[str, str] = {}  # text -> title_key(text): sources and titles repeat
    for index, raw in enumerate(raw_lists):
        path = ("lists", index)
        one = _parse_list(raw, path)
        source_key = keys.get(one.source)
        if source_key is None:
            source_key = keys[one.source] = title_key(one.source)
            if not source_key:
                raise RankingError(f'the source "{one.source}" has no letter or digit', (*path, "source"))
        total += len(one.entries)
        if total > MAX_TOTAL_ENTRIES:
            raise RankingError(f"more than {MAX_TOTAL_ENTRIES} entries over all lists", path)
        # A missing title is a title too: two untitled lists of one source are the same list
        # given twice, exactly as two lists with the same title are.
        ident = (source_key, title_key(one.title) if one.title else "")
        if ident in named:
            first = named[ident]
            if one.title:
                detail = f'same source and title as lists[{first}] ("{one.source}", "{one.title}")'
            elif lists[first].title:
                detail = f'same source as lists[{first}] ("{one.source}"), and neither title has a letter or digit'
            else:
                detail = f'same source as lists[{first}] ("{one.source}") and neither list has a title'
            raise RankingError(f"{detail}: is the list given twice? (a source's lists need different titles)", path)
        named[ident] = index
        lists.append(one)
    sources = len({keys[one.source] for one in lists})
    return Request(lists=lists, aliases=aliases, scheme=scheme, sources=sources)


def _parse_list(raw: Any, path: Path) -> RankingList:
    fields = _read_object(raw, path, _LIST_FIELDS, "a list")
    source = _text(fields.get("source", ""), (*path, "source"), "source")
    if not source:
        raise RankingError("every list needs its source (the channel or portal that published it)", (*path, "source"))
    title = _text(fields.get("title", ""), (*path, "title"), "title")
    ranked = fields.get("ranked", True)
    if not isinstance(ranked, bool):
        raise RankingError(f"expected true or false, got {json_type(ranked)}", (*path, "ranked"))
    entries = fields.get("entries", [])
    if not isinstance(entries, list):
        raise RankingError(f"expected an array of game titles, got {json_type(entries)}", (*path, "entries"))
    if not entries:
        raise RankingError("the list has no entries", path)
    if len(entries) > MAX_ENTRIES_PER_LIST:
        raise RankingError(
            f"the list has {len(entries)} entries; a list may have at most {MAX_ENTRIES_PER_LIST}", (*path, "entries")
        )
    return RankingList(source=source, title=title, ranked=ranked, entries=entries)


def parse_scheme(raw: Any, path: Path = ("scheme",)) -> Scheme:
    """A scheme from its JSON form; omitted fields keep the default (the post's table).

    An empty positionPoints counts as omitted: proto3 cannot tell [] from "not given", and the
    answer must not depend on the transport. To score only bonuses give [0].
    """
    fields = _read_object(raw, path, _SCHEME_FIELDS, "a scheme")
    table = DEFAULT_SCHEME.position_points
    if "positionPoints" in fields:
        raw_table = fields["positionPoints"]
        where = (*path, "positionPoints")
        if not isinstance(raw_table, list):
            raise RankingError(f"expected an array of points, got {json_type(raw_table)}", where)
        if len(raw_table) > MAX_POSITION_POINTS:
            raise RankingError(f"at most {MAX_POSITION_POINTS} positions may score", where)
        if raw_table:
            table = tuple(_points(v, (*where, i)) for i, v in enumerate(raw_table))
    top_bonus = DEFAULT_SCHEME.top_bonus
    if "topBonus" in fields:
        top_bonus = _points(fields["topBonus"], (*path, "topBonus"))
    repetition_bonus = DEFAULT_SCHEME.repetition_bonus
    if "repetitionBonus" in fields:
        repetition_bonus = _points(fields["repetitionBonus"], (*path, "repetitionBonus"))
    unranked = _unranked_rule(fields, path)
    return Scheme(position_points=table, top_bonus=top_bonus, repetition_bonus=repetition_bonus, unranked=unranked)


def _unranked_rule(fields: dict[str, Any], path: Path) -> str:
    """The unranked rule from `unrankedShare` (the enum) or its deprecated string spelling
    `unranked`; when both are given they must agree."""
    share = None
    if "unrankedShare" in fields:
        raw = fields["unrankedShare"]
        if not isinstance(raw, str) or raw not in UNRANKED_SHARES:
            shown = f'"{raw}"' if isinstance(raw, str) and not has_surrogate(raw) else json_type(raw)
            raise RankingError(f"unknown share {shown}; expected one of: {', '.join(UNRANKED_SHARES)}",
                               (*path, "unrankedShare"))
        share = UNRANKED_SHARES[raw]
    if "unranked" not in fields:
        return share or DEFAULT_SCHEME.unranked
    unranked = fields["unranked"]
    if isinstance(unranked, str) and has_surrogate(unranked):
        raise RankingError("the rule contains an unpaired surrogate (not text)", (*path, "unranked"))
    if not isinstance(unranked, str) or unranked not in UNRANKED_RULES:
        shown = f'"{unranked}"' if isinstance(unranked, str) else json_type(unranked)
        raise RankingError(f"unknown rule {shown}; expected one of: {', '.join(UNRANKED_RULES)}", (*path, "unranked"))
    if share is not None and share != unranked:
        raise RankingError(f'"unranked": "{unranked}" contradicts "unrankedShare"', (*path, "unranked"))
    return unranked


def _points(value: Any, path: Path) -> Number:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RankingError(f"expected a number of points, got {json_type(value)}", path)
    # Range first: an integer too big for a float (10**400) would overflow math.isfinite, and
    # one with thousands of digits cannot even be printed, so such values are not quoted.
    if not 0 <= value <= MAX_POINTS or (isinstance(value, float) and not math.isfinite(value)):
        shown = f", got {value}" if isinstance(value, float) or -(10**18) < value < 10**18 else ""
        raise RankingError(f"points must be between 0 and {MAX_POINTS}{shown}", path)
    if isinstance(value, float) and value.is_integer():
        return int(value)  # 100.0 (a proto double) is shown as 100
    return value


def _parse_aliases(raw: Any) -> Aliases:
    if not isinstance(raw, dict):
        raise RankingError(
            f"expected an object mapping a spelling to its canonical title, got {json_type(raw)}", ("aliases",)
        )
    if len(raw) > MAX_ALIASES:
        raise RankingError(f"{len(raw)} aliases; at most {MAX_ALIASES} are allowed", ("aliases",))
    return Aliases(raw)


def _text(value: Any, path: Path, what: str) -> str:
    if not isinstance(value, str):
        raise RankingError(f"the {what} must be a string, got {json_type(value)}", path)
    if has_surrogate(value):
        raise RankingError(f"the {what} contains an unpaired surrogate (not text)", path)
    if len(value) > MAX_TEXT_LENGTH:
        raise RankingError(f"the {what} is longer than {MAX_TEXT_LENGTH} characters", path)
    return " ".join(value.split())


def _read_object(value: Any, path: Path, fields: dict[str, str], what: str) -> dict[str, Any]:
    """The fields of a JSON object by canonical name, null ones dropped; unknown fields are an error."""
    if not isinstance(value, dict):
        raise RankingError(f"expected {what} (a JSON object), got {json_type(value)}", path)
    out: dict[str, Any] = {}
    seen: dict[str, str] = {}
    for name, item in value.items():
        canonical = fields.get(name)
        if canonical is None:
            if has_surrogate(name):
                raise RankingError(f"unknown field name in {what} that contains an unpaired surrogate (not text)", path)
            expected = ", ".join(dict.fromkeys(fields.values()))
            raise RankingError(f'unknown field "{name}" in {what}; expected: {expected}', path)
        if canonical in seen:
            raise RankingError(f'field "{canonical}" is given twice (as "{seen[canonical]}" and "{name}")', path)
        seen[canonical] = name
        if item is not None:
            out[canonical] = item
    return out
