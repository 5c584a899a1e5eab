"""`python -m server.rankings FILES...`: see server/rankings/cli.py."""

from .cli import main

raise SystemExit(main(prog="python -m server.rankings"))
