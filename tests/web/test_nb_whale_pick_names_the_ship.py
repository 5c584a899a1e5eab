"""New Bedford's whaling: a player with both ships hunting picks a whale twice, once for each
ship, and the prompt "Rojo (tú): captura de ballenas" / "Waiting for seat 1 (you): whaling" never
said which ship's hold would take it (a whale in the far ship comes home later). The waiting line
now names the ship, in the browser and in the terminal."""

from __future__ import annotations

import random

import pytest

from .api_play import ApiGame


def _both_ships_hunting(g: ApiGame) -> bool:
    v = g.get()["view"]
    aw = v.get("awaiting") or {}
    if aw.get("decision") != "pick_whale":
        return False
    return sum(s.get("at") == "sea" for s in v["players"][aw["seat"]]["ships"]) == 2


@pytest.mark.parametrize(("lang", "said"), [("es", "captura de ballenas (Barco {ship})"),
                                            ("en", "picking whales (Ship {ship})")])
def test_a_whale_pick_names_the_ship_that_picks(server, new_page, lang, said):
    for seed in range(12):  # the server shuffles each game's bag: a game may never get there
        game = ApiGame(server.url, "new-bedford", ["human", "human"])
        game.play(random.Random(seed), _both_ships_hunting, max_moves=1500)
        if _both_ships_hunting(game):
            break
    assert _both_ships_hunting(game), "no pick by a seat with both ships hunting in 12 games"
    aw = game.get()["view"]["awaiting"]
    page = new_page(390, 844, lang=lang)
    game.hold(page, [0, 1])
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".board-game.nb")
    head = page.locator(".board-game.nb > .box").first.inner_text()
    assert said.format(ship=aw["ship"]) in head, head
