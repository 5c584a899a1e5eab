"""The moves table `MOVES`: one declaration per decision with its fields, phases, legality,
resolution and rulebook reference."""

from __future__ import annotations

from tablero.engines.core import Move, integer, string

from . import data as D
from .build import (
    _basic_gain,
    _build,
    _build_options,
    _check_build,
    _check_road,
    _check_worker,
    _road,
    _road_options,
    _skip_roads,
    _worker,
    _worker_options,
)
from .common import CELL, SLOT, R
from .history import _check_history, _history, _history_options
from .setup import _check_draft, _check_start, _draft, _draft_options, _start_options, _start_stall
from .trade import (
    _access,
    _access_options,
    _check_access,
    _check_import,
    _check_import_access,
    _check_recruit,
    _check_site,
    _import,
    _import_access,
    _import_access_options,
    _import_options,
    _recruit,
    _recruit_options,
    _site,
    _site_options,
)
from .turn import (
    _call_vote,
    _call_vote_options,
    _check_call_vote,
    _check_play,
    _check_reset,
    _play,
    _play_options,
    _reset,
    _reset_options,
)
from .upgrade import (
    _check_first_road,
    _check_road_first,
    _check_upgrade,
    _first_road_built,
    _first_road_options,
    _road_first,
    _road_first_options,
    _upgrade,
    _upgrade_options,
)
from .vote import (
    _check_choose,
    _check_place,
    _check_vote,
    _choose,
    _choose_options,
    _place,
    _place_options,
    _vote,
    _vote_options,
)

_LEAD_FOLLOW = frozenset({"lead", "follow"})
_BASIC = frozenset({"basic", "follow"})


MOVES = (
    Move("draft_resource", fields={"resource": string(D.BASIC)}, phases={"draft"}, check=_check_draft,
         resolve=_draft, options=_draft_options,
         rule="facts B.2 (your race's resource is fixed, you draft a second; 3 each with 2 players); order ours"),
    Move("place_start", fields={"resource": string(D.BASIC), "cell": CELL}, phases={"setup_place"},
         check=_check_start, resolve=_start_stall, options=_start_options,
         rule="facts B.2 (each player places its basic trade stalls at setup); grey numbered spaces ours"),
    Move("play_card", fields={"card": string(D.CARDS), "face_up": {"type": "boolean"}}, phases={"play"},
         check=_check_play, resolve=_play, options=_play_options,
         rule=f"{R} p. 11 Call to Work: one card face up (its main action, which must be resolvable) or face down "
              "(a basic action); p. 14 Income (2 players)",
         doc="Play a card from your hand face up or face down."),
    Move("call_vote", phases={"play"}, check=_check_call_vote, resolve=_call_vote, options=_call_vote_options,
         rule=f"{R} p. 14 Call to Vote: at least 2 played cards (3 with 2 players)"),
    Move("recruit", fields={"slot": SLOT}, phases=_LEAD_FOLLOW, check=_check_recruit, resolve=_recruit,
         options=_recruit_options,
         rule=f"{R} pp. 11-12 Recruit: prerequisite resource owned or accessed, cost under the slot, +1 fleeting "
              "influence for the leader, 1 lasting influence + printed points"),
    Move("import", fields={"resource": string(D.BASIC), "cell": CELL}, optional={"cell"}, phases=_LEAD_FOLLOW,
         check=_check_import,
         resolve=_import, options=_import_options,
         rule=f"{R} p. 12 Trade: import your basic resource; costs by terrain colour; follow on red/white only"),
    Move("place_stall", fields={"cell": CELL}, phases={"site"}, check=_check_site, resolve=_site,
         options=_site_options,
         rule=f"{R} p. 12 Trade: the square of the trade stall chosen with import / import_access (second step)"),
    Move("access", fields={"tile": integer(0, 400)}, phases=_LEAD_FOLLOW, check=_check_access, resolve=_access,
         options=_access_options,
         rule=f"{R} p. 12 Trade: buy access to another player's or a neutral tile, paying its owner"),
    Move("import_access", fields={"resource": string(D.BASIC), "cell": CELL}, optional={"cell"}, phases={"lead"},
         check=_check_import_access, resolve=_import_access, options=_import_access_options,
         rule=f"{R} p. 12 Trade: import and access a neutral resource ($4); after the 2nd completion token another "
              "player's ($4); never as a follow"),
    Move("upgrade", fields={"resource": string(D.ADVANCED), "cells": {"type": "array", "items": CELL,
                                                                      "minItems": 1, "maxItems": 5}},
         phases=_LEAD_FOLLOW, check=_check_upgrade, resolve=_upgrade, options=_upgrade_options,
         rule=f"{R} pp. 12-13 Upgrade: tier 2 $4, tier 3 $6, connected to owned or accessed prerequisites, not next "
              "to your own buildings, one per section; points to each prerequisite's owner; leader: a connected road"),
    Move("road_first", phases={"lead"}, check=_check_road_first, resolve=_road_first, options=_road_first_options,
         rule=f"{R} p. 12 Upgrade: the leader's connected road 'ya sea antes o después de colocar la loseta' — "
              "before the tile (then `first_road`); v4"),
    Move("first_road", fields={"cell": CELL}, phases={"lead_road"}, check=_check_first_road,
         resolve=_first_road_built, options=_first_road_options,
         rule=f"{R} p. 12 Upgrade: the road built before the tile; the tile must then be connected to it; v4"),
    Move("build", fields={"kind": string(("house", "bridge")), "cell": CELL}, phases=_LEAD_FOLLOW,
         check=_check_build, resolve=_build, options=_build_options,
         rule=f"{R} p. 13 Build: house on green (one per section) or bridge/gate on river/wall, connected to "
              "something you own, 3 of each; $4, leader $3; p. 19 no workers: houses $2"),
    Move("take_money", phases=_BASIC, resolve=_basic_gain("money"),
         options=lambda s, seat: [{"type": "take_money"}], rule=f"{R} p. 14 basic action: gain $1"),
    Move("take_influence", phases=_BASIC, resolve=_basic_gain("influence"),
         options=lambda s, seat: [{"type": "take_influence"}], rule=f"{R} p. 14 basic action: 1 fleeting influence"),
    Move("road", fields={"cell": CELL}, phases={"basic", "follow", "roads"}, check=_check_road, resolve=_road,
         options=_road_options,
         rule=f"{R} p. 14 basic action: a road connected to something you own; p. 12 the Upgrade leader's road "
              "connected to the new building"),
    Move("skip_roads", phases={"roads"}, resolve=_skip_roads, options=lambda s, seat: [{"type": "skip_roads"}],
         rule=f"{R} p. 12 the road is optional ('may')"),
    Move("place_worker", fields={"target": string(("race", *D.PRESTIGE))}, phases=_BASIC, check=_check_worker,
         resolve=_worker, options=_worker_options,
         rule=f"{R} p. 14 basic action: a worker on your race action or on a prestige card you delivered to"),
    Move("reset_benefit", fields={"kind": string(("money", "influence", "road")), "cell": CELL},
         optional={"cell"}, phases={"reset"}, check=_check_reset, resolve=_reset, options=_reset_options,
         rule=f"{R} p. 14 Reset: per card left in hand $1, 1 fleeting influence or a connected road"),
    Move("vote", fields={"proposal": SLOT, "fleeting": integer(0, 99), "lasting": integer(0, 99)},
         phases={"vote"}, check=_check_vote, resolve=_vote, options=_vote_options,
         rule=f"{R} p. 15 secret simultaneous vote: base 1, +1 per fleeting, +2 per lasting influence"),
    Move("choose_proposal", fields={"proposal": SLOT}, phases={"tie", "solo_choose"}, check=_check_choose,
         resolve=_choose, options=_choose_options,
         rule=f"{R} p. 15 ties: fewest points decides, then closest to the caller; p. 18 solo: the left card free, "
              "the others for the influence under them"),
    Move("place_prestige", fields={"cells": {"type": "array", "items": CELL, "minItems": 1, "maxItems": 5}},
         phases={"place"}, check=_check_place, resolve=_place, options=_place_options,
         rule=f"{R} p. 16 placement: a square on its colour, no overlap, no same type in the section, fixed spots of "
              "the gates and the Ghost Fortress; neutral basic resources delivered at once (p. 11)"),
    Move("record_history", fields={"building": string(D.PRESTIGE), "governing_body": string(minLength=1,
                                                                                             maxLength=80)},
         phases={"history"}, check=_check_history, resolve=_history, options=_history_options,
         rule=f"{R} p. 19 Shaping history, games of versions 1-7 only: the winner records a favourite building, "
              "its section and a governing body"),
)
