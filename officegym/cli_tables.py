"""How every `officegym` command prints a table, so ids stay whole wherever it goes.

On a terminal wide enough for it, a table is drawn by rich, its id columns (the first
one: templates, checks, apps; and any headed "... id") never wrapped or cut, no header
and no word folded inside a word. A terminal too narrow for that (80 columns, say)
gets the same rows as a list: each row's first cell on a line of its own, then one
indented ``header  value`` line per other column, wrapped at the window's edge.
Piped or redirected, the table is plain text: a ``# title`` line, then a
tab-separated header and one line per row, markup removed, so ``cut``, ``awk`` or a
spreadsheet reads it as it is. ``--json`` gives the rows as a JSON list of objects.
"""

from __future__ import annotations

import json

from rich.console import Console
from rich.table import Table
from rich.text import Text

__all__ = ["plain_lines", "print_table", "table_records"]

_EDGE = 4  # a drawn table's outer border and padding, plus each column's share below
_PER_COLUMN = 3  # a column's separator and its padding on both sides


def print_table(console: Console, table: Table, *, as_json: bool = False) -> None:
    """Print `table` on `console`: JSON rows with `as_json`; drawn on a terminal where it
    fits, a list of rows where it does not; plain tab-separated lines when piped."""
    if as_json:
        console.file.write(json.dumps(table_records(table), indent=2, ensure_ascii=False) + "\n")
        return
    if not console.is_terminal:
        console.file.write("".join(f"{line}\n" for line in plain_lines(table)))  # tabs kept
        return
    if needed_width(table) > console.width:
        _print_as_list(console, table)
        return
    for i, column in enumerate(table.columns):
        if _is_id(i, column.header):
            column.no_wrap = True
            column.overflow = "ignore"
            column.min_width = max((len(_plain(c)) for c in column.cells), default=0)
    console.print(table)


def needed_width(table: Table) -> int:
    """The narrowest width the table can be drawn in without cutting an id or a header
    and without folding a word: whole ids, else each column's longest word."""
    total = _EDGE
    for i, column in enumerate(table.columns):
        cells = [_plain(c) for c in column.cells]
        if _is_id(i, column.header):
            widest = max((len(c) for c in cells), default=0)
        else:
            widest = max((len(w) for c in cells for w in c.split()), default=0)
        total += max(widest, *(len(w) for w in _plain(column.header).split())) + _PER_COLUMN
    return total


def plain_lines(table: Table) -> list[str]:
    """The table as text lines: ``# title``, the header, then each row, tab-separated."""
    lines = [f"# {_plain(table.title)}"] if table.title else []
    lines.append("\t".join(_plain(c.header) for c in table.columns))
    lines.extend("\t".join(row) for row in _rows(table))
    return lines


def table_records(table: Table) -> list[dict[str, str]]:
    """The table's rows as objects keyed by column header (visible text only)."""
    headers = [_plain(c.header) for c in table.columns]
    return [dict(zip(headers, row, strict=True)) for row in _rows(table)]


def _print_as_list(console: Console, table: Table) -> None:
    """Each row as a block: its first cell whole, then an indented line per other column."""
    if table.title:
        console.print(Text(_plain(table.title), style="italic"))
    headers = [_plain(c.header) for c in table.columns]
    label_width = max((len(h) for h in headers[1:]), default=0)
    for row in _rows(table):
        console.print(Text(row[0], style="bold"), overflow="ignore", crop=False)
        block = Table.grid(padding=(0, 1))
        block.add_column(width=label_width + 2, style="dim", no_wrap=True)
        block.add_column(overflow="fold")
        for header, value in zip(headers[1:], row[1:], strict=True):
            if value:
                block.add_row(f"  {header}", value)
        console.print(block)


def _rows(table: Table) -> list[list[str]]:
    """Every row's cells as visible text."""
    cells = [list(c.cells) for c in table.columns]
    return [[_plain(col[i]) for col in cells] for i in range(table.row_count)]


def _is_id(index: int, header: object) -> bool:
    """Whether a column holds ids, which are never wrapped or cut."""
    return index == 0 or _plain(header).endswith("id")


def _plain(value: object) -> str:
    """The visible text of a cell (rich markup and styles dropped), on one line."""
    if isinstance(value, Text):
        text = value.plain
    elif isinstance(value, str):
        text = Text.from_markup(value).plain
    else:
        text = str(value)
    return " ".join(text.split())
