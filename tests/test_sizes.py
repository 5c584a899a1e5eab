"""No module of server/ over 800 lines and no function over 80 (issue 37: split by concern),
outside generated code and the files listed below, which other work is replacing."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "server"
MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 80

# Generated protobuf/gRPC code is not written by hand.
GENERATED = ("grpc/gen/",)
# Files this split did not reach, each with why; remove an entry when its file is brought
# within the limits (the test then keeps it there).
ALLOWED: dict[str, str] = {
    "http/fast.py": "being replaced by one HTTP stack on public APIs (issue 37, build 1)",
    "http/slow_clients.py": "being replaced with fast.py (issue 37, build 1)",
    "runner.py": "being reworked by another engineer",
}


def _sources() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if not rel.startswith(GENERATED) and rel not in ALLOWED:
            out.append((rel, path))
    return out


def oversized() -> list[str]:
    """Every module and function over its limit, as `server/<file>[:line name]: n lines`."""
    found = []
    for rel, path in _sources():
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines > MAX_MODULE_LINES:
            found.append(f"server/{rel}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                n = node.end_lineno - start + 1
                if n > MAX_FUNCTION_LINES:
                    found.append(f"server/{rel}:{node.lineno} {node.name}: {n} lines")
    return found


def test_no_module_over_800_lines_and_no_function_over_80() -> None:
    assert oversized() == []


def test_the_allowlist_names_files_that_exist() -> None:
    assert [f for f in ALLOWED if not (ROOT / f).is_file()] == []


if __name__ == "__main__":
    print("\n".join(oversized()) or "none")
