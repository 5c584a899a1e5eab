"""Bad input gets a RankingError whose message names the offending place (issue 6)."""

import pytest
from tablero.rankings import RankingError, aggregate
from tablero.rankings.limits import MAX_ALIASES, MAX_ENTRIES_PER_LIST, MAX_LISTS, MAX_TOTAL_ENTRIES

from .helpers import ranked

OK = {"source": "Canal A", "entries": ["Heat"]}


def fails(body) -> str:
    with pytest.raises(RankingError) as caught:
        aggregate(body)
    return str(caught.value)


def test_the_issues_example_message():
    lists = [dict(OK, source=f"S{i}") for i in range(3)]
    lists.append(ranked("Canal D", "Nucleum", "Heat", "Revive", "Beast", "Pagan", "heat"))
    assert (
        fails({"lists": lists})
        == 'lists[3].entries[5]: "heat" appears twice in this list (entries[1] is "Heat", the same title)'
    )


def test_exact_duplicate_message():
    assert (
        fails({"lists": [ranked("A", "Heat", "Heat")]})
        == 'lists[0].entries[1]: "Heat" appears twice in this list (also entries[0])'
    )


def test_duplicates_in_an_unranked_list_are_errors_too():
    body = {"lists": [{"source": "A", "ranked": False, "entries": ["The White Castle", "white castle"]}]}
    assert fails(body).startswith('lists[0].entries[1]: "white castle" appears twice in this list')


def test_the_same_game_in_different_lists_is_fine():
    assert aggregate({"lists": [ranked("A", "Heat"), ranked("B", "Heat")]})["ranking"][0]["appearances"] == 2


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ([], "expected the request body (a JSON object), got an array"),
        ("lists", "expected the request body (a JSON object), got a string"),
        ({"lists": [OK], "list": []}, 'unknown field "list" in the request body; expected: lists, aliases, scheme'),
        ({}, "lists: there are no lists to aggregate"),
        ({"lists": []}, "lists: there are no lists to aggregate"),
        ({"lists": None}, "lists: there are no lists to aggregate"),
        ({"lists": {"source": "A"}}, "lists: expected an array of lists, got an object"),
        ({"lists": [OK, "Heat"]}, "lists[1]: expected a list (a JSON object), got a string"),
        (
            {"lists": [{"source": "A", "entries": ["x"], "rank": 1}]},
            'lists[0]: unknown field "rank" in a list; expected: source, title, ranked, entries',
        ),
        (
            {"lists": [{"entries": ["x"]}]},
            "lists[0].source: every list needs its source (the channel or portal that published it)",
        ),
        (
            {"lists": [{"source": "", "entries": ["x"]}]},
            "lists[0].source: every list needs its source (the channel or portal that published it)",
        ),
        ({"lists": [{"source": 7, "entries": ["x"]}]}, "lists[0].source: the source must be a string, got a number"),
        ({"lists": [{"source": "¿?", "entries": ["x"]}]}, 'lists[0].source: the source "¿?" has no letter or digit'),
        (
            {"lists": [{"source": "A", "title": ["Top"], "entries": ["x"]}]},
            "lists[0].title: the title must be a string, got an array",
        ),
        (
            {"lists": [{"source": "A", "ranked": "yes", "entries": ["x"]}]},
            "lists[0].ranked: expected true or false, got a string",
        ),
        (
            {"lists": [{"source": "A", "ranked": 1, "entries": ["x"]}]},
            "lists[0].ranked: expected true or false, got a number",
        ),
        ({"lists": [OK, {"source": "B"}]}, "lists[1]: the list has no entries"),
        ({"lists": [OK, {"source": "B", "entries": []}]}, "lists[1]: the list has no entries"),
        (
            {"lists": [{"source": "B", "entries": "Heat"}]},
            "lists[0].entries: expected an array of game titles, got a string",
        ),
        (
            {"lists": [{"source": "B", "entries": ["Heat", 3]}]},
            "lists[0].entries[1]: expected a game title (a string), got a number",
        ),
        (
            {"lists": [{"source": "B", "entries": ["Heat", None]}]},
            "lists[0].entries[1]: expected a game title (a string), got null",
        ),
        (
            {"lists": [{"source": "B", "entries": ["Heat", ["x"]]}]},
            "lists[0].entries[1]: expected a game title (a string), got an array",
        ),
        (
            {"lists": [{"source": "B", "entries": ["Heat", " - "]}]},
            'lists[0].entries[1]: " - " has no letter or digit: not a game title',
        ),
        (
            {"lists": [{"source": "B", "entries": ["x" * 201]}]},
            "lists[0].entries[0]: the title is longer than 200 characters",
        ),
        (
            {"lists": [{"source": "B" * 201, "entries": ["x"]}]},
            "lists[0].source: the source is longer than 200 characters",
        ),
        (
            {"lists": [ranked("Canal A", "x", title="Top 2023"), ranked("canal a", "y", title="TOP 2023")]},
            'lists[1]: same source and title as lists[0] ("canal a", "TOP 2023"): is the list given twice? '
            "(a source's lists need different titles)",
        ),
        (
            {"lists": [OK], "aliases": ["a", "b"]},
            "aliases: expected an object mapping a spelling to its canonical title, got an array",
        ),
        ({"lists": [OK], "aliases": {"Heat": 3}}, 'aliases["Heat"]: the target must be a string, got a number'),
        ({"lists": [OK], "aliases": {"!!": "Heat"}}, 'aliases["!!"]: the alias "!!" has no letter or digit'),
        ({"lists": [OK], "aliases": {"Heat": "x" * 201}}, 'aliases["Heat"]: the target is longer than 200 characters'),
    ],
)
def test_bad_request(body, message):
    assert fails(body) == message


@pytest.mark.parametrize(
    ("scheme", "message"),
    [
        ("default", "scheme: expected a scheme (a JSON object), got a string"),
        (
            {"bonus": 10},
            'scheme: unknown field "bonus" in a scheme; expected: positionPoints, topBonus, repetitionBonus, unranked, unrankedShare',
        ),
        ({"topBonus": 1, "top_bonus": 2}, 'scheme: field "topBonus" is given twice (as "topBonus" and "top_bonus")'),
        ({"positionPoints": 100}, "scheme.positionPoints: expected an array of points, got a number"),
        ({"positionPoints": [100, "80"]}, "scheme.positionPoints[1]: expected a number of points, got a string"),
        ({"positionPoints": [100, True]}, "scheme.positionPoints[1]: expected a number of points, got a boolean"),
        ({"positionPoints": [100, -5]}, "scheme.positionPoints[1]: points must be between 0 and 1000000, got -5"),
        ({"positionPoints": [float("nan")]}, "scheme.positionPoints[0]: points must be between 0 and 1000000, got nan"),
        ({"positionPoints": [float("inf")]}, "scheme.positionPoints[0]: points must be between 0 and 1000000, got inf"),
        ({"positionPoints": [1] * 201}, "scheme.positionPoints: at most 200 positions may score"),
        ({"topBonus": 1e7}, "scheme.topBonus: points must be between 0 and 1000000, got 10000000.0"),
        ({"repetitionBonus": None, "topBonus": "10"}, "scheme.topBonus: expected a number of points, got a string"),
        ({"unranked": "median"}, 'scheme.unranked: unknown rule "median"; expected one of: mean, zero'),
        ({"unranked": ["mean"]}, "scheme.unranked: unknown rule an array; expected one of: mean, zero"),
    ],
)
def test_bad_scheme(scheme, message):
    assert fails({"lists": [OK], "scheme": scheme}) == message


def test_null_fields_mean_not_given():
    body = {
        "lists": [{"source": "A", "title": None, "ranked": None, "entries": ["X"]}],
        "aliases": None,
        "scheme": None,
    }
    assert aggregate(body)["ranking"][0]["points"] == 111


def test_list_longer_than_the_limit():
    entries = [f"G{i}" for i in range(MAX_ENTRIES_PER_LIST + 1)]
    assert fails({"lists": [OK, {"source": "B", "entries": entries}]}) == (
        "lists[1].entries: the list has 201 entries; a list may have at most 200"
    )
    # 200 entries is fine.
    assert aggregate({"lists": [{"source": "B", "entries": entries[:-1]}]})["totals"]["games"] == 200


def test_too_many_lists():
    assert fails({"lists": [OK] * (MAX_LISTS + 1)}) == "lists: 20001 lists; at most 20000 may be aggregated at once"


def test_too_many_entries_in_all():
    full = {"source": "S", "entries": [f"G{i}" for i in range(MAX_ENTRIES_PER_LIST)]}
    count = MAX_TOTAL_ENTRIES // MAX_ENTRIES_PER_LIST  # 5000 lists of 200 = exactly the limit
    lists = [dict(full, title=f"T{i}") for i in range(count)]
    assert fails({"lists": [*lists, OK]}) == f"lists[{count}]: more than 1000000 entries over all lists"


def test_too_many_aliases():
    aliases = {f"a{i}": "Heat" for i in range(MAX_ALIASES + 1)}
    assert fails({"lists": [OK], "aliases": aliases}) == "aliases: 10001 aliases; at most 10000 are allowed"


def test_error_is_a_value_error_with_path_and_detail():
    with pytest.raises(ValueError) as caught:
        aggregate({"lists": [ranked("A", "Heat", "heat")]})
    error = caught.value
    assert isinstance(error, RankingError)
    assert error.path == ("lists", 0, "entries", 1)
    assert error.detail.startswith('"heat" appears twice')
