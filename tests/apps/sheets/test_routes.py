"""The spreadsheet's pages: every page renders with its key ids, every control is
addressable and labelled, the grid shows a bounded window whatever the sheet's size,
and a person can type a formula, fill, sort, filter and build a pivot through forms."""

from __future__ import annotations

import re

from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Workbook
from tests.apps.pages import assert_addressable, html_of
from tests.apps.sheets.helpers import values, workbook

ORDERS = "Orders 2025"


def pages(wb: Workbook) -> list[tuple[str, list[str]]]:
    w = wb.id
    return [
        ("/sheets/", [f"workbook-{w}", "new-workbook-name", "import-xlsx-file"]),
        (
            f"/sheets/{w}",
            [
                "name-box",
                "formula-bar",
                "grid-save",
                "a1",
                "j25",
                "col-a",
                "row-25",
                "tab-orders",
                "fill-down",
                "sort-apply",
                "filter-apply",
                "page-down",
            ],
        ),
        (f"/sheets/{w}?sel=C390:D395", ["c390", "d395", "toggle-formulas"]),
        (f"/sheets/{w}?filter_col=C&filter=APAC", ["c1", "filter-clear", "filter-matched"]),
        (f"/sheets/{w}/pivots", ["pivot-source", "pivot-rows", "pivot-summary", "pivot-create"]),
        (f"/sheets/{w}/names", ["name-name", "name-range", "name-define"]),
        (f"/sheets/{w}/share", ["share-person", "share-role", "share-submit", "link-access"]),
        (f"/sheets/{w}/history", ["workbook-history"]),
    ]


def test_every_page_renders_with_its_key_ids_and_labels(
    client: FlaskClient, db: Session, me: Person
) -> None:
    for url, ids in pages(workbook(db, ORDERS)):
        html = html_of(client, url)
        for element_id in ids:
            assert f'id="{element_id}" data-og-id="{element_id}"' in html, (url, element_id)
        assert_addressable(html, url)


def test_a_large_sheet_shows_a_bounded_window(client: FlaskClient, db: Session, me: Person) -> None:
    wb = workbook(db, ORDERS)
    sheets.write_range(db, me, wb, "A5000", [["last order"]])
    db.commit()
    html = html_of(client, f"/sheets/{wb.id}")
    assert html.count('aria-label="') <= 25 * 10 + 40
    html = html_of(client, f"/sheets/{wb.id}?sel=A5000")
    assert 'aria-label="A5000" value="last order"' in html and 'aria-label="A1"' not in html
    down = re.search(r'href="([^"]+)" id="page-down"', html_of(client, f"/sheets/{wb.id}")).group(1)
    assert 'aria-label="A26"' in html_of(client, down.replace("&amp;", "&"))


def test_typing_a_formula_in_a_cell_and_filling_it_down(
    client: FlaskClient, db: Session, me: Person
) -> None:
    wb = workbook(db, ORDERS)
    form = {"sheet": "Orders", "sel": "J2", "j2": "=G2*H2"}
    assert client.post(f"/sheets/{wb.id}/cells", data=form).status_code == 302
    client.post(
        f"/sheets/{wb.id}/action", data={"sheet": "Orders", "sel": "J2:J6", "op": "fill_down"}
    )
    db.rollback()  # drop what this session loaded: the pages wrote since
    got = values(db, me, wb, "G2:J6")
    assert [row[3] for row in got] == [row[0] * row[1] for row in got]
    html = html_of(client, f"/sheets/{wb.id}?sel=J4")
    assert 'id="formula-bar" data-og-id="formula-bar"' in html and 'value="=G4*H4"' in html
    bad = client.post(
        f"/sheets/{wb.id}/cells",
        data={"sheet": "Orders", "sel": "J2", "j2": "=SUM(G2"},
        follow_redirects=True,
    )
    assert "formula" in bad.get_data(as_text=True) and values(db, me, wb, "J2")[0][0] == got[0][3]


def test_sort_filter_and_pivot_through_the_pages(
    client: FlaskClient, db: Session, me: Person
) -> None:
    wb = workbook(db, ORDERS)
    sort = {
        "sheet": "Orders",
        "sel": "A1:I201",
        "op": "sort",
        "sort_column": "I",
        "sort_order": "desc",
    }
    client.post(f"/sheets/{wb.id}/action", data={**sort, "sort_header": "on"})
    db.rollback()  # drop what this session loaded: the pages wrote since
    revenue = [r[0] for r in values(db, me, wb, "I2:I201")]
    assert revenue == sorted(revenue, reverse=True)
    html = html_of(client, f"/sheets/{wb.id}?filter_col=C&filter=EMEA")
    shown = re.findall(r'aria-label="C\d+" value="([^"]*)"', html)
    assert shown[0] == "Region" and set(shown[1:]) == {"EMEA"}
    client.post(f"/sheets/{wb.id}/sheets", data={"op": "add", "name": "Summary"})
    pivot = {"source": "Orders!A:I", "anchor": "Summary!A1", "rows": "Category"}
    r = client.post(
        f"/sheets/{wb.id}/pivots", data={**pivot, "value_field": "Units", "summary": "SUM"}
    )
    assert r.status_code == 302
    db.rollback()  # drop what this session loaded: the pages wrote since
    table = values(db, me, wb, "Summary!A1:B5")
    assert table[0] == ["Category", "SUM of Units"] and [r[0] for r in table[1:]] == [
        "Hardware",
        "Services",
        "Software",
        "Grand Total",
    ]


def test_a_viewer_sees_read_only_cells(client: FlaskClient, db: Session) -> None:
    wb = workbook(db, "FY2026 Team Budgets")
    viewer = next(p for p, role in sheets.shares_of(db, wb) if role == "viewer")
    client.get(f"/login/{viewer.handle}")
    html = html_of(client, f"/sheets/{wb.id}")
    assert 'id="grid-save"' not in html and "readonly" in html
    assert client.post(f"/sheets/{wb.id}/cells", data={"sheet": "Q1", "a1": "x"}).status_code == 403
