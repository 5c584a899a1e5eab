"""A live stream that dies without saying so (a laptop that slept, a proxy or NAT that dropped
the connection): no close, no error, just nothing more. The server sends a keep-alive comment
every 15 s, so a page that hears nothing for longer drops the stream and watches again from
the last version it holds; the moves made meanwhile arrive once each, without a reload."""

from __future__ import annotations

from tests import plainhttp
from tests.relay import FreezingRelay

from .api_play import ApiGame


def test_a_stream_that_goes_silent_is_dropped_and_the_page_catches_up(server, new_page):
    proxy = FreezingRelay(int(server.url.rsplit(":", 1)[1]))
    try:
        game = ApiGame(server.url, "tic-tac-toe", ["human", "human"])
        page = new_page()
        page.add_init_script("globalThis.TABLERO_SSE_SILENCE_MS = 1500")
        game.hold(page, [1])
        page.goto(f"http://127.0.0.1:{proxy.port}/#/g/{game.id}")
        page.wait_for_selector(".live.live")
        assert proxy.freeze() >= 1  # the page's stream is now dead without knowing it
        auth = {"Authorization": f"Bearer {game.tokens[0]}"}
        for cell, version in ((0, 1), (8, 3)):
            r = plainhttp.post(f"{game.path}/actions", headers=auth,
                           json={"action": {"type": "place", "cell": cell}, "expectedVersion": version})
            assert r.status_code == 200, r.text
            # The page hears nothing on the frozen stream; after 1.5 s of silence it watches again.
            page.wait_for_selector(f'.ttt-cell[data-cell="{cell}"].mark-X', timeout=15_000)
            page.click('.ttt-cell.pickable[data-cell="4"]' if cell == 0 else '.ttt-cell.pickable[data-cell="2"]')
            page.wait_for_selector(f'.ttt-cell[data-cell="{4 if cell == 0 else 2}"].mark-O')
            proxy.freeze()
        assert [e["type"] for e in game.events()].count("mark_placed") == 4  # each move once
        page.wait_for_selector(".live.live")
    finally:
        proxy.close()
