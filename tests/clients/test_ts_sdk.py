"""@tablero/client (clients/ts) against a real `tablero serve`: built as its README says
(locked npm packages, buf + protoc-gen-es, the engines' types, tsc), then run under Node and
in headless Chromium.

The npm packages (clients/ts/package-lock.json) are installed once per lock file into a
cache folder; the SDK is built once per test run (the test_ts_sdk* modules share it) and
copied into a temporary folder per module."""

from __future__ import annotations

import fcntl
import functools
import hashlib
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tablero.server import errors

from tests import plainhttp
from tests.browsers import CHROMIUM
from tests.npm import locked_node_modules
from tests.server.support import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "clients" / "ts"
HERE = Path(__file__).resolve().parent / "ts"


def _node() -> str:
    node = shutil.which("node")
    assert node, "node is missing (Debian package nodejs, version 20 or later)"
    return node


def npm_packages() -> Path:
    """clients/ts's locked node_modules, installed once per lock file."""
    return locked_node_modules(SDK, "ts-sdk")


def _built_once(tmp_path_factory, testrun_uid: str) -> Path:
    """The package as `scripts/build_ts_sdk.py --web` builds it, once per test run: the first module
    that needs it builds it (under a lock: with xdist the modules may be on different workers, which
    share the run's temporary root and its id), the others find it done."""
    root = tmp_path_factory.getbasetemp().parent / f"tablero-client-{testrun_uid}"
    root.mkdir(exist_ok=True)
    built = root / "built"
    with open(root / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / "done").exists():
            shutil.rmtree(built, ignore_errors=True)
            built.mkdir()
            (built / "node_modules").symlink_to(npm_packages())
            r = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_ts_sdk.py"), "--web", str(built)],
                               capture_output=True, text=True, timeout=600)
            assert r.returncode == 0, r.stdout + r.stderr
            (root / "done").touch()
    return built


@pytest.fixture(scope="module")
def sdk(tmp_path_factory, testrun_uid) -> Path:
    """The built package (dist/ with .d.ts), in a folder of the module's own: the tests write into
    it (examples, a stricter tsconfig), so each module gets a copy of the run's one build (the
    node_modules link copied as a link)."""
    out = tmp_path_factory.mktemp("tablero-client")
    shutil.copytree(_built_once(tmp_path_factory, testrun_uid), out, symlinks=True, dirs_exist_ok=True)
    assert (out / "dist" / "index.js").exists() and (out / "dist" / "index.d.ts").exists()
    return out


@pytest.fixture(scope="module")
def serve() -> Iterator[ServerProcess]:
    with ServerProcess({"TABLERO_LOG_LEVEL": "warning"}) as s:
        yield s


def _code_only(path: Path) -> str:
    """The program without its comments and string literals."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", "", path.read_text(), flags=re.S)
    return re.sub(r"`(?:[^`\\]|\\.)*`|\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'", '""', text)


def test_the_riverboat_program_has_no_casts_assertions_or_any():
    code = _code_only(SDK / "examples" / "riverboat.ts")
    assert " as " not in code, "type assertion"
    assert "!." not in code and not re.search(r"[\w)\]]!(?=[.\[(),;\s])", code), "non-null assertion"
    assert "any" not in re.findall(r"\w+", code)
    config = json.loads((SDK / "examples" / "tsconfig.json").read_text())["compilerOptions"]
    assert config["strict"] is True and config["noUncheckedIndexedAccess"] is True


@pytest.mark.slow
def test_a_strict_program_plays_riverboat_to_the_end(sdk, serve):
    node = _node()
    # The README's example compiles as strictly (top-level await: an ES module).
    readme = (SDK / "README.md").read_text().split("```ts\n", 1)[1].split("```", 1)[0]
    assert '"http://127.0.0.1:8080"' in readme
    (sdk / "examples" / "readme.ts").write_text(readme.replace('"http://127.0.0.1:8080"', json.dumps(serve.http)))
    config = json.loads((sdk / "examples" / "tsconfig.json").read_text())
    config["include"] = ["riverboat.ts", "readme.ts"]
    (sdk / "examples" / "tsconfig.json").write_text(json.dumps(config))
    tsc = subprocess.run([node, str(sdk / "node_modules" / "typescript" / "bin" / "tsc"), "-p",
                          str(sdk / "examples")], capture_output=True, text=True, timeout=300)
    assert tsc.returncode == 0, tsc.stdout + tsc.stderr
    run = subprocess.run([node, str(sdk / "examples" / "out" / "riverboat.js"), serve.http], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    # And the README's example plays its game to the end (an outside pass found it waiting for
    # an end that could not come: it moved once, then only watched): the totals at the end.
    readme_run = subprocess.run([node, str(sdk / "examples" / "out" / "readme.js")], capture_output=True, text=True,
                                timeout=300)
    assert readme_run.returncode == 0, readme_run.stdout + readme_run.stderr
    assert re.fullmatch(r"\[ *\d+, *\d+ *\]", readme_run.stdout.strip().splitlines()[-1]), readme_run.stdout[-500:]
    summary_line, winner_line = run.stdout.strip().splitlines()[-2:]
    summary = json.loads(summary_line)
    game = plainhttp.get(f"{serve.http}/v1/games/{summary['gameId']}").json()
    assert game["status"] == "GAME_STATUS_FINISHED"
    assert summary["winners"] == game["outcome"]["winners"] and summary["winners"]
    assert winner_line == "winner: " + " and ".join(f"seat {w}" for w in game["outcome"]["winners"])
    # The spectator's live watch saw every event, in order, to the end.
    assert summary["watched"] == summary["version"] == game["version"] == summary["lastWatched"]
    assert summary["details"].startswith("seat 0: ")
    # The outcome's engine fields, read through the generated RiverboatOutcome type.
    assert summary["inGameVp"] == [d["in_game"]["vp"] for d in game["outcome"]["details"]]


def test_the_sdk_surface_under_node(sdk, serve):
    (sdk / "examples" / "sdk_check.mjs").write_text((HERE / "sdk_check.mjs").read_text())
    run = subprocess.run([_node(), str(sdk / "examples" / "sdk_check.mjs"), serve.http], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout)
    assert "riverboat" in out["engines"] and "tic-tac-toe" in out["engines"]
    assert out["viewType"] == "tic-tac-toe"
    assert out["joinedSeat"] == 1
    assert out["createRetried"] == [True, True]
    assert (out["createReused"]["code"], out["createReused"]["reason"]) == ("INVALID_ARGUMENT", "REQUEST_ID_REUSED")
    assert out["outOfTurn"]["tablero"] and out["outOfTurn"]["code"] == "FAILED_PRECONDITION"
    assert out["badToken"]["code"] == "UNAUTHENTICATED"
    assert out["unknownGame"]["code"] == "NOT_FOUND"
    assert out["wrongEngine"]["code"] == "INVALID_ARGUMENT" and "riverboat" in out["wrongEngine"]["message"]
    # Refusals the SDK makes itself carry a reason too (an outside pass found none).
    assert out["wrongEngine"]["reason"] == "INVALID_ARGUMENT"
    assert (out["stale"]["code"], out["stale"]["reason"], out["staleRetries"]) == ("ABORTED", "STALE_VERSION", 0)
    assert out["idempotent"][0] == out["idempotent"][1] == out["createdVersion"] + 1  # applied once
    assert out["occupied"]["code"] in ("INVALID_ARGUMENT", "FAILED_PRECONDITION")
    assert sorted(out["legal"]) == [0, 1, 2, 3, 5, 6, 7, 8]
    assert out["events"] == list(range(1, out["createdVersion"] + 2)) and out["hashes"]
    versions = [v for v, _ in out["seen"]]
    assert versions == list(range(2, versions[-1] + 1)), "a watch from version 1 yields 2, 3, ... in order"
    assert out["seen"][-1][1] == "game_won" and out["finished"] and out["winners"] == [0]
    assert out["outcomeSchemaTitle"] == "tic-tac-toe outcome"
    assert out["outcomeDetails"] == [{"seat": 0, "won": True}, {"seat": 1, "won": False}] and out["endedBy"] is None
    assert out["over"]["code"] == "FAILED_PRECONDITION"
    assert out["anyEngine"] == "tic-tac-toe" and out["retryCount"] == 0
    # The server's reasons (server.errors.REASONS, where its errors name them) reach `.reason`
    # (google.rpc.ErrorInfo in the Connect error).
    expected = {"outOfTurn": "NOT_YOUR_TURN", "badToken": "TOKEN_INVALID", "unknownGame": "GAME_NOT_FOUND",
                "over": "GAME_OVER", "occupied": "ILLEGAL_ACTION"}
    for refusal, reason in expected.items():
        assert out[refusal]["reason"] == (reason if getattr(errors, "REASONS", None) is not None else None), refusal


def test_the_web_clients_bundle_is_the_sdk_built_from_this_repository(sdk):
    """clients/web/js/vendor/tablero-client.js is checked in (the page has no build step): it
    must be what `python scripts/build_ts_sdk.py --web` makes of these protos and engines."""
    built = (sdk / "web" / "tablero-client.js").read_bytes()
    shipped = (ROOT / "clients" / "web" / "js" / "vendor" / "tablero-client.js").read_bytes()
    assert built == shipped, "stale bundle: run python scripts/build_ts_sdk.py --web"


def test_engine_types_follow_the_engines_schemas(sdk):
    engines = sdk / "src" / "engines"
    river = (engines / "riverboat.ts").read_text()
    assert "Record<string, never>" not in river and "JsonObject;" not in river and ": JsonValue" not in river
    assert "export type RiverboatPlantAction = {\n  type: \"plant\";" in river
    ttt = (engines / "tic-tac-toe.ts").read_text()
    assert 'type: "tic-tac-toe";' in ttt  # the view's discriminant is the engine name
    index = (engines / "index.ts").read_text()
    for name in ("riverboat", "tic-tac-toe", "new-bedford", "phoenicia", "goofspiel", "founders-of-gloomhaven"):
        assert f'"{name}": {{ action:' in index
        schema = json.loads((engines / "schemas" / f"{name}.json").read_text())
        assert schema["title"] == name and f"{name.title().replace('-', '')}View" in schema["$defs"]


TYPED_EVENTS = """\
import type { GameEvent, TableroSeatLeftEvent } from "@tablero/client";

// What a strict client reads from a Goofspiel log without a cast: its own bid (the event's
// private part), the start event's meta keys, and the platform's events by their fields.
export function describe(ev: GameEvent<"goofspiel">, me: number): string {
  const e = ev.event;
  switch (e.type) {
    case "bid_placed": {
      const mine: number | undefined = e.private?.[String(me)]?.card;
      return `seat ${e.seat} bid${mine === undefined ? "" : ` ${mine}`}`;
    }
    case "game_started": {
      const version: number | undefined = e.engine_version;
      return `${e.engine ?? "?"} v${version ?? 0}, ${e.options?.cards ?? e.cards} cards`;
    }
    case "tablero.seat_left": {
      const why: "resigned" | "timeout" | "abandoned" = e.reason;
      const left: TableroSeatLeftEvent = e;
      return `seat ${left.seat} left (${why}), then ${e.then}`;
    }
    case "tablero.turn_timed_out":
      return `seat ${e.seat} timed out`;
    default:
      return e.type;
  }
}
"""


def test_a_strict_program_reads_private_parts_meta_keys_and_platform_events_without_casts(sdk):
    """Found by an outside frontend pass: `private` and the start event's `engine_version` were no
    fields of the generated event types, and `PlatformEvent` was `{type, [key]: JsonValue}`, so a
    strict client needed casts to read its own bid or why a seat left."""
    (sdk / "examples" / "typed_events.ts").write_text(TYPED_EVENTS)
    config = json.loads((sdk / "examples" / "tsconfig.json").read_text())
    config["include"] = ["typed_events.ts"]
    config["compilerOptions"]["noEmit"] = True
    (sdk / "examples" / "tsconfig.typed.json").write_text(json.dumps(config))
    tsc = subprocess.run([_node(), str(sdk / "node_modules" / "typescript" / "bin" / "tsc"), "-p",
                          str(sdk / "examples" / "tsconfig.typed.json")], capture_output=True, text=True, timeout=300)
    assert tsc.returncode == 0, tsc.stdout + tsc.stderr


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.mark.slow
def test_a_browser_page_plays_and_watches_over_connect(sdk, serve):
    """The page (another origin: CORS) plays over Connect with the SDK, watches live, reads the
    game back over gRPC-Web with the official client, and watches it again with the SDK over
    gRPC-Web."""
    from playwright.sync_api import sync_playwright

    for name in ("page.html", "page.mjs"):
        shutil.copy(HERE / name, sdk / name)
    files = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(sdk)))
    threading.Thread(target=files.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"http://127.0.0.1:{files.server_address[1]}/page.html?server={serve.http}")
            result = page.evaluate("async () => await window.result")
            log = page.inner_text("#log")
            browser.close()
    finally:
        files.shutdown()
    assert not errors and "error" not in result, (errors, result)
    assert result["finished"] and result["winners"] == [0]
    assert result["refused"] == {"tablero": True, "code": "FAILED_PRECONDITION"}
    assert result["seen"] == list(range(1, result["grpcWebVersion"] + 1))
    assert result["grpcWebRows"] == ["OO.", "XXX", "..."]
    assert "game_won" in log
    assert len(result["replayed"]) == result["grpcWebVersion"] and result["replayed"][-1] == "game_won"


def _serve_folder(folder: Path) -> http.server.ThreadingHTTPServer:
    files = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    threading.Thread(target=files.serve_forever, daemon=True).start()
    return files


GRPC_WEB = HERE / "grpc_web"
# What tests/clients/ts/grpc_web/gen was generated from (its README says how).
GRPC_WEB_SOURCES = ("proto/tablero/v1/games.proto", "third_party/googleapis/google/api/annotations.proto",
                    "third_party/googleapis/google/api/http.proto",
                    "third_party/googleapis/google/api/field_behavior.proto")


def test_the_generated_grpc_web_client_is_current():
    """gen/ holds protoc-gen-grpc-web's and protoc-gen-js's output for these protos: a proto
    change without regenerating it fails here."""
    stamp = (GRPC_WEB / "gen" / "SOURCES.sha256").read_text().split()
    recorded = dict(zip(stamp[1::2], stamp[0::2], strict=True))
    current = {path: hashlib.sha256((ROOT / path).read_bytes()).hexdigest() for path in GRPC_WEB_SOURCES}
    assert recorded == current, "stale tests/clients/ts/grpc_web/gen: regenerate it (its README)"
    client = (GRPC_WEB / "gen" / "tablero" / "v1" / "games_grpc_web_pb.js").read_text()
    assert "// Code generated by protoc-gen-grpc-web. DO NOT EDIT." in client
    assert "proto.tablero.v1.GameServicePromiseClient.prototype.watchGame =" in client


@pytest.mark.slow
def test_the_official_grpc_web_client_plays_and_watches_in_text_mode(sdk, serve):
    """The official grpc-web client, as protoc-gen-grpc-web generates it (mode=grpcwebtext:
    base64 bodies, the only mode in which it streams) with protoc-gen-js messages and the
    `grpc-web` runtime, in Chromium on another origin: creates a Tic-Tac-Toe game, is refused a
    move out of turn, plays it to the end and watches it live with WatchGame, each move's event
    arriving before the next move is sent."""
    from playwright.sync_api import sync_playwright

    modules = locked_node_modules(GRPC_WEB, "grpc-web")
    source, page_dir = sdk / "grpc-web-src", sdk / "grpc-web-page"
    shutil.copytree(GRPC_WEB, source, dirs_exist_ok=True)
    page_dir.mkdir(exist_ok=True)
    env = {**os.environ, "NODE_PATH": str(modules)}
    bundle = subprocess.run([str(sdk / "node_modules" / ".bin" / "esbuild"), str(source / "page.mjs"), "--bundle",
                             "--format=esm", "--platform=browser", f"--outfile={page_dir / 'page.js'}"],
                            capture_output=True, text=True, env=env, timeout=120)
    assert bundle.returncode == 0, bundle.stdout + bundle.stderr
    (page_dir / "page.html").write_text('<!doctype html><meta charset="utf-8"><pre id="log"></pre>'
                                        '<script type="module" src="page.js"></script>')
    files = _serve_folder(page_dir)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page()
            errors: list[str] = []
            requests: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("request", lambda r: requests.append(r.headers.get("content-type", "")) if "/tablero." in r.url
                    else None)
            page.goto(f"http://127.0.0.1:{files.server_address[1]}/page.html?server={serve.http}")
            result = page.evaluate("async () => await window.result")
            browser.close()
    finally:
        files.shutdown()
    assert not errors and "error" not in result, (errors, result)
    assert requests and all(t == "application/grpc-web-text" for t in requests if t), requests
    assert result["refused"] == {"code": 9, "rpcError": True, "details": True}  # FAILED_PRECONDITION + ErrorInfo
    assert result["finished"] and result["winners"] == [0] and result["rows"] == ["OO.", "XXX", "..."]
    versions = [v for v, _, _ in result["watched"]]
    assert versions == list(range(1, result["version"] + 1)) and result["watched"][-1][1] == "game_won"
    # Live: the page waited for each move's event before it sent the next move (a stream held
    # back to its end would have stalled the game: 'not watched within 10 s').
    seen_at = {v: t for v, _, t in result["watched"]}
    for (version, _), (_, next_answered) in zip(result["moved"][:-1], result["moved"][1:], strict=True):
        assert seen_at[version] <= next_answered, (version, seen_at, result["moved"])


@pytest.mark.slow
def test_a_watch_reconnects_across_a_server_restart(sdk, tmp_path):
    """The server stops mid-game (SIGTERM: the watch ends UNAVAILABLE) and comes back on the
    same port and database: the SDK's watch reconnects after the last version it saw, with
    its hash, and sees the rest of the game once."""
    (sdk / "examples" / "watch_reconnect.mjs").write_text((HERE / "watch_reconnect.mjs").read_text())
    db = str(tmp_path / "games.db")
    first = ServerProcess({"TABLERO_LOG_LEVEL": "warning"}, "--db", db).start()
    second = None
    watcher = None
    try:
        created = plainhttp.post(f"{first.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["human", "human"]})
        game_id, tokens = created.json()["game"]["id"], [s["token"] for s in created.json()["seats"]]

        def move(server, seat: int, cell: int) -> None:
            r = plainhttp.post(f"{server.http}/v1/games/{game_id}/actions", json={"action": {"type": "place", "cell": cell}},
                           headers={"authorization": f"Bearer {tokens[seat]}"})
            assert r.status_code == 200, r.text

        move(first, 0, 4)
        watcher = subprocess.Popen([_node(), str(sdk / "examples" / "watch_reconnect.mjs"), first.http, game_id],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert watcher.stdout.readline().startswith("v 1 ") and watcher.stdout.readline().startswith("v 2 ")
        code, _ = first.terminate()
        assert code == 0
        second = ServerProcess({"TABLERO_LOG_LEVEL": "warning"}, "--db", db)
        second.grpc_port, second.http_port, second.http = first.grpc_port, first.http_port, first.http
        second.start()
        for seat, cell in ((1, 0), (0, 3), (1, 1), (0, 5)):
            move(second, seat, cell)
        out, err = watcher.communicate(timeout=60)
        assert watcher.returncode == 0, out + err
        summary = json.loads(out.strip().splitlines()[-1])
        assert summary["seen"] == [1, 2, 3, 4, 5, 6, 7] and summary["retries"] >= 1
    finally:
        if watcher is not None and watcher.poll() is None:
            watcher.kill()
        first.kill()
        if second is not None:
            second.kill()


@pytest.mark.slow
def test_a_quiet_watch_outlasts_a_second_restart_and_is_live_only_once_answered(sdk, tmp_path):
    """An outside tester: a watch of a quiet game gave up at once at the second server restart
    (its failed tries were reset only by an event), and reported "live" before any server
    answered (~20 times in 6 s while the server was down). A stream the server answers (a
    message: here the keep-alive a watch that has nothing to send gets after 1 s) ends an outage
    and is "live"."""
    (sdk / "examples" / "quiet_watch.mjs").write_text((HERE / "quiet_watch.mjs").read_text())
    db = str(tmp_path / "games.db")
    servers = [ServerProcess({"TABLERO_LOG_LEVEL": "warning"}, "--db", db) for _ in range(3)]
    for s in servers[1:]:
        s.grpc_port, s.http_port, s.http = servers[0].grpc_port, servers[0].http_port, servers[0].http
    servers[0].start()
    lines: list[str] = []
    watcher = None
    try:
        created = plainhttp.post(f"{servers[0].http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["human", "human"]})
        game, tokens = created.json()["game"], [s["token"] for s in created.json()["seats"]]
        watcher = subprocess.Popen([_node(), str(sdk / "examples" / "quiet_watch.mjs"), servers[0].http, game["id"],
                                    str(game["version"])], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        reader = threading.Thread(target=lambda: lines.extend(iter(watcher.stdout.readline, "")), daemon=True)
        reader.start()
        down: list[tuple[float, float]] = []  # (stopped, started again), ms since the epoch
        for i, (old, new) in enumerate(zip(servers, servers[1:], strict=False)):
            time.sleep(1 if i else 3)  # the first stream open > 1 s: it counts as connected
            stopped = time.time() * 1000
            old.kill()
            time.sleep(1)  # the server stays away a while: the watch retries meanwhile
            new.start()
            down.append((stopped, time.time() * 1000))
            if i:
                break
            # Nobody moves. The next restart comes once the stream is answered again (its first
            # keep-alive, after 1 s) and longer than the watch's patience after this one.
            deadline = time.monotonic() + 25
            while not any(ln.startswith("state live") and float(ln.split()[2]) > down[-1][1] for ln in lines):
                assert time.monotonic() < deadline and watcher.poll() is None, lines
                time.sleep(0.2)
            time.sleep(max(0.0, (stopped + 14000 - time.time() * 1000) / 1000))  # > its patience (12 s)
        for seat, cell in ((0, 4), (1, 0), (0, 2), (1, 1), (0, 6)):
            r = plainhttp.post(f"{servers[2].http}/v1/games/{game['id']}/actions",
                               json={"action": {"type": "place", "cell": cell}},
                               headers={"authorization": f"Bearer {tokens[seat]}"})
            assert r.status_code == 200, r.text
        final = r.json().get("game", r.json())
        assert final["status"] == "GAME_STATUS_FINISHED"
        watcher.wait(timeout=30)
        reader.join(timeout=5)
        assert lines[-1].strip() == "ended", lines
        seen = [int(ln.split()[1]) for ln in lines if ln.startswith("v ")]
        assert seen == list(range(game["version"] + 1, final["version"] + 1)), lines
        lives = [float(ln.split()[2]) for ln in lines if ln.startswith("state live")]
        assert [t for t in lives if any(a <= t <= b for a, b in down)] == [], lines  # none while down
        # Once per stream answered: the first stream's first keep-alive, and the one of each
        # stream after a restart.
        assert len(lives) == 3, lines
    finally:
        if watcher is not None and watcher.poll() is None:
            watcher.kill()
        for s in servers:
            s.kill()
