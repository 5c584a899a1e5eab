"""Coins as seed-R states them, driven through the engine's moves: a coin modifies one action
and the action keeps its other effects and limits (a pile boat is one of the round's claims and
gives its benefit; a 2-hex tile chosen from the pile scores its VP), and a bonus coin with the
general supply empty gives nothing (seed-R "Monedas", phases 2 and 3). Independent rules audit
(audit-rb)."""

from tablero.engines.riverboat import ENGINE
from tablero.engines.riverboat.data import PHASES

from .helpers import act, at_phase, clear_mat, harvest_state, make_turn


def test_a_boat_taken_with_a_coin_is_one_of_the_rounds_claims():
    # seed-R: "solo gastarás una moneda a la vez para modificar una acción"; "reclama hasta 2
    # barcos fluviales"; "Continúe hasta que cada jugador haya tenido 2 acciones para tomar
    # Riverboats o haya pasado".
    s = harvest_state({"beet": 8}, coins=3)
    s, _ = act(s, 0, {"type": "claim_boat", "boat": "1", "crop": "beet", "coin": True})
    assert s["claims"][0] == 1 and s["phase"] == "harvest"
    s, ev = act(s, 0, {"type": "claim_boat", "boat": "2a", "crop": "beet", "coin": True})
    assert any(e["type"] == "phase_started" and e["phase"] == "opportunity" for e in ev), \
        "two claims, coins or not, end the seat's claims this round"


def test_a_boat_from_its_pile_gives_its_benefit_and_leaves_the_boards_boat():
    # seed-R: "puedes tomar una loseta de barco fluvial de tu elección de la pila de robo
    # respectiva"; "Una vez que se coloca un barco fluvial, puede reclamar los beneficios".
    s = harvest_state({"beet": 3}, coins=1)
    p = s["players"][0]
    harbor, vp = p["harbor"], p["vp"]
    s2, ev = act(s, 0, {"type": "claim_boat", "boat": "2b", "crop": "beet", "coin": True})
    q = s2["players"][0]
    assert q["vp"] == vp + 2 and q["harbor"] == harbor + 1 and q["coins"] == 0
    assert q["boats"] == ["2b"]
    assert s2["boat_board"]["2b"] is True and s2["boat_piles"]["2b"] == s["boat_piles"]["2b"] - 1


def test_a_two_hex_tile_chosen_from_the_pile_scores_its_victory_point():
    # seed-R phase 2: the coin chooses "una ficha de Recorte de 1 hexágono o 2 hexágonos ... de la
    # respectiva pila de robo"; "Si coloca una loseta de Recorte de 2 o 3 hexágonos, obtendrá
    # inmediatamente 1 y 2 Puntos de Victoria".
    g = at_phase("planting")
    s = make_turn(g.state, "planting", 0)
    for p in s["players"]:
        clear_mat(p)
        p["coins"] = 1
    s["players"][0]["worker"][0] = s["players"][0]["worker"][1] = True
    vp = s["players"][0]["vp"]
    s, _ = act(s, 0, {"type": "search_pile", "size": 2})
    choice = ENGINE.legal_actions(s, 0)[0]
    s, ev = act(s, 0, choice)
    assert ev[0]["type"] == "tile_planted" and ev[0]["vp"] == 1
    assert s["players"][0]["vp"] == vp + 1 and s["players"][0]["coins"] == 0


def test_the_planting_tiles_coin_is_not_given_when_the_supply_has_none():
    # seed-R phase 2: "toma 1 moneda del suministro general (si queda alguna)"; "Si las monedas se
    # agotan en el suministro general, no podrá obtener más hasta que alguien las gaste".
    g = at_phase("cultivation")
    holder = g.state["phase_tiles"][PHASES.index("planting")]
    s = g.state
    s["supply"]["coins"] = 0
    coins = s["players"][holder]["coins"]
    while s["phase"] == "cultivation":
        seat = min(ENGINE.to_act(s))
        a = next(x for x in ENGINE.legal_actions(s, seat) if not x.get("coin"))
        s, ev = act(s, seat, a)
    started = [e for e in ev if e["type"] == "phase_started" and e["phase"] == "planting"]
    assert started and not [e for e in ev if e["type"] == "gained"]
    assert s["players"][holder]["coins"] == coins and s["supply"]["coins"] == 0
