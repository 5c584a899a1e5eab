"""The committed generated code, the proto annotations, the OpenAPI document and the
served routes all agree."""

import re
import subprocess
import sys
from pathlib import Path

from server.http.app import build_app
from server.http.openapi import openapi_document

ROOT = Path(__file__).resolve().parents[2]


def test_generated_code_is_fresh():
    r = subprocess.run([sys.executable, "scripts/gen_proto.py", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def _annotated_paths():
    out = set()
    for proto in (ROOT / "proto").rglob("*.proto"):
        for verb, path in re.findall(r'(get|post|put|patch|delete):\s*"([^"]+)"', proto.read_text()):
            out.add((verb, re.sub(r"\{(\w+)\}", r"{\1}", path)))
    return out


def test_openapi_covers_every_annotated_rest_path():
    doc = openapi_document()
    for verb, path in _annotated_paths():
        assert path in doc["paths"] and verb in doc["paths"][path], (verb, path)


def test_openapi_lists_exactly_the_served_routes():
    from server.http.common import HttpState

    app = build_app(HttpState(games=None, max_body=1024))
    served = set()
    for route in app.routes:
        for m in route.methods - {"HEAD"}:
            served.add((m.lower(), route.path))
    documented = {(m, p) for p, ops in openapi_document()["paths"].items() for m in ops}
    assert served == documented


def test_openapi_document_is_valid_openapi_json(http):
    doc = http.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.1") and doc["paths"]
    for ops in doc["paths"].values():
        for op in ops.values():
            assert op["operationId"] and "200" in op["responses"]
