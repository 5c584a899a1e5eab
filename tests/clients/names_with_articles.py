"""Sentences that put a space's or a building's name into a template, and the possessive labels of
the viewer's own seat, as both clients must word them (tests/clients/test_names_with_articles.py,
the terminal; tests/web/test_names_with_articles.py, the browser).

Spanish read "Trabajador a Granja", "coloca un trabajador en Ayuntamiento", "mueve a un trabajador
de Caza a Minería": a name needs its article where the sentence does, and each catalog now gives
it as data (`the.<value>`: "la Granja", "el Banco"; the template names `{<field>_the}`, and
"a el" / "de el" contract to "al" / "del"). English read "Worker to Farm" the same way. And
"{p0}’s pending step is dropped": labels of the viewer's own seat use `who_you`.
The cases are each engine's own values (the schemas' enums), worded for seat 0; `{p0}` and `{p1}`
stand for seats 0 and 1 as each client names them."""

from __future__ import annotations

# (engine, "action" | "event", the action or event, {lang: how the sentence starts})
CASES = [
    ("new-bedford", "action", {"type": "place_worker", "space": "farm"},
     {"es": "Trabajador a la Granja", "en": "Worker to the Farm"}),
    ("new-bedford", "action", {"type": "place_worker", "space": "bank"},
     {"es": "Trabajador al Banco", "en": "Worker to the Bank"}),
    ("new-bedford", "event", {"type": "worker_placed", "seat": 1, "space": "town_hall", "build": "bakery"},
     {"es": "{p1} coloca un trabajador en el Ayuntamiento; construye la Panadería",
      "en": "{p1} places a worker on the Town Hall; builds the Bakery"}),
    ("new-bedford", "event", {"type": "inn_workers_picked_up", "seat": 1, "spaces": ["bank", "farm"]},
     {"es": "{p1} recoge sus trabajadores del Banco y la Granja (Posada)",
      "en": "{p1} picks up their workers from the Bank and the Farm (Inn)"}),
    ("founders-of-gloomhaven", "action", {"type": "place_worker", "target": "golden_lion"},
     {"es": "Trabajador al León Dorado", "en": "Worker to The Golden Lion"}),
    ("founders-of-gloomhaven", "action", {"type": "place_worker", "target": "armory"},
     {"es": "Trabajador a la Armería", "en": "Worker to the Armory"}),
    ("founders-of-gloomhaven", "event", {"type": "completed", "building": 0, "card": "watchtower"},
     {"es": "Se completa la Atalaya.", "en": "The Watchtower is complete."}),
    ("phoenicia", "event", {"type": "worker_moved", "seat": 1, "from": "hunting", "from_tile": 0, "tableau": "mining"},
     {"es": "{p1} mueve a un trabajador de la Caza a la Minería.", "en": "{p1} moves a worker from Hunting to Mining."}),
    ("phoenicia", "action", {"type": "employ", "tableau": "farming"},
     {"es": "Emplear a un trabajador en la Agricultura", "en": "Employ a worker in Farming"}),
    ("phoenicia", "event", {"type": "payment_requested", "seat": 0, "price": 3,
                            "action": {"type": "buy_tool", "tableau": "hunting"}},
     {"es": "{p0} debe pagar 3$ para comprar una herramienta para la Caza.",
      "en": "{p0} must pay $3 to buy a tool for Hunting."}),
    ("riverboat", "event", {"type": "pending_dropped", "seat": 0, "reason": "declined"},
     {"es": "Se descarta tu paso pendiente (rechazado).", "en": "Your pending step is dropped (declined)."}),
    ("riverboat", "event", {"type": "pending_dropped", "seat": 1, "reason": "declined"},
     {"es": "Se descarta el paso pendiente de {p1} (rechazado).", "en": "{p1}’s pending step is dropped (declined)."}),
    ("riverboat", "event", {"type": "crop_tiles_refilled", "seat": 0, "fills": []},
     {"es": "Ninguna loseta de cultivo boca arriba cabe bajo tus trabajadores:",
      "en": "No face-up crop tile fits your workers:"}),
]


def starts(line: str, said: str) -> bool:
    """Whether `line` starts with `said`, a seat's name at the start capitalised or not."""
    return (line[:1].lower() + line[1:]).startswith(said[:1].lower() + said[1:])
