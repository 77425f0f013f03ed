"""Pivot tables are objects: their cells agree with the source rows summed by hand,
follow every change of the source, honour filters and column groups, and go away
with their output."""

from __future__ import annotations

from collections import defaultdict

import pytest
from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.cells import json_value
from officegym.apps.sheets.models import Pivot, Workbook
from officegym.apps.sheets.pivot_output import intact, output
from officegym.errors import Conflict, Invalid
from officegym.runner import ToolRunner
from officegym.world import World
from tests.apps.sheets.helpers import owner, values, workbook

ORDERS = "Orders 2025"


def by_hand(
    s: Session, me: Person, wb: Workbook, key: int, value: int, keep=lambda row: True
) -> dict:
    rows = values(s, me, wb, "Orders!A2:I1000")
    totals: dict = defaultdict(float)
    for row in rows:
        if keep(row):
            totals[row[key]] += row[value]
    return dict(totals)


def table(s: Session, me: Person, wb: Workbook, ref: str) -> dict:
    return {row[0]: row[1] for row in values(s, me, wb, ref)[1:]}


def test_revenue_by_region_matches_the_rows_and_follows_them(world: World) -> None:
    with world.session() as s:
        wb, me = workbook(s, ORDERS), owner(s, ORDERS)
        sheets.add_sheet(s, me, wb, "Pivot")
        pivot = sheets.create_pivot(
            s,
            me,
            wb,
            "Orders!A:I",
            "Pivot!A1",
            rows=["Region"],
            values=[{"field": "Revenue", "summary": "SUM"}],
        )
        expected = by_hand(s, me, wb, 2, 8)
        got = table(s, me, wb, "Pivot!A1:B10")
        assert got.pop("Grand Total") == pytest.approx(sum(expected.values()))
        assert got == pytest.approx(expected)
        assert values(s, me, wb, "Pivot!A1:B1") == [["Region", "SUM of Revenue"]]
        region = values(s, me, wb, "Orders!C2")[0][0]
        sheets.write_range(s, me, wb, "Orders!I2", [[10_000_000]])
        assert table(s, me, wb, "Pivot!A1:B10")[region] == pytest.approx(
            by_hand(s, me, wb, 2, 8)[region]
        )
        sheets.append_rows(
            s,
            me,
            wb,
            [["SO-X", "2025-12-31", "Antarctica", "Sensor Kit", "Hardware", "x", 1, 5, 5]],
            sheet="Orders",
        )
        assert table(s, me, wb, "Pivot!A1:B10")["Antarctica"] == 5
        assert pivot.extent == "A1:B7"


def test_filters_column_groups_and_counts(world: World) -> None:
    with world.session() as s:
        wb, me = workbook(s, ORDERS), owner(s, ORDERS)
        sheets.add_sheet(s, me, wb, "P")
        sheets.create_pivot(
            s,
            me,
            wb,
            "Orders!A1:I201",
            "P!B2",
            rows=["Product"],
            columns=["Region"],
            values=[{"field": "Units", "summary": "COUNT"}],
            filters={"Category": ["software"]},
        )
        grid = values(s, me, wb, "P!B2:H20")
        header, *body = grid
        assert header[0] == "Product" and header[-1] == "Grand Total"
        products = [r[0] for r in body if r[0] and r[0] != "Grand Total"]
        assert products == ["Analytics Cloud", "Data Pipeline", "Insight Dashboards"]
        rows = values(s, me, wb, "Orders!A2:I201")
        software = sum(1 for r in rows if r[4] == "Software")
        assert body[len(products)][len(header) - 1] == software


def test_a_pivot_may_not_overlap_its_source_and_names_missing_fields(world: World) -> None:
    with world.session() as s:
        wb, me = workbook(s, ORDERS), owner(s, ORDERS)
        with pytest.raises(Invalid, match="overlap"):
            sheets.create_pivot(
                s,
                me,
                wb,
                "Orders!A1:I201",
                "Orders!C5",
                rows=["Region"],
                values=[{"field": "Units", "summary": "SUM"}],
            )
        with pytest.raises(Invalid, match="no column 'Colour'"):
            sheets.create_pivot(
                s,
                me,
                wb,
                "Orders!A1:I201",
                "Orders!M1",
                rows=["Colour"],
                values=[{"field": "Units", "summary": "SUM"}],
            )


def test_deleting_a_pivot_clears_its_cells(world: World) -> None:
    with world.session() as s:
        wb, me = workbook(s, ORDERS), owner(s, ORDERS)
        pivot = sheets.create_pivot(
            s,
            me,
            wb,
            "Orders!A1:I201",
            "Orders!L1",
            rows=["Category"],
            values=[{"field": "Revenue", "summary": "AVERAGE"}],
        )
        assert values(s, me, wb, "Orders!L1")[0][0] == "Category"
        sheets.delete_pivot(s, me, wb, pivot)
        assert sheets.pivots_of(s, wb) == []
        assert sheets.book(s, wb.id).sheets[pivot.target_sheet_id].cells.get((1, 12)) is None


def _region_pivot(s: Session, me: Person, wb: Workbook) -> Pivot:
    sheets.add_sheet(s, me, wb, "Pivot")
    return sheets.create_pivot(
        s, me, wb, "Orders!A:I", "Pivot!A1",
        rows=["Region"], values=[{"field": "Revenue", "summary": "SUM"}],
    )  # fmt: skip


def test_a_pivots_cells_refuse_every_service_write_and_name_the_pivot(world: World) -> None:
    with world.session() as s:
        wb, me = workbook(s, ORDERS), owner(s, ORDERS)
        pivot = _region_pivot(s, me, wb)
        s.commit()  # each refused write below is rolled back, as every door does
        before = values(s, me, wb, f"Pivot!{pivot.extent}")
        refused = [
            lambda: sheets.write_range(s, me, wb, "Pivot!B2", [[1]]),
            lambda: sheets.write_cells(s, me, wb, {"A9": "x", "B3": 5}, sheet="Pivot"),
            lambda: sheets.clear_range(s, me, wb, "Pivot!A1:B3"),
            lambda: sheets.fill_range(s, me, wb, "Pivot!A1:A4", direction="down"),
            lambda: sheets.copy_range(s, me, wb, "Orders!A1:B2", "Pivot!B6"),
            lambda: sheets.sort_range(s, me, wb, "Pivot!A2:B6", [("B", True)]),
            lambda: sheets.remove_duplicates(s, me, wb, "Pivot!A1:B7"),
        ]
        for write in refused:
            with pytest.raises(Conflict, match=f"pivot table {pivot.id} "):
                write()
            s.rollback()
        assert values(s, me, wb, f"Pivot!{pivot.extent}") == before
        sheets.write_range(s, me, wb, "Pivot!A1", [["Region"]])  # its own text again: no change
        sheets.write_range(s, me, wb, "Pivot!D2", [["a note beside it"]])
        with pytest.raises(Conflict, match="overlap pivot table"):
            sheets.create_pivot(
                s, me, wb, "Orders!A:I", "Pivot!B3", rows=["Category"],
                values=[{"field": "Units", "summary": "SUM"}],
            )  # fmt: skip
        sheets.delete_pivot(s, me, wb, pivot)
        sheets.write_range(s, me, wb, "Pivot!B2", [[1]])
        assert values(s, me, wb, "Pivot!B2") == [[1]]


def test_the_tool_the_api_and_the_grid_page_all_refuse_a_pivots_cells(
    world: World, client: FlaskClient
) -> None:
    with world.session() as s:
        wb, me = workbook(s, ORDERS), owner(s, ORDERS)
        pivot = _region_pivot(s, me, wb)
        wb_id, handle, shown = wb.id, me.handle, values(s, me, wb, "Pivot!B2")[0][0]
        s.commit()
    runner = ToolRunner(world, handle)
    try:
        out = runner.call(
            "sheets_write_range", {"workbook": ORDERS, "range": "Pivot!B2", "values": [[7]]}
        )
    finally:
        runner.close()
    assert not out.ok and out.code == "pivot_cells" and f"pivot table {pivot.id}" in out.error
    reply = client.put(
        f"/gsheets/v4/spreadsheets/{wb_id}/values/Pivot!B2?valueInputOption=RAW",
        json={"values": [[7]]},
        headers={"Authorization": f"Bearer xoxp-{handle}"},
    )
    error = reply.json["error"]  # a refused edit: INVALID_ARGUMENT as Google, or a conflict
    assert reply.status_code in (400, 409) and f"pivot table {pivot.id}" in error["message"]
    client.get(f"/login/{handle}")
    page = client.post(
        f"/sheets/{wb_id}/formula", data={"cell": "B2", "sheet": "Pivot", "text": "7"},
        follow_redirects=True,
    )  # fmt: skip
    assert f"pivot table {pivot.id}" in page.get_data(as_text=True)
    with world.session() as s:
        wb, me = workbook(s, ORDERS), owner(s, ORDERS)
        assert values(s, me, wb, "Pivot!B2") == [[shown]]


def test_rows_moved_under_a_pivots_source_rewrite_it(world: World) -> None:
    with world.session() as s:
        wb, me = workbook(s, ORDERS), owner(s, ORDERS)
        _region_pivot(s, me, wb)
        region = values(s, me, wb, "Orders!C2")[0][0]
        sheets.change_dimension(s, me, wb, "delete", sheet="Orders", axis="row", start=2, count=1)
        assert table(s, me, wb, "Pivot!A1:B10")[region] == pytest.approx(
            by_hand(s, me, wb, 2, 8)[region]
        )


def test_the_app_and_a_graders_copy_share_one_computation(world: World) -> None:
    """`output` is what the app writes; a source field gone gives the same #REF! table in
    both; a pivot's cells changed behind the service's back are not `intact`."""
    with world.session() as s:
        wb, me = workbook(s, ORDERS), owner(s, ORDERS)
        pivot = _region_pivot(s, me, wb)
        b = sheets.book(s, wb.id)
        assert intact(b, pivot)[0]
        assert values(s, me, wb, f"Pivot!{pivot.extent}") == [
            [json_value(v) for v in row] for row in output(b, pivot)
        ]
        sheets.write_range(s, me, wb, "Orders!C1", [["Area"]])  # the Region field is gone
        shown = values(s, me, wb, "Pivot!A1")[0][0]
        assert shown.startswith("#REF!") and "Region" in shown
        assert output(b, pivot) == [[shown]] and intact(b, pivot)[0]
        copy = b.fork()
        copy.set_input(pivot.target_sheet_id, 1, 1, "typed")
        ok, why = intact(copy, pivot)
        assert not ok and "A1" in why


def test_a_name_moved_under_formulas_in_a_source_rewrites_the_pivot(world: World) -> None:
    """Formulas of the source read a named range; redefining the name changes them, and
    the pivot follows (its cells stay what it computes, as a grader checks)."""
    with world.session() as s:
        wb, me = workbook(s, ORDERS), owner(s, ORDERS)
        sheets.add_sheet(s, me, wb, "Calc")
        sheets.define_name(s, me, wb, "Rate", "Orders!G2")
        sheets.write_range(s, me, wb, "Calc!A1", [["Key", "Amount"], ["x", "=SUM(Rate)"]])
        pivot = sheets.create_pivot(
            s, me, wb, "Calc!A1:B2", "Calc!D1", rows=["Key"],
            values=[{"field": "Amount", "summary": "SUM"}],
        )  # fmt: skip
        sheets.define_name(s, me, wb, "Rate", "Orders!G2:G201")
        total = sum(r[0] for r in values(s, me, wb, "Orders!G2:G201"))
        assert values(s, me, wb, "Calc!E2") == [[total]]
        assert intact(sheets.book(s, wb.id), pivot)[0]
