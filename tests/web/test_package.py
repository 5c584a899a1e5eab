"""The browser client ships inside the package, so an installed server serves it."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile

from tests.server.support import ROOT


def test_the_wheel_carries_every_file_of_the_web_client(tmp_path):
    # Built from a copy of the tracked files: a build in the checkout itself would reuse its
    # build/ folder, left by earlier builds.
    source = tmp_path / "source"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for rel in filter(None, tracked.decode().split("\0")):
        if (ROOT / rel).is_file():
            (source / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / rel, source / rel)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(tmp_path), str(source)],
        check=True, capture_output=True, timeout=180,
    )
    (wheel,) = tmp_path.glob("tablero-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    web = ROOT / "clients" / "web"
    # Installed as tablero.web (setup.py); vendor-build/ is the input of js/vendor/, not shipped.
    wanted = {"tablero/web/" + p.relative_to(web).as_posix() for p in web.rglob("*")
              if p.suffix in {".html", ".js", ".css"} and "vendor-build" not in p.relative_to(web).parts}
    assert "tablero/web/index.html" in wanted and "tablero/web/js/app.js" in wanted
    assert wanted <= names, sorted(wanted - names)
    assert not any("vendor-build" in n for n in names)
    # server/http/app.py finds the client as the package tablero.web, as in site-packages.
    assert "tablero/server/http/app.py" in names
