"""Riverboat (2-4 players): plant, harvest and ship crops down the Mississippi."""

from .engine import Riverboat

ENGINE = Riverboat()

__all__ = ["ENGINE", "Riverboat"]
