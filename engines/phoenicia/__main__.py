"""The table of moves and phases with their rulebook references, then the declared flow of the
phases: python -m tablero.engines.phoenicia"""

from . import ENGINE

for row in ENGINE.rules_table():
    where = f" [{', '.join(row['phases'])}]" if row.get("phases") else ""
    print(f"{row['kind']:5} {row['name']:13} {row['rule']}{where}")

print()
print(ENGINE.flow(), end="")
