"""Ranked-list aggregation ("top de los tops", issue 6): many published "best games" lists merged
into one ranking. Pure logic, stdlib only; the gRPC service and the REST route
(POST /v1/rankings:aggregate) call `aggregate`, the CLI is `python -m tablero.rankings`.
See docs/rankings.md.
"""

from .errors import RankingError
from .scheme import DEFAULT_SCHEME, Scheme
from .scoring import aggregate
from .titles import title_key

__all__ = ["DEFAULT_SCHEME", "RankingError", "Scheme", "aggregate", "title_key"]
