"""Each row and column group of a pivot in an order of its own, as Sheets' editor sets
("Order", "Sort by" per group) and Google's API says (PivotGroup.sortOrder, valueBucket):
the service, the Sheets API, and the pivot editor's Order lines, which keep every field
when a pivot is refused."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.runner import ToolRunner
from officegym.world import World
from tests.apps.pages import html_of
from tests.apps.sheets.api_clients import batch, fresh, grid, state
from tests.apps.sheets.helpers import owner, values, workbook
from tests.apps.sheets.test_pivot_sort import DATA, pivot

SUM = [{"field": "Amount", "summary": "SUM"}]


def test_each_row_group_has_its_own_order() -> None:
    sort = {"Region": {"order": "DESCENDING"}, "Rep": {"order": "DESCENDING", "value": 0}}
    got = [r[:3] for r in pivot(["Region", "Rep"], sort)[1:-1]]
    # regions Z→A; inside each, reps by their total, largest first
    assert got == [
        ["EMEA", "Ann", 320],
        ["EMEA", "Cid", 50],
        ["APAC", "Eve", 250],
        ["APAC", "Bob", 100],
        ["AMER", "Dee", 400],
    ]
    mixed = {"Region": {"order": "ASCENDING", "value": 0}, "Rep": {"order": "DESCENDING"}}
    assert [r[1] for r in pivot(["Region", "Rep"], mixed)[1:-1]] == [
        "Eve", "Bob", "Cid", "Ann", "Dee",
    ]  # fmt: skip


def test_column_groups_sort_by_a_values_grand_total() -> None:
    head = pivot(["Rep"], {"Region": {"order": "DESCENDING", "value": 0}}, columns=["Region"])[0]
    assert head[1:4] == ["AMER SUM of Amount", "EMEA SUM of Amount", "APAC SUM of Amount"]
    labels = pivot(["Rep"], {"Region": {"order": "DESCENDING"}}, columns=["Region"])[0]
    assert labels[1:4] == ["EMEA SUM of Amount", "APAC SUM of Amount", "AMER SUM of Amount"]
    plain = pivot(["Rep"], {}, columns=["Region"])[0]
    assert plain[1:4] == ["AMER SUM of Amount", "APAC SUM of Amount", "EMEA SUM of Amount"]


def test_google_pivot_groups_each_with_a_sort_order(api: Any, server: tuple[str, World]) -> None:
    _, world = server
    sid, sh = fresh(api, "Group orders", [list(r) for r in DATA])
    table = {
        "source": grid(sh, 0, 7, 0, 3),
        "rows": [
            {"sourceColumnOffset": 0, "sortOrder": "ASCENDING"},
            {"sourceColumnOffset": 1, "sortOrder": "DESCENDING", "valueBucket": {}},
        ],
        "columns": [],
        "values": [{"sourceColumnOffset": 2, "summarizeFunction": "SUM"}],
    }
    at = {"sheetId": sh, "rowIndex": 0, "columnIndex": 5}
    cells = {"start": at, "rows": [{"values": [{"pivotTable": table}]}], "fields": "pivotTable"}
    batch(api, sid, {"updateCells": cells})
    assert [r[1] for r in state(world, sid, "F2:H6")] == ["Dee", "Eve", "Bob", "Ann", "Cid"]
    table["rows"] = [{"sourceColumnOffset": 1}]
    table["columns"] = [{"sourceColumnOffset": 0, "sortOrder": "DESCENDING", "valueBucket": {}}]
    batch(api, sid, {"updateCells": {**cells, "start": {**at, "rowIndex": 10}}})
    assert state(world, sid, "G11:I11") == [
        ["AMER SUM of Amount", "EMEA SUM of Amount", "APAC SUM of Amount"]
    ]


def test_the_editor_orders_each_group_on_a_line_and_keeps_the_lines_when_refused(
    client: FlaskClient, db: Session, me: Person
) -> None:
    wb = workbook(db, "Orders 2025")
    form = {"source": "Orders!A:I", "anchor": "Pivot!A1", "rows": "Region, Category"}
    form |= {"value_field": "Units", "value_field_2": "Revenue", "summary_2": "SUM"}
    form |= {"order_field_1": "Region", "order_1": "DESCENDING"}
    form |= {"order_field_2": "Nope", "order_1": "DESCENDING", "order_by_2": "1"}
    refused = client.post(f"/sheets/{wb.id}/pivots", data=form, follow_redirects=True)
    page = refused.get_data(as_text=True)
    assert "flash-error" in page and "Nope" in page
    assert re.search(r'name="order_field_2"[^>]*value="Nope"', page)
    assert re.search(r'<option value="1" selected>the second value', page)
    assert re.search(r'<option value="DESCENDING" selected>', page)
    client.post(f"/sheets/{wb.id}/pivots", data={**form, "order_field_2": "Category"})
    db.rollback()
    got = [r for r in values(db, me, wb, "Pivot!A2:D40") if r[0] != "Grand Total"]
    regions = list(dict.fromkeys(r[0] for r in got if r[0]))  # each row names its region
    assert regions == sorted(regions, reverse=True) and len(regions) > 2
    for region in regions:
        revenue = [r[3] for r in got if r[0] == region]
        assert revenue == sorted(revenue)  # categories by the second value, ascending
    pivot = sheets.pivots_of(db, wb)[-1]
    assert pivot.sort == {
        "Region": {"order": "DESCENDING"},
        "Category": {"order": "ASCENDING", "value": 1},
    }
    listed = html_of(client, f"/sheets/{wb.id}/pivots")
    assert "Region: descending; Category: ascending by SUM of Revenue" in listed


def test_the_tool_orders_a_column_group_by_a_values_grand_total(world: World) -> None:
    with world.session() as s:
        me, wb = owner(s, "Orders 2025").handle, workbook(s, "Orders 2025").id
    runner = ToolRunner(world, me)
    assert runner.call("sheets_create_sheet", {"workbook": wb, "name": "P"}).ok
    args = {"workbook": wb, "source": "Orders!A:I", "anchor": "P!A1", "rows": ["Category"]}
    args |= {"columns": ["Region"], "values": [{"field": "Revenue", "summary": "SUM"}]}
    args["sort"] = [
        {"field": "Region", "order": "descending", "by": "SUM of Revenue"},
        {"field": "Category", "order": "descending"},
    ]
    made = runner.call("sheets_create_pivot", args)
    assert made.ok, made.error
    got = runner.call("sheets_read_range", {"workbook": wb, "range": "P!A1:H5"}).result["values"]
    runner.close()
    totals = got[-1][1:-1]  # the Grand Total row, one a region
    assert len(totals) > 2 and totals == sorted(totals, reverse=True)
    assert [r[0] for r in got[1:-1]] == ["Software", "Services", "Hardware"]
