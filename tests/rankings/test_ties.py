"""Order and ranks: points, then countback (more 1sts, then more 2nds, …), then appearances, then
alphabetical; standard competition ranks shared only by games equal on all but the title."""

from .helpers import order, ranked, unranked

ONLY_POSITIONS = {"topBonus": 0, "repetitionBonus": 0}


def test_more_points_rank_first():
    assert order({"lists": [ranked("A", "Low", "High"), ranked("B", "High")]}) == [(1, "High"), (2, "Low")]


def test_equal_points_more_first_places_rank_first():
    body = {
        "lists": [ranked("A", "Ace", "Bee"), ranked("B", "Cee", "Bee")],
        "scheme": {"positionPoints": [10, 5], **ONLY_POSITIONS},
    }
    # Ace 10 (one 1st), Cee 10 (one 1st), Bee 5 + 5 = 10 (two 2nds): all on 10 points.
    # Ace and Cee are equal on everything but the title: shared rank 1, alphabetical; Bee next is 3rd.
    assert order(body) == [(1, "Ace"), (1, "Cee"), (3, "Bee")]


def test_countback_goes_down_the_places_before_appearances():
    body = {
        "lists": [
            ranked("L1", "f1", "Dee"),  # Dee 2nd: 6
            ranked("L2", "f2", "f3", "Dee"),  # Dee 3rd: 4      → Dee 10 points, places {2: 1, 3: 1}
            ranked("L3", "f4", "Eve"),  # Eve 2nd: 6
            ranked("L4", "f5", "f6", "f7", "Eve"),  # Eve 4th: 2
            ranked("L5", "f8", "f9", "f10", "Eve"),  # Eve 4th: 2  → Eve 10 points, places {2: 1, 4: 2}
        ],
        "scheme": {"positionPoints": [10, 6, 4, 2], **ONLY_POSITIONS},
    }
    ranks = dict((title, rank) for rank, title in order(body))
    # Same points, same 1sts (0) and 2nds (1); Dee has a 3rd, Eve none: Dee ahead though Eve has 3 lists.
    assert ranks["Dee"] < ranks["Eve"]


def test_equal_points_and_places_more_appearances_rank_first():
    body = {
        "lists": [ranked("A", "Fox"), ranked("B", "Gnu"), unranked("C", "Gnu", "other")],
        "scheme": {"positionPoints": [10], "unranked": "zero", **ONLY_POSITIONS},
    }
    # Fox and Gnu: 10 points, one 1st each; Gnu is also on an unranked list (0 points): 2 appearances.
    assert order(body)[:2] == [(1, "Gnu"), (2, "Fox")]


def test_full_ties_share_a_rank_alphabetically_ignoring_articles_and_the_next_rank_skips():
    body = {"lists": [ranked("A", "The Zebra"), ranked("B", "apple"), ranked("C", "Mango"), ranked("D", "Kiwi", "x")]}
    # Four games with 100 + 10 + 1 = 111 each; "The Zebra" sorts under Z; "x" (80 + 1) is 5th.
    assert order(body) == [(1, "apple"), (1, "Kiwi"), (1, "Mango"), (1, "The Zebra"), (5, "x")]


def test_ties_are_judged_on_the_points_as_reported():
    body = {
        "lists": [ranked("R", "First", "Q"), unranked("U", "P", "a", "b", "c")],
        "scheme": {"positionPoints": [1, 0.33], **ONLY_POSITIONS},
    }
    # Q, 2nd: 0.33 exactly. P (and a, b, c), in an unranked list of 4: (1 + 0.33 + 0 + 0) / 4 = 0.3325,
    # reported 0.33. Equal as reported, so countback decides: Q has a 2nd place, P none.
    ranks = {title: rank for rank, title in order(body)}
    assert ranks == {"First": 1, "Q": 2, "a": 3, "b": 3, "c": 3, "P": 3}
