"""Founders of Gloomhaven (1-4 players): see RULES.md."""

from .engine import ENGINE, FoundersOfGloomhaven

__all__ = ["ENGINE", "FoundersOfGloomhaven"]
