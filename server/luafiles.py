"""Redis Lua scripts as package data: one `.lua` file per script, in a `lua/` folder beside the
modules of the package that runs it, read once, at import, with importlib.resources.

    server/store/lua/append.lua        the game store's (server/store/redis_scripts.py)
    server/notify/lua/commit.lua       the notification queue's (server/notify/queue.py)
    server/matchmaking/lua/claim.lua   the tickets' (server/matchmaking/store.py)
    server/ratings/lua/commit.lua      the ratings' (server/ratings/store.py)
    server/portal/lua/lobby_add.lua    a package whose several modules run scripts, or whose
    server/app/lua/thinkers_take.lua   modules have many jobs: `<module>_<script>.lua`

A module loads its scripts with

    _LUA = luafiles.load(__package__, "commit", "claim")   # {"commit": "<the text>", ...}

and registers (EVALSHA) or EVALs the text as it is: a file is a whole script, runnable with
EVAL as shipped (tests/*/test_*_lua.py do). Each file says at its top what its KEYS and ARGV
are and what it returns. pyproject.toml's package-data names every `lua/` folder, so that a
non-editable `pip install .` ships them.

Every name loaded is recorded in LOADED (package -> names): a test checks that each shipped file
is loaded by a module of its package and each loaded name is a shipped file
(tests/server/test_lua_files.py).
"""

from __future__ import annotations

import re
from importlib.resources import files

LOADED: dict[str, set[str]] = {}


def source(package: str, name: str) -> str:
    """The text of `<package>/lua/<name>.lua` as shipped (recorded in LOADED)."""
    text = files(package).joinpath("lua", f"{name}.lua").read_text(encoding="utf-8")
    LOADED.setdefault(package, set()).add(name)
    return text


def load(package: str, *names: str) -> dict[str, str]:
    """name -> text of each of `<package>/lua/<name>.lua`."""
    return {name: source(package, name) for name in names}


def shipped(package: str) -> set[str]:
    """The names of the `.lua` files in `<package>/lua/` (none: the package ships no scripts)."""
    folder = files(package).joinpath("lua")
    if not folder.is_dir():
        return set()
    return {p.name.removesuffix(".lua") for p in folder.iterdir() if p.name.endswith(".lua")}


def constant(package: str, name: str, var: str) -> int | str:
    """What a script declares as `local <var> = <integer>` or `local <var> = '<text>'`, for the
    Python side that must agree with it (e.g. the store's PUSH_EVENTS_MAX, matchmaking's prefix)."""
    found = re.search(rf"^local {re.escape(var)} = (?:(\d+)|'([^'\\]*)')$", source(package, name), re.M)
    if found is None:
        raise LookupError(f"{package}: lua/{name}.lua declares no `local {var} = <number or 'text'>`")
    return int(found.group(1)) if found.group(1) is not None else found.group(2)
