from .engine import TicTacToe

ENGINE = TicTacToe()

__all__ = ["ENGINE", "TicTacToe"]
