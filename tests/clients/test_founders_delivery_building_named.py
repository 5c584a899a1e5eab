"""Founders of Gloomhaven in the terminal: a delivery to a prestige building names the building.
Found playing in Spanish (`tablero play founders-of-gloomhaven`, seat 1 against a medium bot): the
log said `» v207 Se entrega arcilla a 4.` (the event's `building`, its place among the prestige
buildings placed) when the building was placed in the same write as the delivery: the watcher
words each event with the view from before that write, which did not list the building yet. The
browser names it from the log (`prestigeThen`); the terminal follows the log the same way now.
The Spanish sentence itself did not agree with a plural resource ("Se entrega animales a …")."""

from __future__ import annotations

from tablero.engines.core.testkit import random_turns
from tablero_client.models import Game, SeatInfo
from tablero_client.render import describe_event, follow, i18n

ENGINE = "founders-of-gloomhaven"


def _game(view: dict, version: int, gid: str) -> Game:
    return Game(id=gid, engine=ENGINE, version=version, players=2, status="GAME_STATUS_RUNNING", to_act=[],
                view=view, seats=[SeatInfo(seat=i, kind="SEAT_KIND_HUMAN") for i in range(2)], your_seat=0,
                outcome=None)


def _a_write_that_places_and_delivers():
    """(the view before the write, the events up to and with the write, the delivered event, its card)."""
    for seed in range(1, 30):
        before, prev_len = None, 0
        for g, _seat, _legal in random_turns(ENGINE, 2, seed):
            new = g.events[prev_len:]
            types = [e["type"] for e in new]
            if before is not None and "prestige_placed" in types and "delivered" in types:
                placed = [e["card"] for e in g.events if e["type"] == "prestige_placed"]
                for e in new[types.index("prestige_placed"):]:
                    if e["type"] == "delivered" and e["building"] == len(placed) - 1:
                        return before, g.events[:], e, placed[-1]
            before, prev_len = g.view(0), len(g.events)
    raise AssertionError("no random game placed a building and delivered to it in one write")


def test_a_delivery_to_a_building_placed_in_the_same_write_names_it():
    view, log, delivered, card = _a_write_that_places_and_delivers()
    before = i18n.current_language()
    try:
        for lang in ("es", "en"):
            i18n.set_language(lang)
            game = _game(view, len(log), f"g-{lang}")
            for e in log:
                follow(e, game)
            text = describe_event(delivered, game)
            cat = i18n.catalog(ENGINE, lang)
            assert not text.rstrip(".").endswith(f" {delivered['building']}"), text
            assert cat.format(f"name.{card}").replace("’", "'") in text.replace("’", "'"), (text, card)
    finally:
        i18n.set_language(before)


def test_a_delivery_reads_as_spanish():
    """"Se entrega animales a Tienda de Lujo." (a singular verb for a plural resource, and a building
    named without its article)."""
    before = i18n.current_language()
    i18n.set_language("es")
    try:
        view, log, delivered, card = _a_write_that_places_and_delivers()
        game = _game(view, len(log), "g-es-words")
        for e in log:
            follow(e, game)
        name = i18n.catalog(ENGINE, "es").format(f"name.{card}")
        for res, word in (("animals", "animales"), ("clay", "arcilla")):
            text = describe_event({**delivered, "resource": res}, game)
            assert text == f"Entrega de {word} al edificio de prestigio {name}.", text
    finally:
        i18n.set_language(before)


def test_a_log_followed_from_the_middle_names_the_building_from_the_view():
    """A log that does not start at the game's start (a trimmed log) leaves the placements before
    it unknown: the places are then read from the view, never counted from the placements seen."""
    view, log, delivered, _card = _a_write_that_places_and_delivers()
    placed = [e["card"] for e in log if e["type"] == "prestige_placed"]
    if len(placed) < 2:  # the write's building was the first: deliver to it, seen from after it
        placed.append(placed[0])
    later = _game({**view, "prestige": [{"card": c} for c in placed]}, len(log), "g-mid")
    last = max(i for i, e in enumerate(log) if e["type"] == "prestige_placed")
    for e in log[last:]:  # from the last placement on: the earlier ones are not seen
        follow(e, later)
    text = describe_event({**delivered, "building": 0}, later)  # the first building placed
    assert i18n.catalog(ENGINE, "en").format(f"name.{placed[0]}").replace("’", "'") in text.replace("’", "'"), text
