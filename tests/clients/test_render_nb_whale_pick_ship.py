"""The terminal's waiting line for a New Bedford whale pick names the ship that picks: a player
with both ships hunting picks twice, and "Waiting for seat 1 (you): picking whales" never said
for which ship's hold. The viewer's own pick reads "Your move: …" ("Te toca: …"; was "Esperando a
asiento 1 (tú): …"); another seat's, "Waiting for seat 1: …"."""

from __future__ import annotations

from tablero_client.render import i18n, render

from tablero import engines

from .test_render_words_ph_nb import _game, _text


def _pick_with_both_ships_at_sea() -> engines.LocalGame:
    g = engines.LocalGame("new-bedford", seats=2, seed=0)
    for _ in range(3000):
        v = g.view(None)
        aw = v.get("awaiting") or {}
        if aw.get("decision") == "pick_whale" and aw.get("seat") == 0 and \
                sum(s.get("at") == "sea" for s in v["players"][0]["ships"]) == 2:
            return g
        assert g.outcome() is None, "the game ended with no pick by seat 1 with both ships hunting"
        g.play_random(max_steps=1)
    raise AssertionError("no such pick")


def test_the_waiting_line_names_the_ship_that_picks_a_whale():
    g = _pick_with_both_ships_at_sea()
    ship = g.view(0)["awaiting"]["ship"]
    for lang, you, said in (("en", 0, f"Your move: picking whales (Ship {ship})"),
                            ("es", 0, f"Te toca: captura de ballenas (Barco {ship})"),
                            ("en", 1, "Waiting for seat 1: picking whales"),
                            ("es", 1, "Esperando a asiento 1: captura de ballenas")):
        i18n.set_language(lang)
        try:
            text = _text(render(_game(g, "new-bedford", you)))
        finally:
            i18n.set_language("en")
        assert said in text, text[-1500:]
