"""Seat tokens name the key that signed them, so the secret rotates without breaking live games."""

import pytest
from tablero.server.portal.tokens import SeatTokens, TokenError, WrongGame, parse_secrets

OLD = "old-secret-0123456789abcdef"
NEW = "new-secret-0123456789abcdef"


def test_a_single_secret_keeps_todays_token_form():
    t = SeatTokens(OLD)
    token = t.issue("g1", 1)
    assert token.count(".") == 2 and t.verify(token, "g1") == 1


def test_rotation_old_tokens_keep_working_while_the_old_secret_is_listed():
    before = SeatTokens(OLD).issue("g1", 0)
    rotated = SeatTokens(f"k2:{NEW},0:{OLD}")
    assert rotated.verify(before, "g1") == 0
    fresh = rotated.issue("g1", 1)
    assert fresh.split(".")[2] == "k2" and rotated.verify(fresh, "g1") == 1
    # Once the old secret is dropped, its tokens open nothing.
    with pytest.raises(TokenError, match="invalid"):
        SeatTokens(f"k2:{NEW}").verify(before, "g1")
    assert SeatTokens(f"k2:{NEW}").verify(fresh, "g1") == 1


@pytest.mark.parametrize("token", ["", "g1", "g1.x.sig", "g1.01.sig", "g1.99999.sig", "a.b.c.d.e", "g1.0.sïg"])
def test_malformed_tokens(token):
    with pytest.raises(TokenError):
        SeatTokens(OLD).verify(token, "g1")


def test_another_games_token_is_wrong_game_not_invalid():
    t = SeatTokens(OLD)
    with pytest.raises(WrongGame):
        t.verify(t.issue("g2", 0), "g1")


@pytest.mark.parametrize(("text", "msg"), [("", "empty"), ("a:", "kid:secret"), ("bad kid!:x", "key id"),
                                           ("a:x,a:y", "twice")])
def test_bad_secret_settings(text, msg):
    with pytest.raises(ValueError, match=msg):
        parse_secrets(text)


def test_a_verified_token_is_remembered_and_still_opens_only_its_own_game(monkeypatch):
    t = SeatTokens(OLD)
    token = t.issue("g1", 1)
    assert t.verify(token, "g1") == 1
    # Remembered: no signature is computed again for it...
    monkeypatch.setattr(SeatTokens, "_sig", staticmethod(lambda *a: pytest.fail("signed again")))
    assert t.verify(token, "g1") == 1
    # ...and it still opens no other game.
    with pytest.raises(WrongGame):
        t.verify(token, "g2")
    # A forged token was never remembered: it is checked (and refused) every time.
    monkeypatch.undo()
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    for _ in range(2):
        with pytest.raises(TokenError, match="invalid"):
            t.verify(forged, "g1")


def test_a_token_this_server_issued_is_opened_without_signing_again(monkeypatch):
    t = SeatTokens(OLD)
    token = t.issue("g1", 0)
    monkeypatch.setattr(SeatTokens, "_sig", staticmethod(lambda *a: pytest.fail("signed again")))
    assert t.verify(token, "g1") == 0
    with pytest.raises(WrongGame):
        t.verify(token, "g2")
    # Another server with the same secret checks it once, then remembers it too.
    monkeypatch.undo()
    other = SeatTokens(OLD)
    assert other.verify(token, "g1") == 0


def test_the_memory_of_verified_tokens_is_bounded(monkeypatch):
    monkeypatch.setattr(SeatTokens, "VERIFIED_MAX", 10)
    t = SeatTokens(OLD)
    tokens = [t.issue(f"g{i}", 0) for i in range(25)]
    for i, token in enumerate(tokens):
        assert t.verify(token, f"g{i}") == 0
    assert len(t._verified) <= 10
    assert all(t.verify(token, f"g{i}") == 0 for i, token in enumerate(tokens))
