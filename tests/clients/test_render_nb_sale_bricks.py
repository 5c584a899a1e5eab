"""The terminal's words for a New Bedford goods sale count bricks as bricks: a step read
"Vender 3 de ladrillo" / "Sell 3 brick" (the browser said the same: one catalog), while the log
for the same step said "vende 3 ladrillos" / "sells 3 bricks"."""

from __future__ import annotations

from tablero_client.render import action_label, i18n

from tablero import engines

from .test_render_words_ph_nb import _game

SAID = {
    "es": {("brick", 1): "Vender 1 ladrillo", ("brick", 3): "Vender 3 ladrillos",
           ("brick", 0): "No vender ladrillo", ("lumber", 2): "Vender 2 de leña"},
    "en": {("brick", 1): "Sell 1 brick", ("brick", 3): "Sell 3 bricks",
           ("brick", 0): "Sell no brick", ("lumber", 2): "Sell 2 lumber"},
}


def test_a_sale_step_counts_bricks_in_both_languages():
    game = _game(engines.LocalGame("new-bedford", seats=2, seed=1), "new-bedford")
    for lang, said in SAID.items():
        i18n.set_language(lang)
        try:
            got = {k: action_label({"type": "sell_goods", "good": k[0], "count": k[1]}, game).split(" — ")[0]
                   for k in said}
        finally:
            i18n.set_language("en")
        assert got == said, got
