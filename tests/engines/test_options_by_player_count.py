"""An option marked `"x-players": [counts]` in an engine's options schema applies at those player
counts only (docs/api.md, "Options a lobby shows"): the engine takes a value other than its
default at every count listed, and refuses it at every other count. The lobby hides the option by
this mark, so a mark the engine disagrees with would hide a playable option or offer a refused one."""

from __future__ import annotations

import pytest
from tablero.engines.core import registry
from tablero.engines.core.errors import InvalidOptions
from tablero.engines.core.local import LocalGame

MARKED = [(name, opt) for name in registry.names()
          for opt, s in registry.get(name).options_schema.get("properties", {}).items() if "x-players" in s]


def _other_than_default(s: dict):
    if s.get("type") == "boolean":
        return not s.get("default", False)
    return next(v for v in s["enum"] if v != s.get("default"))


def test_the_founders_solo_options_are_marked():
    assert {("founders-of-gloomhaven", "solo_section"), ("founders-of-gloomhaven", "no_workers"),
            ("founders-of-gloomhaven", "shaping_history"), ("new-bedford", "turners_mill")} <= set(MARKED)


@pytest.mark.parametrize(("name", "option"), MARKED)
def test_an_option_applies_at_the_player_counts_it_is_marked_for(name, option):
    engine = registry.get(name)
    s = engine.options_schema["properties"][option]
    options = {option: _other_than_default(s)}
    for n in range(engine.min_seats, engine.max_seats + 1):
        if n in s["x-players"]:
            LocalGame(name, seats=n, seed=n, options=options)
        else:
            with pytest.raises(InvalidOptions):
                LocalGame(name, seats=n, seed=n, options=options)
