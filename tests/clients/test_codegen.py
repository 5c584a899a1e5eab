"""Clients in other languages, from the repository's own `buf.gen.yaml`: a Go program and a Java
program (tests/clients/codegen/) on the code `buf generate` makes create a Tic-Tac-Toe game over
gRPC against a real `tablero serve`, watch it, play it to the end, and read the reason of a
refused move (google.rpc.ErrorInfo). Offline builds: Go in GOPATH mode over Debian's
/usr/share/gocode (GOPROXY=off), Java with javac over Debian's /usr/share/java jars (no Maven).
The toolchains are Debian packages that .ci/run installs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
import yaml

from tests.server.support import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
CODEGEN = Path(__file__).resolve().parent / "codegen"
JARS = ["protobuf", "protobuf-util", "grpc-api", "grpc-context", "grpc-core", "grpc-netty", "grpc-protobuf",
        "grpc-protobuf-lite", "grpc-stub", "guava", "perfmark-api", "gson", "error_prone_annotations", "jsr305",
        "geronimo-annotation-1.3-spec", "netty-buffer", "netty-codec", "netty-codec-http", "netty-codec-http2",
        "netty-codec-socks", "netty-common", "netty-handler", "netty-handler-proxy", "netty-resolver",
        "netty-transport", "netty-transport-native-unix-common"]

pytestmark = pytest.mark.slow


def _need(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    assert not missing, f"missing {', '.join(missing)}: .ci/run installs them (Debian packages)"


def generate(out: Path, languages: set[str], plugins: dict[str, str] | None = None) -> None:
    """`buf generate` with the repository's buf.gen.yaml, its plugins for `languages` only."""
    template = yaml.safe_load((ROOT / "buf.gen.yaml").read_text())
    kinds = {"go": ("protoc-gen-go", "protoc-gen-go-grpc"), "java": ("java", "grpc_java_plugin"),
             "ts": ("clients/ts/node_modules/.bin/protoc-gen-es",)}
    wanted = {name for lang in languages for name in kinds[lang]}
    template["plugins"] = [p for p in template["plugins"] if (p.get("local") or p.get("protoc_builtin")) in wanted]
    if plugins:  # a plugin found elsewhere than where buf.gen.yaml names it
        for p in template["plugins"]:
            p["local"] = plugins.get(p.get("local"), p.get("local"))
    assert len(template["plugins"]) == len(wanted), template["plugins"]
    subprocess.run(["buf", "generate", "--template", json.dumps(template), "-o", str(out)], cwd=ROOT, check=True,
                   timeout=300)


@pytest.fixture(scope="module")
def server():
    s = ServerProcess().start()
    yield s
    s.terminate()


def _check(report: dict) -> None:
    # The whole game watched, from its first event to its last, and the stream closed by the server.
    assert report["status"] == "GAME_STATUS_FINISHED", report
    assert report["watched"] == list(range(1, report["version"] + 1)) and report["watchEnded"], report
    assert report["eventTypes"][0] == "game_started" and report["eventTypes"][-1] in ("game_won", "game_drawn")
    assert report["outcome"]["winners"] in ([0], [1], []), report
    # The move out of turn: FAILED_PRECONDITION, told apart from an illegal move by its reason.
    assert report["refusalReason"] == "NOT_YOUR_TURN", report


def test_a_go_client_generated_by_buf_plays_and_watches_a_game(server, tmp_path):
    _need("buf", "go", "protoc-gen-go", "protoc-gen-go-grpc")
    generate(tmp_path / "gen", {"go"})
    gopath = tmp_path / "gopath"
    pkg = gopath / "src" / "github.com" / "tablero" / "tablero" / "gen" / "go"
    shutil.copytree(tmp_path / "gen" / "gen" / "go", pkg)
    main = gopath / "src" / "tablerotest"
    shutil.copytree(CODEGEN / "go", main)
    env = {**os.environ, "GO111MODULE": "off", "GOPATH": f"{gopath}:/usr/share/gocode", "GOPROXY": "off",
           "GOFLAGS": "", "GOTOOLCHAIN": "local",
           # Reused across runs (grpc-go compiles once), and defined even without $HOME.
           "GOCACHE": os.environ.get("GOCACHE") or str(Path(tempfile.gettempdir()) / "tablero-gocache")}
    subprocess.run(["go", "build", "-o", str(tmp_path / "client"), "."], cwd=main, env=env, check=True, timeout=600)
    run = subprocess.run([str(tmp_path / "client"), server.grpc], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["refusalCode"] == "FailedPrecondition"
    _check(report)


def test_a_java_client_generated_by_buf_plays_and_watches_a_game(server, tmp_path):
    _need("buf", "javac", "java", "protoc", "grpc_java_plugin")
    generate(tmp_path / "gen", {"java"})
    jars = [Path("/usr/share/java") / f"{j}.jar" for j in JARS]
    missing = [str(j) for j in jars if not j.exists()]
    assert not missing, f"missing jars (Debian packages, see .ci/run): {missing}"
    classes = tmp_path / "classes"
    sources = [*map(str, (tmp_path / "gen" / "gen" / "java").rglob("*.java")), str(CODEGEN / "java" / "TicTacToe.java")]
    classpath = ":".join(map(str, jars))
    subprocess.run(["javac", "-nowarn", "-d", str(classes), "-cp", classpath, *sources], check=True, timeout=600)
    host, port = server.grpc.rsplit(":", 1)
    run = subprocess.run(["java", "-cp", f"{classes}:{classpath}", "TicTacToe", host, port],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["refusalCode"] == "FAILED_PRECONDITION"
    _check(report)


def test_go_and_java_get_a_client_for_every_service(tmp_path):
    """docs/api.md's Go and Java rows name one client per service (test_codegen_docs.py): the
    generated code has each of them."""
    _need("buf", "protoc-gen-go", "protoc-gen-go-grpc", "grpc_java_plugin")
    from tests.clients.test_codegen_docs import services

    generate(tmp_path / "gen", {"go", "java"})
    go = "".join(p.read_text() for p in (tmp_path / "gen" / "gen" / "go" / "tablero" / "v1").glob("*_grpc.pb.go"))
    java = {p.stem for p in (tmp_path / "gen" / "gen" / "java" / "dev" / "tablero" / "v1").glob("*Grpc.java")}
    assert [s for s in services() if f"type {s}Client interface" in go] == services()
    assert sorted(java) == [f"{s}Grpc" for s in services()]


# What a TypeScript team compiles the generated code with: strict, Node's ES module resolution.
TSCONFIG = {"compilerOptions": {"strict": True, "module": "NodeNext", "moduleResolution": "NodeNext",
                                "target": "ES2022", "noEmit": True, "skipLibCheck": False},
            "include": ["gen/ts/**/*.ts"]}


def test_the_typescript_buf_generates_compiles(tmp_path):
    """docs/api.md: TypeScript gets gen/ts/tablero/v1/*_pb.ts from `buf generate`. They import
    google/api's files (the http annotations, field_behavior), which must be generated beside
    them (include_imports), or tsc cannot resolve them."""
    _need("buf", "node")
    from tests.npm import locked_node_modules
    modules = locked_node_modules(ROOT / "clients" / "ts", "ts-sdk")
    generate(tmp_path, {"ts"}, {"clients/ts/node_modules/.bin/protoc-gen-es": str(modules / ".bin" / "protoc-gen-es")})
    files = sorted(str(p.relative_to(tmp_path / "gen" / "ts")) for p in (tmp_path / "gen" / "ts").rglob("*.ts"))
    assert "tablero/v1/games_pb.ts" in files and "google/api/annotations_pb.ts" in files, files
    (tmp_path / "node_modules").symlink_to(modules)
    (tmp_path / "tsconfig.json").write_text(json.dumps(TSCONFIG))
    run = subprocess.run([str(modules / ".bin" / "tsc"), "-p", str(tmp_path)], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
