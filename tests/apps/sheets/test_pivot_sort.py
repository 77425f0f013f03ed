"""A pivot's groups in the order Sheets' pivot editor sets ("Order", "Sort by"):
descending labels, or a summarised value's total, level by level so that nested groups
stay together; the same computation for the tool, Google's client and the graders."""

from __future__ import annotations

from typing import Any

import pytest
from googleapiclient.errors import HttpError

from officegym.apps.sheets.pivot_output import Draft, compute
from officegym.runner import ToolRunner
from officegym.world import World
from tests.apps.sheets.api_clients import batch, fresh, grid, state
from tests.apps.sheets.book_helpers import Sheets
from tests.apps.sheets.helpers import owner, workbook

DATA = [
    ("Region", "Rep", "Amount"),
    ("EMEA", "Ann", "300"),
    ("APAC", "Bob", "100"),
    ("EMEA", "Cid", "50"),
    ("AMER", "Dee", "400"),
    ("APAC", "Eve", "250"),
    ("EMEA", "Ann", "20"),
]


def pivot(rows: list[str], sort: dict[str, Any], **extra: Any) -> list[list[Any]]:
    book = Sheets()
    for i, row in enumerate(DATA, start=1):
        book.fill({f"{c}{i}": v for c, v in zip("ABC", row, strict=True)})
    values = extra.pop("values", [{"field": "Amount", "summary": "SUM"}])
    spec = Draft(1, "A1:C7", 1, "E1", rows, extra.pop("columns", []), values, {}, sort=sort)
    return compute(book.book, spec)


def test_without_a_sort_groups_ascend_by_label() -> None:
    got = [r[0] for r in pivot(["Region"], {})]
    assert got == ["Region", "AMER", "APAC", "EMEA", "Grand Total"]


def test_descending_labels() -> None:
    got = pivot(["Region"], {"Region": {"order": "DESCENDING"}})
    assert got[1:4] == [["EMEA", 370], ["APAC", 350], ["AMER", 400]]


def test_sort_by_a_values_total_keeps_nested_groups_together() -> None:
    by_total = {"Region": {"order": "DESCENDING", "value": 0}, "Rep": {"value": 0}}
    got = pivot(["Region", "Rep"], by_total)
    # AMER 400 > EMEA 370 > APAC 350; inside EMEA: Cid 50 < Ann 320; APAC: Bob 100 < Eve 250
    assert [r[:3] for r in got[1:-1]] == [
        ["AMER", "Dee", 400],
        ["EMEA", "Cid", 50],
        ["EMEA", "Ann", 320],
        ["APAC", "Bob", 100],
        ["APAC", "Eve", 250],
    ]
    assert got[-1][-1] == 1120


def test_sort_by_the_second_value_with_column_groups() -> None:
    values = [{"field": "Amount", "summary": "SUM"}, {"field": "Amount", "summary": "COUNT"}]
    got = pivot(["Region"], {"Region": {"value": 1}}, values=values)
    assert [r[0] for r in got[1:-1]] == ["AMER", "APAC", "EMEA"]  # counts 1, 2, 3
    got = pivot(["Rep"], {"Rep": {"order": "DESCENDING", "value": 0}}, columns=["Region"])
    assert [r[0] for r in got[1:-1]] == ["Dee", "Ann", "Eve", "Bob", "Cid"]  # by Grand Total


def test_the_tool_stores_and_follows_a_sort(world: World) -> None:
    with world.session() as s:
        me, wb = owner(s, "Orders 2025").handle, workbook(s, "Orders 2025").id
    runner = ToolRunner(world, me)
    assert runner.call("sheets_create_sheet", {"workbook": wb, "name": "P"}).ok
    made = runner.call(
        "sheets_create_pivot",
        {
            "workbook": wb,
            "source": "Orders!A:I",
            "anchor": "P!A1",
            "rows": ["Region"],
            "values": [{"field": "Revenue", "summary": "SUM"}],
            "sort": [{"field": "Region", "order": "descending", "by": "SUM of Revenue"}],
        },
    )
    assert made.ok, made.error
    got = runner.call("sheets_read_range", {"workbook": wb, "range": "P!A2:B9"}).result["values"]
    totals = [row[1] for row in got if row[0] and row[0] != "Grand Total"]
    assert totals == sorted(totals, reverse=True) and len(totals) > 2
    bad = runner.call(
        "sheets_create_pivot",
        {
            "workbook": wb,
            "source": "Orders!A:I",
            "anchor": "P!H1",
            "rows": ["Region"],
            "values": [{"field": "Revenue", "summary": "SUM"}],
            "sort": [{"field": "Region", "by": "MAX of Revenue"}],
        },
    )
    assert not bad.ok and "sum of revenue" in bad.error
    args = {"workbook": wb, "source": "Orders!A:I", "anchor": "P!H1", "rows": ["Region"]}
    args |= {"values": [{"field": "Revenue"}], "sort": [{"field": "Rep", "order": "descending"}]}
    nope = runner.call("sheets_create_pivot", args)
    assert not nope.ok and "not a row or column group" in nope.error
    runner.close()


def test_google_sort_order_and_value_bucket(api: Any, server: tuple[str, World]) -> None:
    _, world = server
    sid, sh = fresh(api, "Pivot sort", [list(r) for r in DATA])
    table = {
        "source": grid(sh, 0, 7, 0, 3),
        "rows": [{"sourceColumnOffset": 0, "sortOrder": "DESCENDING", "valueBucket": {}}],
        "values": [{"sourceColumnOffset": 2, "summarizeFunction": "SUM"}],
    }
    at = {"sheetId": sh, "rowIndex": 0, "columnIndex": 5}
    cells = {"start": at, "rows": [{"values": [{"pivotTable": table}]}], "fields": "pivotTable"}
    batch(api, sid, {"updateCells": cells})
    assert state(world, sid, "F2:G4") == [["AMER", 400], ["EMEA", 370], ["APAC", 350]]
    table["rows"][0]["valueBucket"] = {"valuesIndex": 0, "buckets": [{"stringValue": "x"}]}
    with pytest.raises(HttpError) as refused:
        batch(api, sid, {"updateCells": {**cells, "start": {**at, "columnIndex": 9}}})
    assert refused.value.resp.status == 400 and b"buckets" in refused.value.content


def test_the_browser_reference_fills_one_order_line_a_group_or_refuses() -> None:
    from officegym.apps.sheets.browser import _pivot_sort

    args = {"rows": ["Region", "Rep"], "values": [{"field": "Revenue", "summary": "SUM"}]}
    sort = [
        {"field": "Region", "order": "descending", "by": "SUM of Revenue"},
        {"field": "Rep", "order": "descending"},
    ]
    assert _pivot_sort({**args, "sort": sort}) == [
        "fill('pivot-order-field-1', 'Region')",
        "select_option('pivot-order-1', 'DESCENDING')",
        "select_option('pivot-order-by-1', '0')",
        "fill('pivot-order-field-2', 'Rep')",
        "select_option('pivot-order-2', 'DESCENDING')",
    ]
    with pytest.raises(KeyError):  # the editor cannot order by a value the pivot lacks
        _pivot_sort({**args, "sort": [{"field": "Region", "by": "MAX of Units"}]})
