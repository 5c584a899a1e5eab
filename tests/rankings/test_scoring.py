"""Scoring rules of issue 6, each on a small hand-made input with the arithmetic written out."""

import pytest
from tablero.rankings import DEFAULT_SCHEME, RankingError, aggregate

from .helpers import by_title, ranked, unranked

# The table of the "top de los tops 2023" post (shared/rules/000_d80ea33544e097da.txt, first lines):
# Posición 1: 100 … Posición 14: 10, Posición 15–20: 0; bonus top 1: 10; bonus por repetición: 1.
POST_TABLE = [100, 80, 65, 50, 40, 33, 28, 24, 20, 18, 16, 14, 12, 10, 0, 0, 0, 0, 0, 0]


def test_default_scheme_is_the_posts_table():
    assert DEFAULT_SCHEME.position_points == tuple(POST_TABLE[:14])
    assert DEFAULT_SCHEME.top_bonus == 10
    assert DEFAULT_SCHEME.repetition_bonus == 1
    assert DEFAULT_SCHEME.unranked == "mean"
    assert [DEFAULT_SCHEME.points_at(p) for p in range(1, 21)] == POST_TABLE
    assert DEFAULT_SCHEME.points_at(21) == 0 and DEFAULT_SCHEME.points_at(200) == 0


def test_each_position_of_a_ranked_top_20_scores_the_posts_table():
    games = [f"Game {n:02d}" for n in range(1, 21)]
    rows = by_title({"lists": [ranked("Canal A", *games)]})
    for position, game in enumerate(games, start=1):
        row = rows[game]
        top = 10 if position == 1 else 0
        assert row["positionPoints"] == POST_TABLE[position - 1]
        assert row["topBonus"] == top
        assert row["repetitionBonus"] == 1
        assert row["points"] == POST_TABLE[position - 1] + top + 1
        assert row["appearances"] == 1
        assert row["positions"] == {str(position): 1}
    # Positions 15-20 score only the repetition bonus: 0 + 0 + 1.
    assert rows["Game 17"]["points"] == 1


def test_positions_past_the_table_score_zero_but_count():
    games = [f"G{n}" for n in range(1, 31)]
    row = by_title({"lists": [ranked("A", *games)]})["G30"]
    assert (row["points"], row["positionPoints"], row["positions"]) == (1, 0, {"30": 1})


def test_points_add_up_over_lists():
    body = {
        "lists": [
            ranked("Canal A", "X", "Y", "Z"),
            ranked("Canal B", "Y", "X"),
            ranked("Canal C", "Z", "W", "X"),
        ]
    }
    result = aggregate(body)
    rows = {row["title"]: row for row in result["ranking"]}
    # X: 1st in A (100) + 2nd in B (80) + 3rd in C (65) = 245; one number one: 10; three lists: 3.
    assert rows["X"] == {
        "rank": 1,
        "title": "X",
        "points": 245 + 10 + 3,
        "positionPoints": 245,
        "topBonus": 10,
        "repetitionBonus": 3,
        "appearances": 3,
        "positions": {"1": 1, "2": 1, "3": 1},
    }
    # Y: 80 + 100 = 180, +10, +2 = 192.   Z: 65 + 100 = 165, +10, +2 = 177.   W: 80 + 0 + 1 = 81.
    assert [(r["title"], r["points"]) for r in result["ranking"]] == [("X", 258), ("Y", 192), ("Z", 177), ("W", 81)]
    assert [r["rank"] for r in result["ranking"]] == [1, 2, 3, 4]
    assert result["totals"] == {"lists": 3, "sources": 3, "games": 4}


def test_top_bonus_counts_every_list_where_the_game_is_number_one():
    rows = by_title({"lists": [ranked("A", "X", "Y"), ranked("B", "X"), ranked("C", "Y", "X")]})
    # X: 1st twice, 2nd once: 100 + 100 + 80 = 280; bonus 2 × 10 = 20; 3 lists → 3. Total 303.
    assert (rows["X"]["positionPoints"], rows["X"]["topBonus"], rows["X"]["repetitionBonus"]) == (280, 20, 3)
    assert rows["X"]["points"] == 303
    assert rows["X"]["positions"] == {"1": 2, "2": 1}


def test_repetition_bonus_is_one_per_list_naming_the_game_ranked_or_not():
    lists = [ranked(f"S{i}", "Filler", "Hegemony") for i in range(4)] + [unranked("U", "Hegemony", "Other")]
    row = by_title({"lists": lists})["Hegemony"]
    assert row["appearances"] == 5
    assert row["repetitionBonus"] == 5
    # 4 × 80 (second place) + the unranked share of a 2-game list, (100 + 80) / 2 = 90 → 410.
    assert row["positionPoints"] == 4 * 80 + 90
    assert row["points"] == 410 + 0 + 5
    assert row["positions"] == {"2": 4}


def test_unranked_list_gives_each_game_the_mean_of_the_table_over_its_length():
    rows = by_title({"lists": [unranked("U", "P", "Q", "R")]})
    # (100 + 80 + 65) / 3 = 81.666… → 81.67 (2 decimals); no number one; 1 list → +1 → 82.67.
    for game in "PQR":
        assert rows[game]["positionPoints"] == 81.67
        assert rows[game]["topBonus"] == 0
        assert rows[game]["repetitionBonus"] == 1
        assert rows[game]["points"] == 82.67
        assert rows[game]["positions"] == {}
        assert rows[game]["appearances"] == 1


def test_unranked_list_longer_than_the_table_averages_the_zeros_too():
    games = [f"G{n}" for n in range(20)]
    rows = by_title({"lists": [unranked("U", *games)]})
    # Sum of the table = 100+80+65+50+40+33+28+24+20+18+16+14+12+10 = 510; 510 / 20 = 25.5.
    assert sum(POST_TABLE) == 510
    assert all(rows[g]["positionPoints"] == 25.5 and rows[g]["points"] == 26.5 for g in games)


def test_unranked_list_hands_out_the_same_total_as_a_ranked_one():
    games = [f"G{n}" for n in range(10)]
    ranked_total = sum(r["positionPoints"] for r in aggregate({"lists": [ranked("A", *games)]})["ranking"])
    unranked_total = sum(r["positionPoints"] for r in aggregate({"lists": [unranked("A", *games)]})["ranking"])
    # 100+80+65+50+40+33+28+24+20+18 = 458, ten shares of 45.8.
    assert ranked_total == 458
    assert round(unranked_total, 6) == 458


def test_ranked_and_unranked_appearances_add_up():
    rows = by_title({"lists": [ranked("A", "Y", "X"), unranked("U", "X", "B", "C", "D")]})
    # X: 2nd in A = 80; unranked in a 4-game list = (100 + 80 + 65 + 50) / 4 = 73.75 → 153.75; +2 lists.
    assert rows["X"]["positionPoints"] == 153.75
    assert rows["X"]["points"] == 155.75
    assert rows["X"]["appearances"] == 2
    assert rows["X"]["positions"] == {"2": 1}


def test_unranked_zero_rule_gives_only_the_repetition_bonus():
    rows = by_title({"lists": [unranked("U", "P", "Q", "R")], "scheme": {"unranked": "zero"}})
    assert rows["P"]["positionPoints"] == 0 and rows["P"]["points"] == 1


def test_custom_scheme_replaces_table_and_bonuses():
    body = {
        "lists": [ranked("A", "Alpha", "Beta", "Gamma", "Delta"), ranked("B", "Beta", "Alpha")],
        "scheme": {"positionPoints": [3, 2, 1], "topBonus": 5, "repetitionBonus": 0.5},
    }
    rows = by_title(body)
    # Alpha: 3 + 2 = 5, one number one → 5, two lists × 0.5 = 1 → 11.   Beta: 2 + 3 + 5 + 1 = 11.
    # Gamma: 1 + 0 + 0.5 = 1.5.   Delta: 4th, past the 3-row table: 0 + 0 + 0.5 = 0.5.
    assert {t: r["points"] for t, r in rows.items()} == {"Alpha": 11, "Beta": 11, "Gamma": 1.5, "Delta": 0.5}
    assert rows["Delta"]["repetitionBonus"] == 0.5


def test_partial_scheme_keeps_the_other_defaults():
    rows = by_title({"lists": [ranked("A", "X", "Y")], "scheme": {"topBonus": 0}})
    # Table and repetition bonus unchanged: X = 100 + 0 + 1, Y = 80 + 0 + 1.
    assert (rows["X"]["points"], rows["Y"]["points"]) == (101, 81)


def test_snake_case_field_names_are_accepted_as_in_the_protobuf_json_mapping():
    rows = by_title({"lists": [ranked("A", "X")], "scheme": {"position_points": [7], "top_bonus": 1}})
    assert rows["X"]["points"] == 7 + 1 + 1


def test_empty_position_points_means_the_default_table():
    # proto3 cannot tell [] from "not given"; both transports must agree.
    rows = by_title({"lists": [ranked("A", "X")], "scheme": {"positionPoints": []}})
    assert rows["X"]["points"] == 111


def test_points_round_half_up_to_two_decimals_and_parts_add_up():
    # positionPoints [1]: an unranked list of 8 gives 1/8 = 0.125 → 0.13 (half up, not half even).
    games = [f"G{n}" for n in range(8)]
    rows = by_title({"lists": [unranked("U", *games)], "scheme": {"positionPoints": [1], "repetitionBonus": 0}})
    assert rows["G0"]["positionPoints"] == 0.13
    assert rows["G0"]["points"] == 0.13
    # Thirds: (100 + 80 + 65) / 3 × 2 lists = 163.333… → 163.33; +2 → 165.33, exactly the sum shown.
    rows = by_title({"lists": [unranked("U", "P", "Q", "R"), unranked("V", "P", "S", "T")]})
    assert rows["P"]["positionPoints"] == 163.33
    assert rows["P"]["points"] == 165.33


def test_whole_points_are_integers_and_fractions_are_floats():
    row = aggregate({"lists": [ranked("A", "X")]})["ranking"][0]
    assert type(row["points"]) is int and type(row["positionPoints"]) is int
    row = aggregate({"lists": [unranked("A", "X", "Y", "Z")]})["ranking"][0]
    assert type(row["positionPoints"]) is float


def test_totals_count_lists_distinct_sources_and_games():
    body = {
        "lists": [
            ranked("Canal A", "X", "Y", title="Top euros"),
            ranked("canal a", "Z", title="Top fillers"),  # same source, matched like titles
            unranked("Canal B", "x", "W"),
        ]
    }
    assert aggregate(body)["totals"] == {"lists": 3, "sources": 2, "games": 4}


def test_positions_are_string_keys_in_position_order():
    lists = [ranked(f"S{i}", *[f"F{i}-{j}" for j in range(i)], "X") for i in (9, 0, 2)]
    row = by_title({"lists": lists})["X"]
    assert list(row["positions"]) == ["1", "3", "10"]


def test_unranked_share_enum_selects_the_rule_and_the_string_spelling_must_agree():
    body = {"lists": [unranked("U", "P", "Q", "R")]}
    zero = by_title({**body, "scheme": {"unrankedShare": "UNRANKED_SHARE_ZERO"}})
    assert zero["P"]["positionPoints"] == 0 and zero["P"]["points"] == 1
    mean = by_title({**body, "scheme": {"unrankedShare": "UNRANKED_SHARE_MEAN", "unranked": "mean"}})
    assert mean["P"]["positionPoints"] == 81.67
    assert by_title({**body, "scheme": {"unrankedShare": "UNRANKED_SHARE_UNSPECIFIED"}})["P"]["positionPoints"] == 81.67
    with pytest.raises(RankingError, match="contradicts"):
        aggregate({**body, "scheme": {"unrankedShare": "UNRANKED_SHARE_ZERO", "unranked": "mean"}})
    with pytest.raises(RankingError, match="unknown share"):
        aggregate({**body, "scheme": {"unrankedShare": "half"}})
