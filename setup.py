"""Packages under one import name, `tablero`, from the repository's top-level folders.

The design card's layout stays (`server/`, `engines/`, `rankings/`, `clients/web/`); installed,
they are `tablero.server`, `tablero.engines`, `tablero.rankings` and `tablero.web`. Everything
else (dependencies, scripts, package data) is in pyproject.toml.
"""

from setuptools import find_packages, setup

FOLDERS = {"server": "server", "engines": "engines", "rankings": "rankings", "web": "clients/web"}

packages = ["tablero"]
package_dir = {"tablero": "tablero"}
for name, folder in FOLDERS.items():
    package_dir[f"tablero.{name}"] = folder
    packages += [f"tablero.{name}", *(f"tablero.{name}.{sub}" for sub in find_packages(folder))]

setup(packages=packages, package_dir=package_dir)
