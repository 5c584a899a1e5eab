"""The SDK and the CLI name bot levels (issue 34): "bot:medium", "bot:hard", `play --bot hard`."""

from __future__ import annotations

import argparse

import pytest
from tablero_client.cli import parser
from tablero_client.client import _create_body, seat_kind


def test_seat_kinds_with_levels():
    assert seat_kind("bot") == "bot" and seat_kind("bot:easy") == "bot"
    assert seat_kind("BOT:Hard") == "bot:hard" and seat_kind("seat_kind_bot:medium") == "bot:medium"
    body = _create_body("riverboat", None, None, ["human", "bot:hard"])
    assert body == {"engine": "riverboat", "seats": ["human", "bot:hard"], "players": 2}
    for bad in ("bot:expert", "human:hard", "robot"):
        with pytest.raises(ValueError, match="unknown seat kind"):
            seat_kind(bad)


def test_play_takes_the_bots_level():
    ns = parser().parse_args(["play", "riverboat", "--bot", "hard"])
    assert isinstance(ns, argparse.Namespace) and ns.bot == "hard"
    with pytest.raises(SystemExit):
        parser().parse_args(["play", "riverboat", "--bot", "expert"])
