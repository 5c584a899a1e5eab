"""The texts people read, per engine: message catalogs beside each engine's rules.

Each engine package has `messages/<lang>.json` (this package's `messages/` holds the platform's:
seats, lobby, clocks, the platform's own events), a flat object of ICU MessageFormat strings:

- `title`; `event.<type>` and `action.<type>` for every declared event and action type;
  `view.<field>` for every top-level field of the view;
- `name.<value>` for the string values the schemas enumerate (buildings, cards, spaces,
  resources, phases; ids such as cells "3" or boats "2a" excepted);
- `amount.<resource>` (optional): how `{n}` of a resource reads, e.g. `{n}$`;
- `record.<list>` (optional): how a record of the outcome's list `<list>` reads in the final
  breakdown (Phoenicia's `record.vp_sources`), with its values as sent, a string's name as
  `<key>_name`, a list's as `<key>_name` and `<key>_count`; each item of that list by
  `record.<key>` where the catalog has it (a record by its fields; an id by `{id}`, `{name}`:
  Riverboat's `record.colours` says a field's "amarillo", not the crop card's "amarilla");
- `the.<value>` (optional): a name with its definite article, e.g. Spanish `la Granja`, `el Banco`
  (English `the Farm`), which a template names as `{<field>_the}` where its sentence needs the
  article ("Trabajador a la Granja"; `a el → al` is one of the catalog's contractions, below);
- `label.name_contractions` (optional): grammar no template can know, `from → to` rules joined
  by `;` that every client applies to each formatted message (`^from → to`: at a sentence's
  start only), e.g. New Bedford's Spanish "a Capitán → al Capitán" ("pagando al Capitán Ahab").

Templates take the fields of their event or action as arguments, prepared the same way by
every client (see `clients/python/tablero_client/render/i18n.py` and `clients/web/js/i18n.js`):
numbers as numbers, strings as their `name.` (else as sent), lists as a list, objects as
amounts, booleans as `true`/`false` (for `select`); `who` is the acting seat (`seat` or
`player`), `who_you` is `true` when that seat is the viewer's ("Your ship", not "Red (you)’s
ship"), `<field>_who` names the seat(s) an integer field holds and `<field>_you` is `true` when
they are the viewer's ("la loseta es tuya", not "es de Rojo (tú)"; a list with the viewer's seat
among others: `some`, and `<field>_others` names the others: "a ti y a Azul"), `<field>_count` is a list's
or an object's size, `<field>_the` a name (or a list of names) with its `the.` article, `<field>_total` an object's numbers added up (New Bedford's whales kept:
"paying its lay"), `has_<field>` is `true` when the field is present and not empty, and an
object's entries come as `<field>_<key>` too.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import re
from pathlib import Path
from typing import Any

from . import registry
from .event_schema import engine_fields

LANGS = ("en", "es")
DEFAULT = "en"
PLATFORM = "tablero"  # the name that asks for the platform's catalog alone
_HERE = Path(__file__).resolve().parent
# Enumerated strings that are ids, not words: cells, boat and mat letters, tile sizes.
ID_VALUE = re.compile(r"^(\d+[a-z]?|[A-Z])$")


def language(tag: str | None) -> str:
    """The catalog language for a tag: `es-AR` -> `es`; anything unknown -> `en`."""
    base = re.split(r"[-_.]", (tag or "").strip().lower(), maxsplit=1)[0]
    return base if base in LANGS else DEFAULT


def from_accept_language(header: str | None) -> str:
    """The catalog language an Accept-Language header wants most (RFC 9110 12.5.4): of the tags
    whose base has a catalog, the one of the highest weight (the first listed among equals);
    `DEFAULT` when none has (`*`, `fr`, a weight of 0 or one that is no number)."""
    best, best_q = DEFAULT, 0.0
    for part in (header or "").split(","):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = -1.0
        base = re.split(r"[-_.]", tag.strip().lower(), maxsplit=1)[0]
        if base in LANGS and 0 < q <= 1 and q > best_q:
            best, best_q = base, q
    return best


def catalog_dir(name: str) -> Path:
    """The `messages/` folder of an engine (by registry name) or of the platform."""
    if name == PLATFORM:
        return _HERE / "messages"
    engine = registry.get(name)
    module = importlib.import_module(type(engine).__module__)
    return Path(module.__file__ or "").resolve().parent / "messages"


@functools.lru_cache(maxsize=64)
def _read(folder: Path, lang: str) -> dict[str, str]:
    path = folder / f"{lang}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def catalog(name: str, lang: str) -> dict[str, str]:
    """One catalog as written (no fallback): {} when the engine has none in `lang`."""
    return dict(_read(catalog_dir(name), lang))


@functools.lru_cache(maxsize=64)
def _published(name: str, lang: str) -> tuple[dict[str, str], str]:
    out: dict[str, str] = {}
    sources = [PLATFORM] if name == PLATFORM else [PLATFORM, name]
    for source in sources:  # English below each language, so a missing key never shows blank
        out.update(_read(catalog_dir(source), DEFAULT))
        out.update(_read(catalog_dir(source), lang))
    digest = hashlib.sha256(json.dumps(out, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:32]
    return out, f'"{lang}-{digest}"'


def published(name: str, lang_tag: str | None) -> dict[str, Any]:
    """What the API answers: the platform's and the engine's messages in one language.
    KeyError (registry.UnknownEngine) for an unknown engine."""
    lang = language(lang_tag)
    messages, etag = _published(name, lang)
    return {"engine": name, "lang": lang, "messages": dict(messages), "etag": etag, "languages": list(LANGS)}


# --- what an engine declares (the coverage test and tools) -------------------------------
def _alternatives(schema: dict[str, Any] | None) -> list[dict[str, Any]]:
    return list((schema or {}).get("oneOf") or (schema or {}).get("anyOf") or [])


def declared_types(schema: dict[str, Any] | None) -> dict[str, set[str]]:
    """Each declared action or event type -> the names of its fields."""
    out: dict[str, set[str]] = {}
    for alt in _alternatives(schema):
        props = alt.get("properties") or {}
        t = (props.get("type") or {}).get("const")
        if isinstance(t, str):
            out.setdefault(t, set()).update(k for k in props if k != "type")
    return out


def _enums(schema: Any, out: set[str]) -> None:
    if isinstance(schema, dict):
        for v in schema.get("enum") or []:
            if isinstance(v, str):
                out.add(v)
        for k, v in schema.items():
            if k != "const":
                _enums(v, out)
    elif isinstance(schema, list):
        for v in schema:
            _enums(v, out)


def declared_names(engine: Any) -> set[str]:
    """The enumerated string values of an engine's schemas that people read (not ids)."""
    found: set[str] = set()
    for schema in (engine.action_schema, engine_fields(engine.event_schema), engine.view_schema):
        _enums(schema, found)
    return {v for v in found if not ID_VALUE.match(v)}


def declared_keys(engine: Any) -> set[str]:
    """Every key an engine's catalog must hold."""
    keys = {"title"}
    keys |= {f"action.{t}" for t in declared_types(engine.action_schema)}
    keys |= {f"event.{t}" for t in declared_types(engine.event_schema)}
    keys |= {f"view.{k}" for k in ((engine.view_schema or {}).get("properties") or {})}
    keys |= {f"name.{v}" for v in declared_names(engine)}
    return keys


def _properties(schema: Any, out: set[str]) -> None:
    if isinstance(schema, dict):
        out.update(k for k in (schema.get("properties") or {}) if isinstance(k, str))
        for v in schema.values():
            _properties(v, out)
    elif isinstance(schema, list):
        for v in schema:
            _properties(v, out)


def declared_properties(engine: Any) -> set[str]:
    """Every property name the schemas give an object (resources in amounts: `money`, `food`)."""
    found: set[str] = set()
    for schema in (engine.action_schema, engine_fields(engine.event_schema), engine.view_schema):
        _properties(schema, found)
    return found
