"""POST /v1/rankings:aggregate and RankingService/AggregateRankings on a real server."""

import grpc
import pytest
from google.protobuf import json_format
from tablero.server.grpc.gen import rankings_pb2, rankings_pb2_grpc

BODY = {
    "lists": [
        {"source": "Canal A", "title": "Top 2023", "ranked": True, "entries": ["The White Castle", "Hegemony", "Heat"]},
        {"source": "Canal B", "ranked": True, "entries": ["hegemony", "the white castle"]},
        {"source": "Canal C", "ranked": False, "entries": ["Heat: Heavy Rain", "Aventureros al tren: Leyendas del oeste"]},
    ],
    "aliases": {"Ticket to Ride Legends of the West": "Aventureros al tren: Leyendas del oeste"},
}


def test_rest_aggregates_lists_into_one_ranking(http):
    r = http.post("/v1/rankings:aggregate", json=BODY)
    assert r.status_code == 200, r.text
    out = r.json()
    by_title = {g["title"]: g for g in out["ranking"]}
    # The White Castle: 100 (1st in A) + 80 (2nd in B) + 10 (A's number one) + 2 appearances = 192
    wc = by_title["The White Castle"]
    assert (wc["positionPoints"], wc["topBonus"], wc["repetitionBonus"], wc["points"]) == (180, 10, 2, 192)
    assert wc["positions"] == {"1": 1, "2": 1} and wc["appearances"] == 2
    # Hegemony: 80 + 100 + 10 + 2 = 192 as well: tied on points
    assert by_title["Hegemony"]["points"] == 192
    # Unranked list of 2: each game gets the mean of positions 1-2 = (100 + 80) / 2 = 90, plus 1 appearance
    assert by_title["Heat: Heavy Rain"]["points"] == 91
    assert by_title["Heat"]["points"] == 65 + 1  # "Heat" and "Heat: Heavy Rain" are different games
    assert out["totals"] == {"lists": 3, "sources": 3, "games": 5}
    # Full ties share a rank (competition ranking) and are listed alphabetically, ignoring a leading article.
    assert [(g["rank"], g["title"]) for g in out["ranking"]] == [
        (1, "Hegemony"), (1, "The White Castle"), (3, "Aventureros al tren: Leyendas del oeste"),
        (3, "Heat: Heavy Rain"), (5, "Heat")]


@pytest.mark.parametrize("body", [
    {"lists": []},
    {"lists": [{"source": "A", "entries": ["Heat", "heat"]}]},
    {"lists": [{"source": "A", "entries": ["Heat"], "colour": "red"}]},
    {"lists": [{"source": "A", "entries": ["x"] * 1}], "bogus": 1},
    {"lists": [{"source": "A", "entries": [f"Game {i}" for i in range(5000)]}]},
])
def test_rest_rejects_bad_lists_with_400(http, body):
    r = http.post("/v1/rankings:aggregate", json=body)
    assert r.status_code in (400, 413), r.text
    assert r.json()["error"]["code"] in ("INVALID_ARGUMENT", "RESOURCE_EXHAUSTED")


def test_grpc_gives_the_same_ranking(server, http):
    rest = http.post("/v1/rankings:aggregate", json=BODY).json()
    with grpc.insecure_channel(server.grpc) as ch:
        stub = rankings_pb2_grpc.RankingServiceStub(ch)
        resp = stub.AggregateRankings(json_format.ParseDict(BODY, rankings_pb2.AggregateRankingsRequest()))
        as_json = json_format.MessageToDict(resp, always_print_fields_with_no_presence=True)
        assert [(g["title"], g["points"]) for g in as_json["ranking"]] == \
            [(g["title"], g["points"]) for g in rest["ranking"]]
        with pytest.raises(grpc.RpcError) as e:
            stub.AggregateRankings(rankings_pb2.AggregateRankingsRequest())
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_tablero_rank_cli(tmp_path):
    import json
    import subprocess
    import sys

    f = tmp_path / "lists.json"
    f.write_text(json.dumps(BODY))
    r = subprocess.run([sys.executable, "-m", "tablero.server", "rank", str(f), "--format", "json"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["totals"]["games"] == 5


def test_rankings_have_their_own_larger_body_limit(http, server):
    """Game requests stop at TABLERO_MAX_BODY (16 KiB in these tests); ranking requests may be larger."""
    lists = [{"source": f"Canal {i}", "entries": [f"Juego {i}-{j}" for j in range(20)]} for i in range(100)]
    r = http.post("/v1/rankings:aggregate", json={"lists": lists})
    assert r.status_code == 200, r.text
    assert r.json()["totals"]["lists"] == 100
    assert len(r.request.content) > 16 * 1024


def test_grpc_game_requests_keep_the_smaller_limit(server):
    from google.protobuf import struct_pb2
    from tablero.server.grpc.gen import games_pb2 as pb
    from tablero.server.grpc.gen import games_pb2_grpc as pbg

    with grpc.insecure_channel(server.grpc) as ch:
        stub = pbg.GameServiceStub(ch)
        out = stub.CreateGame(pb.CreateGameRequest(engine="tic-tac-toe", players=2))
        a = struct_pb2.Struct()
        a.update({"type": "place", "cell": 4, "pad": "x" * 20000})
        with pytest.raises(grpc.RpcError) as e:
            stub.SubmitAction(pb.SubmitActionRequest(game_id=out.game.id, action=a),
                              metadata=[("authorization", f"Bearer {out.seats[0].token}")])
        assert e.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_unranked_share_is_an_enum_on_both_transports(server, http):
    body = {**BODY, "scheme": {"unrankedShare": "UNRANKED_SHARE_ZERO"}}
    rest = http.post("/v1/rankings:aggregate", json=body)
    assert rest.status_code == 200, rest.text
    heat = {g["title"]: g for g in rest.json()["ranking"]}["Heat: Heavy Rain"]
    assert (heat["positionPoints"], heat["points"]) == (0, 1)
    bad = http.post("/v1/rankings:aggregate", json={**BODY, "scheme": {"unrankedShare": "HALF"}})
    assert bad.status_code == 400 and "unrankedShare" in bad.json()["error"]["message"]
    with grpc.insecure_channel(server.grpc) as ch:
        stub = rankings_pb2_grpc.RankingServiceStub(ch)
        req = json_format.ParseDict(BODY, rankings_pb2.AggregateRankingsRequest())
        req.scheme.unranked_share = rankings_pb2.UNRANKED_SHARE_ZERO
        out = json_format.MessageToDict(stub.AggregateRankings(req))
        assert {g["title"]: g for g in out["ranking"]}["Heat: Heavy Rain"]["points"] == 1


def test_rest_takes_proto_field_names_as_the_json_mapping_does(http):
    """The protobuf JSON mapping's parsers accept a field's proto name (top_bonus) as well as
    its JSON name (topBonus); REST does as gRPC's JSON and the SDK do. Given both, it is refused."""
    camel = http.post("/v1/rankings:aggregate", json={**BODY, "scheme": {"topBonus": 5}})
    proto = http.post("/v1/rankings:aggregate", json={**BODY, "scheme": {"top_bonus": 5}})
    assert proto.status_code == 200, proto.text
    assert proto.json() == camel.json()
    both = http.post("/v1/rankings:aggregate", json={**BODY, "scheme": {"topBonus": 5, "top_bonus": 5}})
    assert both.status_code == 400 and "given twice" in both.json()["error"]["message"]


def test_rest_game_requests_take_proto_field_names(http):
    r = http.post("/v1/games", json={"engine": "tic-tac-toe", "players": 2, "on_leave": "bot"})
    assert r.status_code == 200, r.text
    gid, token = r.json()["game"]["id"], r.json()["seats"][0]["token"]
    move = {"action": {"type": "place", "cell": 4}, "request_id": "m-1", "expected_version": 1}
    first = http.post(f"/v1/games/{gid}/actions", json=move, headers={"authorization": f"Bearer {token}"})
    again = http.post(f"/v1/games/{gid}/actions", json=move, headers={"authorization": f"Bearer {token}"})
    assert first.status_code == again.status_code == 200, (first.text, again.text)
    assert first.json()["version"] == again.json()["version"] == 2  # request_id is the idempotency key
    assert http.post("/v1/games", json={"engine": "tic-tac-toe", "on_lave": "bot"}).status_code == 400
