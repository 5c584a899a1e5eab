"""proto/tablero/v1/rankings.proto compiles on its own, and its JSON mapping is exactly the REST
JSON that `aggregate` reads and writes. Messages are built from a private descriptor pool, so this
test never touches the default pool the generated code in server/grpc/gen registers into."""

import os
from pathlib import Path

import google.api.annotations_pb2 as annotations_pb2
import grpc_tools
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory
from grpc_tools import protoc
from tablero.rankings import aggregate

ROOT = Path(__file__).resolve().parents[2]
PROTO = "tablero/v1/rankings.proto"

BODY = {
    "lists": [
        {"source": "Canal A", "title": "Top 2023", "ranked": True, "entries": ["The White Castle", "Hegemony", "Heat"]},
        {"source": "Canal B", "ranked": False, "entries": ["white castle", "Heat: Heavy Rain", "Revive"]},
        {"source": "Canal C", "entries": ["Ticket to Ride Legends of the West", "Heat"]},
    ],
    "aliases": {"Ticket to Ride Legends of the West": "Aventureros al tren: Leyendas del oeste"},
    "scheme": {"positionPoints": [100, 80, 65], "topBonus": 0, "repetitionBonus": 1.5, "unranked": "mean"},
}


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    out = tmp_path_factory.mktemp("proto")
    includes = [
        f"-I{ROOT / 'proto'}",
        f"-I{os.path.join(os.path.dirname(grpc_tools.__file__), '_proto')}",
        f"-I{Path(annotations_pb2.__file__).parents[2]}",  # site-packages, holding google/api/*.proto
    ]
    args = [
        "protoc",
        *includes,
        f"--python_out={out}",
        f"--grpc_python_out={out}",
        f"--descriptor_set_out={out / 'set.pb'}",
        "--include_imports",
        str(ROOT / "proto" / PROTO),
    ]
    assert protoc.main(args) == 0, "protoc failed on rankings.proto"
    files = descriptor_pb2.FileDescriptorSet.FromString((out / "set.pb").read_bytes())
    pool = descriptor_pool.DescriptorPool()
    for file in files.file:
        pool.Add(file)
    return out, files, pool


def message(pool, name):
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(f"tablero.v1.{name}"))


def test_generates_python_and_grpc_code(compiled):
    out, _, _ = compiled
    assert (out / "tablero" / "v1" / "rankings_pb2.py").exists()
    assert "RankingServiceStub" in (out / "tablero" / "v1" / "rankings_pb2_grpc.py").read_text()


def test_stands_alone_and_maps_to_the_rest_route(compiled):
    _, files, _ = compiled
    ours = next(f for f in files.file if f.name == PROTO)
    assert ours.package == "tablero.v1"
    assert list(ours.dependency) == ["google/api/annotations.proto"]
    (service,) = ours.service
    (method,) = service.method
    assert (service.name, method.name) == ("RankingService", "AggregateRankings")
    rule = method.options.Extensions[annotations_pb2.http]
    assert (rule.post, rule.body) == ("/v1/rankings:aggregate", "*")


def test_request_json_parses_and_a_grpc_request_gives_the_same_ranking(compiled):
    _, _, pool = compiled
    request = json_format.ParseDict(BODY, message(pool, "AggregateRankingsRequest")())
    # What the gRPC servicer would hand to aggregate(): defaults dropped, explicit false/0 kept.
    as_dict = json_format.MessageToDict(request)
    assert as_dict["lists"][1]["ranked"] is False
    assert as_dict["scheme"]["topBonus"] == 0
    assert aggregate(as_dict) == aggregate(BODY)


def test_response_json_round_trips_exactly(compiled):
    _, _, pool = compiled
    result = aggregate(BODY)
    assert any(isinstance(row["points"], float) for row in result["ranking"])  # fractions present
    assert any(row["positions"] == {} for row in result["ranking"])  # and an unranked-only game
    response = json_format.ParseDict(result, message(pool, "AggregateRankingsResponse")())
    back = json_format.MessageToDict(response, always_print_fields_with_no_presence=True)
    assert back == result
    assert response.ranking[0].positions["1"] >= 1
