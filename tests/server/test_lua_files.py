"""The Redis Lua scripts live in `.lua` files, one per script, in a `lua/` folder beside the
package that runs them (server/luafiles.py), and nowhere else: per package, every shipped file
is a script one of its modules loads and every script loaded is a shipped file; pyproject.toml
ships every such folder; no Python file under server/ or engines/ holds Lua of its own.
Each script's own behaviour is tested next to its package's tests (tests/*/test_*_lua.py,
tests/store/test_lua_scripts.py)."""

from __future__ import annotations

import importlib
import pkgutil
import tomllib
from pathlib import Path

import pytest
from tablero.server import luafiles

ROOT = Path(__file__).resolve().parents[2]
# The folder of each package with scripts, and so its import name (setup.py: server/ is tablero.server).
LUA_FOLDERS = sorted(p.parent for p in (ROOT / "server").rglob("lua") if p.is_dir() and any(p.glob("*.lua")))


def package(folder: Path) -> str:
    return "tablero." + ".".join(folder.relative_to(ROOT).parts)


def test_the_packages_with_scripts() -> None:
    assert [package(f) for f in LUA_FOLDERS] == [
        "tablero.server.app", "tablero.server.matchmaking", "tablero.server.notify", "tablero.server.portal",
        "tablero.server.ratings", "tablero.server.store"]


@pytest.mark.parametrize("folder", LUA_FOLDERS, ids=package)
def test_every_shipped_script_is_loaded_by_a_module_of_its_package_and_every_loaded_one_shipped(
        folder: Path) -> None:
    name = package(folder)
    for module in pkgutil.iter_modules([str(folder)]):
        importlib.import_module(f"{name}.{module.name}")
    assert luafiles.shipped(name) == {p.stem for p in (folder / "lua").glob("*.lua")}
    assert luafiles.LOADED.get(name, set()) == luafiles.shipped(name)


def test_pyproject_ships_every_lua_folder() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    for folder in LUA_FOLDERS:
        assert "lua/*.lua" in data.get(package(folder), []), package(folder)


def test_no_python_file_holds_lua() -> None:
    found = []
    for top in ("server", "engines"):
        for path in (ROOT / top).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if "redis.call(" in text or "redis.pcall(" in text:
                found.append(str(path.relative_to(ROOT)))
    assert found == []


def test_a_script_that_is_not_shipped_is_refused() -> None:
    with pytest.raises(FileNotFoundError):
        luafiles.source("tablero.server.notify", "no_such_script")
    assert "no_such_script" not in luafiles.LOADED.get("tablero.server.notify", set())


def test_a_constant_is_read_as_declared() -> None:
    assert luafiles.constant("tablero.server.store", "append", "PUSH_EVENTS_MAX") > 0
    assert luafiles.constant("tablero.server.matchmaking", "add", "P") == "tablero:{mm}:"
    with pytest.raises(LookupError, match="declares no"):
        luafiles.constant("tablero.server.matchmaking", "lease", "P")
