"""Tablero's stateless game server: app layer, event stores, gRPC and HTTP transports."""
