"""The terminal's words, from the server's message catalogs (GET /v1/engines/{name}/messages).

A catalog is a flat object of ICU MessageFormat strings (see `engines/core/messages.py` for its
keys). `Catalog.format(key, args)` reads them with `pyicumessageformat` (the parser) and
`babel` (plural categories, numbers and lists of the language); `event_args` and
`action_args` prepare an event's or an action's fields as every client does, so a template
names the fields it shows and no sentence is written here.

The language: `--lang`, else `LANG`/`LC_ALL`/`LC_MESSAGES` (`es_ES.UTF-8` -> `es`), else English.
Catalogs are fetched once per engine and language (`load`), or read from the repository's
`engines/` when the SDK runs beside it without a server (tests, offline rendering).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Mapping
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal
from pyicumessageformat import Parser

LANGS = ("en", "es")
HIDDEN = {"type", "private", "secret", "trace", "rolls", "engine", "engine_version", "options"}
_PARSER = Parser({"allow_tags": False})
_PSEUDO = "pseudo"
SEAT_NAMES = 6  # every message wrapped in ⟦…⟧: what a screen shows from no catalog stands out


def _base(tag: str | None) -> str:
    return re.split(r"[-_.@]", (tag or "").strip().lower(), maxsplit=1)[0]


def known_language(tag: str) -> bool:
    """Whether `tag` (`es`, `es_ES.UTF-8`, `en-GB`, ...) names a language the texts are in."""
    return _base(tag) in LANGS or _base(tag) == _PSEUDO


def language(tag: str | None = None) -> str:
    """`es_ES.UTF-8`, `es-AR`, `es` -> `es`; unknown or empty -> `en` (`pseudo` stays, for tests)."""
    for t in ([tag] if tag else [os.environ.get(k) for k in ("LC_ALL", "LC_MESSAGES", "LANG")]):
        if known_language(t or ""):
            return _base(t)
    return "en"


@functools.lru_cache(maxsize=2048)
def _ast(text: str) -> tuple:
    return tuple(_PARSER.parse(text))


CONTRACTIONS = "label.name_contractions"


@functools.lru_cache(maxsize=32)
def _contractions(rules: str) -> tuple[list[tuple[re.Pattern[str], str]], list[tuple[re.Pattern[str], str]]]:
    """A catalog's `label.name_contractions`, `from → to` rules joined by `;`, for the grammar a
    template cannot know: a name that needs an article in running text ("pagando a Capitán Ahab"
    is "pagando al Capitán Ahab" in Spanish). `^from → to` applies at a sentence's start only.
    Returns (rules anywhere, rules at a sentence's start)."""
    anywhere: list[tuple[re.Pattern[str], str]] = []
    start: list[tuple[re.Pattern[str], str]] = []
    for rule in rules.split(";"):
        old, arrow, new = rule.partition("→")
        old, new = old.strip(), new.strip()
        if not arrow or not old.lstrip("^"):
            continue
        at_start = old.startswith("^")
        pattern = re.compile(("^" if at_start else r"(?<!\w)") + re.escape(old.lstrip("^")) + r"(?!\w)")
        (start if at_start else anywhere).append((pattern, new))
    return anywhere, start


class Catalog:
    """One language's messages (an engine's and the platform's, merged by the server)."""

    def __init__(self, messages: Mapping[str, str], lang: str = "en") -> None:
        self.messages = dict(messages)
        self.pseudo = lang == _PSEUDO
        self.lang = "en" if self.pseudo else lang
        self.locale = Locale.parse(self.lang)
        self.contractions, self.sentence_contractions = _contractions(self.messages.get(CONTRACTIONS, ""))

    def has(self, key: str) -> bool:
        return key in self.messages

    def format(self, key: str, args: Mapping[str, Any] | None = None, default: str | None = None) -> str:
        text = self.messages.get(key)
        if text is None:
            return default if default is not None else key
        out = self._parts(_ast(text), dict(args or {}), None)
        for pattern, new in self.contractions:
            out = pattern.sub(new, out)
        return f"⟦{out}⟧" if self.pseudo else out

    def sentence(self, text: str) -> str:
        """`text` as a sentence: its start's contractions applied, its first letter a capital."""
        for pattern, new in self.sentence_contractions:
            text = pattern.sub(new, text)
        return text[:1].upper() + text[1:]

    def number(self, n: Any) -> str:
        return format_decimal(n, locale=self.locale) if isinstance(n, int | float) and not isinstance(n, bool) else str(n)

    def list(self, items: list[str]) -> str:
        items = [i for i in items if i != ""]
        if not items:
            return ""
        out = format_list(items, locale=self.locale)
        return f"⟦{out}⟧" if self.pseudo and len(items) > 1 else out  # its conjunction is the language's too

    # ICU MessageFormat, evaluated over pyicumessageformat's tree.
    def _parts(self, parts: Any, args: dict[str, Any], hash_value: Any) -> str:
        return "".join(p if isinstance(p, str) else self._arg(p, args, hash_value) for p in parts)

    def _arg(self, node: dict[str, Any], args: dict[str, Any], hash_value: Any) -> str:
        if node.get("hash"):
            return self.number(hash_value)
        value = args.get(node["name"], "")
        kind = node.get("type")
        if kind in ("plural", "selectordinal"):
            # an argument the event leaves out reads as 0, as in the browser client (`=0` matches)
            numeric = isinstance(value, int | float) and not isinstance(value, bool)
            n = (value if numeric else 0) - (node.get("offset") or 0)
            options = node["options"]
            exact = f"={value}" if numeric else "=0"
            if exact in options:
                return self._parts(options[exact], args, n)
            form = self.locale.ordinal_form(n) if kind == "selectordinal" else self.locale.plural_form(n)
            return self._parts(options.get(form, options["other"]), args, n)
        if kind == "select":
            options = node["options"]
            return self._parts(options.get(str(value), options["other"]), args, hash_value)
        return self.number(value)


# --- arguments: what a template's fields read as --------------------------------------------
SeatName = Callable[[Any], str]


def value(cat: Catalog, v: Any) -> Any:
    """A field as its template sees it: numbers stay numbers (plurals), strings are named,
    lists become lists, objects amounts, booleans `true`/`false` (select)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return v
    if v is None:
        return cat.format("value.none")
    if isinstance(v, str):  # a name the catalog has, else the value as sent (`build_white`: build white)
        return cat.format(f"name.{v}") if cat.has(f"name.{v}") else v.replace("_", " ")
    if isinstance(v, list):
        return cat.list([str(_shown(cat, x)) for x in v]) or cat.format("value.none")
    if isinstance(v, dict):
        return amounts(cat, v)
    return str(v)


def the(cat: Catalog, v: Any) -> Any:
    """A name with its definite article as the catalog writes it (`the.farm`: "la Granja" / "the
    Farm"), for a sentence that needs one ("Trabajador a la Granja"); else the name alone. A list:
    each one."""
    if isinstance(v, list):
        return cat.list([str(the(cat, x)) for x in v])
    if isinstance(v, str) and cat.has(f"the.{v}"):
        return cat.format(f"the.{v}")
    return _shown(cat, v)


def _shown(cat: Catalog, v: Any) -> Any:
    shown = value(cat, v)
    if isinstance(v, bool):
        return cat.format("value.yes" if v else "value.no")
    return cat.number(shown) if isinstance(shown, int | float) else shown


def amounts(cat: Catalog, obj: Mapping[str, Any]) -> str:
    """`{"food": 2, "money": 3}` -> `2 food, $3` by the catalog's `amount.<key>` (else `2 food`);
    a named value by `amount.<key>` too (`{"feature": "barn"}` -> `barn`), else `feature barn`."""
    parts = []
    for k, n in obj.items():
        if n in (0, None, False, [], {}):
            continue
        if isinstance(n, int | float) and not isinstance(n, bool):
            parts.append(cat.format(f"amount.{k}", {"n": n}) if cat.has(f"amount.{k}")
                         else f"{cat.number(n)} {value(cat, k)}")
        elif cat.has(f"amount.{k}"):  # a named thing: how the catalog says it (Riverboat's feature: "barn")
            parts.append(cat.format(f"amount.{k}", {"n": _shown(cat, n)}))
        else:
            parts.append(f"{value(cat, k)} {_shown(cat, n)}")
    return cat.list(parts) or cat.format("value.nothing")


def _present(v: Any) -> bool:
    """Whether a field has a value (its template's has_<field>), as the browser's i18n.js says it: a 0
    is a value (`0 in (False, ...)` held in Python, so Founders' winning proposal 0 went unsaid)."""
    if isinstance(v, bool) or v is None:
        return bool(v)
    if isinstance(v, str | list | dict) and not v:
        return False
    return not (isinstance(v, dict) and not any(
        _present(x) and not (isinstance(x, int | float) and not isinstance(x, bool) and x == 0) for x in v.values()))


def _seatlike(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


Special = Callable[[str, Any], Any]


def you_of(cat: Catalog, seats: list[Any], who: SeatName, you: Callable[[int], bool] | None) -> dict[str, str]:
    """For a list of seats: `you`, "true" when all are the viewer's, "some" when the viewer's are
    among others (then `others` names those others: "a ti y a Azul", "you and Blue"), else "false"."""
    mine = [you is not None and bool(you(s)) for s in seats]
    others = [who(s) for s, m in zip(seats, mine, strict=True) if not m]
    # each of the others with the word the sentence needs, so that a list after "you" reads as one
    # list: "a ti, a Azul y a Rojo" (`others_to`), "tu jugada, la de Azul y la de Rojo" (`others_of`)
    each = {k: cat.list([cat.format(key, {"who": o}) if cat.has(key) else o for o in others])
            for k, key in (("others_to", "list.each_to"), ("others_of", "list.each_of"))}
    return {"you": "true" if seats and all(mine) else "some" if any(mine) else "false", "others": cat.list(others), **each}


def _field(cat: Catalog, args: dict[str, Any], k: str, v: Any, who: SeatName, special: Special | None = None,
           you: Callable[[int], bool] | None = None) -> None:
    shown = special(k, v) if special is not None else None  # a value the board names its own way
    args[k] = value(cat, v) if shown is None else shown
    args[f"has_{k}"] = "true" if _present(v) else "false"
    if isinstance(v, str):
        args[f"{k}_id"] = v  # the value as sent, for a template's select
    if isinstance(v, str) or (isinstance(v, list) and v and all(isinstance(x, str) for x in v)):
        # with its article, "la Granja": the catalog's first (a board's own name for the value, e.g.
        # a card as printed, has none), else that name, else the catalog's name
        named = any(cat.has(f"the.{x}") for x in (v if isinstance(v, list) else [v]))
        args[f"{k}_the"] = the(cat, v) if named or shown is None else shown
    if _seatlike(v):
        args[f"{k}_who"] = who(v)
        args[f"{k}_you"] = "true" if you is not None and you(v) else "false"  # "la loseta es tuya"
    if isinstance(v, list):
        args[f"{k}_count"] = len(v)
        if v and all(_seatlike(x) for x in v):
            args[f"{k}_who"] = cat.list([who(x) for x in v])
            mine = you_of(cat, v, who, you)  # the viewer alone: "true"; among others: "some"
            args.update({f"{k}_{a}": b for a, b in mine.items()})  # _you, _others, _others_to, _others_of
        if v and all(isinstance(x, int | float | str) and not isinstance(x, bool) for x in v):  # per seat
            args[f"{k}_by_seat"] = cat.list([f"{who(i)} {_shown(cat, x)}" for i, x in enumerate(v)])
    if isinstance(v, dict):
        args[f"{k}_count"] = sum(1 for x in v.values() if x not in (0, None, False, [], {}))
        # the amounts added up ({right: 1, bowhead: 0} -> 1 whale: "paying its lay")
        args[f"{k}_total"] = sum(x for x in v.values() if isinstance(x, int | float) and not isinstance(x, bool))


def fields_args(cat: Catalog, fields: Mapping[str, Any], who: SeatName, special: Special | None = None,
                you: Callable[[int], bool] | None = None) -> dict[str, Any]:
    """The arguments of an event's or an action's template (engines/core/messages.py); `special(field,
    value)` may name a value as the board does (a square `B5`, a cell numbered from 1), else None."""
    args: dict[str, Any] = {}
    private = fields.get("private")
    if isinstance(private, dict) and len(private) == 1:  # the viewer's secret part: private_<field>
        mine = next(iter(private.values()))
        fields = {**fields, **({f"private_{k}": v for k, v in mine.items()} if isinstance(mine, dict)
                               else {"private_value": mine})}
    for k, v in fields.items():
        if k in HIDDEN:
            continue
        _field(cat, args, k, v, who, special, you)
        if isinstance(v, dict):
            for kk, vv in v.items():
                if not isinstance(vv, dict | list):
                    _field(cat, args, f"{k}_{kk}", vv, who, special, you)
    for i in range(SEAT_NAMES):  # p0, p1...: seats by number, for a sentence that names them all
        args[f"p{i}"] = who(i)
    actor = fields.get("seat", fields.get("player"))
    args["who"] = who(actor) if _seatlike(actor) else ""
    args["has_who"] = "true" if _seatlike(actor) else "false"
    # whether the actor is the viewer: "Your ship", not "seat 1 (you)’s ship"
    args["who_you"] = "true" if _seatlike(actor) and you is not None and you(actor) else "false"
    return args


def describe(cat: Catalog, event: Mapping[str, Any], who: SeatName, special: Special | None = None,
             you: Callable[[int], bool] | None = None) -> str:
    """An event as its catalog words it; `(only you see: …)` for the viewer's secret part."""
    t = str(event.get("type") or "")
    args = fields_args(cat, event, who, special, you)
    if cat.has(f"event.{t}"):
        text = cat.format(f"event.{t}", args)
    else:  # a type the catalog does not know (an engine newer than its catalog)
        rest = {k: v for k, v in event.items() if k not in HIDDEN | {"seat", "player"}}
        details = "; ".join(f"{value(cat, k)} {_shown(cat, v)}" for k, v in rest.items())
        text = cat.format("event.unknown", {**args, "type": t.replace("_", " "), "details": details,
                                            "has_details": "true" if details else "false"})
    private = event.get("private")
    template = cat.messages.get(f"event.{t}", "")
    if isinstance(private, dict) and private and "{has_private" not in template and "{private" not in template:
        mine = next(iter(private.values()))  # a template that does not word it: the platform's words
        if _present(mine):
            what = (cat.list([f"{value(cat, k)} {_shown(cat, v)}" for k, v in mine.items()])
                    if isinstance(mine, dict) else _shown(cat, mine))
            text = cat.format("event.private", {"text": text, "what": what})
    return cat.sentence(text)


def action(cat: Catalog, act: Mapping[str, Any], who: SeatName, special: Special | None = None) -> str | None:
    """An action as its catalog words it (None when the catalog has no template for it)."""
    key = f"action.{act.get('type')}"
    return cat.format(key, fields_args(cat, act, who, special)) if cat.has(key) else None


# --- where catalogs come from ----------------------------------------------------------------
_LOADED: dict[tuple[str, str], Catalog] = {}
_lang = {"current": language()}


def set_language(tag: str | None) -> str:
    _lang["current"] = language(tag)
    return _lang["current"]


def current_language() -> str:
    return _lang["current"]


def use(engine: str, lang: str, messages: Mapping[str, str]) -> Catalog:
    """Keep the messages a server answered for `engine` in `lang`."""
    cat = Catalog(messages, lang)
    _LOADED[(engine, lang)] = cat
    return cat


def load(client: Any, engine: str, lang: str | None = None) -> Catalog | None:
    """The catalog of `engine` from a server (`client.engine_messages`), once per language."""
    lang = lang or current_language()
    if (engine, lang) in _LOADED:
        return _LOADED[(engine, lang)]
    try:
        got = client.engine_messages(engine, "en" if lang == _PSEUDO else lang)
    except Exception:  # noqa: BLE001 - an older server: the repository's files, else none
        return catalog(engine, lang)
    return use(engine, lang, got.get("messages") or {})


def catalog(engine: str, lang: str | None = None) -> Catalog | None:
    """The catalog in use for `engine`: the one a server answered, else the repository's."""
    lang = lang or current_language()
    if (engine, lang) in _LOADED:
        return _LOADED[(engine, lang)]
    try:
        from tablero.engines.core import messages as local  # the SDK beside the repository's engines
    except ImportError:
        return None
    try:
        got = local.published(engine, "en" if lang == _PSEUDO else lang)["messages"]
    except KeyError:
        return None
    return use(engine, lang, got)
