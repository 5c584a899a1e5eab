"""Tables that fit the terminal: a players table (a row per player, a column per field) too wide for
the console is drawn turned (a column per player, a row per field), so a narrow terminal (80
columns) wraps its cells instead of cutting them to "…"; turned and still too wide (four players'
long words), one small table per player, one under the other."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text


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


def stacked(table: Table) -> Group:
    """`table` as one two-column table per row (field, value), one under the other."""
    cols = table.columns
    out: list[Any] = [Text(str(table.title), style="italic")] if table.title else []
    for i, who in enumerate(cols[0].cells if cols else []):
        style = table.rows[i].style if i < len(table.rows) else None
        t = Table(show_header=False, title=who, title_justify="left", title_style=style or "bold")
        t.add_column(overflow="fold")
        t.add_column(overflow="fold")
        for col in cols[1:]:
            t.add_row(col.header, list(col.cells)[i])
        out.append(t)
    return Group(*out)


class Fit:
    """A table as it is when it fits the width it is drawn in at its natural width, else turned,
    else stacked (one table per row)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def _choice(self, console: Console, options: ConsoleOptions) -> Any:
        # Its natural width (a measure is clamped to the width it is given): a table shrunk below it
        # may cut words however short its longest word is (rich narrows the widest columns first).
        unbounded = options.update(max_width=10_000)
        if Measurement.get(console, unbounded, self.table).maximum <= options.max_width:
            return self.table
        t = turned(self.table)
        # Drawn, not measured: a table's measure may be under what it draws (a column's
        # min_width is kept after the others were narrowed), and a table wider than the
        # terminal is cut at its edge.
        if Measurement.get(console, unbounded, t).minimum <= options.max_width and max(
                (Segment.get_line_length(line) for line in Segment.split_lines(console.render(t, options))),
                default=0) <= options.max_width:
            return t
        return stacked(self.table)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self._choice(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._choice(console, options))


class WholeWords:
    """A table whose columns are never narrower than their longest word, when those widths fit
    the width it is drawn in (the rest of the width shared by what each column would take
    more); else stacked (one table per row). At 80 columns rich narrowed Founders' prestige
    table's "requires" column first and cut "population:" to "populatio…", though every
    column's longest word fitted. (A column's min_width does not do it: rich measures a column
    again after narrowing it, and a minimum then widens it past the terminal's edge.)"""

    def __init__(self, table: Table) -> None:
        self.table = table
        texts = [[str(cell) for cell in (c.header, *c.cells)] for c in table.columns]
        self.words = [max((cell_len(w) for t in col for w in t.split()), default=1) for col in texts]
        self.natural = [max((cell_len(line) for t in col for line in t.splitlines()), default=1) for col in texts]

    def _choice(self, options: ConsoleOptions) -> Any:
        cols = self.table.columns
        room = options.max_width - (3 * len(cols) + 1)  # each column's padding (1 + 1) and border
        if sum(self.natural) <= room:
            return self.table
        if sum(self.words) > room:
            return stacked(self.table)
        spare, more = room - sum(self.words), [n - w for n, w in zip(self.natural, self.words, strict=True)]
        for col, w, extra in zip(cols, self.words, more, strict=True):
            col.width = w + spare * extra // max(sum(more), 1)
        return self.table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self._choice(options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._choice(options))
