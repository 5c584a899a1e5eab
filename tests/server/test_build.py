"""The response builder (server.api.build) makes exactly the message json_format.ParseDict
makes, on real answers: every answer a real server gives over gRPC while whole games of every
engine are played and read (views, legal actions, event pages, engines and their schemas,
games lists) is built both ways and compared. The inner loop plays the first turns of each
game (every kind of answer, most of the shapes); the slow run plays whole games."""

import grpc
import pytest
from google.protobuf import json_format, struct_pb2
from tablero.server.api import build as build_module
from tablero.server.grpc.gen import games_pb2 as pb
from tablero.server.grpc.gen import games_pb2_grpc as pbg

from tests.server.support import ServerThread

ENGINES = ["tic-tac-toe", "new-bedford", "riverboat", "phoenicia", "founders-of-gloomhaven"]


# Turns played per game: the inner loop's prefix; None: to the end.
PREFIX_TURNS = 40


def _record(turns: int | None) -> list[tuple[type, dict]]:
    seen: list[tuple[type, dict]] = []
    real = build_module._BUILDER.build

    def recording(message_cls, data):
        seen.append((message_cls, data))
        return real(message_cls, data)

    build_module._BUILDER.build = recording  # our own object: the codec calls it through `build`
    build_module.build = recording
    from tablero.server.api import codec
    codec.build = recording
    try:
        with ServerThread() as server, grpc.insecure_channel(server.grpc) as channel:
            stub = pbg.GameServiceStub(channel)
            stub.ListEngines(pb.ListEnginesRequest())
            for engine in ENGINES:
                stub.GetEngine(pb.GetEngineRequest(name=engine))
                created = stub.CreateGame(pb.CreateGameRequest(engine=engine, players=2, seats=["human", "bot"]))
                game, token = created.game, created.seats[0].token
                md = [("authorization", f"Bearer {token}")]
                for _ in range(400 if turns is None else turns):
                    g = stub.GetGame(pb.GetGameRequest(game_id=game.id), metadata=md).game
                    if g.status == pb.GAME_STATUS_FINISHED:
                        break
                    legal = stub.ListLegalActions(pb.ListLegalActionsRequest(game_id=game.id), metadata=md)
                    if not legal.actions:
                        continue
                    with_version = pb.SubmitActionRequest(game_id=game.id, action=legal.actions[0],
                                                          expected_version=g.version)
                    try:
                        stub.SubmitAction(with_version, metadata=md)
                    except grpc.RpcError:
                        pass  # a bot moved first: read again
                stub.ListEvents(pb.ListEventsRequest(game_id=game.id, page_size=50))
                stub.GetGame(pb.GetGameRequest(game_id=game.id))  # as a spectator
            stub.ListGames(pb.ListGamesRequest(page_size=20))
    finally:
        build_module._BUILDER.build = real
        build_module.build = real
        codec.build = real
    return seen


def _check(recorded: list[tuple[type, dict]]) -> None:
    kinds = {cls.DESCRIPTOR.full_name for cls, _ in recorded}
    assert {"tablero.v1.GetGameResponse", "tablero.v1.ListLegalActionsResponse", "tablero.v1.ListEventsResponse",
            "tablero.v1.SubmitActionResponse", "tablero.v1.GetEngineResponse", "tablero.v1.ListGamesResponse",
            "tablero.v1.CreateGameResponse"} <= kinds, kinds
    assert len(recorded) > 200
    for cls, data in recorded:
        expected = json_format.ParseDict(data, cls(), ignore_unknown_fields=True)
        built = build_module.Builder().build(cls, data)
        assert built == expected, (cls.DESCRIPTOR.full_name, data)


def test_every_answer_of_the_first_turns_is_built_as_parse_dict_builds_it():
    _check(_record(PREFIX_TURNS))


@pytest.mark.slow
def test_every_answer_of_whole_games_is_built_as_parse_dict_builds_it():
    _check(_record(None))


def test_what_the_builder_cannot_set_falls_back_to_parse_dict_and_its_error():
    builder = build_module.Builder()
    bad = {"game": {"id": "g", "version": "not a number"}}
    with pytest.raises(json_format.ParseError):
        builder.build(pb.GetGameResponse, bad)
    # A Struct inside: numbers, nulls, lists and nested objects as ParseDict sets them.
    view = {"a": 1, "b": None, "c": [1, "x", {"d": True}], "e": {"f": 2.5}}
    built = builder.build(pb.GetGameResponse, {"game": {"id": "g", "view": view, "unknown": 1}})
    expected = struct_pb2.Struct()
    expected.update(view)
    assert built.game.view == expected and built.game.id == "g"
