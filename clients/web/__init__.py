"""The browser client: static files served at / by `tablero serve` (see server/http/app.py)."""
