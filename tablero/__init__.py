"""Tablero: a turn-based board-game service.

One import namespace: `tablero.server` (the service, from `server/`), `tablero.engines` (the game
rules, `engines/`), `tablero.rankings` (`rankings/`) and `tablero.web` (the browser client's files,
`clients/web/`). The repository keeps the design card's top-level folders; `setup.py` maps them
under this package (docs/design.md, "One namespace"). The Python SDK is its own distribution,
`tablero-client` (`tablero_client`), which this one depends on.
"""
