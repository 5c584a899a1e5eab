"""Every server module imports on its own, first, in a fresh interpreter (no import cycles).

One interpreter does it for all modules: it loads what the server's modules load from outside
the project (the standard library and the dependencies, which never import the project), then
forks a child per module, in which that module is the first of `tablero` to be imported. A
child is as fresh for the project as a new interpreter, and costs a fork instead of importing
grpc, Starlette and the rest again (over 100 new interpreters took about a minute of CPU).
"""

import json
import subprocess
import sys

import pytest

from tests.server.support import ROOT

# By their installed names (tablero.server.…): imported as `server.…` from the repository's
# folder, each module was a second copy beside the tablero.server one its imports load.
MODULES = sorted(
    "tablero." + ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for p in (ROOT / "server").rglob("*.py")
    if "gen" not in p.parts and p.name != "__main__.py"
)

# Run in one interpreter: argv[1] is the JSON list of modules; prints {module: error or ""}.
_CHECK = r"""
import json, os, sys, traceback

modules = json.loads(sys.argv[1])

def ours(name):
    return name == "tablero" or name.startswith(("tablero.", "tablero_client", "tests"))

def in_child(body):
    # body() runs in a forked child; its text comes back through a pipe, with its exit code
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        code, text = 0, ""
        try:
            text = body()
        except BaseException:
            code, text = 1, traceback.format_exc()
        os.write(w, text.encode())
        os._exit(code)
    os.close(w)
    chunks = []
    while chunk := os.read(r, 65536):
        chunks.append(chunk)
    os.close(r)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), b"".join(chunks).decode()

def load_all():
    for m in modules:
        __import__(m)
    return json.dumps(sorted(n for n in sys.modules if not ours(n) and not n.startswith("_")))

code, text = in_child(load_all)
if code == 0:  # (else: each module's own child below says what fails)
    for name in json.loads(text):
        try:
            __import__(name)
        except BaseException:
            pass  # (a module that only imports in the project's company: its child imports it)
assert not any(ours(n) for n in sys.modules), [n for n in sys.modules if ours(n)]

def importer(m):
    def body():
        __import__(m)
        return ""
    return body

results = {}
for m in modules:
    code, text = in_child(importer(m))
    results[m] = "" if code == 0 else (text or f"exit {code}")
print(json.dumps(results))
"""


@pytest.fixture(scope="module")
def first_imports() -> dict[str, str]:
    r = subprocess.run([sys.executable, "-c", _CHECK, json.dumps(MODULES)], cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("module", MODULES)
def test_module_imports_first(module, first_imports):
    assert first_imports[module] == "", first_imports[module]


def test_the_check_imports_each_module_first(tmp_path):
    """A module whose first import meets a cycle fails, even when the module before it in the
    list imported it cleanly (`c` first loads `d` fine; `d` first fails), as in a fresh
    interpreter per module."""
    pkg = tmp_path / "tablero_cyc"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "c.py").write_text("from tablero_cyc.d import D\nC = 1\n")
    (pkg / "d.py").write_text("import tablero_cyc.c as c_module\nD = 2\n")
    check = _CHECK.replace('name == "tablero" or', 'name.startswith("tablero_cyc") or name == "tablero" or')
    r = subprocess.run([sys.executable, "-c", check, json.dumps(["tablero_cyc.c", "tablero_cyc.d", "json"])],
                       cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    results = json.loads(r.stdout.strip().splitlines()[-1])
    assert results["tablero_cyc.c"] == "" and results["json"] == "", results
    assert "ImportError" in results["tablero_cyc.d"], results
