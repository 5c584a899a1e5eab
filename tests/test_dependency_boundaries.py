"""Only the public interfaces of dependencies (issue 37): no module of ours imports a private
module of a dependency (a dotted name with a part starting with "_", or `from pkg import
_name`), assigns to a private attribute of any object but its own (`self`/`cls`), or patches
a dependency's module (`some_module.name = ...` on a module it imported).

Generated code (protoc's *_pb2*.py) is not ours and is left out. The scan reads the source
(ast), so a private reach written in any of our folders fails here."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("tablero", "server", "engines", "rankings", "clients/python", "scripts", "bench", "tests")
OURS = {"tablero", "tablero_client", "tests", "scripts", "bench"}
# The repository's folders that install under `tablero` (setup.py): importing them by their
# folder name would load a second copy of every module beside `tablero.*`.
FOLDER_NAMES = {"server", "engines", "rankings", "clients"}


# Assignments that look private but are to objects of our own classes (tests and benches
# replacing one of our methods or emptying one of our caches), by file and target.
OWN_OBJECTS = {
    ("bench/store_roundtrips.py", "store._call"): "our RedisStore: the bench counts its round trips",
    ("tests/matchmaking/test_matchmaking.py", "mm._finish"): "our Matchmaker: a test makes its pairing fail",
    ("tests/store/test_redis_push.py", "store._entries"): "our RedisStore: a test counts its reads",
    ("tests/store/test_sqlite.py", "file_store._rows"): "our SqliteStore: a test makes a read fail",
    ("tests/store/test_sqlite.py", "store._rows"): "our SqliteStore: a test counts its reads",
}


def _ours(module: str) -> bool:
    top = module.split(".")[0]
    return top in OURS or top == ""


def _files() -> list[Path]:
    out = []
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*.py"):
            if "_pb2" in path.name or "/gen/" in path.as_posix() or "/_proto/" in path.as_posix() \
                    or "node_modules" in path.parts or ".venv" in path.parts:
                continue
            out.append(path)
    return sorted(out)


def _private(dotted: str) -> bool:
    return any(part.startswith("_") and not part.startswith("__") for part in dotted.split("."))


def _stdlib(module: str) -> bool:
    return module.split(".")[0] in sys.stdlib_module_names


def reaches(source: str) -> list[str]:
    """Every private reach into a dependency in `source`, as readable strings."""
    tree = ast.parse(source)
    found: list[str] = []
    imported_modules: set[str] = set()  # local names bound to a dependency's module
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not _ours(alias.name) and not _stdlib(alias.name):
                    if _private(alias.name):
                        found.append(f"line {node.lineno}: import {alias.name}")
                    imported_modules.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if _ours(node.module) or _stdlib(node.module):
                continue
            if _private(node.module):
                found.append(f"line {node.lineno}: from {node.module} import ...")
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"line {node.lineno}: from {node.module} import {alias.name}")
                elif alias.name[:1].islower():  # most likely a submodule (from pkg import values)
                    imported_modules.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" \
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                and isinstance(node.args[1].value, str):
            owner = node.args[0]
            if node.args[1].value.startswith("_") and not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")):
                found.append(f"line {node.lineno}: setattr(..., {node.args[1].value!r})")
            continue
        flat: list[ast.expr] = []
        for t in targets:
            flat.extend(t.elts if isinstance(t, ast.Tuple) else [t])
        for t in flat:
            if not isinstance(t, ast.Attribute):
                continue
            owner = t.value
            mine = isinstance(owner, ast.Name) and owner.id in ("self", "cls")
            if t.attr.startswith("_") and not t.attr.startswith("__") and not mine:
                found.append(f"line {t.lineno}: assigns {ast.unparse(t)}")
            elif isinstance(owner, ast.Name) and owner.id in imported_modules:
                found.append(f"line {t.lineno}: patches {ast.unparse(t)}")
    return found


def test_the_scan_finds_each_kind_of_reach():
    assert reaches("from uvicorn.protocols.http._impl import X") == ["line 1: from uvicorn.protocols.http._impl import ..."]
    assert reaches("from granian import _futures") == ["line 1: from granian import _futures"]
    assert reaches("import grpc._cython.cygrpc") == ["line 1: import grpc._cython.cygrpc"]
    assert reaches("def f(cycle):\n    cycle._write_paused = True") == ["line 2: assigns cycle._write_paused"]
    assert reaches("from prometheus_client import values\nvalues.ValueClass = object") == \
        ["line 2: patches values.ValueClass"]
    assert reaches("import redis\nredis.Redis = None") == ["line 2: patches redis.Redis"]
    assert reaches("setattr(conn, '_sock', None)") == ["line 1: setattr(..., '_sock')"]
    # Our own objects, our own modules and the standard library are not dependencies' internals.
    assert reaches("class A:\n    def f(self):\n        self._x = 1") == []
    assert reaches("from tablero.server.store import _seeds\nfrom collections import abc") == []


def test_no_module_of_ours_reaches_into_a_dependency():
    offenders = {}
    for path in _files():
        name = str(path.relative_to(ROOT))
        found = [f for f in reaches(path.read_text(encoding="utf-8"))
                 if not any(f.endswith(f"assigns {target}") for (where, target) in OWN_OBJECTS if where == name)]
        if found:
            offenders[name] = found
    assert not offenders, offenders


def old_names(source: str) -> list[str]:
    """Imports of our code by its folder name (`server.x`) instead of its package (`tablero.server.x`)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        modules = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
        found += [m for m in modules if m.split(".")[0] in FOLDER_NAMES]
    return found


def test_our_code_is_imported_under_one_namespace() -> None:
    """One import namespace (issue 37): `tablero.server`, `tablero.engines`, `tablero.rankings`,
    `tablero.web`; no module imports `server`, `engines`, `rankings` or `clients` as top-level
    names, and no shim keeps them alive."""
    bad = [f"{path.relative_to(ROOT)}: {m}" for path in _files() for m in old_names(path.read_text())]
    assert bad == []
    for folder in FOLDER_NAMES:
        assert not (ROOT / "tablero" / folder).exists(), folder  # no shim package under tablero/
    assert old_names("import server.app\nfrom engines import core\nfrom . import x") == ["server.app", "engines"]
    assert old_names("from tablero.server import app\nimport tablero.engines") == []
