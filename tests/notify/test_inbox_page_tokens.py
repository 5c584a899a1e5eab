"""The notification list's page tokens are signed and bound to their list (the user, unreadOnly),
as every page token is (server/app/paging.py): another user's token, one made for another
unreadOnly, or one the server did not sign is 400 PAGE_TOKEN_INVALID, over REST and gRPC."""

from __future__ import annotations

import base64
import json
import time

import grpc
import jwt
from tablero.server.grpc.gen import notifications_pb2 as npb
from tablero.server.grpc.gen import notifications_pb2_grpc as npbg

from tests import plainhttp
from tests.server.support import ServerThread

KEY = "a-portal-secret-of-at-least-32-bytes!"


def _jwt(user: str) -> str:
    return jwt.encode({"sub": user, "exp": int(time.time()) + 600}, KEY, algorithm="HS256", headers={"kid": "k1"})


def _refused(r) -> str:
    assert r.status_code == 400, r.text
    assert r.json()["error"]["reason"] == "PAGE_TOKEN_INVALID", r.text
    return r.json()["error"]["message"]


def test_a_notification_page_token_holds_only_for_its_user_and_filter() -> None:
    with ServerThread(portal_keys=json.dumps({"k1": KEY})) as srv:
        h, ann, bob = srv.http, _jwt("ann"), _jwt("bob")
        for _ in range(3):  # Ann moves first in each: a "turn" item each
            plainhttp.post(f"{h}/v1/games", json={"engine": "tic-tac-toe", "seatSpecs": [
                {"kind": "me"}, {"kind": "human", "userId": "bob"}]},
                headers={"Authorization": f"Bearer {ann}"}).raise_for_status()
        as_ann = {"Authorization": f"Bearer {ann}"}
        deadline = time.monotonic() + 10
        while len(plainhttp.get(f"{h}/v1/notifications", headers=as_ann).json()["notifications"]) < 3:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        first = plainhttp.get(f"{h}/v1/notifications", params={"pageSize": 1}, headers=as_ann).json()
        token = first["nextPageToken"]
        second = plainhttp.get(f"{h}/v1/notifications", params={"pageSize": 1, "pageToken": token},
                               headers=as_ann).json()
        assert second["notifications"][0]["gameId"] != first["notifications"][0]["gameId"]
        said = _refused(plainhttp.get(f"{h}/v1/notifications", params={"pageToken": token},
                                      headers={"Authorization": f"Bearer {bob}"}))
        assert "another user" in said
        assert "another user, or for another unreadOnly" in _refused(plainhttp.get(
            f"{h}/v1/notifications", params={"pageToken": token, "unreadOnly": "true"}, headers=as_ann))
        item = first["notifications"][0]
        forged = base64.urlsafe_b64encode(json.dumps([item["timestamp"], item["id"]]).encode()).decode()
        assert "not one this server signed" in _refused(plainhttp.get(
            f"{h}/v1/notifications", params={"pageToken": forged}, headers=as_ann))
        with grpc.insecure_channel(srv.grpc) as ch:
            stub = npbg.NotificationServiceStub(ch)
            try:
                stub.ListNotifications(npb.ListNotificationsRequest(page_token=token),
                                       metadata=[("authorization", f"Bearer {bob}")], timeout=10)
                raise AssertionError("bob paged ann's list")
            except grpc.RpcError as e:
                assert e.code() == grpc.StatusCode.INVALID_ARGUMENT and "another user" in e.details()
            page = stub.ListNotifications(npb.ListNotificationsRequest(page_token=token, page_size=1),
                                          metadata=[("authorization", f"Bearer {ann}")], timeout=10)
            assert len(page.notifications) == 1
