"""The browser's wording of a catalog message (the vendored intl-messageformat, run by node), for
the tests that hold the terminal's formatter and the browser's to the same words."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
MESSAGES = ROOT / "engines" / "founders_of_gloomhaven" / "messages"


def browser_words(key: str, args: list[dict[str, Any]]) -> dict[str, list[str]]:
    """{"en": [...], "es": [...]}: message `key` of the Founders catalogs formatted with each of
    `args` as the page formats it."""
    node = shutil.which("node")
    assert node, "node is needed (the TypeScript and browser tests use it too)"
    script = f"""
import {{ IntlMessageFormat }} from '{ROOT / "clients/web/js/vendor/intl-messageformat.js"}';
import fs from 'fs';
const cases = {json.dumps(args)};
const out = {{}};
for (const lang of ['en', 'es']) {{
  const cat = JSON.parse(fs.readFileSync('{MESSAGES}/' + lang + '.json', 'utf8'));
  const f = new IntlMessageFormat(cat[{json.dumps(key)}], lang);
  out[lang] = cases.map((a) => f.format(a));
}}
console.log(JSON.stringify(out));
"""
    return json.loads(subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True,
                                     check=True, timeout=60).stdout)
