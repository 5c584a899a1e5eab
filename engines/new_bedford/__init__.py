"""New Bedford (Nat Levan), base game for 2-4 players. See RULES.md."""

from .engine import NewBedford

ENGINE = NewBedford()

__all__ = ["ENGINE", "NewBedford"]
