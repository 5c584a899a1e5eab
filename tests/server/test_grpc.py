"""The gRPC API against a real server on a socket."""

import threading

import grpc
import pytest
from google.protobuf import json_format, struct_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pbg

from tests.server.support import scrape


@pytest.fixture(scope="module")
def channel(server):
    with grpc.insecure_channel(server.grpc) as ch:
        yield ch


@pytest.fixture
def stub(channel):
    return pbg.GameServiceStub(channel)


def md(token):
    return [("authorization", f"Bearer {token}")]


def action(**fields):
    s = struct_pb2.Struct()
    s.update(fields)
    return s


def new_game(stub, engine="tic-tac-toe", players=2, **kw):
    r = stub.CreateGame(pb.CreateGameRequest(engine=engine, players=players, **kw))
    return r.game, {t.seat: t.token for t in r.seats}


def code_of(fn):
    with pytest.raises(grpc.RpcError) as e:
        fn()
    assert e.value.details()
    return e.value.code()


def test_a_whole_tic_tac_toe_game_over_grpc(stub):
    game, tokens = new_game(stub)
    assert game.version == 1 and list(game.to_act) == [0]
    for seat, cell in [(0, 4), (1, 0), (0, 2), (1, 1), (0, 6)]:
        legal = stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=game.id), metadata=md(tokens[seat]))
        assert {"type": "place", "cell": cell} in [
            {k: (int(v) if isinstance(v, float) else v) for k, v in json_format.MessageToDict(a).items()}
            for a in legal.actions
        ]
        g = stub.SubmitAction(pb.SubmitActionRequest(game_id=game.id, action=action(type="place", cell=cell)),
                              metadata=md(tokens[seat])).game
    assert g.status == pb.GAME_STATUS_FINISHED
    out = json_format.MessageToDict(g.outcome)
    assert out["winners"] == [0]
    past = stub.GetGame(pb.GetGameRequest(game_id=game.id, version=2)).game
    assert past.version == 2
    events = stub.ListEvents(pb.ListEventsRequest(game_id=game.id, page_size=100))
    assert [e.version for e in events.events] == list(range(1, 8))  # start, 5 marks, game_won


def test_grpc_errors_have_their_status_codes(stub):
    game, tokens = new_game(stub)
    gid = game.id
    ok = action(type="place", cell=4)
    assert code_of(lambda: stub.SubmitAction(pb.SubmitActionRequest(game_id=gid, action=ok))) == \
        grpc.StatusCode.UNAUTHENTICATED
    assert code_of(lambda: stub.SubmitAction(pb.SubmitActionRequest(game_id=gid, action=ok),
                                             metadata=md("x.0.y"))) == grpc.StatusCode.UNAUTHENTICATED
    _, other = new_game(stub)
    assert code_of(lambda: stub.SubmitAction(pb.SubmitActionRequest(game_id=gid, action=ok),
                                             metadata=md(other[0]))) == grpc.StatusCode.PERMISSION_DENIED
    assert code_of(lambda: stub.GetGame(pb.GetGameRequest(game_id="missing"))) == grpc.StatusCode.NOT_FOUND
    assert code_of(lambda: stub.SubmitAction(pb.SubmitActionRequest(game_id=gid, action=ok),
                                             metadata=md(tokens[1]))) == grpc.StatusCode.FAILED_PRECONDITION
    assert code_of(lambda: stub.SubmitAction(pb.SubmitActionRequest(game_id=gid, action=action(type="place")),
                                             metadata=md(tokens[0]))) == grpc.StatusCode.INVALID_ARGUMENT
    assert code_of(lambda: stub.SubmitAction(pb.SubmitActionRequest(game_id=gid, action=ok, expected_version=7),
                                             metadata=md(tokens[0]))) == grpc.StatusCode.ABORTED
    assert code_of(lambda: stub.CreateGame(pb.CreateGameRequest(engine="nope", players=2))) == \
        grpc.StatusCode.INVALID_ARGUMENT
    big = action(type="place", cell=4, pad="x" * 300_000)
    assert code_of(lambda: stub.SubmitAction(pb.SubmitActionRequest(game_id=gid, action=big),
                                             metadata=md(tokens[0]))) == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert stub.GetGame(pb.GetGameRequest(game_id=gid)).game.version == 1


def test_request_id_makes_grpc_retries_idempotent(stub):
    game, tokens = new_game(stub)
    req = pb.SubmitActionRequest(game_id=game.id, action=action(type="place", cell=4), request_id="r1")
    a = stub.SubmitAction(req, metadata=md(tokens[0]))
    b = stub.SubmitAction(req, metadata=md(tokens[0]))
    assert a == b and stub.GetGame(pb.GetGameRequest(game_id=game.id)).game.version == 2


def test_watch_game_streams_redacted_events(stub):
    game, tokens = new_game(stub, engine="goofspiel", players=2)
    stream = stub.WatchGame(pb.WatchGameRequest(game_id=game.id, after_version=0), metadata=md(tokens[1]))
    got = []

    def read():
        for ev in stream:
            got.append(ev)
            if len(got) == 2:
                return

    t = threading.Thread(target=read)
    t.start()
    stub.SubmitAction(pb.SubmitActionRequest(game_id=game.id, action=action(type="bid", card=2)),
                      metadata=md(tokens[0]))
    t.join(10)
    stream.cancel()
    assert [e.version for e in got] == [1, 2]
    ev = json_format.MessageToDict(got[1].event)
    assert ev["type"] == "bid_placed" and "private" not in ev
    assert "secret" not in json_format.MessageToDict(got[0].event)


def test_health_checking_and_reflection_are_on(channel):
    h = health_pb2_grpc.HealthStub(channel)
    assert h.Check(health_pb2.HealthCheckRequest(service="")).status == health_pb2.HealthCheckResponse.SERVING
    assert h.Check(health_pb2.HealthCheckRequest(service="tablero.v1.GameService")).status == \
        health_pb2.HealthCheckResponse.SERVING
    r = reflection_pb2_grpc.ServerReflectionStub(channel)
    resp = next(r.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")])))
    names = {s.name for s in resp.list_services_response.service}
    assert {"tablero.v1.GameService", "grpc.health.v1.Health"} <= names


def test_rest_and_grpc_share_one_game(stub, http):
    game, tokens = new_game(stub)
    r = http.post(f"/v1/games/{game.id}/actions", json={"action": {"type": "place", "cell": 0}},
                  headers={"Authorization": f"Bearer {tokens[0]}"})
    assert r.status_code == 200
    assert stub.GetGame(pb.GetGameRequest(game_id=game.id)).game.version == 2


def test_undecodable_requests_are_invalid_argument(channel):
    for method, raw in [("GetGame", b"\xff\xff\xff\x01garbage"), ("GetGame", b"\x0a\x03\xff\xfe\xfd"),
                        ("SubmitAction", b"\x0a\x01"), ("WatchGame", b"\xff\xff\xff\x01")]:
        path = f"/tablero.v1.GameService/{method}"
        call = channel.unary_stream(path) if method == "WatchGame" else channel.unary_unary(path)
        with pytest.raises(grpc.RpcError) as e:
            out = call(raw, timeout=5)
            if method == "WatchGame":
                list(out)
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT, (method, e.value.code())
        assert "malformed request" in e.value.details()


def _watch_gauge(http):
    for line in scrape(http).splitlines():
        if line.startswith("tablero_watch_streams "):
            return float(line.split()[1])
    raise AssertionError("no tablero_watch_streams gauge")


def test_a_cancelled_grpc_watch_ends_on_the_server(stub, http):
    import time

    base = _watch_gauge(http)
    streams = []
    for _ in range(3):
        game, _ = new_game(stub)
        it = stub.WatchGame(pb.WatchGameRequest(game_id=game.id))
        next(it)
        streams.append(it)
    assert _watch_gauge(http) == base + 3
    for it in streams:
        it.cancel()
    deadline = time.monotonic() + 10
    while _watch_gauge(http) != base and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _watch_gauge(http) == base


def test_a_watch_of_a_quiet_game_is_answered_at_once(stub):
    """The stream's headers come when the watch is accepted, not with its first event: a client
    that reconnects after an outage knows at once that it is answered (a finished game's watch
    sends its events; a running game where nobody moves sends nothing for a long time)."""
    game, _ = new_game(stub)
    call = stub.WatchGame(pb.WatchGameRequest(game_id=game.id, after_version=game.version))
    got: list = []
    reader = threading.Thread(target=lambda: got.append(call.initial_metadata()), daemon=True)
    reader.start()
    reader.join(5)
    call.cancel()
    assert got, "no headers within 5 s of a watch of a quiet game"


def test_get_engine_over_grpc_and_its_metrics(stub, http):
    e = stub.GetEngine(pb.GetEngineRequest(name="goofspiel")).engine
    assert e.name == "goofspiel" and json_format.MessageToDict(e.action_schema)["oneOf"]
    assert code_of(lambda: stub.GetEngine(pb.GetEngineRequest(name="nope"))) == grpc.StatusCode.NOT_FOUND
    text = scrape(http)
    assert 'tablero_rpc_requests_total{code="OK",method="GetEngine",transport="grpc"}' in text
    assert 'tablero_rpc_requests_total{code="NOT_FOUND",method="GetEngine",transport="grpc"}' in text
