"""A strict TypeScript client generated from /openapi.json by openapi-typescript compiles a
create/act/watch script (no non-null or type assertions) and plays a whole game with it.

Node comes from the machine; the npm packages (pinned in tests/server/ts/package-lock.json)
are installed by the test into a cache folder, once per lock file."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.npm import locked_node_modules
from tests.server.support import ServerThread

TS = Path(__file__).resolve().parent / "ts"


def _node() -> str:
    node = shutil.which("node")
    assert node, "node is missing (Debian package nodejs): it runs openapi-typescript and tsc"
    return node


@pytest.fixture(scope="module")
def node_modules() -> Path:
    return locked_node_modules(TS, "ts")


def test_the_script_uses_no_assertions():
    code = re.sub(r"//.*|`[^`]*`|\"[^\"]*\"", "", (TS / "play.ts").read_text())
    assert not re.search(r"[\w)\]]!(?=[.\[(),;\s])", code), "non-null assertion"
    assert not re.search(r"\bas\s+(?!const\b)\w", code), "type assertion"
    assert "any" not in re.findall(r"\w+", code)


def test_generated_client_compiles_strictly_and_plays_a_game(node_modules, tmp_path):
    node = _node()
    with ServerThread() as server:
        from tests import plainhttp

        (tmp_path / "openapi.json").write_text(plainhttp.get(server.http + "/openapi.json").text)
        for name in ("package.json", "tsconfig.json", "play.ts"):
            shutil.copy(TS / name, tmp_path)
        (tmp_path / "node_modules").symlink_to(node_modules)
        gen = subprocess.run([node, str(node_modules / "openapi-typescript" / "bin" / "cli.js"), "openapi.json",
                              "-o", "api.d.ts"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert gen.returncode == 0, gen.stdout + gen.stderr
        tsc = subprocess.run([node, str(node_modules / "typescript" / "bin" / "tsc"), "-p", "."], cwd=tmp_path,
                             capture_output=True, text=True, timeout=300)
        assert tsc.returncode == 0, tsc.stdout + tsc.stderr
        run = subprocess.run([node, "out/play.js", server.http], cwd=tmp_path, capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 0, run.stdout + run.stderr
        out = json.loads(run.stdout)
        events = plainhttp.get(f"{server.http}/v1/games/{out['gameId']}/events").json()["events"]
    assert out["status"] == "GAME_STATUS_FINISHED" and out["end"] == "GAME_STATUS_FINISHED"
    assert out["versions"] == list(range(1, out["version"] + 1)) == [e["version"] for e in events]
    assert out["after2"] == list(range(3, out["version"] + 1))
    assert out["lastEventType"] == events[-1]["event"]["type"]
    assert out["actions"] >= 3
