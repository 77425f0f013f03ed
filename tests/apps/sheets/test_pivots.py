"""Pivot tables are objects: their cells agree with the source rows summed by hand,
follow every change of the source, honour filters and column groups, and go away
with their output."""

from __future__ import annotations

from collections import defaultdict

import pytest
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Workbook
from officegym.errors import Invalid
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
