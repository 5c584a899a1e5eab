"""The container image recipe: static checks of the Dockerfile and a build of its context's wheel.

No Docker engine runs in CI, so the image itself is not built here; what can be checked offline is:
the instructions the issue asks for, that they agree with the Kubernetes manifests, and that the
build context admitted by .dockerignore is enough for `pip install .` to produce the `tablero` command.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from tests.k8s.support import REPO, render

DOCKERFILE = REPO / "Dockerfile"
DOCKERIGNORE = REPO / ".dockerignore"


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, comments dropped and continuation lines joined."""
    joined = re.sub(r"\\\n", " ", "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")))
    result = []
    for line in joined.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            result.append((word.upper(), " ".join(rest.split())))
    return result


def stages(text: str) -> list[list[tuple[str, str]]]:
    found: list[list[tuple[str, str]]] = []
    for instruction in instructions(text):
        if instruction[0] == "FROM":
            found.append([])
        found[-1].append(instruction)
    return found


def server_pod():
    return next(o for o in render("base") if o["kind"] == "Deployment")["spec"]["template"]["spec"]


def test_every_stage_starts_from_python_3_11_slim():
    for stage in stages(DOCKERFILE.read_text()):
        assert stage[0][1].split()[0] == "python:3.11-slim"


def test_runtime_stage_runs_tablero_serve_as_the_pods_non_root_user():
    runtime = dict(reversed(stages(DOCKERFILE.read_text())[-1]))  # first occurrence wins
    user, _, group = runtime["USER"].partition(":")
    security = server_pod()["securityContext"]
    assert int(user) == security["runAsUser"] > 0
    assert int(group) == security["runAsGroup"] > 0
    assert json.loads(runtime["ENTRYPOINT"]) == ["tablero", "serve"]
    ports = {int(p) for p in runtime["EXPOSE"].split()}
    container_ports = {p["containerPort"] for c in server_pod()["containers"] for p in c["ports"]}
    assert ports == container_ports == {50051, 8080, 9090}  # 9090: /metrics (TABLERO_METRICS_PORT)


def test_the_project_is_installed_with_pip_and_copied_into_the_runtime():
    build, runtime = stages(DOCKERFILE.read_text())
    assert ("RUN", "pip install ./clients/python .") in build  # tablero depends on tablero-client
    assert any(word == "COPY" and args.startswith("--from=build ") for word, args in runtime)
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert pyproject["project"]["scripts"]["tablero"] == "tablero.server.__main__:main"


# --- the build context --------------------------------------------------------------------------------


def _pattern(glob: str) -> re.Pattern[str]:
    """A .dockerignore pattern (Go filepath.Match plus `**`) as a regex over context-relative paths."""
    out, i = "", 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif glob.startswith("**", i):
            out, i = out + ".*", i + 2
        elif glob[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif glob[i] == "?":
            out, i = out + "[^/]", i + 1
        elif glob[i] == "[":
            end = glob.index("]", i)
            out, i = out + glob[i : end + 1], end + 1
        else:
            out, i = out + re.escape(glob[i]), i + 1
    return re.compile(out + "$")


def dockerignore_rules() -> list[tuple[bool, re.Pattern[str], str]]:
    rules = []
    for line in DOCKERIGNORE.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            negate = line.startswith("!")
            glob = line.lstrip("!").strip("/")
            rules.append((negate, _pattern(glob), glob))
    return rules


def in_context(path: str, rules) -> bool:
    """Docker's rule: the last pattern matching the path or one of its parent directories decides."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    included = True
    for negate, regex, _ in rules:
        if any(regex.match(p) for p in prefixes):
            included = negate
    return included


def context_files() -> list[str]:
    """Files of the repository that `docker build .` would send, per .dockerignore."""
    rules = dockerignore_rules()
    exceptions = [glob for negate, _, glob in rules if negate]
    files = []
    for directory, subdirs, names in os.walk(REPO):
        rel_dir = Path(directory).relative_to(REPO).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        # Like Docker: skip an excluded directory unless an exception pattern could match inside it.
        subdirs[:] = [
            d for d in subdirs
            if in_context(rel_dir + d, rules) or any(g.startswith(rel_dir + d + "/") for g in exceptions)
        ]
        files += [rel_dir + n for n in names if in_context(rel_dir + n, rules)]
    return sorted(files)


def test_dockerignore_admits_what_pip_needs_and_nothing_else():
    files = context_files()
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    needed = {"pyproject.toml", "setup.py", pyproject["project"]["readme"], "clients/python/pyproject.toml"}
    assert needed <= set(files)
    for folder in ("tablero", "server", "engines", "rankings", "clients/web", "clients/python/tablero_client"):
        assert f"{folder}/__init__.py" in files, folder
    for rel in files:
        top = rel.split("/")[0]
        assert top not in {".git", ".venv", "tests", "k8s", "docs", "bench", "scripts"}, rel
        assert "__pycache__" not in rel and not rel.endswith((".pyc", ".db")), rel


def test_dockerignore_matcher_follows_docker_semantics():
    rules = [(False, _pattern("*"), "*"), (True, _pattern("server"), "server"),
             (False, _pattern("**/__pycache__"), "**/__pycache__")]
    assert not in_context("tests/test_x.py", rules)
    assert in_context("server/app/service.py", rules)
    assert not in_context("server/app/__pycache__/service.cpython-311.pyc", rules)
    assert not in_context(".git/HEAD", rules)


def _wheel(project: Path, out: Path) -> list[str]:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(out), str(project)],
        check=True, capture_output=True, timeout=120,
    )
    (wheel,) = out.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def test_the_build_context_builds_wheels_under_one_name_each(tmp_path):
    """`pip install tablero` adds one top-level name, `tablero` (issue 37); the SDK it depends on
    adds `tablero_client`. The wheel carries the package data the server reads at run time."""
    context = tmp_path / "context"
    for rel in context_files():
        target = context / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / rel, target)
    names = _wheel(context, tmp_path / "server")
    client = _wheel(context / "clients" / "python", tmp_path / "client")
    tops = {n.split("/")[0] for n in names if ".dist-info/" not in n}
    assert tops == {"tablero"}, tops
    assert {n.split("/")[0] for n in client if ".dist-info/" not in n} == {"tablero_client"}
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    with zipfile.ZipFile(next((tmp_path / "server").glob("*.whl"))) as archive:
        assert "tablero = tablero.server.__main__:main" in archive.read(entry_points).decode()
        requires = next(n for n in names if n.endswith("METADATA"))
        assert "Requires-Dist: tablero-client[cli]==" in archive.read(requires).decode()
    for data in ("tablero/server/__main__.py", "tablero/engines/__init__.py", "tablero/server/store/lua/append.lua",
                 "tablero/web/index.html", "tablero/web/sw.js", "tablero/web/js/i18n.js",
                 "tablero/engines/core/messages/es.json", "tablero/engines/new_bedford/captain_boards/ahab.json",
                 "tablero/server/grpc/gen/descriptors.binpb"):
        assert data in names, data
