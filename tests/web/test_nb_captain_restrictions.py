"""Issue 38, item 5: the browser shows each Captain's "Restricciones a Preparar y Zarpar"
(El Océano Solitario, ../shared/rules/000_d80ea33544e097da.txt L537; L558-559: the Captain
prepares and launches "siguiendo cualquier restricción"; L317: "Toda la información es
pública"): a real view of a game against Starbuck (1 ship on the Dock at most) and Flask (2),
drawn by the page's own New Bedford renderer. (Marked browser and slow by its folder:
tests/markers.py on main.)"""

from __future__ import annotations

from tablero import engines


def test_each_captains_box_shows_its_prepare_and_launch_restrictions_and_what_they_mean_now(server, new_page):
    g = engines.LocalGame("new-bedford", seats=1, seed=3, options={"captains": ["starbuck", "flask"]})
    caps = {c["name"]: c["player"] for c in g.view(0)["captains"]["captains"]}
    for name in ("starbuck", "flask"):  # one ship of each on the Dock
        g.state["players"][caps[name]]["ships"][0]["at"] = "dock"
    page = new_page()
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    boxes = page.evaluate("""async (view) => {
        const r = (await import('/js/render/index.js')).rendererFor('new-bedford');
        const root = r.render({ view, seat: 0, held: [0], seatNames: null });
        return [...root.querySelectorAll('.captain')].map((b) => [b.dataset.player,
            (b.querySelector('.restrictions') || {}).textContent || '',
            (b.querySelector('.restrictions') || { getAttribute: () => '' }).getAttribute('aria-label')]);
    }""", g.view(0))
    got = {int(p): (text, label) for p, text, label in boxes}
    star, flask = got[caps["starbuck"]], got[caps["flask"]]
    assert star[1] == "Starbuck's Prepare and Launch restrictions"
    assert "Prepare: only when none of his ships waits on the Dock" in star[0]
    assert "He cannot prepare now (1 of his ships is on the Dock)" in star[0]
    assert "Prepare: only while fewer than 2 of his ships wait on the Dock" in flask[0]
    assert "He can prepare now" in flask[0]
    for text, _ in (star, flask):
        assert "Launch: only to the exact space of the heading" in text


def test_each_captains_box_reads_in_spanish(server, new_page):
    """The same boxes with the page in Spanish: the personality, the Helm, the heading, the Orders
    and the restrictions come from the catalogs (the view's `personality`, `heading_text`, `orders`
    and `restrictions.text` are English)."""
    import re

    g = engines.LocalGame("new-bedford", seats=1, seed=3, options={"captains": ["starbuck", "flask"]})
    caps = {c["name"]: c["player"] for c in g.view(0)["captains"]["captains"]}
    g.state["players"][caps["starbuck"]]["ships"][0]["at"] = "dock"
    page = new_page(lang="es")
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    boxes = page.evaluate("""async (view) => {
        await (await import('/js/i18n.js')).loadCatalog('new-bedford');
        const r = (await import('/js/render/index.js')).rendererFor('new-bedford');
        const root = r.render({ view, seat: 0, held: [0], seatNames: null, engine: 'new-bedford' });
        return Object.fromEntries([...root.querySelectorAll('.captain')].map((b) => [b.dataset.player, b.innerText]));
    }""", g.view(0))
    star, flask = boxes[str(caps["starbuck"])], boxes[str(caps["flask"])]
    assert "Hábil en todos los aspectos del negocio" in star and "El experto ballenero" in flask
    assert "Edificios de Starbuck → Acciones de Ciudad y del Tablero ballenero → Edificios de los rivales" in star
    assert "cambia el Rumbo a leña y vuelve al paso 1" in star
    assert "Preparar: solo cuando ninguno de sus barcos espera en el Muelle" in star
    assert "Ahora no puede preparar (1 de sus barcos está en el Muelle)" in star
    assert "hacer zarpar un barco al espacio 4" in star  # a Helm step
    english = re.compile(r"\b(the|and|his|heading|buildings|Prepare|Launch|step|Skilled|whaler|launch|lumber)\b")
    for text in (star, flask):
        assert not english.findall(text), english.findall(text)


def test_a_captains_turns_read_in_spanish_in_the_pages_log(server, new_page):
    """The log's sentences of a Captain's turn: its heading by the catalog (`combo:5`), and a
    worker it cannot place with why (the engine's `why`, not its English `reason`)."""
    g = engines.LocalGame("new-bedford", seats=1, seed=3, options={"captains": ["ahab"]})
    a = g.view(0)["captains"]["captains"][0]["player"]
    heading = {"type": "captain_heading", "player": a, "captain": "ahab", "roll": 2, "from": 0, "to": 2,
               "heading": "combo:5", "text": "rolled 2: heading prepare, or else launch to space 5"}
    skipped = g.event_view({"type": "captain_worker_skipped", "player": a, "captain": "ahab", "inn_placement": False,
                            "reason": "Ahab drew a token he could not keep: his worker is not placed this round"})
    page = new_page(lang="es")
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    said = page.evaluate("""async ([view, events]) => {
        await (await import('/js/i18n.js')).loadCatalog('new-bedford');
        const r = (await import('/js/render/index.js')).rendererFor('new-bedford');
        const { describeEvent } = await import('/js/words.js');
        const ctx = { view, seat: 0, held: [0], engine: 'new-bedford', seatNames: r.seatNames({ view }) };
        return events.map((e) => describeEvent(e, ctx, r));
    }""", [g.view(0), [heading, skipped]])
    assert said == ["El Capitán Ahab saca un 2 y pone rumbo a: preparar, o si no zarpar al espacio 5.",
                    "El Capitán Ahab no coloca trabajador (Ahab sacó una ficha que no pudo quedarse: su trabajador "
                    "no se coloca esta ronda)."], said


def test_no_whales_and_no_sea_tokens_read_ninguna_in_spanish(server, new_page):
    """"Ballenas guardadas" and "Fichas de mar robadas" are feminine: their empty value reads
    "ninguna", not the generic "ninguno" (an outside tester's finding); English keeps "none"."""
    g = engines.LocalGame("new-bedford", seats=2, seed=3)
    for lang, label, none in (("es", "Ballenas guardadas:", "ninguna"), ("en", "Whales kept:", "none")):
        page = new_page(lang=lang)
        page.goto(server.url + "/#/")
        page.wait_for_selector(".engines label")
        text = page.evaluate("""async (view) => {
            await (await import('/js/i18n.js')).loadCatalog('new-bedford');
            const r = (await import('/js/render/index.js')).rendererFor('new-bedford');
            return r.render({ view, seat: 0, held: [0], seatNames: null, engine: 'new-bedford' }).innerText;
        }""", g.view(0))
        assert f"{label} {none}" in text, text[:600]
        assert f"{label} ninguno" not in text


def test_captains_take_their_article_in_the_spanish_log(server, new_page):
    """The page's log names a Captain as Spanish does ("edificio del Capitán Ahab", "del Capitán",
    "El Capitán Ahab compra…", the catalog's `label.name_contractions`), and a Captain's pass at his
    whale limit in Spanish, not the engine's English."""
    import random
    import re

    shown = []
    for seed in range(4):
        g = engines.LocalGame("new-bedford", seats=1, seed=seed, options={"captains": ["ahab", "starbuck", "flask"]})
        rng = random.Random(seed)
        while g.outcome() is None:
            g.act(min(g.to_act()), rng.choice(g.legal_actions(min(g.to_act()))))
        events = [g.event_view(e) for e in g.events if e["type"] in (
            "worker_placed", "whale_picked", "whale_bought", "pick_passed", "buy_passed", "round_ended")]
        shown.append((g.view(0), events))
    page = new_page(lang="es")
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    lines = page.evaluate("""async (games) => {
        await (await import('/js/i18n.js')).loadCatalog('new-bedford');
        const r = (await import('/js/render/index.js')).rendererFor('new-bedford');
        return games.flatMap(([view, events]) => {
            const seatNames = r.seatNames({ view });  // as the app names the seats (app.js ctxBase)
            return events.map((e) => r.describeEvent(e, { view, seat: 0, held: [0], seatNames, engine: 'new-bedford' }));
        });
    }""", shown)
    text = "\n".join(line for line in lines if "Capit" in line)
    assert not re.search(r"(?:\b(?:a|de|empieza)\s+|^|[(:]\s*)Capit(?:án|anes)\b", text, re.M), text[:2000]
    for wanted in (r"1\s?\$ de tarifa a la reserva \(edificio del Capitán \w+\)", r"El barco \d del Capitán \w+ captura",
                   r"^El Capitán \w+ compra", r"la próxima empieza el Capitán \w+"):
        assert re.search(wanted, text, re.M), wanted
    assert "whale limit" not in text and "cannot afford" not in text


def test_ahabs_most_and_combo_orders_read_in_spanish_first(server, new_page):
    """Outside review: Ahab's Orders read "Most (el Edificio que más da) → … → Combo (…)" in
    Spanish, English words first. The Spanish solo rules (El Océano Solitario, ../shared/rules/
    000_d80ea33544e097da.txt L574: "(casa negra) Most y (casa negra) Combo") name the two orders so:
    the entry says what the order does in Spanish, the rules' name after it in brackets."""
    import re

    g = engines.LocalGame("new-bedford", seats=1, seed=3, options={"captains": ["ahab"]})
    ahab = g.view(0)["captains"]["captains"][0]["player"]
    page = new_page(lang="es")
    page.goto(server.url + "/#/")
    page.wait_for_selector(".engines label")
    orders = page.evaluate("""async ([view, player]) => {
        await (await import('/js/i18n.js')).loadCatalog('new-bedford');
        const r = (await import('/js/render/index.js')).rendererFor('new-bedford');
        const root = r.render({ view, seat: 0, held: [0], seatNames: null, engine: 'new-bedford' });
        return [...root.querySelectorAll(`.captain[data-player="${player}"] .orders li`)].map((li) => li.textContent).join('\\n');
    }""", [g.view(0), ahab])
    assert "Edificio que más da (Most)" in orders and "Edificio que más combina (Combo)" in orders, orders
    assert not re.search(r"(^|→ )(Most|Combo)\b", orders, re.M), orders
