"""Tables that fit the terminal: a players table (a row per player, a column per field) too wide for
the console is drawn turned (a column per player, a row per field), so a narrow terminal (80
columns) wraps its cells instead of cutting them to "…"."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table


def turned(table: Table) -> Table:
    """`table` with its rows as columns: the first column's cells (who the row is) head the columns."""
    cols = table.columns
    t = Table(title=table.title, title_justify=table.title_justify, show_lines=True)
    labels = [str(c.header) for c in cols[1:]]
    longest = max((len(w) for label in labels for w in label.split()), default=0)
    t.add_column(str(cols[0].header) if cols else "", min_width=min(longest, 20))
    who = list(cols[0].cells) if cols else []
    for i, cell in enumerate(who):
        style = table.rows[i].style if i < len(table.rows) else None
        t.add_column(cell, header_style=style or "bold", overflow="fold")  # a long word folds, never cut
    for col in cols[1:]:
        t.add_row(col.header, *col.cells)
    return t


class Fit:
    """A table as it is when it fits the width it is drawn in at its natural width, else turned."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def _choice(self, console: Console, options: ConsoleOptions) -> Table:
        # Its natural width (a measure is clamped to the width it is given): a table shrunk below it
        # may cut words however short its longest word is (rich narrows the widest columns first).
        unbounded = options.update(max_width=10_000)
        if Measurement.get(console, unbounded, self.table).maximum <= options.max_width:
            return self.table
        return turned(self.table)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self._choice(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._choice(console, options))
