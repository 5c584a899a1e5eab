"""Issue 38, item 5: the player sees each Captain's "Restricciones a Preparar y Zarpar".

El Océano Solitario (../shared/rules/000_d80ea33544e097da.txt): L535-543 list the regions of a
Captain's board, "2. Restricciones a Preparar y Zarpar"; L558-559: the Captain prepares and
launches "siguiendo cualquier restricción de las Órdenes del Capitán"; L317: "Toda la
información es pública". Flask may keep 2 ships on the Dock, the other Captains 1 (our edition,
`captain_boards/*.json`)."""

from __future__ import annotations

import jsonschema

from .captain_helpers import cap, solo, turn
from .helpers import ENGINE, on_dock


def _restr(g, seat, name):
    c = next(c for c in g.view(seat)["captains"]["captains"] if c["name"] == name)
    return c["restrictions"]


def test_every_seat_sees_each_captains_prepare_and_launch_restrictions_which_differ_between_captains():
    g = solo(("starbuck", "flask"), seats=2)
    for seat in (0, 1, None):
        st, fl = _restr(g, seat, "starbuck"), _restr(g, seat, "flask")
        assert st["prepare_max_on_dock"] == 1 and fl["prepare_max_on_dock"] == 2
        assert st["text"][0] == "Prepare: only when none of his ships waits on the Dock"
        assert fl["text"][0] == "Prepare: only while fewer than 2 of his ships wait on the Dock"
        assert any(t.startswith("Launch: only to the exact space") for t in st["text"])
        assert st["can_prepare"] and fl["can_prepare"] and st["on_dock"] == fl["on_dock"] == 0
        jsonschema.Draft202012Validator(ENGINE.describe()["view_schema"]).validate(g.view(seat))


def test_the_view_says_what_a_prepare_or_combined_heading_will_do_now_and_matches_the_captains_turn():
    """With one ship on the Dock Starbuck cannot prepare, so his Prepare/Launch heading launches;
    Flask still prepares (his board allows 2 on the Dock)."""
    g = solo(("starbuck", "flask"), seats=2)
    s, f = cap(g, "starbuck"), cap(g, "flask")
    on_dock(g, s, 1)
    on_dock(g, f, 1)
    st, fl = _restr(g, 0, "starbuck"), _restr(g, 0, "flask")
    assert (st["on_dock"], st["can_prepare"]) == (1, False)
    assert st["now"].startswith("He cannot prepare now (1 of his ships is on the Dock)")
    assert "Prepare/Launch heading is a Launch heading" in st["now"]
    assert (fl["on_dock"], fl["can_prepare"]) == (1, True) and fl["now"].startswith("He can prepare now")
    # what the Captains then do agrees with what the view said
    assert turn(g, f, "combo:5")["space"] == "dockyard"
    e = turn(g, s, "combo:3")
    assert e["space"] != "dockyard"
