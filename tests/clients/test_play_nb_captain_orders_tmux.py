"""`play` against a Captain in a real terminal (tmux) at 80x24: the board shows the Captain's Orders,
a line per step, in the language played (the terminal never showed them; the browser did)."""

from __future__ import annotations

import pytest

from .test_play_tmux import _ready

pytestmark = [pytest.mark.slow, pytest.mark.tools]  # tmux, as tests/clients/test_play_tmux.py

SHOWN = {
    "en": ("choose>", ["│ orders ", "│ 1. Most (the building giving most) →", "│ 3. reroll the Helm and go back to step 1 "]),
    "es": ("elige>", ["│ órdenes ", "│ 1. Edificio que más da (Most) →", "│ 3. vuelve a tirar el Timón y vuelve al"]),
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_ahabs_orders_are_on_the_board_at_80x24(server, tmux, lang):
    options = '{"captains": ["ahab"]}'
    tmux.start(f"python -m tablero_client --url {server.http} --lang {lang} play new-bedford --options '{options}' --width 80")
    tmux.tmux("resize-window", "-t", "play", "-x", "80", "-y", "24")
    prompt, lines = SHOWN[lang]
    text = tmux.wait(_ready(1, prompt), timeout=120)
    assert "Traceback" not in text and "renderer failed" not in text, text[-4000:]
    for line in lines:
        assert line in text, (line, text[-6000:])
    tmux.keys("q", "Enter")
    assert "EXITED 0" in tmux.wait(lambda s: "EXITED" in s)
