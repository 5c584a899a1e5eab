"""docs/api.md "Clients in other languages" names what `buf generate` gives Go and Java: a client
(Go `<Service>Client`, Java `<Service>Grpc`) for every service of proto/tablero/v1, not only
the games and rankings services (an integrator read the rows as "no notifications, players or
matchmaking in Go and Java"). `test_codegen.py` (slow, tools) checks the generated code has them."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def services() -> list[str]:
    return sorted(m for p in (ROOT / "proto" / "tablero" / "v1").glob("*.proto")
                  for m in re.findall(r"^service (\w+)", p.read_text(), re.M))


def _row(language: str) -> str:
    doc = (ROOT / "docs" / "api.md").read_text()
    [row] = [line for line in doc.splitlines() if line.startswith(f"| {language} ")]
    return row


def test_the_go_and_java_rows_name_a_client_for_every_service():
    assert len(services()) >= 5, services()
    go, java = _row("Go"), _row("Java (and Kotlin)")
    assert not [s for s in services() if f"`{s}Client`" not in go], go
    assert not [s for s in services() if f"`{s}Grpc`" not in java], java
