"""The sheets tools through the runner, as agents call them: at least 18 tools, each
documented for an agent; a malformed call is an error outcome that changes nothing;
reads are capped; formulas typed through a tool compute."""

from __future__ import annotations

import json

from sqlalchemy import func, select

from officegym.apps.sheets.models import Cell, Change
from officegym.runner import ToolRunner
from officegym.tools import tools_for
from officegym.world import World
from tests.apps.sheets.helpers import owner


def test_the_registry_has_the_sheets_tools_documented() -> None:
    tools = tools_for(["sheets"])
    assert len(tools) >= 18
    for t in tools:
        assert len(t.description) > 30, t.name
        for name, prop in t.parameters["properties"].items():
            assert prop.get("description") or "$ref" in json.dumps(prop), (t.name, name)


def test_a_session_of_tool_calls(world: World) -> None:
    with world.session() as s:
        me = owner(s, "Orders 2025").handle
    runner = ToolRunner(world, me)
    try:
        made = runner.call(
            "sheets_create_workbook", {"name": "Forecast", "sheets": ["Inputs", "Out"]}
        )
        assert made.ok, made.error
        wb = made.result["workbook"]["id"]
        wrote = runner.call(
            "sheets_write_range",
            {
                "workbook": wb,
                "range": "Inputs!A1",
                "values": [["Units", 10], ["Price", "$25"], ["Total", "=B1*B2"]],
            },
        )
        assert wrote.ok and wrote.result["values"][2] == ["Total", 250]
        out = runner.call(
            "sheets_write_range",
            {"workbook": "Forecast", "range": "Out!A1", "values": [["=Inputs!B3*2"]]},
        )
        assert out.result["values"] == [[500]]
        assert runner.call(
            "sheets_write_range", {"workbook": wb, "range": "Inputs!B1", "values": [[20]]}
        ).ok
        read = runner.call(
            "sheets_read_range", {"workbook": wb, "range": "Out!A1", "mode": "formulas"}
        )
        assert read.result["values"] == [["=Inputs!B3*2"]]
        assert runner.call("sheets_read_range", {"workbook": wb, "range": "Out!A1"}).result[
            "values"
        ] == [[1000]]
        found = runner.call("sheets_find_cells", {"workbook": wb, "query": "price"})
        assert found.result["matches"] == [{"cell": "Inputs!A2", "value": "Price"}]
    finally:
        runner.close()


def test_malformed_calls_are_errors_that_change_nothing(world: World) -> None:
    with world.session() as s:
        me = owner(s, "Orders 2025").handle
        cells = s.scalar(select(func.count()).select_from(Cell))
        changes = s.scalar(select(func.count()).select_from(Change))
    runner = ToolRunner(world, me)
    bad = [
        ("sheets_write_range", {"workbook": "Orders 2025", "range": "A1", "values": "not rows"}),
        ("sheets_write_range", {"workbook": "Orders 2025", "range": "A1", "values": [["=1+"]]}),
        (
            "sheets_write_range",
            {"workbook": "Orders 2025", "range": "A1:B2", "values": [[1, 2, 3]]},
        ),
        (
            "sheets_write_range",
            {"workbook": "Orders 2025", "range": "A1", "values": [[1] * 500] * 500},
        ),
        ("sheets_write_range", {"workbook": "No such book", "range": "A1", "values": [[1]]}),
        ("sheets_read_range", {"workbook": "Orders 2025", "range": "Nope!A1"}),
        (
            "sheets_sort_range",
            {"workbook": "Orders 2025", "range": "A1:C9", "by": [{"column": "Q"}]},
        ),
        ("sheets_import_csv", {"workbook": "Orders 2025", "csv": "\x00\x00\x00"}),
        (
            "sheets_create_pivot",
            {"workbook": "Orders 2025", "source": "A1:I9", "anchor": "M1", "values": []},
        ),
        ("sheets_insert_dimension", {"workbook": "Orders 2025", "dimension": "rows", "start": 0}),
        (
            "sheets_write_range",
            {"workbook": "Orders 2025", "range": "A1", "values": [["x" * 60_000]]},
        ),
    ]
    try:
        for name, args in bad:
            outcome = runner.call(name, args)
            assert not outcome.ok and outcome.code != "internal_error", (name, outcome)
            assert outcome.error
    finally:
        runner.close()
    with world.session() as s:
        assert s.scalar(select(func.count()).select_from(Cell)) == cells
        assert s.scalar(select(func.count()).select_from(Change)) == changes


def test_a_huge_read_comes_back_a_page_at_a_time(world: World) -> None:
    with world.session() as s:
        me = owner(s, "Orders 2025").handle
    runner = ToolRunner(world, me)
    try:
        runner.call(
            "sheets_write_range", {"workbook": "Orders 2025", "range": "A3000", "values": [["end"]]}
        )
        first = runner.call("sheets_read_range", {"workbook": "Orders 2025", "range": "A1:Z100000"})
        assert first.ok and sum(len(r) for r in first.result["values"]) <= 10_000
        pages, page = 1, first.result
        while "next_range" in page:
            page = runner.call(
                "sheets_read_range", {"workbook": "Orders 2025", "range": page["next_range"]}
            ).result
            pages += 1
        assert pages == 3 and page["values"][-1][0] == "end" and page["range"].endswith(":I3000")
    finally:
        runner.close()


def test_a_pivot_made_in_a_runner_session_follows_that_sessions_next_writes(
    world: World,
) -> None:
    """The runner's session remembers that a workbook has no pivot table; making one
    must drop that memory, or later writes to its source would not refresh it."""
    with world.session() as s:
        me = owner(s, "Orders 2025").handle
    runner = ToolRunner(world, me)
    try:
        orders = {"workbook": "Orders 2025"}
        first = {**orders, "range": "Orders!I2", "values": [[5]]}
        assert runner.call("sheets_write_range", first).ok
        assert runner.call("sheets_create_sheet", {**orders, "name": "ByRegion"}).ok
        made = runner.call(
            "sheets_create_pivot",
            {**orders, "source": "Orders!A:I", "anchor": "ByRegion!A1", "rows": ["Region"],
             "values": [{"field": "Revenue", "summary": "SUM"}]},
        )  # fmt: skip
        assert made.ok, made.error
        total = {**orders, "range": "ByRegion!A1:B12"}
        before = runner.call("sheets_read_range", total).result["values"]
        grand = next(r[1] for r in before if r[0] == "Grand Total")
        assert runner.call(
            "sheets_write_range", {**orders, "range": "Orders!I3", "values": [[999_999]]}
        ).ok
        after = runner.call("sheets_read_range", total).result["values"]
        assert next(r[1] for r in after if r[0] == "Grand Total") != grand
    finally:
        runner.close()
        world.reset()
