"""The README's walk-through runs as written against a real server, and .ci/run
calls the README's test command."""

import json
import re
import subprocess
from pathlib import Path

from google.protobuf import json_format
from tablero.server.grpc.gen import games_pb2

from tests.server.support import ServerThread

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def _block_after(heading: str) -> str:
    part = README.split(heading, 1)[1]
    return re.search(r"```bash\n(.*?)```", part, re.S).group(1)


def test_readme_rest_walkthrough_plays_a_whole_game():
    script = _block_after("## A whole Tic-Tac-Toe game over REST")
    with ServerThread() as s:
        r = subprocess.run(["bash", "-euo", "pipefail", "-c", script], env={"H": s.http, "PATH": "/usr/bin:/bin"},
                           capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "tic-tac-toe" in out
    assert "FAILED_PRECONDITION" in out
    assert "FINISHED {" in out and "'winners': [0]" in out  # X wins on the diagonal 2-4-6
    assert "['OOX', '.X.', 'X..']" in out


def test_readme_grpcurl_bodies_parse_as_the_request_messages():
    block = _block_after("## The same over gRPC (grpcurl)")
    calls = re.findall(r"-d (['\"])(.*?)\1\s*(?:\\\n\s*)?localhost:50051 tablero\.v1\.GameService/(\w+)", block, re.S)
    assert {m for _, _, m in calls} >= {"CreateGame", "ListLegalActions", "SubmitAction", "GetGame", "ListEvents",
                                        "WatchGame"}
    for _, body, method in calls:
        body = body.replace('\\"', '"').replace("$ID", "abc")
        req = games_pb2.DESCRIPTOR.services_by_name["GameService"].methods_by_name[method].input_type
        cls = getattr(games_pb2, req.name)
        json_format.Parse(body, cls())  # raises on an unknown field name
        assert json.loads(body)


def test_ci_runs_the_readme_test_command():
    cmd = _block_after("Install and run the tests").strip()
    assert cmd in (ROOT / ".ci" / "run").read_text()
