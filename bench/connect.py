"""The same RPC over REST/JSON, Connect (JSON and binary protobuf) and gRPC-Web, on one server.

    python bench/connect.py [N]      # N GetGame calls per transport (default 500)

Starts a server in this process (SQLite in memory), creates a Tic-Tac-Toe game, then times
N sequential GetGame calls of one seat per transport over one keep-alive connection. Prints
calls per second and the median latency of each.
"""

from __future__ import annotations

import statistics
import struct
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tablero.server.grpc.gen import games_pb2  # noqa: E402

from tests.server.support import ServerThread  # noqa: E402


def _time(n: int, call) -> tuple[float, float]:
    call()
    lat = []
    start = time.perf_counter()
    for _ in range(n):
        t = time.perf_counter()
        call()
        lat.append(time.perf_counter() - t)
    return n / (time.perf_counter() - start), statistics.median(lat) * 1000


def main(n: int) -> None:
    with ServerThread() as s, httpx.Client(base_url=s.http) as c:
        created = c.post("/v1/games", json={"engine": "tic-tac-toe", "seats": ["human", "human"]}).json()
        gid, token = created["game"]["id"], created["seats"][0]["token"]
        auth = {"authorization": f"Bearer {token}"}
        binary = games_pb2.GetGameRequest(game_id=gid).SerializeToString()
        framed = b"\0" + struct.pack(">I", len(binary)) + binary
        calls = {
            "REST GET /v1/games/{id}": lambda: c.get(f"/v1/games/{gid}", headers=auth).raise_for_status(),
            "Connect JSON": lambda: c.post("/tablero.v1.GameService/GetGame", json={"gameId": gid},
                                           headers=auth).raise_for_status(),
            "Connect proto": lambda: c.post("/tablero.v1.GameService/GetGame", content=binary,
                                            headers={**auth, "content-type": "application/proto"}).raise_for_status(),
            "gRPC-Web proto": lambda: c.post("/tablero.v1.GameService/GetGame", content=framed, headers={
                **auth, "content-type": "application/grpc-web+proto"}).raise_for_status(),
        }
        for name, call in calls.items():
            rate, median = _time(n, call)
            print(f"{name:26} {rate:8.0f} calls/s   median {median:6.2f} ms")


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("n", nargs="?", type=int, default=500, help="GetGame calls per transport (default 500)")
    main(ap.parse_args().n)
