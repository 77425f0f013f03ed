"""A workbook in memory for engine tests: type into cells by A1 address, read values."""

from __future__ import annotations

from officegym.apps.sheets.engine import Book
from officegym.apps.sheets.refs import parse_area
from officegym.apps.sheets.values import Value


class Sheets:
    """A `Book` with sheets by name, typed into like a person would."""

    def __init__(self, *names: str) -> None:
        self.book = Book(1, 45352.0)  # 2024-03-01
        for i, name in enumerate(names or ("Sheet1",), start=1):
            self.book.add_sheet(i, name)

    def _at(self, ref: str) -> tuple[int, int, int]:
        area = parse_area(ref)
        sid = self.book.sheet_id(area.sheet) if area.sheet else 1
        assert sid is not None
        return sid, area.r1, area.c1

    def type(self, ref: str, text: str | None) -> int:
        """Type into one cell and recalculate; returns how many formulas were evaluated."""
        key = self._at(ref)
        self.book.set_input(*key, text)
        return self.book.recalc([key])

    def fill(self, cells: dict[str, str]) -> None:
        for ref, text in cells.items():
            self.type(ref, text)

    def __getitem__(self, ref: str) -> Value:
        return self.book.value(*self._at(ref))


def evaluate(formula: str, cells: dict[str, str] | None = None) -> Value:
    """The value of one formula typed in Z1000 of a sheet holding `cells`."""
    book = Sheets()
    book.fill(cells or {})
    book.type("Z1000", formula)
    return book["Z1000"]
