"""Whole games played through the public interface, checked from their event logs alone against
seed-R's end-of-round and end-of-game rules: the first-player marker (to the left; in a 3-player
game after round 3, to the player furthest behind, the marker on top of a tied stack winning), and
the tie-breaks of the final scoring by the round-4 phase tiles. Independent rules audit
(audit-rb)."""

import pytest
from tablero.engines.riverboat.data import PHASES

from .helpers import whole_game


def _vp_gains(e: dict) -> list[tuple[int, int]]:
    """(seat, VP) in the order the markers move, read from one event."""
    t = e["type"]
    if t == "round_scored":
        return [(seat, e["vp"][seat]) for seat in e["order"]]
    if t in ("gained", "boat_claimed", "opportunity_taken", "bonus_chosen"):
        return [(e["seat"], e.get("gains", {}).get("vp", 0))]
    if t in ("tile_planted", "surveyed"):
        return [(e["seat"], e["vp"])]
    return []


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_first_player_marker_at_each_rounds_end_read_from_the_log(seats, seed):
    # seed-R "Fin de la Ronda": "pase el marcador de primer jugador al jugador a la izquierda del
    # titular actual"; "En un juego de tres jugadores, al final de la Ronda 3, pase el marcador de
    # Primer jugador al jugador que está más atrás en el registro de Puntos de Victoria. En caso de
    # empate, el propietario del marcador de puntuación en la parte superior de la pila".
    # "Siempre que obtenga puntos de victoria ... coloque su marcador de puntuación en la parte superior."
    events = whole_game(seats, seed)
    vp, arrived, clock = [0] * seats, [0] * seats, 0
    first = events[0]["first_player"]
    ends = 0
    for e in events:
        for seat, gain in _vp_gains(e):
            if gain > 0:
                clock += 1
                vp[seat] += gain
                arrived[seat] = clock
        if e["type"] == "round_ended":
            ends += 1
            if seats == 3 and e["round"] == 3:
                behind = min(vp)
                tied = [s for s in range(seats) if vp[s] == behind]
                expected = max(tied, key=lambda s: arrived[s])  # the last to arrive is on top
            else:
                expected = (first + 1) % seats
            assert e["first_player"] == expected, (e["round"], vp, arrived)
            first = expected
    assert ends == 3
    # the in-game VP the log adds up is the engine's in-game VP
    result = events[-1]
    assert [row["in_game"]["vp"] for row in result["details"]] == vp


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_final_tie_breaks_use_the_phase_tiles_drafted_in_round_4(seats, seed):
    # seed-R: "El juego termina al final de la Ronda 4 ... conserve sus fichas de Fase (pueden
    # servir como desempate)"; harbor and agents: "el jugador empatado con la ficha de Fase
    # anterior (de la Ronda 4)".
    events = whole_game(seats, seed)
    start = max(i for i, e in enumerate(events) if e["type"] == "round_started" and e["round"] == 4)
    held: dict[int, list[str]] = {s: [] for s in range(seats)}
    for e in events[start:]:
        if e["type"] == "phase_chosen":
            held[e["seat"]].append(e["phase"])
    details = events[-1]["details"]
    for row in details:
        mine = sorted(held[row["seat"]], key=PHASES.index)
        assert row["tiebreak"]["phase_tiles_held"] == mine
        assert row["tiebreak"]["earliest_phase_tile"] == mine[0]
    # the farthest harbor master: the furthest position, ties to the earliest round-4 tile
    best = max(row["harbor"]["position"] for row in details)
    leader = min((row for row in details if row["harbor"]["position"] == best),
                 key=lambda row: PHASES.index(row["tiebreak"]["earliest_phase_tile"]))
    assert [row["harbor"]["farthest"] for row in details] == [row is leader for row in details]
    # agents: 20/10/5/0 by count, ties to the earliest round-4 tile, at least one agent
    ranked = sorted((row for row in details if row["agents"]["count"] > 0),
                    key=lambda row: (-row["agents"]["count"], PHASES.index(row["tiebreak"]["earliest_phase_tile"])))
    for place, row in enumerate(ranked):
        assert row["agents"]["vp"] == [20, 10, 5, 0][place]
    assert all(row["agents"]["vp"] == 0 for row in details if row["agents"]["count"] == 0)
