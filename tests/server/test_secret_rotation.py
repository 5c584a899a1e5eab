"""Rotating TABLERO_SECRET as README and docs/operations.md say (`new:<secret>,old:<secret>`)
keeps the seat tokens issued under the single secret working, on a real server restarted
on the same store; a token whose key id is no longer listed is refused naming it."""

from tests import plainhttp
from tests.server.conftest import auth
from tests.server.support import ServerProcess

OLD = "old-secret-0123456789abcdef"
NEW = "new-secret-0123456789abcdef"


def _move(server, gid, token, cell):
    return plainhttp.post(f"{server.http}/v1/games/{gid}/actions", headers=auth(token), timeout=10,
                      json={"action": {"type": "place", "cell": cell}})


def test_the_documented_rotation_recipe_keeps_old_tokens_valid(tmp_path):
    db = str(tmp_path / "games.db")
    with ServerProcess({"TABLERO_DB": db, "TABLERO_SECRET": OLD}) as before:
        out = plainhttp.post(f"{before.http}/v1/games", json={"engine": "tic-tac-toe", "players": 2}, timeout=10).json()
        gid, (x, o) = out["game"]["id"], [s["token"] for s in out["seats"]]
        assert x.count(".") == 2  # the single secret's form: <game>.<seat>.<signature>, key id 0
    # The recipe, with the old secret under a name of the operator's choosing.
    with ServerProcess({"TABLERO_DB": db, "TABLERO_SECRET": f"new:{NEW},old:{OLD}"}) as rotated:
        r = _move(rotated, gid, x, 4)
        assert r.status_code == 200, r.text
        fresh = plainhttp.post(f"{rotated.http}/v1/games", json={"engine": "tic-tac-toe", "players": 2},
                           timeout=10).json()
        fresh_gid, fresh_x = fresh["game"]["id"], fresh["seats"][0]["token"]
        assert fresh_x.split(".")[2] == "new"
    # The old secret dropped: its tokens open nothing; a token of a key id not listed says which.
    with ServerProcess({"TABLERO_DB": db, "TABLERO_SECRET": f"newer:{OLD[::-1]},new:{NEW}"}) as later:
        r = _move(later, gid, o, 0)
        assert r.status_code == 401 and r.json()["error"]["reason"] == "TOKEN_INVALID", r.text
        assert _move(later, fresh_gid, fresh_x, 4).status_code == 200
    with ServerProcess({"TABLERO_DB": db, "TABLERO_SECRET": f"newer:{OLD[::-1]}"}) as last:
        r = _move(last, fresh_gid, fresh_x, 0)
        assert r.status_code == 401, r.text
        msg = r.json()["error"]["message"]
        assert "key id 'new'" in msg and "'newer'" in msg and NEW not in msg and OLD[::-1] not in msg, msg
