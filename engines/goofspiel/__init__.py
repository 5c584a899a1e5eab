from .engine import Goofspiel

ENGINE = Goofspiel()

__all__ = ["ENGINE", "Goofspiel"]
