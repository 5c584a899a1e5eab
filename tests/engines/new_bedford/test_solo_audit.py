"""Solo-rules audit (El Océano Solitario, shared/rules/000_d80ea33544e097da.txt lines 486-916):
one scenario per sentence checked that the Captain tests elsewhere did not yet cover."""

from .captain_helpers import cap, solo, turn
from .helpers import at_sea, on_dock, own, player


# --- Ahab's Most (p.13, line 564): "the one that gives most resources in total" ---------------------
def test_ahab_most_ranks_the_tavern_by_the_six_dollars_it_gives_now_above_the_bank():
    """v4: the Tavern removing 2 Empty Sea gives $6, more in total than the Bank's $5 (v1-3
    counted the Tavern as 0 and took the Bank)."""
    g = solo(["ahab"], buildings="all")
    a = cap(g, "ahab")
    own(g, a, "bank", "tavern")
    g.state["sea_tokens"]["empty"] = 2
    e = turn(g, a, "money")
    assert (e["space"], e["remove_empty_sea"], e["entry"]) == ("tavern", 2, "step 1: Most (buildings giving most)")
    g1 = solo(["ahab"], buildings="all")
    own(g1, a, "bank", "tavern")
    g1.state["sea_tokens"]["empty"] = 1  # $4 now: the Bank's $5 is more
    assert turn(g1, a, "money")["space"] == "bank"


def test_ahab_most_ranks_the_cooperage_by_the_whales_on_his_ship():
    g = solo(["ahab"], buildings="all")
    a = cap(g, "ahab")
    own(g, 0, "bank")
    own(g, a, "cooperage")
    at_sea(g, a, 1, 3, right=4, bowhead=3)  # $7 from the Cooperage
    e = turn(g, a, "money")
    assert (e["space"], e["ship"]) == ("cooperage", 1) and "owner_paid" not in e
    assert player(g, 0)["money"] == 5  # the player's Bank was not used


def test_ahab_most_without_a_discount_takes_the_building_combining_actions():
    """p.13: 'if there are no discounts on the buildings ... use a building that combines
    different resources or actions'. Launching to space 1 the Wharf saves nothing (half of 1
    rounded up is 1), so the Dry Dock (prepare and launch) goes first."""
    g = solo(["ahab"], buildings="all")
    a = cap(g, "ahab")
    own(g, a, "wharf", "dry_dock")
    on_dock(g, a, 1)  # ship 2 at home: both buildings can launch to space 1
    e = turn(g, a, "launch:1")
    assert (e["space"], e["launch"]) == ("dry_dock", {"ship": 2, "to": 1})
    g5 = solo(["ahab"], buildings="all")
    own(g5, a, "wharf", "dry_dock")
    on_dock(g5, a, 1)
    assert turn(g5, a, "launch:5")["space"] == "wharf"  # saves 2 food


def test_ahab_most_in_a_v3_game_keeps_the_fixed_totals():
    """Games started before v4 re-decide as recorded: the Tavern counted 0, the Bank won."""
    g = solo(["ahab"], buildings="all")
    g.state["version"] = 3
    a = cap(g, "ahab")
    own(g, a, "bank", "tavern")
    g.state["sea_tokens"]["empty"] = 2
    assert turn(g, a, "money")["space"] == "bank"
    g2 = solo(["ahab"], buildings="all")
    g2.state["version"] = 3
    own(g2, a, "wharf", "dry_dock")
    on_dock(g2, a, 1)
    assert turn(g2, a, "launch:1")["space"] == "wharf"
