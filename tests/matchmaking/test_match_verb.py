"""`tablero match ENGINE` (README, docs/matchmaking.md) is a verb of the `tablero` command,
like `tablero play`: not only of `python -m tablero_client`."""

from __future__ import annotations

import pytest
from tablero.server.__main__ import main


def test_tablero_match_is_a_verb_of_the_tablero_command(capsys):
    with pytest.raises(SystemExit) as e:
        main(["match", "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "usage: tablero match" in out and "--bots-after" in out
