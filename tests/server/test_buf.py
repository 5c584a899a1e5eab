"""buf (pinned PyPI wheel buf-bin): the protos pass `buf lint` (STANDARD) and break nothing
against the last released descriptors (proto/release/tablero-v1.json)."""

import shutil
import subprocess

import pytest

from tests.server.support import ROOT


@pytest.fixture(scope="module")
def buf():
    path = shutil.which("buf")
    assert path, "buf is missing: pip install -e '.[test]' installs it (buf-bin)"
    return path


def test_buf_lint_is_clean(buf):
    r = subprocess.run([buf, "lint"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def test_no_breaking_change_since_the_last_release(buf, tmp_path):
    image = tmp_path / "current.binpb"
    subprocess.run([buf, "build", "-o", str(image)], cwd=ROOT, check=True, timeout=120)
    r = subprocess.run([buf, "breaking", str(image), "--against", "proto/release/tablero-v1.json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def test_buf_breaking_would_catch_a_break(buf, tmp_path):
    """The check is live: deleting a field is reported."""
    image = tmp_path / "current.binpb"
    subprocess.run([buf, "build", "-o", str(image)], cwd=ROOT, check=True, timeout=120)
    proto = (ROOT / "proto" / "tablero" / "v1" / "games.proto").read_text()
    work = tmp_path / "ws"
    shutil.copytree(ROOT / "proto", work / "proto")
    shutil.copytree(ROOT / "third_party", work / "third_party")
    shutil.copy(ROOT / "buf.yaml", work / "buf.yaml")
    (work / "proto" / "tablero" / "v1" / "games.proto").write_text(proto.replace("  int32 players = 6;\n", ""))
    changed = tmp_path / "changed.binpb"
    subprocess.run([buf, "build", "-o", str(changed)], cwd=work, check=True, timeout=120)
    r = subprocess.run([buf, "breaking", str(changed), "--against", str(image)], cwd=work, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode != 0 and "players" in r.stdout + r.stderr
