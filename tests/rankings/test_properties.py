"""Invariants of the merged ranking on random inputs."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from tablero.rankings import DEFAULT_SCHEME, aggregate

GAMES = [f"Game {chr(65 + i)}" for i in range(12)]


@st.composite
def bodies(draw):
    lists = []
    for index in range(draw(st.integers(1, 8))):
        entries = draw(st.lists(st.sampled_from(GAMES), min_size=1, max_size=len(GAMES), unique=True))
        source = f"S{draw(st.integers(0, 3))}"
        # Distinct titles: two untitled lists of one source would be one list given twice.
        lists.append({"source": source, "title": f"L{index}", "ranked": draw(st.booleans()), "entries": entries})
    return {"lists": lists}


def table_total(length: int) -> int:
    return sum(DEFAULT_SCHEME.position_points[:length])


@settings(max_examples=120, deadline=None)
@given(bodies())
def test_ranking_invariants(body):
    result = aggregate(body)
    ranking = result["ranking"]
    lists = body["lists"]
    # Every entry is one appearance; every game named appears once in the ranking.
    assert sum(r["appearances"] for r in ranking) == sum(len(one["entries"]) for one in lists)
    assert result["totals"]["games"] == len(ranking) == len({e for one in lists for e in one["entries"]})
    assert result["totals"]["lists"] == len(lists)
    assert result["totals"]["sources"] == len({one["source"] for one in lists})
    # Each list hands out its table total, ranked or not (up to the 2-decimal rounding per game).
    handed = sum(Fraction(str(r["positionPoints"])) for r in ranking)
    assert abs(handed - sum(table_total(len(one["entries"])) for one in lists)) <= Fraction(len(ranking), 200)
    # One number-one bonus per ranked list.
    assert sum(r["topBonus"] for r in ranking) == 10 * sum(1 for one in lists if one["ranked"])
    for row in ranking:
        parts = Fraction(str(row["positionPoints"])) + Fraction(str(row["topBonus"])) + row["repetitionBonus"]
        assert Fraction(str(row["points"])) == parts
        assert row["repetitionBonus"] == row["appearances"]
        assert sum(row["positions"].values()) <= row["appearances"]
    # Points never increase down the ranking; ranks are competition ranks.
    assert all(a["points"] >= b["points"] for a, b in zip(ranking, ranking[1:], strict=False))
    for index, row in enumerate(ranking):
        assert row["rank"] == index + 1 or row["rank"] == ranking[index - 1]["rank"]


@settings(max_examples=60, deadline=None)
@given(bodies(), st.randoms(use_true_random=False))
def test_list_order_does_not_change_the_scores(body, rng):
    shuffled = list(body["lists"])
    rng.shuffle(shuffled)
    before = {r["title"]: (r["rank"], r["points"], r["positions"]) for r in aggregate(body)["ranking"]}
    after = {r["title"]: (r["rank"], r["points"], r["positions"]) for r in aggregate({"lists": shuffled})["ranking"]}
    assert before == after
