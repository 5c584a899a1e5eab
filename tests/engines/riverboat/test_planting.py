"""Phase 2, Planting (seed-R "2. Fase de plantación")."""

import pytest
from tablero.engines.core import IllegalAction
from tablero.engines.riverboat import ENGINE

from .helpers import act, at_phase, clear_mat, make_turn, types

# Row 0 cells 0,1,2 are neighbours; 0, 1 and 7 (row 1 is shifted right) form a triangle.
TRIANGLE = [0, 1, 7]


def _planting(workers0=(0, 1), workers1=()):
    g = at_phase("planting")
    s = make_turn(g.state, "planting", 0)
    for p in s["players"]:
        clear_mat(p)
        p["coins"] = 2
    for c in workers0:
        s["players"][0]["worker"][c] = True
    for c in workers1:
        s["players"][1]["worker"][c] = True
    s["slots"] = {"1": ["1-beet", None, None, None, None, None],
                  "2": ["2-beet-corn", "2-wheat-wheat", None, None],
                  "3": ["3-corn-corn-corn", None, None]}
    return s


def test_a_tile_must_fit_wholly_under_workers_on_empty_fields():
    s = _planting(workers0=(0, 1))
    acts = ENGINE.legal_actions(s, 0)
    board_acts = [a for a in acts if a["type"] == "plant"]
    assert {"type": "plant", "size": 2, "slot": 0, "cells": [0, 1]} in board_acts
    assert {"type": "plant", "size": 2, "slot": 0, "cells": [1, 0]} in board_acts, "a tile may be turned"
    assert {"type": "plant", "size": 2, "slot": 1, "cells": [0, 1]} in board_acts
    assert {"type": "plant", "size": 2, "slot": 1, "cells": [1, 0]} not in board_acts, "same placement twice"
    # ... and that one, sent the other way round, is refused naming the way it is listed (it
    # used to say the tile did not fit under the workers, which it does)
    with pytest.raises(IllegalAction, match=r"written as cells \[0, 1\]"):
        ENGINE.decide(s, 0, {"type": "plant", "size": 2, "slot": 1, "cells": [1, 0]}, None)
    assert not [a for a in board_acts if a["size"] == 3], "two workers cannot hold a 3-hex tile"
    with pytest.raises(IllegalAction, match="Planting"):
        ENGINE.decide(s, 0, {"type": "plant", "size": 2, "slot": 0, "cells": [0, 2]}, None)


def test_field_colours_do_not_matter_for_planting():
    s = _planting(workers0=(3, 4))  # cells 3 and 4 lie in different fields on some mats
    assert [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "plant" and a["size"] == 2]


def test_one_hex_tile_scores_nothing_two_hex_1_vp_three_hex_2_vp():
    s = _planting(workers0=TRIANGLE)
    s1, ev = act(s, 0, {"type": "plant", "size": 1, "slot": 0, "cells": [0]})
    assert ev[0]["vp"] == 0 and s1["players"][0]["crop"][0] == "beet"
    s2, ev = act(s, 0, {"type": "plant", "size": 2, "slot": 0, "cells": [1, 0]})
    assert s2["players"][0]["vp"] == 1 and s2["players"][0]["crop"][1] == "beet" and s2["players"][0]["crop"][0] == "corn"
    s3, ev = act(s, 0, {"type": "plant", "size": 3, "slot": 0, "cells": TRIANGLE})
    assert s3["players"][0]["vp"] == 2
    assert [s3["players"][0]["crop"][c] for c in TRIANGLE] == ["corn"] * 3
    assert s3["slots"]["3"][0] is None, "spaces are not refilled during the phase"


def test_three_hex_tiles_need_three_mutually_adjacent_workers():
    s = _planting(workers0=(0, 1, 2))  # a straight line
    assert not [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "plant" and a["size"] == 3]


def test_players_without_uncovered_workers_are_skipped():
    s = _planting(workers0=(), workers1=(0,))
    assert ENGINE.to_act(s) == {1}
    s = _planting(workers0=(0,), workers1=(0,))
    s["players"][0]["crop"][0] = "beet"  # already planted: the worker is not on an empty field
    assert ENGINE.to_act(s) == {1}


def test_players_take_turns_until_every_worker_stands_on_a_crop():
    s = _planting(workers0=(0, 1), workers1=(0,))
    s, _ = act(s, 0, {"type": "plant", "size": 1, "slot": 0, "cells": [0]})
    assert ENGINE.to_act(s) == {1}
    s, _ = act(s, 1, [a for a in ENGINE.legal_actions(s, 1) if a["type"] == "plant"][0])
    assert ENGINE.to_act(s) == {0}, "player 0 still has an uncovered worker"
    a = [x for x in ENGINE.legal_actions(s, 0) if x["type"] == "plant"][0]
    s, ev = act(s, 0, a)
    assert s["phase"] == "harvest", "planting ends once no worker stands on an empty field"


def test_refill_exception_when_no_face_up_tile_fits_at_the_start_of_your_turn():
    s = _planting(workers0=(0,), workers1=(0,))
    s["turn"] = 1
    s, ev = act(s, 1, {"type": "plant", "size": 1, "slot": 0, "cells": [0]})
    # Now player 0 has one uncovered worker and no 1-hex tile is face up: refill the board.
    assert "crop_tiles_refilled" in types(ev)
    refill = [e for e in ev if e["type"] == "crop_tiles_refilled"][0]
    assert refill["seat"] == 0
    assert None not in s["slots"]["1"] and None not in s["slots"]["2"] and None not in s["slots"]["3"]
    assert [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "plant" and a["size"] == 1]


def test_no_refill_while_a_face_up_tile_fits():
    s = _planting(workers0=(0, 1), workers1=(0,))
    s["turn"] = 1
    s, ev = act(s, 1, {"type": "plant", "size": 1, "slot": 0, "cells": [0]})
    assert "crop_tiles_refilled" not in types(ev)
    assert s["slots"]["1"] == [None] * 6


def test_a_coin_takes_a_one_or_two_hex_tile_of_your_choice_from_its_pile_which_is_then_shuffled():
    s = _planting(workers0=TRIANGLE)
    searches = [a for a in ENGINE.legal_actions(s, 0) if a["type"] == "search_pile"]
    assert searches == [{"type": "search_pile", "size": 1}, {"type": "search_pile", "size": 2}], \
        "never a 3-hex tile from the pile"
    s, ev = act(s, 0, {"type": "search_pile", "size": 2})
    assert ev[0]["type"] == "pile_searched" and s["players"][0]["coins"] == 1
    acts = ENGINE.legal_actions(s, 0)
    assert {a["type"] for a in acts} == {"plant_from_pile"}, "once the coin is paid you must take from the pile"
    assert {a["kind"] for a in acts} == set(s["piles"]["2"])
    a = next(a for a in acts if a["kind"] == "2-potato-pumpkin")
    before = list(s["piles"]["2"])
    s2, ev = act(s, 0, a)
    e = ev[0]
    assert e["coin"] is True and e["slot"] is None and e["vp"] == 1
    assert sorted(e["secret"]["pile"]) == sorted(before[:before.index("2-potato-pumpkin")]
                                                 + before[before.index("2-potato-pumpkin") + 1:])
    assert s2["players"][0]["coins"] == 1
    assert [s2["players"][0]["crop"][c] for c in a["cells"]] == ["potato", "pumpkin"]
    assert "pile" not in ENGINE.event_view(e, 0) and "secret" not in ENGINE.event_view(e, 0)


def test_without_a_coin_there_is_no_pile_choice():
    s = _planting(workers0=(0,))
    s["players"][0]["coins"] = 0
    assert not [a for a in ENGINE.legal_actions(s, 0) if a["type"] in ("search_pile", "plant_from_pile")]


def test_when_nothing_fits_even_after_the_refill_the_uncovered_workers_go_home():
    s = _planting(workers0=(0,), workers1=(0,))
    s["turn"] = 1
    s["piles"]["1"] = []
    s["players"][0]["coins"] = 0
    s, ev = act(s, 1, {"type": "plant", "size": 1, "slot": 0, "cells": [0]})
    returned = [e for e in ev if e["type"] == "workers_returned"]
    assert returned and returned[0]["seat"] == 0 and returned[0]["cells"] == [0]
    assert not s["players"][0]["worker"][0]
