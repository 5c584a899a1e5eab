"""Size limits of one aggregation request. Generous for real use (the post behind issue 6 merged
87 lists of at most ~20 games), small enough that one request cannot take a replica down."""

MAX_LISTS = 20_000  # lists per request
MAX_ENTRIES_PER_LIST = 200  # entries per list ("top 100" lists exist; 200 leaves room)
MAX_TOTAL_ENTRIES = 1_000_000  # entries over all lists (≈ 3 s of work, see bench/rankings.py)
MAX_TEXT_LENGTH = 200  # characters in a title, an entry, a source or an alias
MAX_ALIASES = 10_000  # entries in the alias table
MAX_POSITION_POINTS = MAX_ENTRIES_PER_LIST  # rows of a scheme's points table
MAX_POINTS = 1_000_000  # largest value in a scheme (points per position, bonuses)
