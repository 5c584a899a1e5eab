"""Encode once per audience (issue 39): the watchers of one game on a replica that share an
audience (a seat, or the spectators) are sent the same reply, encoded once; an event that every
seat sees as a spectator does (no hidden part) is one audience; each audience still gets exactly
its own view (a seat's hidden cards never reach another seat or a spectator), and every watcher
gets every event, in order."""

from __future__ import annotations

import json
import socket
import threading

import httpx
from tablero.server.http import sse

from tests.server.support import ServerThread


def _sse(port: int, path: str, out: list[bytes], opened: threading.Event) -> None:
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
    got = b""
    while b"event: tablero-end" not in got:
        chunk = s.recv(65536)
        if not chunk:
            break
        got += chunk
        if b"\nid: " in got or got.startswith(b"id: "):
            opened.set()  # the game's events so far are here
    s.close()
    out.append(got)


def _events(raw: bytes) -> list[dict]:
    """The game events of an SSE stream (its data lines with an id), chunk framing removed."""
    text = raw.split(b"\r\n\r\n", 1)[1].decode()
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: {\"gameId\"")]


def test_one_encoding_per_event_and_audience_and_each_audience_its_own_view():
    with ServerThread() as server, httpx.Client(base_url=server.http, timeout=30) as c:
        created = c.post("/v1/games", json={"engine": "goofspiel", "players": 2}).json()
        gid, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
        first = created["game"]["version"]
        audiences = {"spectator": [None] * 3, "seat0": [tokens[0]] * 2, "seat1": [tokens[1]] * 2}
        streams: dict[str, list[list[bytes]]] = {}
        threads = []
        for name, who in audiences.items():
            for token in who:
                out: list[bytes] = []
                opened = threading.Event()
                query = f"?access_token={token}" if token else ""
                t = threading.Thread(target=_sse, args=(server.http_port, f"/v1/games/{gid}/watch{query}", out, opened))
                t.start()
                assert opened.wait(10)  # (the events so far: encoded before any other watcher came)
                threads.append(t)
                streams.setdefault(name, []).append(out)
        before = sse._event_frame.encoded
        while True:
            game = c.get(f"/v1/games/{gid}").json()
            if game["status"] == "GAME_STATUS_FINISHED":
                break
            for seat in game["toAct"]:
                auth = {"authorization": f"Bearer {tokens[seat]}"}
                legal = c.get(f"/v1/games/{gid}/legal-actions", headers=auth).json()["actions"]
                r = c.post(f"/v1/games/{gid}/actions", json={"action": legal[0]}, headers=auth)
                assert r.status_code in (200, 409), r.text
        for t in threads:
            t.join(30)
        version = game["version"]
        # Every watcher: every event, in order; the same audience, the same events.
        views = {}
        for name, outs in streams.items():
            seen = [_events(out[0]) for out in outs]
            assert all([e["version"] for e in s] == list(range(1, version + 1)) for s in seen), name
            assert all(s == seen[0] for s in seen), name
            views[name] = seen[0]
        # Each audience its own view: what the log answers that caller.
        for name, token in (("spectator", None), ("seat0", tokens[0]), ("seat1", tokens[1])):
            auth = {"authorization": f"Bearer {token}"} if token else {}
            logged = c.get(f"/v1/games/{gid}/events", params={"pageSize": 1000}, headers=auth).json()["events"]
            assert [e["event"] for e in views[name]] == [e["event"] for e in logged], name
        assert views["seat0"] != views["seat1"] != views["spectator"]  # hidden bids differ by audience
        # One encoding per live event and audience (3), not one per watcher (7); and one for all
        # (1) of an event every audience sees alike (the revealed bids, the platform's events).
        live = range(first, version)  # (list index of versions first+1 .. version)
        alike = [views["seat0"][i] == views["seat1"][i] == views["spectator"][i] for i in live]
        assert any(alike) and not all(alike), alike
        assert sse._event_frame.encoded - before == sum(1 if a else 3 for a in alike)
