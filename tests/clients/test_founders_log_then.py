"""Founders of Gloomhaven in the terminal: a vote's log line names the proposal it was about. Events
carry a proposal's place (`winner`, `proposal`: 0-2), and the terminal named that place from the
view as it is now: once the proposals on the table had been drawn again, an old vote's line (as told
to a seat coming back with `play --game`) named the building now in that place, not the one voted
for and placed. The log is followed as the engine deals and draws (the browser's proposalsThen)."""

from __future__ import annotations

import random

from rich.console import Console
from tablero_client import Client
from tablero_client.play import tell_so_far
from tablero_client.render import i18n
from tablero_client.render.founders_of_gloomhaven import _printed

from tests.web.api_play import ApiGame

ENGINE = "founders-of-gloomhaven"


def _voted_and_placed(log: list[dict]) -> list[tuple[int, int, str]]:
    """(version, proposal won, the card then placed) of each vote whose winner was placed as it was
    (no building found unplaceable and replaced in between): the card is the event's own fact."""
    out = []
    for i, e in enumerate(log):
        if e["event"].get("type") != "votes_revealed" or not isinstance(e["event"].get("winner"), int):
            continue
        nxt = next((x["event"] for x in log[i + 1:] if x["event"].get("type") in
                    ("prestige_placed", "prestige_unplaceable", "votes_revealed")), None)
        if nxt is not None and nxt["type"] == "prestige_placed":
            out.append((e["version"], e["event"]["winner"], nxt["card"]))
    return out


def test_an_old_votes_line_names_the_building_voted_for_not_the_one_in_its_place_now(server) -> None:
    game = ApiGame(server.http, ENGINE, ["human", "bot"])
    game.play(random.Random(7), lambda g: False, max_moves=3000)
    with Client(rest=server.http) as c:
        i18n.set_language("en")
        i18n.load(c, "tablero")
        i18n.load(c, ENGINE)
        seat = c.seat(game.id, game.tokens[0])
        now = seat.game()
        log = [{"version": ev.version, "event": ev.event} for ev in seat.events()]
        votes = _voted_and_placed(log)
        # the test means something: some vote's winning place holds another building now
        on_table = now.view.get("proposals") or []
        assert any(w >= len(on_table) or on_table[w] != card for _, w, card in votes), (votes, on_table)
        con = Console(record=True, width=1000, color_system=None)
        lines = dict((v, text) for v, text, _ in tell_so_far(seat, now, 0, con, limit=10_000))
    assert len(votes) >= 2, votes
    for version, w, card in votes:
        assert f"proposal {w + 1} ({_printed(now.view, card)}) wins" in lines[version], (lines[version], card)
