"""The SDK and the CLI name bot levels (issue 34): "bot:medium", "bot:hard", `play --bot hard`."""

from __future__ import annotations

import argparse

import pytest
from tablero_client.cli import parser
from tablero_client.client import _create_body, seat_kind
from tablero_client.errors import InvalidArgument

from tests import plainhttp


def test_seat_kinds_with_levels():
    # "bot:easy" keeps its level (the server then names it in botLevel); plain "bot" names none.
    assert seat_kind("bot") == "bot" and seat_kind("bot:easy") == "bot:easy"
    assert seat_kind("bot:hard") == "bot:hard" and seat_kind("SEAT_KIND_BOT") == "bot"
    body = _create_body("riverboat", None, None, ["human", "bot:hard"])
    assert len(body.pop("requestId")) == 32  # one of its own: a retry is the same create
    assert body == {"engine": "riverboat", "seats": ["human", "bot:hard"], "players": 2}
    for bad in ("bot:expert", "human:hard", "robot", "bot:", "BOT:HARD", "bot:Hard", "SEAT_KIND_BOT:hard", "Human"):
        with pytest.raises(InvalidArgument) as e:
            seat_kind(bad)
        assert e.value.reason == "INVALID_ARGUMENT" and repr(bad) in e.value.message


# Spellings of `seats`: what the SDK takes is what the server takes (the SDK refuses before sending).
SPELLINGS = ["human", "open", "bot", "bot:easy", "bot:medium", "bot:hard", "SEAT_KIND_HUMAN", "SEAT_KIND_BOT",
             "bot:", "bot:expert", "BOT:HARD", "bot:Hard", "SEAT_KIND_BOT:hard", "Human", "robot", "open:hard"]


@pytest.mark.parametrize("kind", SPELLINGS)
def test_the_sdk_takes_the_seat_kinds_the_server_takes(server, kind):
    try:
        seat_kind(kind)
        sdk = True
    except InvalidArgument:
        sdk = False
    r = plainhttp.post(f"{server.http}/v1/games", json={"engine": "riverboat", "seats": ["human", "human", kind]})
    assert r.status_code in (200, 400), r.text
    assert sdk == (r.status_code == 200), (kind, r.text)


@pytest.mark.parametrize("where", ["rest", "grpc"])
def test_a_bot_easy_seat_keeps_its_level_as_rest_does(server, where):
    """`bot:easy` was sent as plain `bot`, so the game named no level (REST and the TS SDK keep "easy")."""
    from tablero_client import Client

    with Client(**({"rest": server.http} if where == "rest" else {"grpc": server.grpc})) as c:
        game = c.create("riverboat", seats=["human", "bot:easy", "bot"]).game
    assert [s.bot_level for s in game.seats] == [None, "easy", None]
    raw = plainhttp.post(f"{server.http}/v1/games", json={"engine": "riverboat", "seats": ["human", "bot:easy"]}).json()
    assert raw["game"]["seats"][1].get("botLevel") == "easy"


def test_play_takes_the_bots_level():
    ns = parser().parse_args(["play", "riverboat", "--bot", "hard"])
    assert isinstance(ns, argparse.Namespace) and ns.bot == "hard"
    with pytest.raises(SystemExit):
        parser().parse_args(["play", "riverboat", "--bot", "expert"])


@pytest.mark.parametrize(("args", "seats"), [
    (["new-bedford", "--bot", "hard"], "seat 1 human, seat 2 bot (hard)"),
    (["founders-of-gloomhaven", "--bot", "medium"], "seat 1 human, seat 2 bot (medium)"),
    (["new-bedford", "--open", "1"], "seat 1 human, seat 2 open"),
    (["new-bedford"], "seat 1 human"),  # the engine's minimum: solo, as before
    (["riverboat", "--bot", "hard"], "seat 1 human, seat 2 bot (hard)"),
])
def test_play_makes_room_for_the_bot_it_was_asked_for(server, args, seats):
    """An outside pass: `tablero play new-bedford --bot hard` made a solo game (New Bedford's and
    Founders' smallest table is one seat) with no bot in it, and `--open 1` was refused."""
    from .conftest import cli

    p = cli("--url", server.http, "play", *args, check=False)
    first = p.stdout.splitlines()[0] if p.stdout else p.stderr
    assert first.endswith(f"you are seat 1; {seats}"), (p.stdout, p.stderr)


@pytest.mark.parametrize(("args", "said"), [
    (["riverboat", "--bot", "hard", "--open", "1", "--players", "2"],
     "--bot hard names no seat: of 2 seats one is yours and 1 open (give --players 3, or fewer --open seats)"),
    (["riverboat", "--bot", "medium", "--open", "3", "--players", "4"],
     "--bot medium names no seat: of 4 seats one is yours and 3 open (give fewer --open seats)"),
])
def test_play_refuses_a_bot_level_no_seat_is_left_for(server, args, said):
    """An outside pass: `tablero play riverboat --bot hard --open 1 --players 2` made a game of
    a human and an open seat, the --bot silently ignored."""
    from .conftest import cli

    p = cli("--url", server.http, "play", *args, check=False)
    assert p.returncode != 0 and said in p.stderr, (p.stdout, p.stderr)
    assert "you are seat" not in p.stdout, p.stdout  # no game made


@pytest.mark.parametrize(("lang", "names"), [
    ("en", ["seat 2 (hard bot)", "seat 3 (medium bot)", "seat 4 (bot)"]),
    ("es", ["asiento 2 (bot difícil)", "asiento 3 (bot medio)", "asiento 4 (bot)"]),
])
def test_the_terminal_names_a_bots_level_wherever_it_names_the_seat(server, lang, names):
    """An outside pass: only `play`'s first line said `seat 2 bot (hard)`; the board, the log and
    `show` said `seat 2 (bot)`, so a resumed game or a spectator never learnt the level (the
    browser's seat chips say it)."""
    from .conftest import cli

    r = plainhttp.post(f"{server.http}/v1/games",
                       json={"engine": "new-bedford", "seats": ["human", "bot:hard", "bot:medium", "bot"]}).json()
    p = cli("--url", server.http, "--lang", lang, "show", r["game"]["id"])
    for name in names:
        assert name in p.stdout, (name, p.stdout[:1500])
