"""The view's discount list (village.discounts, one pass over the discount rows) is what
`discount` says card by card, in the rows' order, at every step of random games."""

from tablero.engines.core import testkit
from tablero.engines.phoenicia import data, village

from tablero import engines


def test_the_view_lists_each_cards_discount_as_discount_gives_it():
    e = engines.get("phoenicia")
    seen = 0
    for seats, seed in ((2, 7), (5, 8)):
        state = None
        for event in testkit.playthrough(e, seats, seed).events:
            state = e.evolve(state, event)
            for p in state["players"]:
                one_by_one = {c: village.discount(p, c) for row in data.DISCOUNTS for c in row["on"]
                              if village.discount(p, c)}
                listed = village.discounts(p)
                assert listed == one_by_one and list(listed) == list(one_by_one)
                seen += bool(listed)
    assert seen > 50  # discounts were held, not only empty lists compared
