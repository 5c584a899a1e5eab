"""Every engine's texts: a message for each declared action, event, view field and enumerated
name, in English and Spanish, no key that nothing declares, and templates that parse and name
only their own fields (engines/core/messages.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pyicumessageformat import Parser
from tablero.engines.core import messages

from tablero import engines

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = [ROOT / "clients" / "python" / "tablero_client", ROOT / "clients" / "web" / "js"]
# Keys beside the declared ones: how an amount of a resource reads, a building's effect, a name
# with its article (`the.farm`: "la Granja"; all three for declared names only), how a list of
# the outcome's records reads as sentences (`record.<list>`, for a list the outcome schema
# declares: the final scores' clients use it), and labels a client's renderer uses (checked to be
# used below).
EXTRA = re.compile(r"^(amount|effect|record|the)\.(.+)$")
PARSER = Parser({"allow_tags": False})
# Arguments every template may use beside its fields (what the clients derive: who acts).
DERIVED = {"who", "has_who", "who_you", "seats", *(f"p{i}" for i in range(6))}


def _client_sources() -> str:
    return "\n".join(p.read_text() for d in CLIENTS for p in d.rglob("*") if p.suffix in (".py", ".js")
                     and "vendor" not in p.parts)


def _arguments(nodes, out: set[str]) -> set[str]:
    for n in nodes:
        if isinstance(n, dict):
            if not n.get("hash"):
                out.add(n["name"])
            for branch in (n.get("options") or {}).values():
                _arguments(branch, out)
    return out


def _allowed(field: str, fields: set[str]) -> bool:
    """`space`, `has_space`, `owner_who`, `cells_count`, `post_office_seat_who` of fields {space, …}."""
    base = re.sub(r"^has_", "", field)
    base = re.sub(r"_(who|count|total|by_seat|id|the)$", "", base)
    return base in DERIVED or base.startswith("private_") or base in fields or any(base.startswith(f + "_") for f in fields)


@pytest.mark.parametrize("name", engines.names())
@pytest.mark.parametrize("lang", messages.LANGS)
def test_every_declaration_has_a_message_and_every_message_a_declaration(name, lang):
    engine = engines.get(name)
    catalog = messages.catalog(name, lang)
    declared = messages.declared_keys(engine)
    missing = sorted(declared - set(catalog))
    assert not missing, f"{name} ({lang}) has no message for {missing}"
    names = messages.declared_names(engine) | messages.declared_properties(engine)
    outcome: set[str] = set()
    messages._properties(engine.outcome_schema, outcome)  # noqa: SLF001 - the same walk, over the outcome
    used = _client_sources()
    unused = []
    for key in set(catalog) - declared:
        extra = EXTRA.match(key)
        if extra and extra.group(2) in (outcome if extra.group(1) == "record" else names):
            continue
        if key.startswith("label.") and f'"{key}"' in used or f"'{key}'" in used:
            continue
        unused.append(key)
    assert not unused, f"{name} ({lang}) has messages nothing declares or uses: {sorted(unused)}"


@pytest.mark.parametrize("name", engines.names())
def test_both_languages_have_the_same_keys_and_templates_name_their_own_fields(name):
    engine = engines.get(name)
    en, es = messages.catalog(name, "en"), messages.catalog(name, "es")
    assert set(en) == set(es)
    fields = {**{f"action.{t}": f for t, f in messages.declared_types(engine.action_schema).items()},
              **{f"event.{t}": f for t, f in messages.declared_types(engine.event_schema).items()}}
    for catalog in (en, es):
        for key, text in catalog.items():
            args = _arguments(PARSER.parse(text), set())  # raises on a malformed template
            if key in fields:
                strange = [a for a in args if not _allowed(a, fields[key])]
                assert not strange, f"{name} {key}: {strange} are not fields of {sorted(fields[key])}"


def test_spanish_names_follow_the_rulebooks():
    es = messages.catalog("new-bedford", "es")
    assert (es["name.farm"], es["name.forest"], es["name.town_hall"]) == ("Granja", "Bosque", "Ayuntamiento")
    assert es["name.seamens_bethel"] == "Capilla de los Marineros" and es["name.dry_dock"] == "Varadero"
    assert messages.catalog("riverboat", "es")["name.harvest"] == "recolección"


def test_founders_influence_has_the_rulebooks_names_in_spanish():
    """Fleeting influence is "influencia temporal" in the rulebook (seed 002 p. 11-15, fifteen
    times; lasting: "duradera"): the catalog said "fugaz" on every vote, income and adviser."""
    es = " ".join(messages.catalog("founders-of-gloomhaven", "es").values())
    assert "fugaz" not in es and "fugaces" not in es
    assert "influencia temporal" in es and "influencia duradera" in es


def test_phoenicias_overlord_has_one_name_in_spanish():
    """The log, the board and the turn say "Overlord" (the rulebook's word): the final table's row
    said "Último señor" for the same role."""
    es = messages.catalog("phoenicia", "es")
    assert "señor" not in " ".join(es.values()).lower()
    assert "last_overlord {Último Overlord}" in es["label.details"]


def test_lobby_option_hints_speak_words_not_ids():
    """New Bedford's English hint for Buildings read "'default' …, 'two_player', 'all', or an explicit
    list of building ids" under choices labelled in words (the schema's description, copied)."""
    for name in engines.names():
        for lang in ("en", "es"):
            for key, text in messages.catalog(name, lang).items():
                if key.startswith("label.option.") and key.endswith("_hint"):
                    assert not re.search(r"'[a-z]+(_[a-z]+)*'|\bids\b", text), (name, lang, key, text)


def test_riverboats_bonus_has_one_name_in_spanish():
    """The log said "Azul elige el bonus de agente" and "gana 2 PV (bonificación de fase)", the final
    table "Bonus de fase": one word for the rulebook's bonus."""
    es = messages.catalog("riverboat", "es")
    assert "bonificación" not in " ".join(es.values()).lower()
    assert es["name.phase_bonus"] == "bonus de fase"


def test_the_platform_catalog_matches_in_both_languages():
    en, es = messages.catalog(messages.PLATFORM, "en"), messages.catalog(messages.PLATFORM, "es")
    assert en and set(en) == set(es)
    for text in [*en.values(), *es.values()]:
        PARSER.parse(text)
    used = _client_sources()
    # web.reason.<REASON>: a refusal's words, looked up by the reason the server gave (js/api.js, `why`).
    from tablero.server.errors import REASONS
    unknown = [k for k in en if k.startswith("web.reason.") and k[len("web.reason."):] not in {*REASONS, "other"}]
    assert not unknown, f"refusal words for reasons the server does not give: {unknown}"
    unused = [k for k in en if f'"{k}"' not in used and f"'{k}'" not in used and not k.startswith("event.")
              and not k.startswith("web.reason.")]
    assert not unused, f"platform messages no client uses: {unused}"


@pytest.mark.parametrize("name", engines.names())
def test_a_spanish_template_uses_the_same_arguments_as_the_english(name):
    """A translation that drops a part (Founders' game_ended lost `({reason})`) shows less in Spanish."""
    en, es = messages.catalog(name, "en"), messages.catalog(name, "es")
    differ = {key: sorted(_arguments(PARSER.parse(en[key]), set()) ^ _arguments(PARSER.parse(es[key]), set()))
              for key in en if key in es}
    differ = {k: v for k, v in differ.items() if v}
    assert not differ, f"{name}: arguments only one language uses: {differ}"


def _choices(text: str) -> dict[str, str]:
    """A `{detail, select, a {A} b {B} …}` template's plain-text options."""
    [node] = [n for n in PARSER.parse(text) if isinstance(n, dict)]
    return {k: "".join(x for x in v if isinstance(x, str)) for k, v in node["options"].items() if k != "other"}


@pytest.mark.parametrize("name", engines.names())
def test_the_final_tables_rows_have_distinct_names_in_both_languages(name):
    """The final table (clients/web/js/scores.js) names a row per detail (label.details) and the
    total (web.score): two rows named alike read as one shown twice."""
    for lang in ("en", "es"):
        rows = _choices(messages.catalog(name, lang).get("label.details", "{detail, select, other {{text}}}"))
        total = messages.catalog(messages.PLATFORM, lang)["web.score"]
        clash = [k for k, v in rows.items() if v.casefold() == total.casefold()]
        assert not clash, f"{name} ({lang}): detail rows {clash} read {total!r}, as the total does"
