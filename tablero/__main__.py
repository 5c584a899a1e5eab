"""`python -m tablero`: the `tablero` command (serve, bots, admin and the client's verbs)."""

from tablero.server.__main__ import main

raise SystemExit(main())
