"""Phoenicia (Tom Lehmann): auctions, workers and production cards, first to 32 VP."""

from .engine import Phoenicia

ENGINE = Phoenicia()

__all__ = ["ENGINE", "Phoenicia"]
