"""A webhook URL with credentials (`https://user:password@portal.example/hooks`, how many portals
guard their receiver; outside operator pass): the sender put the checked address in the URL's place
and dropped its user and password, so every delivery reached the receiver without them (401,
retried for a day, then dead letters). And the start-up warning about the endpoint printed the URL
whole, password and query token included, into the logs. Now the credentials go as HTTP Basic
authentication (as curl sends them), and logs show the URL without them and without its query."""

from __future__ import annotations

import base64
import json
import logging

from tablero.server.notify.webhooks import shown

from tests import plainhttp
from tests.notify.receiver import Receiver, secret
from tests.server.support import ServerThread


def test_a_urls_credentials_go_as_basic_auth() -> None:
    wanted = "Basic " + base64.b64encode(b"portal hooks:p@ss:word").decode()
    with Receiver(secret(), authorization=wanted) as rec:
        url = rec.url.replace("http://", "http://portal%20hooks:p%40ss%3Aword@")
        hooks = json.dumps([{"url": url, "secret": secret()}])
        with ServerThread(webhooks=hooks, webhooks_allow_private=True) as srv:
            created = plainhttp.post(f"http://127.0.0.1:{srv.http_port}/v1/games",
                                     json={"engine": "tic-tac-toe", "players": 2})
            created.raise_for_status()
            gid = created.json()["game"]["id"]
            assert rec.wait_for(lambda acc: any(d["type"] == "game.created" for d in acc), 15), rec.unauthorized
    assert rec.unauthorized == 0
    assert {d["data"]["gameId"] for d in rec.accepted} == {gid}


def test_the_start_up_warning_shows_no_credentials_or_query(caplog) -> None:
    caplog.set_level(logging.WARNING, logger="tablero.notify")
    url = "https://hookuser:s3cr3t-pw@no-such-host.invalid/hooks?token=qs-s3cr3t"
    with ServerThread(webhooks=json.dumps([{"url": url, "secret": secret()}])):
        pass
    said = [r.getMessage() for r in caplog.records if r.name == "tablero.notify"]
    assert any("does not resolve now" in s and "https://no-such-host.invalid/hooks?…" in s for s in said), said
    assert not any("s3cr3t" in s for s in said), said
    assert shown("http://u:p@h:8080/x?a=b#f") == "http://h:8080/x?…"
