"""The grid's forms as the page script and plain-form agents use them: sort from one
cell, paste (copied ranges and text), the window that stays where the person is, the
pivot editor that makes its sheet and keeps its fields, read-only pivot output, Find a
page at a time with values as shown, and history in words."""

from __future__ import annotations

import re

from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.refs import parse_area
from officegym.apps.sheets.views import COLS, ROWS, selection_end, window_origin
from tests.apps.pages import html_of
from tests.apps.sheets.helpers import values, workbook

ORDERS = "Orders 2025"
FOUND = re.compile(r'\sid="found-')


def test_sorting_from_one_cell_sorts_its_data_region_below_the_header(
    client: FlaskClient, db: Session, me: Person
) -> None:
    wb = workbook(db, ORDERS)
    form = {"sheet": "Orders", "sel": "I7", "op": "sort", "sort_column": "I", "sort_order": "desc"}
    client.post(f"/sheets/{wb.id}/action", data=form)
    db.rollback()
    revenue = [r[0] for r in values(db, me, wb, "I2:I201")]
    assert values(db, me, wb, "A1")[0][0] == "Order ID"
    assert revenue == sorted(revenue, reverse=True)


def test_paste_moves_formulas_across_sheets_and_cut_clears_the_source(
    client: FlaskClient, db: Session, me: Person
) -> None:
    wb = workbook(db, ORDERS)
    sheets.write_range(db, me, wb, "Orders!K2", [["=G2*2"]])
    sheets.add_sheet(db, me, wb, "Copy")
    db.commit()
    paste = {"sheet": "Copy", "sel": "K5", "source": "Orders!K2", "cut": "1"}
    assert client.post(f"/sheets/{wb.id}/paste", data=paste).status_code == 302
    text = {"sheet": "Copy", "sel": "A1", "text": "Region\tTotal\nEMEA\t12\n"}
    client.post(f"/sheets/{wb.id}/paste", data=text)
    db.rollback()
    moved = sheets.read_range(db, me, wb, "Copy!K5", mode="formulas").rows
    source = sheets.read_range(db, me, wb, "Orders!K2", mode="formulas").rows
    assert moved == [["=G5*2"]] and not any(v for row in source for v in row)
    assert values(db, me, wb, "Copy!A1:B2") == [["Region", "Total"], ["EMEA", 12]]


def test_the_window_scrolls_only_as_far_as_the_selection_needs() -> None:
    at = parse_area("A30")
    assert window_origin(parse_area("H31:H34"), at) == (30, 1)  # inside: stays put
    assert window_origin(parse_area("A60"), at) == (60 - ROWS + 1, 1)  # below: just enough
    assert window_origin(parse_area("A10"), at) == (10, 1)  # above: its row on top
    assert window_origin(parse_area("B2:C9"), None) == (1, 1)  # a link: from A1 if it fits
    assert window_origin(parse_area(f"A{ROWS + 5}"), None) == (ROWS + 5, 1)
    assert window_origin(parse_area(f"C{ROWS + 5}"), None) == (ROWS + 5, 1)  # each axis
    assert window_origin(parse_area(f"M{ROWS}"), None) == (1, 13)
    assert window_origin(parse_area("A1"), parse_area("A1"))[1] == 1 and COLS == 10


def test_the_window_keeps_the_end_a_person_moved_in_view() -> None:
    at, tall = parse_area("A16"), parse_area("A2:A40")
    assert window_origin(tall, at) == (2, 1)  # a range typed in the name box: its top
    assert window_origin(tall, at, selection_end("A40", tall)) == (16, 1)  # its end shows
    assert window_origin(tall, parse_area("A3"), selection_end("A40", tall)) == (16, 1)
    assert window_origin(tall, parse_area("A30"), selection_end("A2", tall)) == (2, 1)
    assert [selection_end(t, tall) for t in ("A40", "A2", "B40", "A20", "A2:A9", "", None)] == [
        (40, 1), (2, 1), None, None, None, None, None,
    ]  # fmt: skip


def test_a_filter_view_scrolls_to_the_end_a_selection_was_extended_to(
    client: FlaskClient, db: Session, me: Person
) -> None:
    wb = workbook(db, ORDERS)
    emea = [r for r, (v,) in enumerate(values(db, me, wb, "C2:C201"), start=2) if v == "EMEA"]
    view = f"/sheets/{wb.id}?sheet=Orders&filter_col=C&filter=EMEA&at=A1"
    shown = [1, *emea[: ROWS - 1]]
    assert rows_shown(html_of(client, f"{view}&sel=C{emea[1]}:C{emea[ROWS - 1]}")) == shown
    extended = f"{view}&sel=C{emea[1]}:C{emea[ROWS - 1]}&end=C{emea[ROWS - 1]}"
    assert rows_shown(html_of(client, extended)) == emea[1:ROWS]  # one row further


def rows_shown(page: str) -> list[int]:
    return [int(r) for r in re.findall(r'<tr [^>]*data-row="(\d+)"', page)]


def test_the_pivot_editor_makes_its_sheet_and_keeps_its_fields_when_refused(
    client: FlaskClient, db: Session, me: Person
) -> None:
    wb = workbook(db, ORDERS)
    form = {"source": "Orders!A:I", "anchor": "Pivot!A1", "rows": "Nope", "value_field": "Units"}
    refused = client.post(f"/sheets/{wb.id}/pivots", data=form, follow_redirects=True)
    page = refused.get_data(as_text=True)
    assert 'value="Orders!A:I"' in page and 'value="Nope"' in page and "flash-error" in page
    db.rollback()
    assert "Pivot" not in [x.name for x in sheets.sheets_of(db, wb)]  # rolled back with it
    client.post(f"/sheets/{wb.id}/pivots", data={**form, "rows": "Region", "summary": "COUNT"})
    db.rollback()
    assert values(db, me, wb, "Pivot!A1:B1") == [["Region", "COUNT of Units"]]
    grid = html_of(client, f"/sheets/{wb.id}?sheet=Pivot")
    b2 = re.search(r'<input name="b2"[^>]*>', grid)
    assert (
        b2 and "readonly" in b2.group(0) and "Region" in html_of(client, f"/sheets/{wb.id}/pivots")
    )


def test_the_pivot_editor_orders_row_groups_by_a_values_total(
    client: FlaskClient, db: Session, me: Person
) -> None:
    wb = workbook(db, ORDERS)
    form = {"source": "Orders!A:I", "anchor": "Pivot!A1", "rows": "Region", "value_field": "Units"}
    form |= {"order_field_1": "Region", "order_1": "DESCENDING", "order_by_1": "0"}
    client.post(f"/sheets/{wb.id}/pivots", data=form)
    db.rollback()
    got = [row for row in values(db, me, wb, "Pivot!A2:B20") if row[0] not in ("", "Grand Total")]
    totals = [row[1] for row in got]
    assert len(totals) > 2 and totals == sorted(totals, reverse=True)
    pivot = sheets.pivots_of(db, wb)[-1]
    assert pivot.sort == {"Region": {"order": "DESCENDING", "value": 0}}


def test_find_pages_through_matches_and_shows_values_as_cells_show_them(
    client: FlaskClient, db: Session, me: Person
) -> None:
    wb = workbook(db, ORDERS)
    first = html_of(client, f"/sheets/{wb.id}/find?q=SO-1&sheet=Orders")
    assert len(FOUND.findall(first)) == 50 and 'id="find-next"' in first
    last = html_of(client, f"/sheets/{wb.id}/find?q=SO-1&sheet=Orders&page=4")
    assert len(FOUND.findall(last)) == 50 and 'id="find-next"' not in last
    assert 'id="find-previous"' in last and "SO-10200" in last
    dates = html_of(client, f"/sheets/{wb.id}/find?q=2025-01-02&sheet=Orders")
    assert ": 2025-01-02</li>" in dates and "45659" not in dates


def test_history_says_what_happened_in_words(client: FlaskClient, db: Session, me: Person) -> None:
    wb = workbook(db, ORDERS)
    client.post(f"/sheets/{wb.id}/cells", data={"sheet": "Orders", "sel": "K2", "k2": "42"})
    sort = {"sheet": "Orders", "sel": "A1:I201", "op": "sort", "sort_column": "C"}
    client.post(f"/sheets/{wb.id}/action", data={**sort, "sort_header": "on"})
    page = html_of(client, f"/sheets/{wb.id}/history")
    assert "Typed into Orders!K2: K2 (blank) → “42”" in page
    assert "Sorted Orders!A2:I201 by column C, A→Z" in page
    assert '{"' not in page and "[{" not in page


def test_a_row_saved_under_a_filter_stays_shown_until_the_filter_changes(
    client: FlaskClient, db: Session, me: Person
) -> None:
    wb = workbook(db, ORDERS)
    emea = next(r for r in range(2, 202) if values(db, me, wb, f"C{r}")[0][0] == "EMEA")
    where = {"sheet": "Orders", "filter_col": "C", "filter": "EMEA", "keep": ""}
    saved = client.post(f"/sheets/{wb.id}/cells", data={**where, f"c{emea}": "APAC"})
    assert f"keep={emea}" in saved.headers["Location"]
    kept = html_of(client, saved.headers["Location"])
    refiltered = html_of(client, f"/sheets/{wb.id}?sheet=Orders&filter_col=C&filter=EMEA")
    assert f'data-row="{emea}"' in kept and f'data-row="{emea}"' not in refiltered
    db.rollback()
    assert values(db, me, wb, f"C{emea}") == [["APAC"]]
