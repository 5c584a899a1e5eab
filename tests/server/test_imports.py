"""Every server module imports on its own, first, in a fresh interpreter (no import cycles)."""

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


@pytest.mark.parametrize("module", MODULES)
def test_module_imports_first(module):
    r = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
