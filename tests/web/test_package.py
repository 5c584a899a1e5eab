"""The browser client ships inside the package, so an installed server serves it."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from tests.server.support import ROOT


def test_the_wheel_carries_every_file_of_the_web_client(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(tmp_path), str(ROOT)],
        check=True, capture_output=True, timeout=180,
    )
    (wheel,) = tmp_path.glob("tablero-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    web = ROOT / "clients" / "web"
    wanted = {p.relative_to(ROOT).as_posix() for p in web.rglob("*") if p.suffix in {".html", ".js", ".css"}}
    assert "clients/web/index.html" in wanted and "clients/web/js/app.js" in wanted
    assert wanted <= names, sorted(wanted - names)
    # server/http/app.py finds the client beside the server package, as in site-packages.
    assert Path("server/http/app.py").parts[0] in {n.split("/")[0] for n in names}
