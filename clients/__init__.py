"""Clients of the Tablero API shipped with the server (the browser client in clients/web/)."""
