"""docs/api.md "Wording events and actions: the message catalogs" tells a client written outside
this repository how to word events from `GET /v1/engines/{name}/messages`: which arguments a
template takes and how seats are named. Its example is held to what both clients do with the
catalogs a real server serves: the terminal's rules (`tablero_client.render.i18n`) and the
browser's (`clients/web/js/i18n.js` with its vendored intl-messageformat, run by node) give the
documented arguments and sentences. The catalog's `lang` fallback and ETag are as documented too.

An outside frontend pass found the catalogs served and the README saying "both clients word every
event and action from them", but the arguments' conventions (`private_<key>`, `<field>_who`,
`<field>_by_seat`, the seat names) written down only in a Python docstring."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
from tablero_client.render.i18n import Catalog, describe, fields_args

from tests.server.support import ServerThread

ROOT = Path(__file__).resolve().parents[2]
HEADING = "## Wording events and actions: the message catalogs"


def _example() -> dict:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert HEADING in text, "docs/api.md has no section on wording events from the catalogs"
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```json\n(.*?)```", section, re.S)
    assert block, "the section has no example"
    return json.loads(block.group(1))


@pytest.fixture(scope="module")
def served():
    """The example's engine catalogs as a real server serves them, by language."""
    ex = _example()
    with ServerThread() as s, httpx.Client(base_url=s.http, timeout=30) as http:
        out = {}
        for lang in ("en", "es"):
            r = http.get(f"/v1/engines/{ex['engine']}/messages", params={"lang": lang})
            assert r.status_code == 200 and r.json()["lang"] == lang
            # (a gzipped answer's ETag is its own: the body's `etag` with -gzip, server/http/etags.py)
            assert r.headers["etag"] == r.json()["etag"][:-1] + '-gzip"' and r.headers["content-encoding"] == "gzip"
            again = http.get(f"/v1/engines/{ex['engine']}/messages", params={"lang": lang},
                             headers={"If-None-Match": r.headers["etag"]})
            assert again.status_code == 304
            out[lang] = r.json()["messages"]
        assert http.get(f"/v1/engines/{ex['engine']}/messages", params={"lang": "es-AR"}).json()["lang"] == "es"
        assert http.get(f"/v1/engines/{ex['engine']}/messages", params={"lang": "fr"}).json()["lang"] == "en"
        yield ex, out


def test_the_terminal_rules_give_the_documented_arguments_and_words(served):
    ex, catalogs = served
    for lang in ("en", "es"):
        cat = Catalog(catalogs[lang], lang)

        def who(n: int, cat: Catalog = cat) -> str:
            name = cat.format("seat.colour", {"n": n})
            return cat.format("seat.you", {"name": name}) if n == ex["viewer"] else name

        for event, args, words in zip(ex["events"], ex["args"], ex[lang], strict=True):
            if lang == "en":
                got = fields_args(cat, event, who)
                assert {k: got.get(k) for k in args} == args
            assert describe(cat, event, who) == words


def test_the_browser_rules_give_the_documented_arguments_and_words(served):
    ex, catalogs = served
    node = shutil.which("node")
    assert node, "node is needed (the TypeScript and browser tests use it too)"
    script = f"""
globalThis.navigator = {{ languages: ['en'] }};
const {{ Catalog, describe, fieldsArgs }} = await import('{ROOT / "clients/web/js/i18n.js"}');
const ex = {json.dumps(ex)};
const catalogs = {json.dumps(catalogs)};
const out = {{}};
for (const lang of ['en', 'es']) {{
  const cat = new Catalog(catalogs[lang], lang);
  const who = (n) => {{
    const name = cat.t('seat.colour', {{ n }});
    return n === ex.viewer ? cat.t('seat.you', {{ name }}) : name;
  }};
  out[lang] = ex.events.map((e) => describe(cat, e, who));
  if (lang === 'en') out.args = ex.events.map((e) => fieldsArgs(cat, e, who));
}}
console.log(JSON.stringify(out));
"""
    got = json.loads(subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True,
                                    check=True, timeout=60).stdout)
    assert got["en"] == ex["en"] and got["es"] == ex["es"]
    for args, documented in zip(got["args"], ex["args"], strict=True):
        assert {k: args.get(k) for k in documented} == documented
