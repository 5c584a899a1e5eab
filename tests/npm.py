"""npm packages for the tests that run Node: a package's locked node_modules, installed once per
lock file into a cache folder (TABLERO_TEST_CACHE, else ~/.cache/tablero-tests)."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path


def locked_node_modules(package: Path, prefix: str) -> Path:
    """`package`'s node_modules as its package-lock.json pins them (`npm ci`)."""
    lock = (package / "package-lock.json").read_bytes()
    home = Path(os.environ.get("TABLERO_TEST_CACHE", Path.home() / ".cache" / "tablero-tests"))
    cache = home / f"{prefix}-{hashlib.sha256(lock).hexdigest()[:16]}"
    if not (cache / "node_modules" / ".package-lock.json").exists():
        cache.mkdir(parents=True, exist_ok=True)
        shutil.copy(package / "package.json", cache)
        shutil.copy(package / "package-lock.json", cache)
        npm = shutil.which("npm")
        assert npm, "npm is missing (Debian package npm)"
        r = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=cache, capture_output=True, text=True,
                           timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
    return cache / "node_modules"
