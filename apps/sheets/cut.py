"""Cut and paste: a range moved to another place, as Sheets moves it. The moved cells
keep their formulas as written (a cut formula still reads the cells it read), and every
reference in the workbook to a moved cell follows it to its new place; a reference to a
cell the paste overwrote becomes ``#REF!``; the source cells the paste did not land on
are emptied."""

from __future__ import annotations

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import store
from officegym.apps.sheets.access import require_edit
from officegym.apps.sheets.cells import MAX_WRITE, apply
from officegym.apps.sheets.engine import Book
from officegym.apps.sheets.models import Sheet, Workbook
from officegym.apps.sheets.moves import _parse, _render
from officegym.apps.sheets.parse import rewrite
from officegym.apps.sheets.places import locate, sheets_of
from officegym.apps.sheets.refs import MAX_COLS, MAX_ROWS, Area
from officegym.errors import Invalid

__all__ = ["move_range"]


class _Move:
    """How references change when `src` (on sheet `src_name`) moves to `dst`."""

    def __init__(self, src: Area, src_name: str, dst: Area, dst_name: str) -> None:
        self.src, self.dst = src, dst
        self.src_name, self.dst_name = src_name, dst_name
        self.dr, self.dc = dst.r1 - src.r1, dst.c1 - src.c1

    def _inside(self, corners: list, area: Area) -> bool:
        return all(
            c.row is not None and c.col is not None and area.contains(c.row, c.col) for c in corners
        )

    def text(self, formula: str, home: str, new_home: str | None = None) -> str:
        """`formula` of a cell on sheet `home` (moving to `new_home`, if it is cut too)."""
        same = lambda a, b: a.lower() == b.lower()  # noqa: E731

        def follow(token: str) -> str:
            parsed = _parse(token)
            if parsed is None:
                return token
            sheet, corners = parsed
            on = sheet or home
            if same(on, self.src_name) and self._inside(corners, self.src):
                for c in corners:
                    c.row, c.col = c.row + self.dr, c.col + self.dc
                lives = new_home or home
                return _render(None if same(self.dst_name, lives) else self.dst_name, corners)
            if same(on, self.dst_name) and self._inside(corners, self.dst):
                return "#REF!"  # the paste overwrote what it read
            if new_home is not None and sheet is None and not same(home, new_home):
                return _render(home, corners)  # still reads the sheet it was cut from
            return token

        return rewrite(formula, follow)


def move_range(
    s: Session, actor: Person, wb: Workbook, source: str, dest: str, *, sheet: str | None = None
) -> Area:
    """Move a range (inputs and formats) so its top-left lands on `dest`; references to
    the moved cells anywhere in the workbook follow them. Returns where it landed."""
    require_edit(s, actor, wb)
    src_sheet, src = locate(s, wb, source, sheet)
    dst_sheet, corner = locate(s, wb, dest, sheet)
    if src.size > MAX_WRITE or src.r2 == MAX_ROWS or src.c2 == MAX_COLS:
        raise Invalid(f"move at most {MAX_WRITE} cells, from a bounded range")
    r2, c2 = corner.r1 + src.rows - 1, corner.c1 + src.cols - 1
    if r2 > MAX_ROWS or c2 > MAX_COLS:
        raise Invalid("the paste runs off the sheet")
    dst = Area(corner.r1, corner.c1, r2, c2, dst_sheet.name)
    b = store.book(s, wb.id)
    move = _Move(src, src_sheet.name, dst, dst_sheet.name)
    edits = _edits(b, move, src_sheet, dst_sheet)
    tabs = {x.id: x for x in sheets_of(s, wb)}
    label = f"{src.label()} -> {dst.label()}"
    for sid in sorted(edits, key=lambda k: (k != dst_sheet.id, k)):
        apply(s, actor, wb, tabs[sid], edits[sid], "cut", label)
    return dst


def _edits(
    b: Book, move: _Move, src_sheet: Sheet, dst_sheet: Sheet
) -> dict[int, dict[tuple[int, int], str | None]]:
    """The inputs to type, sheet by sheet: moved cells, emptied sources, and every other
    formula whose references changed. Formats move along in the book."""
    src, dst = move.src, move.dst
    edits: dict[int, dict[tuple[int, int], str | None]] = {src_sheet.id: {}, dst_sheet.id: {}}
    landed: dict[tuple[int, int], tuple[str | None, str | None]] = {}
    for r in range(src.r1, src.r2 + 1):
        for c in range(src.c1, src.c2 + 1):
            st = b.cell(src_sheet.id, r, c)
            text = st.input if st else None
            if text and text.startswith("=") and st and st.formula is not None:
                text = "=" + move.text(text[1:], src_sheet.name, dst_sheet.name)
            landed[(r + move.dr, c + move.dc)] = (text, st.fmt if st else None)
    for r in range(src.r1, src.r2 + 1):
        for c in range(src.c1, src.c2 + 1):
            if not (src_sheet.id == dst_sheet.id and dst.contains(r, c)):
                edits[src_sheet.id][(r, c)] = None
                b.set_format(src_sheet.id, r, c, None)
    for (r, c), (text, fmt) in landed.items():
        edits[dst_sheet.id][(r, c)] = text
        b.set_format(dst_sheet.id, r, c, fmt)
    for sid, tab in b.sheets.items():
        for (r, c), st in list(tab.cells.items()):
            moving = sid == src_sheet.id and src.contains(r, c)
            if moving or st.formula is None or not st.input or (r, c) in edits.get(sid, {}):
                continue
            text = move.text(st.input[1:], tab.name)
            if text != st.input[1:]:
                edits.setdefault(sid, {})[(r, c)] = "=" + text
    return {sid: e for sid, e in edits.items() if e}
