"""The lobby offers an option only for the player counts it applies to (the schema's `x-players`):
Founders of Gloomhaven's "Solo section" (the solo game's difficulty) was offered for 2-4 players,
where the engine refuses it; its no-workers and Shaping history variants, which the engine refuses
in the solo game, were offered for one player."""

from __future__ import annotations

import pytest

from tests import plainhttp

from .api_play import unwrap

LABELS = {  # the lobby's labels, from the engine's catalog
    "es": {"solo_section": "Sección en solitario", "no_workers": "Sin trabajadores",
           "shaping_history": "Modelando la historia"},
    "en": {"solo_section": "Solo section", "no_workers": "No workers", "shaping_history": "Shaping history"},
}
SHOWN_AT = {"solo_section": [1], "no_workers": [2, 3, 4], "shaping_history": [2, 3, 4]}


def shown(page, label: str) -> bool:
    box = page.locator("form.create .options .field", has=page.locator("label", has_text=label))
    assert box.count() == 1, label
    return box.is_visible()


@pytest.mark.parametrize("lang", ["es", "en"])
def test_founders_options_show_only_for_the_player_counts_they_apply_to(server, new_page, lang):
    page = new_page(1280, 900, lang=lang)
    page.goto(server.url + "/#/")
    page.click("label[for=eng-founders-of-gloomhaven]")
    page.wait_for_selector("form.create .options")
    for n in (1, 2, 3, 4, 1):
        page.select_option("#players", str(n))
        seen = {opt: shown(page, label) for opt, label in LABELS[lang].items()}
        assert seen == {opt: n in counts for opt, counts in SHOWN_AT.items()}, (n, seen)


def test_an_option_chosen_then_hidden_is_not_sent(server, new_page):
    """Solo section chosen for one player, then a second seat: the game starts (the hidden choice
    is left out), where the engine would have refused it."""
    page = new_page(1280, 900)
    page.goto(server.url + "/#/")
    page.click("label[for=eng-founders-of-gloomhaven]")
    page.select_option("#players", "1")
    solo = page.locator("form.create .options .field", has=page.locator("label", has_text="Solo section"))
    solo.locator("select").select_option(label="Right")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "bot")
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith(".GameService/CreateGame")) as req:
        page.click("form.create button[type=submit]")
    assert "solo_section" not in req.value.post_data_json["options"]
    page.wait_for_selector(".board .fg .player")
    gid = page.evaluate("location.hash").split("/")[-1]
    assert unwrap(plainhttp.get(f"{server.url}/v1/games/{gid}").json())["players"] == 2
