"""The move list repeated a lone move under a heading that said the same ("Tomar dinero" over a
"Tomar dinero" button, "Tomar influencia" over "Tomar influencia": Founders' basic actions after
a card played face down). A kind of move with several buttons keeps its heading."""

from __future__ import annotations

from tests import plainhttp

from .api_play import ApiGame


def test_a_lone_button_is_not_headed_by_its_own_words(server, new_page):
    game = ApiGame(server.url, "founders-of-gloomhaven", ["human"])
    auth = {"Authorization": f"Bearer {game.tokens[0]}"}
    out = plainhttp.get(f"{game.path}/legal-actions", headers=auth, timeout=30).json()
    down = next(a for a in out["actions"] if a["type"] == "play_card" and not a.get("face_up"))
    r = plainhttp.post(f"{game.path}/actions", headers=auth, timeout=30, json={"action": down})
    assert r.status_code == 200, r.text
    page = new_page(390, 844, lang="es")
    game.hold(page, [0])
    page.goto(f"{server.url}/#/g/{game.id}")
    page.wait_for_selector(".composer button.act")
    groups = page.evaluate("""() => [...document.querySelectorAll('.composer .group')].map((g) => ({
        heading: g.querySelector('h4') ? g.querySelector('h4').textContent : null,
        buttons: [...g.querySelectorAll('button')].map((b) => b.textContent) }))""")
    lone = [g for g in groups if len(g["buttons"]) == 1]
    assert any(g["buttons"] == ["Tomar dinero"] for g in lone), groups
    assert not [g for g in lone if g["heading"] and g["buttons"][0].startswith(g["heading"])], groups
    assert any(g["heading"] and len(g["buttons"]) > 1 for g in groups) or len(groups) == len(lone), groups
