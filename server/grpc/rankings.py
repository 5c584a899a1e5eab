"""gRPC transport of the RankingService (the same `aggregate` as REST)."""

from __future__ import annotations

import asyncio

from google.protobuf import json_format

from server.app import InvalidArgument

from .gen import rankings_pb2, rankings_pb2_grpc
from .service import add_service, unary


class RankingServicer(rankings_pb2_grpc.RankingServiceServicer):
    @unary("AggregateRankings")
    async def AggregateRankings(self, request, context, call):
        from rankings import RankingError, aggregate

        body = json_format.MessageToDict(request)
        try:
            out = await asyncio.to_thread(aggregate, body)
        except RankingError as e:
            raise InvalidArgument(str(e)) from None
        return json_format.ParseDict(out, rankings_pb2.AggregateRankingsResponse())


def add_to_server(server) -> str:
    return add_service(RankingServicer(), server, rankings_pb2)
