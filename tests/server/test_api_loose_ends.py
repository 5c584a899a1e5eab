"""Small loose ends of the public API, each on every transport it concerns.

- ListGames' `status` GAME_STATUS_UNSPECIFIED (0) is no filter on REST, Connect and gRPC: REST
  refused `?status=0` (400) while Connect and gRPC, which cannot tell a proto3 enum's zero from
  an absent field, listed every game.
- A UTF-8 byte order mark before a JSON body is ignored (RFC 8259 8.1), on REST and Connect: it
  was refused with "Expecting value at line 1 column 1".
- A gzipped answer and an identity one have different ETags (they shared one strong ETag, which
  says the two are byte for byte the same), and a conditional GET with either gets its 304: the
  message catalogs (the fast path, and HEAD through Starlette) and the web client's files.
"""

from __future__ import annotations

import grpc
import pytest
from tablero.server.grpc.gen import games_pb2, games_pb2_grpc

from tests import plainhttp
from tests.server.support import ServerThread

LIST = "/tablero.v1.GameService/ListGames"
BOM = b"\xef\xbb\xbf"


@pytest.fixture(scope="module")
def server():
    with ServerThread() as s:
        for _ in range(2):
            r = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "players": 2})
            assert r.status_code == 200, r.text
        yield s


def _ids(answer) -> set[str]:
    assert answer.status_code == 200, answer.text
    return {g["id"] for g in answer.json().get("games", [])}


def test_unspecified_status_is_no_filter_on_rest_connect_and_grpc(server):
    every = _ids(plainhttp.get(f"{server.http}/v1/games"))
    assert len(every) >= 2
    for value in ("0", "GAME_STATUS_UNSPECIFIED"):
        assert _ids(plainhttp.get(f"{server.http}/v1/games", params={"status": value})) == every, value
    for value in (0, "GAME_STATUS_UNSPECIFIED"):
        assert _ids(plainhttp.post(f"{server.http}{LIST}", json={"status": value})) == every, value
    with grpc.insecure_channel(server.grpc) as ch:
        stub = games_pb2_grpc.GameServiceStub(ch)
        got = stub.ListGames(games_pb2.ListGamesRequest(status=games_pb2.GAME_STATUS_UNSPECIFIED), timeout=10)
        assert {g.id for g in got.games} == every
    # A status that is not one is still refused, naming the values.
    r = plainhttp.get(f"{server.http}/v1/games", params={"status": "7"})
    assert r.status_code == 400 and "GAME_STATUS_UNSPECIFIED" in r.json()["error"]["message"], r.text


def test_a_utf8_bom_before_a_json_body_is_ignored_on_rest_and_connect(server):
    body = BOM + b'{"engine": "tic-tac-toe", "players": 2}'
    json_type = {"Content-Type": "application/json"}
    r = plainhttp.post(f"{server.http}/v1/games", content=body, headers=json_type)
    assert r.status_code == 200 and r.json()["game"]["engine"] == "tic-tac-toe", r.text
    r = plainhttp.post(f"{server.http}/tablero.v1.GameService/CreateGame", content=body, headers=json_type)
    assert r.status_code == 200 and r.json()["game"]["engine"] == "tic-tac-toe", r.text
    # A body of only a BOM is an empty body; a BOM is ignored once, at the start, and nowhere else.
    assert plainhttp.post(f"{server.http}{LIST}", content=BOM, headers=json_type).status_code == 200
    r = plainhttp.post(f"{server.http}/v1/games", content=BOM + BOM + b"{}", headers=json_type)
    assert r.status_code == 400, r.text


def test_gzipped_and_identity_answers_have_distinct_etags_and_each_revalidates(server):
    url = f"{server.http}/v1/engines/tic-tac-toe/messages"
    gz = plainhttp.get(url, headers={"Accept-Encoding": "gzip"})
    plain = plainhttp.get(url, headers={"Accept-Encoding": "identity"})
    assert gz.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
    assert gz.json() == plain.json()
    gz_tag, plain_tag = gz.headers["etag"], plain.headers["etag"]
    assert gz_tag != plain_tag, (gz_tag, plain_tag)
    assert not gz_tag.startswith("W/") and not plain_tag.startswith("W/")  # strong: ranges stay usable
    for encoding, tag in (("gzip", gz_tag), ("identity", plain_tag)):
        again = plainhttp.get(url, headers={"Accept-Encoding": encoding, "If-None-Match": tag})
        assert again.status_code == 304 and again.headers["etag"] == tag, (encoding, again.headers)
    # A validator of the other coding still names the same texts: 304, with this coding's tag.
    again = plainhttp.get(url, headers={"Accept-Encoding": "identity", "If-None-Match": gz_tag})
    assert again.status_code == 304 and again.headers["etag"] == plain_tag, again.headers
    again = plainhttp.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": plain_tag})
    assert again.status_code == 304 and again.headers["etag"] == gz_tag, again.headers
    # Another language's texts are not these.
    other = plainhttp.get(f"{url}?lang=es", headers={"Accept-Encoding": "gzip", "If-None-Match": gz_tag})
    assert other.status_code == 200
    # HEAD (served by Starlette's GZipMiddleware, not the fast path) names the GET's validators.
    assert plainhttp.head(url, headers={"Accept-Encoding": "gzip"}).headers["etag"] == gz_tag
    assert plainhttp.head(url, headers={"Accept-Encoding": "identity"}).headers["etag"] == plain_tag


def test_the_web_clients_files_have_distinct_etags_per_coding_and_each_revalidates(server):
    url = f"{server.http}/js/api.js"
    gz = plainhttp.get(url, headers={"Accept-Encoding": "gzip"})
    plain = plainhttp.get(url, headers={"Accept-Encoding": "identity"})
    assert gz.headers["content-encoding"] == "gzip" and gz.content == plain.content
    assert gz.headers["etag"] != plain.headers["etag"], gz.headers
    for encoding, tag in (("gzip", gz.headers["etag"]), ("identity", plain.headers["etag"])):
        again = plainhttp.get(url, headers={"Accept-Encoding": encoding, "If-None-Match": tag})
        assert again.status_code == 304 and again.headers["etag"] == tag, (encoding, again.headers)
