"""Matching game titles the way a person would.

Two spellings name the same game when their *keys* are equal. The key ignores:

- case ("The White Castle" = "the white castle");
- accents on Latin letters ("Océanos de papel" = "Oceanos de papel"), plus a few letters
  that have no decomposition (ø→o, æ→ae, œ→oe, ł→l, đ/ð→d, þ→th, ß→ss);
- punctuation and subtitle separators — ":", " - ", "–", "—", "/", "!", "'" … — and all
  whitespace, so "Heat: Heavy Rain" = "Heat - Heavy Rain" = "heat heavy rain" and
  "Deck-Building" = "Deckbuilding" = "Deck building";
- "&" is read as "and" ("Hearts & Minds" = "Hearts and Minds");
- one surrounding article, English or Spanish (the, a, an, el, la, los, las, un, una, unos,
  unas): leading ("The White Castle" = "White Castle") or trailing after a comma or in
  brackets, library-catalogue style ("White Castle, The", "Bucle (El)").

Subtitles are kept: "Heat" ≠ "Heat: Heavy Rain". Articles of other languages (German die/der/das,
French le/les, Italian il …) are not stripped: "die" and "le" are also words of titles in other
languages, and a person does not drop them either ("Die Macher", "Le Havre"); use aliases.
Non-Latin scripts keep their marks (dropping a Japanese dakuten changes the word).

An alias table maps any spelling to a canonical title (translations, abbreviations). Matching
applies to the alias keys and values too, chains resolve (A→B, B→C gives A→C) and a cycle is an
error. When several targets spell one title differently, the spelling most targets use is shown
(ties: alphabetically first), whatever the order of the table.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Mapping

from .errors import MapKey, RankingError, has_surrogate, json_type
from .limits import MAX_TEXT_LENGTH

ARTICLES = frozenset({"the", "a", "an", "el", "la", "los", "las", "un", "una", "unos", "unas"})

_LETTERS = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "&": " and "}
)
_ARTICLE_ALTERNATION = "|".join(sorted(ARTICLES, key=len, reverse=True))
_TRAILING_ARTICLE = re.compile(rf"(?:,\s*(?:{_ARTICLE_ALTERNATION})|\(\s*(?:{_ARTICLE_ALTERNATION})\s*\))\s*$")
_APOSTROPHES = re.compile(r"['’ʼ`´]")
_WORD = re.compile(r"[^\W_]+")


def _is_latin(ch: str) -> bool:
    o = ord(ch)
    return o < 0x250 or 0x1E00 <= o <= 0x1EFF


def _strip_latin_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    if decomposed.isascii():
        return decomposed
    out = []
    latin_base = False
    for ch in decomposed:
        if unicodedata.combining(ch):
            if latin_base:
                continue
        else:
            latin_base = _is_latin(ch)
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def words(title: str) -> list[str]:
    """The words a title is matched on, surrounding article removed (see the module doc)."""
    text = _strip_latin_accents(title.casefold()).translate(_LETTERS)
    text = _TRAILING_ARTICLE.sub("", text)
    text = _APOSTROPHES.sub("", text)
    found = _WORD.findall(text)
    # A title that is only an article ("The", "A") is kept as it is.
    if len(found) > 1 and found[0] in ARTICLES:
        del found[0]
    return found


def title_key(title: str) -> str:
    """The matching key of a title: equal keys mean the same game. Empty when the title has no
    letter or digit."""
    return "".join(words(title))


def display(title: str) -> str:
    """A spelling as it will be shown: surrounding whitespace removed, inner runs collapsed."""
    return " ".join(title.split())


class Aliases:
    """A resolved alias table: `resolve(key)` gives the canonical key of any title key, and
    `spelling(key)` the canonical title as the table writes it (None when no alias points to it).

    Nothing depends on the order of the table (a proto map has none, so REST and gRPC must agree):
    entries are read in the alphabetical order of their keys, so the first error is always the
    same one; when several targets are spellings of one title ("Heat", "HEAT"), the one shown is
    the spelling most targets use, ties going to the alphabetically first.
    Chains resolve in linear time: each alias key is followed once, then remembered.
    """

    def __init__(self, table: Mapping[str, str], path: tuple[str | int, ...] = ("aliases",)) -> None:
        direct: dict[str, str] = {}  # alias key -> target key
        written_by: dict[str, str] = {}  # alias key -> the spelling that defined it (for messages)
        spellings: dict[str, Counter[str]] = {}  # target key -> its spellings -> how many aliases use each
        for alias, target in sorted(table.items(), key=lambda item: str(item[0])):
            where = (*path, MapKey(alias))
            alias_key = _checked_key(alias, where, "alias")
            target_key = _checked_key(target, where, "target")
            spellings.setdefault(target_key, Counter())[display(target)] += 1
            if alias_key == target_key:
                continue  # "The White Castle" -> "White Castle": already the same game
            previous = direct.get(alias_key)
            if previous is not None and previous != target_key:
                raise RankingError(
                    f'"{alias}" is the same title as "{written_by[alias_key]}", which already points to another '
                    f'game ("{table[written_by[alias_key]]}")',
                    where,
                )
            direct[alias_key] = target_key
            written_by.setdefault(alias_key, alias)
        self._spellings = {
            key: min(counts.items(), key=lambda item: (-item[1], item[0]))[0] for key, counts in spellings.items()
        }
        self._resolved: dict[str, str] = {}
        for alias_key in direct:
            if alias_key in self._resolved:
                continue
            chain: list[str] = []
            on_chain: dict[str, int] = {}  # key -> its index in chain: the cycle check is O(1)
            key = alias_key
            while key in direct and key not in self._resolved:
                if key in on_chain:
                    cycle = chain[on_chain[key] :]
                    first = min(range(len(cycle)), key=lambda i: written_by[cycle[i]])
                    cycle = cycle[first:] + cycle[:first]  # from the alphabetically first alias
                    names = [f'"{written_by[k]}"' for k in cycle]
                    if len(names) > 8:  # a long cycle is shown by its ends
                        names[4:-2] = [f"… ({len(names) - 6} more)"]
                    shown = " → ".join(names)
                    raise RankingError(f'aliases form a cycle: {shown} → "{written_by[cycle[0]]}"', path)
                on_chain[key] = len(chain)
                chain.append(key)
                key = direct[key]
            final = self._resolved.get(key, key)
            for k in chain:
                self._resolved[k] = final

    def resolve(self, key: str) -> str:
        return self._resolved.get(key, key)

    def spelling(self, key: str) -> str | None:
        return self._spellings.get(key)

    def __len__(self) -> int:
        return len(self._resolved)


def _checked_key(title: object, path: tuple[str | int, ...], role: str) -> str:
    if not isinstance(title, str):
        raise RankingError(f"the {role} must be a string, got {json_type(title)}", path)
    if has_surrogate(title):
        raise RankingError(f"the {role} contains an unpaired surrogate (not text)", path)
    if len(title) > MAX_TEXT_LENGTH:
        raise RankingError(f"the {role} is longer than {MAX_TEXT_LENGTH} characters", path)
    key = title_key(title)
    if not key:
        raise RankingError(f'the {role} "{title}" has no letter or digit', path)
    return key
