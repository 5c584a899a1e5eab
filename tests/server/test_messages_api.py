"""GetEngineMessages: an engine's texts in one language over REST (with ETag and
Cache-Control) and over gRPC, from the same catalogs."""

from __future__ import annotations

import grpc
import httpx
import pytest
from tablero.engines.core import messages
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pbg
from tablero.server.http.fast import gzip_etag

from tests.server.support import ServerThread


@pytest.fixture(scope="module")
def server():
    with ServerThread() as s:
        yield s


@pytest.fixture
def http(server):
    with httpx.Client(base_url=server.http, timeout=10) as c:
        yield c


def test_rest_serves_spanish_with_the_platform_texts_and_caching_headers(http):
    r = http.get("/v1/engines/new-bedford/messages", params={"lang": "es-AR"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["engine"] == "new-bedford" and body["lang"] == "es" and set(body["languages"]) == {"en", "es"}
    m = body["messages"]
    assert m["name.farm"] == "Granja" and m["name.forest"] == "Bosque" and m["name.town_hall"] == "Ayuntamiento"
    assert m["seat.someone"] == "Alguien"  # the platform's texts come along
    # (gzipped: the ETag is the body's `etag` with -gzip; the identity answer's is the `etag` itself)
    assert r.headers["etag"] == gzip_etag(body["etag"]) and "no-cache" in r.headers["cache-control"]
    assert http.get("/v1/engines/new-bedford/messages", params={"lang": "es"},
                    headers={"Accept-Encoding": "identity"}).headers["etag"] == body["etag"]
    # Asked again each time (a 304 when unchanged): a lifetime let a page served new JavaScript
    # after an upgrade read the old texts for an hour (an outside player's finding).
    assert "max-age" not in r.headers["cache-control"]
    assert r.headers.get_list("vary").count("Accept-Encoding") == 1  # once, though gzip would add it too
    again = http.get("/v1/engines/new-bedford/messages", params={"lang": "es"},
                     headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    english = http.get("/v1/engines/new-bedford/messages", params={"lang": "en"})
    assert english.json()["messages"]["name.farm"] == "Farm" and english.headers["etag"] != r.headers["etag"]
    # A changed catalog (here: another language) is never answered 304 for an old ETag.
    stale = http.get("/v1/engines/new-bedford/messages", params={"lang": "en"},
                     headers={"If-None-Match": r.headers["etag"]})
    assert stale.status_code == 200


def test_unknown_languages_get_english_and_unknown_engines_404(http):
    r = http.get("/v1/engines/tic-tac-toe/messages", params={"lang": "fr"})
    assert r.status_code == 200 and r.json()["lang"] == "en"
    assert r.json()["messages"]["action.place"] == "Place in {cell}"
    assert http.get("/v1/engines/tic-tac-toe/messages").json()["lang"] == "en"
    missing = http.get("/v1/engines/chess-9000/messages", params={"lang": "es"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "NOT_FOUND"
    platform = http.get("/v1/engines/tablero/messages", params={"lang": "es"}).json()["messages"]
    assert platform["web.language"] == "Idioma" and not any(k.startswith("action.") for k in platform)


def test_grpc_answers_the_same_messages(server, http):
    with grpc.insecure_channel(server.grpc) as ch:
        r = pbg.GameServiceStub(ch).GetEngineMessages(pb.GetEngineMessagesRequest(name="riverboat", lang="es"))
        assert r.lang == "es" and dict(r.messages) == http.get(
            "/v1/engines/riverboat/messages", params={"lang": "es"}).json()["messages"]
        assert r.etag == messages.published("riverboat", "es")["etag"]
        with pytest.raises(grpc.RpcError) as e:
            pbg.GameServiceStub(ch).GetEngineMessages(pb.GetEngineMessagesRequest(name="nope"))
        assert e.value.code() == grpc.StatusCode.NOT_FOUND


@pytest.mark.parametrize(("accept", "lang"), [
    ("es-AR,es;q=0.9,en;q=0.8", "es"), ("es", "es"), ("fr-CH, fr;q=0.9, es;q=0.5, *;q=0.1", "es"),
    ("en-GB,es;q=0.3", "en"), ("fr, de", "en"), ("es;q=0, en;q=0.5", "en"), ("*", "en"), ("", "en"),
    ("es;q=bogus", "en"),
])
def test_without_lang_the_accept_language_header_picks_the_language(http, accept, lang):
    """Outside review: the catalog came in English whatever the Accept-Language; without `lang` the
    header's most wanted language that has a catalog is served (English when none has), and the
    answer says it varies by that header. An explicit `lang` wins over the header."""
    r = http.get("/v1/engines/new-bedford/messages", headers={"Accept-Language": accept})
    assert r.status_code == 200 and r.json()["lang"] == lang, (accept, r.json()["lang"])
    assert "Accept-Language" in ", ".join(r.headers.get_list("vary")), r.headers.get_list("vary")
    assert r.json()["messages"]["name.farm"] == {"es": "Granja", "en": "Farm"}[lang]
    given = http.get("/v1/engines/new-bedford/messages", params={"lang": "en"}, headers={"Accept-Language": "es"})
    assert given.json()["lang"] == "en" and "Accept-Language" not in ", ".join(given.headers.get_list("vary"))
