"""One rule for every list's `pageSize` (docs/api.md "Page sizes"): absent or 0 is the list's
default, a size above its maximum is clamped to the maximum (the page answered is then that
long, with a nextPageToken when more follow), a negative size is refused (400 /
INVALID_ARGUMENT). A leaf module: the lists of the app, ratings and notifications share it."""

from __future__ import annotations

from typing import Any

from tablero.server.errors import InvalidArgument


def page_size(size: Any, default: int, maximum: int) -> int:
    """The page size to use for `size` as the request gave it (None or 0: `default`)."""
    n = int(size or 0)
    if n < 0:
        raise InvalidArgument(f"pageSize must not be negative (absent or 0: the default page; a page holds at "
                              f"most {maximum}, a larger pageSize is taken as {maximum})")
    return min(n or default, maximum)
