"""Title matching and aliases: the way a person would match titles (issue 6)."""

import pytest
from tablero.rankings import RankingError, aggregate
from tablero.rankings.titles import title_key

from .helpers import by_title, ranked

SAME = [
    ("The White Castle", "the white castle"),  # case (the issue's example)
    ("The White Castle", "White Castle"),  # leading article
    ("The White Castle", "White Castle, The"),  # trailing article, catalogue style
    ("El Bucle", "Bucle"),  # Spanish article
    ("El Bucle", "Bucle (El)"),
    ("La Granja", "granja"),
    ("Los Castillos de Borgoña", "Castillos de Borgona"),
    ("A Feast for Odin", "Feast for Odin"),
    ("Una Partida", "Partida"),
    ("Océanos de papel", "Oceanos de Papel"),  # accents
    ("Obsesión", "OBSESION"),
    ("Heat: Heavy Rain", "Heat - Heavy Rain"),  # subtitle separators
    ("Heat: Heavy Rain", "Heat – Heavy Rain"),
    ("Heat: Heavy Rain", "Heat — Heavy Rain"),
    ("Heat: Heavy Rain", "heat heavy rain"),
    ("Clank! Catacumbas", "Clank Catacumbas"),  # punctuation
    ("Darwin’s Journey", "Darwin's Journey"),  # typographic apostrophe
    ("Darwin’s Journey", "Darwins Journey"),
    ("  Blood on   the Clocktower ", "Blood on the Clocktower"),  # whitespace
    ("Star Wars: The Deck-Building Game", "Star Wars: The Deckbuilding Game"),  # hyphenated word
    ("Hearts & Minds", "Hearts and Minds"),
    ("Æon's End", "Aeons End"),
    ("Great Western Trail: New Zealand", "GREAT WESTERN TRAIL - NEW ZEALAND"),
]

DIFFERENT = [
    ("Heat", "Heat: Heavy Rain"),  # subtitles are not stripped (the issue's example)
    ("Heat", "Heat: Pedal to the Metal"),
    ("Great Western Trail", "Great Western Trail: New Zealand"),
    ("Le Havre", "Havre"),  # only English and Spanish articles are dropped
    ("Die Macher", "Macher"),
    ("The Witcher", "Witcher: Old World"),
    ("Star Wars: The Deckbuilding Game", "Star Wars: Deckbuilding Game"),  # inner articles stay
    ("ガイスター", "カイスター"),  # marks of non-Latin scripts are kept
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_spellings_of_one_game_match(a, b):
    assert title_key(a) == title_key(b)


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_different_games_do_not_match(a, b):
    assert title_key(a) != title_key(b)


def test_a_title_that_is_only_an_article_keeps_it():
    assert title_key("The") == "the"
    assert title_key("A") == "a"


def test_a_title_without_letters_or_digits_has_no_key():
    assert title_key(" - : ! ") == ""


def test_matched_spellings_merge_into_one_game():
    body = {"lists": [ranked("A", "The White Castle"), ranked("B", "x", "the white castle")]}
    rows = by_title(body)
    # 100 + 80 = 180, one number one: 10, two lists: 2.
    assert rows["The White Castle"]["points"] == 192
    assert aggregate(body)["totals"]["games"] == 2


def test_heat_and_heat_heavy_rain_stay_two_games():
    assert set(by_title({"lists": [ranked("A", "Heat", "Heat: Heavy Rain")]})) == {"Heat", "Heat: Heavy Rain"}


def test_shown_title_is_the_most_frequent_spelling():
    lists = [ranked("A", "the white castle"), ranked("B", "The White Castle"), ranked("C", "The White Castle")]
    assert list(by_title({"lists": lists})) == ["The White Castle"]


def test_shown_title_tie_goes_to_the_first_spelling_seen():
    lists = [ranked("A", "White Castle"), ranked("B", "The White Castle")]
    assert list(by_title({"lists": lists})) == ["White Castle"]


def test_shown_title_has_its_whitespace_tidied():
    assert list(by_title({"lists": [ranked("A", "  The   White Castle ")]})) == ["The White Castle"]


def test_issue_alias_merges_a_translation_and_shows_the_canonical_title():
    body = {
        "lists": [
            ranked("Canal A", "Ticket to Ride Legends of the West", "Hegemony"),
            ranked("Canal B", "Hegemony", "Aventureros al tren: Leyendas del oeste"),
        ],
        "aliases": {"Ticket to Ride Legends of the West": "Aventureros al tren: Leyendas del oeste"},
    }
    rows = by_title(body)
    assert set(rows) == {"Aventureros al tren: Leyendas del oeste", "Hegemony"}
    row = rows["Aventureros al tren: Leyendas del oeste"]
    # 1st in A (100) + 2nd in B (80) = 180, +10, +2.
    assert (row["points"], row["appearances"], row["positions"]) == (192, 2, {"1": 1, "2": 1})


def test_alias_keys_and_values_are_matched_like_entries():
    body = {
        "lists": [
            ranked("A", "Ticket to Ride: Legends of the West"),
            ranked("B", "aventureros al tren - leyendas del oeste"),
        ],
        "aliases": {"ticket to ride legends of the west": "Aventureros al Tren: Leyendas del Oeste"},
    }
    rows = by_title(body)
    # The shown title is the alias target as the alias table writes it.
    assert list(rows) == ["Aventureros al Tren: Leyendas del Oeste"]
    assert rows["Aventureros al Tren: Leyendas del Oeste"]["appearances"] == 2


def test_alias_chains_resolve():
    body = {
        "lists": [
            ranked("A", "TtR Legends"),
            ranked("B", "Ticket to Ride Legends of the West"),
            ranked("C", "Leyendas"),
        ],
        "aliases": {
            "TtR Legends": "Ticket to Ride Legends of the West",
            "Ticket to Ride Legends of the West": "Aventureros al tren: Leyendas del oeste",
            "Leyendas": "TtR Legends",
        },
    }
    rows = by_title(body)
    assert list(rows) == ["Aventureros al tren: Leyendas del oeste"]
    assert rows["Aventureros al tren: Leyendas del oeste"]["appearances"] == 3


def test_alias_to_the_same_title_is_harmless():
    rows = by_title({"lists": [ranked("A", "the white castle")], "aliases": {"The White Castle": "White Castle"}})
    assert list(rows) == ["White Castle"]


def test_alias_cycle_is_an_error():
    body = {"lists": [ranked("A", "X")], "aliases": {"Alpha": "Beta", "Beta": "Gamma", "gamma": "alpha"}}
    with pytest.raises(RankingError, match=r'^aliases: aliases form a cycle: "Alpha" → "Beta" → "gamma" → "Alpha"$'):
        aggregate(body)


def test_two_spellings_of_one_alias_pointing_to_different_games_is_an_error():
    body = {"lists": [ranked("A", "X")], "aliases": {"Heat": "Heat: Pedal to the Metal", "heat": "Heat: Heavy Rain"}}
    with pytest.raises(RankingError) as caught:
        aggregate(body)
    assert str(caught.value) == (
        'aliases["heat"]: "heat" is the same title as "Heat", which already points to another game '
        '("Heat: Pedal to the Metal")'
    )


def test_a_game_twice_in_one_list_through_the_aliases_is_an_error():
    body = {
        "lists": [ranked("A", "Aventureros al tren: Leyendas del oeste", "Ticket to Ride Legends of the West")],
        "aliases": {"Ticket to Ride Legends of the West": "Aventureros al tren: Leyendas del oeste"},
    }
    with pytest.raises(RankingError, match=r"^lists\[0\]\.entries\[1\]: .*the same game through the aliases"):
        aggregate(body)
