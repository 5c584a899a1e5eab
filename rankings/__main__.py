"""`python -m tablero.rankings FILES...`: see rankings/cli.py."""

from .cli import main

raise SystemExit(main(prog="python -m tablero.rankings"))
