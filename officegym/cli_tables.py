"""How every `officegym` command prints a table, so ids stay whole wherever it goes.

On a terminal a table is drawn by rich, its id columns (the first one: templates,
checks, apps; and any headed "... id") never wrapped or cut however narrow the
window. Piped or redirected, the same table is plain text: a ``# title`` line, then
a tab-separated header and one line per row, markup removed. Nothing is folded at
80 columns, and ``cut``, ``awk`` or a spreadsheet reads it as it is.
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

__all__ = ["plain_lines", "print_table"]


def print_table(console: Console, table: Table) -> None:
    """Print `table` on `console`: drawn on a terminal, plain tab-separated lines else."""
    if not console.is_terminal:
        console.file.write("".join(f"{line}\n" for line in plain_lines(table)))  # tabs kept
        return
    for i, column in enumerate(table.columns):
        if i == 0 or _plain(column.header).endswith("id"):
            column.no_wrap = True
            column.overflow = "ignore"
            column.min_width = max((len(_plain(c)) for c in column.cells), default=0)
    console.print(table)


def plain_lines(table: Table) -> list[str]:
    """The table as text lines: ``# title``, the header, then each row, tab-separated."""
    lines = [f"# {_plain(table.title)}"] if table.title else []
    lines.append("\t".join(_plain(c.header) for c in table.columns))
    cells = [list(c.cells) for c in table.columns]
    lines.extend("\t".join(_plain(col[i]) for col in cells) for i in range(table.row_count))
    return lines


def _plain(value: object) -> str:
    """The visible text of a cell (rich markup and styles dropped), on one line."""
    if isinstance(value, Text):
        text = value.plain
    elif isinstance(value, str):
        text = Text.from_markup(value).plain
    else:
        text = str(value)
    return " ".join(text.split())
