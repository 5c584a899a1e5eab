"""The one error the ranking feature raises for bad input."""

from __future__ import annotations

import json
import re

Path = tuple[str | int, ...]

_SURROGATE = re.compile("[\ud800-\udfff]")


def has_surrogate(text: str) -> bool:
    """True when `text` holds an unpaired UTF-16 surrogate (JSON "\\ud800"): such a string cannot be
    encoded as UTF-8, so it can be neither shown nor sent back."""
    return not text.isascii() and _SURROGATE.search(text) is not None


def escape_surrogates(text: str) -> str:
    """`text` with every unpaired surrogate written as its JSON escape (\\ud800), so it can be encoded."""
    if text.isascii():
        return text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class MapKey(str):
    """A key of a JSON map in a Path (an alias), shown as ["key"] rather than as a field name."""


def format_path(path: Path) -> str:
    """("lists", 3, "entries", 5) -> 'lists[3].entries[5]'; ("aliases", "Heat") -> 'aliases["Heat"]'."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.isidentifier() and not isinstance(part, MapKey):
            out += f".{part}" if out else part
        else:
            out += f"[{json.dumps(part, ensure_ascii=False)}]"
    return out


def json_type(value: object) -> str:
    """How a JSON reader would name the type of a decoded value, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


class RankingError(ValueError):
    """Bad input to the ranking aggregation: a readable message that names the offending place.

    `path` locates it in the request body (("lists", 3, "entries", 5)); empty when the problem is
    the body as a whole. `detail` is the message without the location. `str(error)` is
    "lists[3].entries[5]: detail". Transports map it to INVALID_ARGUMENT / HTTP 400.
    """

    def __init__(self, detail: str, path: Path = ()) -> None:
        # Messages quote the input; an unpaired surrogate in it would make the message itself
        # impossible to encode (a 500 on REST, a traceback in the CLI), so it is shown escaped.
        self.detail = detail = escape_surrogates(detail)
        self.path = tuple(path)
        where = escape_surrogates(format_path(self.path))
        super().__init__(f"{where}: {detail}" if where else detail)
