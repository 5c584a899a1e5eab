"""Building precise Founders of Gloomhaven states: start a seeded game, clear the map,
then place tiles and roads by hand (thematic side, 15 x 16; cell = y * 15 + x).

These states are built on the map and data of versions 1-4 (`edition.json`): `game()` marks
them version 4 unless told otherwise. The rules code is the same for version 5, which only
plays other data (`edition5.json`); its map and data are tested in `test_edition_v5.py`."""

from __future__ import annotations

from tablero.engines.founders_of_gloomhaven import data as D
from tablero.engines.founders_of_gloomhaven.board import board_of
from tablero.engines.founders_of_gloomhaven.events import _add_tile

from tablero import engines

ENGINE = engines.get("founders-of-gloomhaven")
W = 15
RACES = ["quatryl", "aesther", "human", "vermling"]  # metal, knowledge, population, wood


def C(x: int, y: int) -> int:
    return y * W + x


def game(seats: int = 4, seed: int = 1, options: dict | None = None, money: int = 20,
         version: int = 4) -> engines.LocalGame:
    opts = {"races": RACES[:seats], **({"setup": "dealt"} if seats > 1 else {}), **(options or {})}
    g = engines.LocalGame("founders-of-gloomhaven", seats=seats, seed=seed, options=opts)
    st = g.state
    st["version"] = version  # the map and data of that version (the state is cleared below)
    st["occ"] = [-1] * board_of(st).size
    st["tiles"] = []
    st["supply"] = dict(D.SUPPLY)
    for p in st["players"]:
        p["money"] = money
    return g


def resources(g, seat: int, res: list[str]) -> None:
    g.state["players"][seat]["resources"] = list(res)


def tile(g, kind: str, res: str | None, owner: int | None, cells: list[int], claims=(), prereq=()) -> int:
    st = g.state
    tid = _add_tile(st, kind, res, owner, cells, claims, prereq)
    if res is not None:
        st["supply"][res] -= 1
    return tid


def bridge(g, owner: int, cell: int) -> int:
    st = g.state
    tid = len(st["tiles"])
    st["tiles"].append({"kind": "bridge", "res": None, "owner": owner, "cells": [cell], "claims": [],
                        "section": None, "prereq": []})
    st["occ"][cell] = tid
    st["players"][owner]["bridges"] += 1
    return tid


def roads(g, *cells: int) -> None:
    for c in cells:
        g.state["occ"][c] = -2


def prestige(g, card: str, cells: list[int], delivered=None) -> int:
    st = g.state
    tid = _add_tile(st, "prestige", None, None, cells, card=card)
    n = len(D.edition(st).PRESTIGE[card]["requires"])
    st["prestige"].append({"card": card, "tile": tid, "delivered": list(delivered or [None] * n),
                           "complete": False, "worker": None, "claim": False})
    return len(st["prestige"]) - 1


def turn(g, seat: int) -> None:
    """Make `seat` the active player about to play a card."""
    st = g.state
    st["active"] = seat
    st["cur"] = {"seat": seat, "role": "play"}
    st["turn"] = {"category": None, "queue": [], "refill": False, "completions_before": st["completions"]}


def lead(g, seat: int, card: str) -> list[dict]:
    turn(g, seat)
    hand = g.state["players"][seat]["hand"]
    if card not in hand:
        hand.append(card)
    return g.act(seat, {"type": "play_card", "card": card, "face_up": True})


def types(events) -> list[str]:
    return [e["type"] for e in events]


def points(g, seat: int) -> int:
    return sum(g.state["players"][seat]["score"].values())


def cast_votes(g, votes: list[tuple[int, int, int]]) -> list[dict]:
    """Every seat votes (proposal, fleeting, lasting) in seat order, given the influence it spends."""
    out = []
    for seat, (_, f, la) in enumerate(votes):
        g.state["players"][seat]["fleeting"] = max(f, g.state["players"][seat]["fleeting"])
        g.state["players"][seat]["lasting"] = max(la, g.state["players"][seat]["lasting"])
    for seat, (prop, f, la) in enumerate(votes):
        out += g.act(seat, {"type": "vote", "proposal": prop, "fleeting": f, "lasting": la})
    return out
