"""Defects an outside acceptance pass found (README-only user), each with its fix's test:
forwarded-address headers dodging the rate limits, seats reserved for other users filling
their open-games cap, joining a finished game, game ids that begin with '-', and a seat
nobody took winning when its creator resigned."""

import json
import time

import jwt
from tablero.server.app.repository import new_game_id

from tests import plainhttp
from tests.server.support import ServerThread

KEY = "k1-" + "z" * 40


def who(user: str) -> dict[str, str]:
    t = jwt.encode({"sub": user, "exp": int(time.time()) + 600}, KEY, algorithm="HS256", headers={"kid": "k1"})
    return {"Authorization": f"Bearer {t}"}


def test_x_forwarded_for_is_believed_only_from_trusted_proxies():
    with ServerThread(rate_limit="1/m,5") as s:
        codes = [plainhttp.get(f"{s.http}/v1/engines", headers={"X-Forwarded-For": f"9.9.9.{i}"}).status_code
                 for i in range(8)]
        assert codes == [200] * 5 + [429] * 3  # one client, whatever the header says
        refused = plainhttp.get(f"{s.http}/v1/engines", headers={"X-Forwarded-For": "9.9.9.9"}).json()
        assert "from addr '127.0.0.1'" in refused["error"]["message"], refused  # the connection's peer
    with ServerThread(rate_limit="1/m,5", trusted_proxies="127.0.0.1") as s:  # behind a proxy on this host
        codes = [plainhttp.get(f"{s.http}/v1/engines", headers={"X-Forwarded-For": f"9.9.9.{i}"}).status_code
                 for i in range(8)]
        assert codes == [200] * 8  # the proxy names a different client each time
        codes = [plainhttp.get(f"{s.http}/v1/engines", headers={"X-Forwarded-For": "9.9.9.9"}) for _ in range(6)]
        assert "from addr '9.9.9.9'" in codes[-1].json()["error"]["message"]


def test_reserving_a_seat_for_someone_else_needs_a_jwt_and_fills_nobody_s_cap():
    with ServerThread(portal_keys=json.dumps({"k1": KEY}), max_open_games_per_user=2) as s:
        spec = {"engine": "tic-tac-toe", "seatSpecs": [{"kind": "human", "userId": "vic"}, {"kind": "bot"}]}
        r = plainhttp.post(f"{s.http}/v1/games", json=spec)
        assert r.status_code == 401 and "needs a portal JWT" in r.json()["error"]["message"]
        invite = {"engine": "tic-tac-toe", "seatSpecs": [{"kind": "me"}, {"kind": "human", "userId": "vic"}]}
        for i in range(2):  # mal invites vic twice (her own cap: two games)
            r = plainhttp.post(f"{s.http}/v1/games", json=invite, headers=who(f"mal{i}"))
            assert r.status_code == 200, r.text
        mine = plainhttp.get(f"{s.http}/v1/games", params={"mine": "true"}, headers=who("vic")).json()["games"]
        assert len(mine) == 2  # the invitations are vic's games to play...
        for _ in range(2):  # ...but vic can still start her own
            r = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["me", "bot"]},
                           headers=who("vic"))
            assert r.status_code == 200, r.text
        r = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["me", "bot"]}, headers=who("vic"))
        assert r.status_code == 429 and "2 running games" in r.json()["error"]["message"]


def test_a_finished_game_cannot_be_joined():
    with ServerThread() as s:
        created = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["human", "open"]}).json()
        gid, token = created["game"]["id"], created["seats"][0]["token"]
        r = plainhttp.post(f"{s.http}/v1/games/{gid}/resign", json={}, headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200 and r.json()["status"] == "GAME_STATUS_FINISHED"
        r = plainhttp.post(f"{s.http}/v1/games/{gid}/join", json={})
        assert r.status_code == 409 and r.json()["error"]["message"] == "the game is over"


def test_resigning_before_anyone_joined_ends_the_game_with_no_winner():
    with ServerThread() as s:
        created = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["human", "open"]}).json()
        gid, token = created["game"]["id"], created["seats"][0]["token"]
        g = plainhttp.post(f"{s.http}/v1/games/{gid}/resign", json={}, headers={"Authorization": f"Bearer {token}"}).json()
        assert g["status"] == "GAME_STATUS_FINISHED"
        assert g["outcome"]["winners"] == [] and g["outcome"]["endedBy"] == "abandoned", g["outcome"]
        left = plainhttp.get(f"{s.http}/v1/games/{gid}/events").json()["events"][-1]
        assert left["event"] == {"type": "tablero.seat_left", "seat": 0, "reason": "resigned", "then": "forfeit",
                                 "open": [1]}
        # once the seat is taken, a resign leaves the game to the one who took it
        created = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "seats": ["human", "open"]}).json()
        gid, token = created["game"]["id"], created["seats"][0]["token"]
        assert plainhttp.post(f"{s.http}/v1/games/{gid}/join", json={}).status_code == 200
        g = plainhttp.post(f"{s.http}/v1/games/{gid}/resign", json={}, headers={"Authorization": f"Bearer {token}"}).json()
        assert g["outcome"]["winners"] == [1] and g["outcome"]["endedBy"] == "forfeit"
        # three seats: a seat taken after a leave that named it open can win; the creator
        # leaving with only open seats left ends the game
        created = plainhttp.post(f"{s.http}/v1/games", json={"engine": "goofspiel", "seats": ["human", "human", "open"]}).json()
        gid, tokens = created["game"]["id"], {x["seat"]: x["token"] for x in created["seats"]}
        r = plainhttp.post(f"{s.http}/v1/games/{gid}/resign", json={}, headers={"Authorization": f"Bearer {tokens[0]}"})
        assert r.json()["status"] == "GAME_STATUS_RUNNING"
        assert plainhttp.post(f"{s.http}/v1/games/{gid}/join", json={}).json()["seat"] == 2
        g = plainhttp.post(f"{s.http}/v1/games/{gid}/resign", json={}, headers={"Authorization": f"Bearer {tokens[1]}"}).json()
        assert g["outcome"]["winners"] == [2] and g["outcome"]["endedBy"] == "forfeit", g["outcome"]
        created = plainhttp.post(f"{s.http}/v1/games", json={"engine": "goofspiel", "seats": ["human", "open", "open"]}).json()
        gid, token = created["game"]["id"], created["seats"][0]["token"]
        g = plainhttp.post(f"{s.http}/v1/games/{gid}/resign", json={}, headers={"Authorization": f"Bearer {token}"}).json()
        assert g["status"] == "GAME_STATUS_FINISHED" and g["outcome"]["endedBy"] == "abandoned", g


def test_game_ids_never_begin_with_a_dash():
    ids = [new_game_id() for _ in range(5000)]
    assert all(i[0].isalnum() and len(i) == 12 for i in ids)
    assert len(set(ids)) == len(ids)


def test_a_seat_token_is_never_taken_for_a_portal_jwt(monkeypatch):
    """A game id beginning with `eyJ` (one in 262,144 before ids avoided it) made its seat
    tokens look like JWTs: the server refused them as portal tokens (401)."""
    import tablero.server.app.repository as repository

    drawn = iter(["eyJhbGciOiJI", "x" * 12])
    monkeypatch.setattr(repository.secrets, "token_urlsafe", lambda n: next(drawn))
    assert new_game_id() == "x" * 12  # new ids skip the prefix
    monkeypatch.undo()
    import tablero.server.app.service as service

    monkeypatch.setattr(service, "new_game_id", lambda: "eyJpZCI6IjEi")  # an older game's id (the service draws ids)
    with ServerThread() as s:
        created = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe", "players": 2}).json()
        gid, token = created["game"]["id"], created["seats"][0]["token"]
        assert gid == "eyJpZCI6IjEi" and token.count(".") == 2
        r = plainhttp.post(f"{s.http}/v1/games/{gid}/actions", json={"action": {"type": "place", "cell": 4}},
                       headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text


def test_an_unknown_action_type_filter_is_refused_by_name():
    with ServerThread() as s:
        created = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe"}).json()
        gid, token = created["game"]["id"], created["seats"][0]["token"]
        url = f"{s.http}/v1/games/{gid}/legal-actions"
        auth = {"Authorization": f"Bearer {token}"}
        assert len(plainhttp.get(url, params={"type": "place"}, headers=auth).json()["actions"]) == 9
        r = plainhttp.get(url, params={"type": "nope"}, headers=auth)
        assert r.status_code == 400 and r.json()["error"]["message"] == \
            "tic-tac-toe has no action type 'nope'; its types: place"


def test_query_parameters_are_checked_like_body_fields():
    with ServerThread() as s:
        created = plainhttp.post(f"{s.http}/v1/games", json={"engine": "tic-tac-toe"}).json()
        gid = created["game"]["id"]
        r = plainhttp.get(f"{s.http}/v1/games/{gid}?version=1&bogus=2")
        assert r.status_code == 400 and r.json()["error"]["message"].startswith("unknown query parameter(s) bogus;")
        r = plainhttp.get(f"{s.http}/v1/games/{gid}/events?afterVersion=2")
        assert r.status_code == 400 and "afterVersion" in r.json()["error"]["message"]
        r = plainhttp.get(f"{s.http}/v1/games/{gid}?version=1&version=2")
        assert r.status_code == 400 and "given more than once: version" in r.json()["error"]["message"]
        assert plainhttp.get(f"{s.http}/v1/games/{gid}?version=1").json()["version"] == 1
