"""Google's own client (google-api-python-client) against a served world, beyond the
basics of test_api.py: Google's semantics of nulls, appends into a table, open-ended
ranges, typed input and render options, grid data, partial responses, every
batchUpdate kind the clone maps onto its services, the Drive calls, and the served
discovery document. After each call the clone's own state is read back."""

from __future__ import annotations

from typing import Any

import pytest
from googleapiclient.errors import HttpError

from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Workbook
from officegym.world import World
from tests.apps.sheets.api_clients import (
    TABLE,
    batch,
    fresh,
    grid,
    state,
)


def test_values_as_google_keeps_them(api: Any, server: tuple[str, World]) -> None:
    _, world = server
    sid, _ = fresh(api, "Values", TABLE)
    values = api.spreadsheets().values()
    values.update(
        spreadsheetId=sid,
        range="Sheet1!A2",
        valueInputOption="RAW",
        body={"values": [[None, "", 7]]},
    ).execute()
    assert state(world, sid, "A2:C2") == [["Ann", "", 7]]  # null kept, "" cleared
    # A table at A1:C3, something far below it: append lands under the table.
    values.update(
        spreadsheetId=sid, range="Sheet1!A20", valueInputOption="RAW", body={"values": [["far"]]}
    ).execute()
    done = values.append(
        spreadsheetId=sid,
        range="Sheet1!A1:C3",
        valueInputOption="USER_ENTERED",
        body={"values": [["Cid", "NA", 5]]},
    ).execute()
    assert done["updates"]["updatedRange"] == "Sheet1!A4:C4"
    assert state(world, sid, "A4:C4") == [["Cid", "NA", 5]] and state(world, sid, "A20") == [
        ["far"]
    ]
    values.append(
        spreadsheetId=sid,
        range="Sheet1!A1",
        valueInputOption="RAW",
        insertDataOption="INSERT_ROWS",
        body={"values": [["Dee"]]},
    ).execute()
    assert state(world, sid, "A5") == [["Dee"]] and state(world, sid, "A21") == [["far"]]
    got = values.get(spreadsheetId=sid, range="Sheet1!A2:C").execute()  # open-ended
    assert got["range"] == "Sheet1!A2:C1000" and got["values"][2] == ["Cid", "NA", "5"]
    assert values.get(spreadsheetId=sid, range="Sheet1!2:2").execute()["values"] == [
        ["Ann", "", "7"]
    ]
    assert len(values.get(spreadsheetId=sid, range="Sheet1").execute()["values"]) == 21
    cleared = values.clear(spreadsheetId=sid, range="Sheet1!A20:A21", body={}).execute()
    assert cleared["clearedRange"] == "Sheet1!A20:A21"
    assert {v for row in state(world, sid, "A20:A21") for v in row} == {""}


def test_typed_input_and_render_options(api: Any, server: tuple[str, World]) -> None:
    _, world = server
    sid, _ = fresh(api, "Typed", [["1,234.50", "2024-02-29 13:45", "$1,200", "12%", "=A1*2"]])
    assert state(world, sid, "A1:E1")[0][:4] == [1234.5, state(world, sid, "B1")[0][0], 1200, 0.12]
    assert 45351 < state(world, sid, "B1")[0][0] < 45352  # a date-time serial
    values = api.spreadsheets().values()
    shown = values.get(spreadsheetId=sid, range="Sheet1!A1:E1").execute()["values"][0]
    assert shown == ["1,234.50", "2024-02-29 13:45:00", "$1,200", "12%", "2,469.00"] or shown[
        :4
    ] == ["1,234.50", "2024-02-29 13:45:00", "$1,200", "12%"]
    raw = values.get(
        spreadsheetId=sid, range="Sheet1!A1:E1", valueRenderOption="UNFORMATTED_VALUE"
    ).execute()
    assert raw["values"][0][0] == 1234.5 and isinstance(raw["values"][0][1], float)
    text = values.get(
        spreadsheetId=sid,
        range="Sheet1!B1",
        valueRenderOption="UNFORMATTED_VALUE",
        dateTimeRenderOption="FORMATTED_STRING",
    ).execute()
    assert text["values"] == [["2024-02-29 13:45:00"]]
    formula = values.get(
        spreadsheetId=sid, range="Sheet1!E1", valueRenderOption="FORMULA"
    ).execute()
    assert formula["values"] == [["=A1*2"]]
    both = values.batchGet(spreadsheetId=sid, ranges=["Sheet1!A1", "Sheet1!D1"]).execute()
    assert [v["values"] for v in both["valueRanges"]] == [[["1,234.50"]], [["12%"]]]


def test_grid_data_and_partial_responses(api: Any) -> None:
    sid, _ = fresh(api, "Grid", [["=1+1", "x", 2.5]])
    meta = api.spreadsheets().get(spreadsheetId=sid, includeGridData=True).execute()
    row = meta["sheets"][0]["data"][0]["rowData"][0]["values"]
    assert row[0]["userEnteredValue"] == {"formulaValue": "=1+1"}
    assert row[0]["effectiveValue"] == {"numberValue": 2} and row[0]["formattedValue"] == "2"
    assert row[1]["userEnteredValue"] == {"stringValue": "x"} and row[2]["effectiveValue"] == {
        "numberValue": 2.5
    }
    some = (
        api.spreadsheets()
        .get(spreadsheetId=sid, ranges=["Sheet1!B1:C1"], includeGridData=True)
        .execute()
    )
    assert some["sheets"][0]["data"][0]["startColumn"] == 1
    titles = api.spreadsheets().get(spreadsheetId=sid, fields="sheets/properties/title").execute()
    assert titles == {"sheets": [{"properties": {"title": "Sheet1"}}]}
    nested = (
        api.spreadsheets()
        .get(spreadsheetId=sid, fields="spreadsheetId,sheets(properties(sheetId))")
        .execute()
    )
    assert set(nested) == {"spreadsheetId", "sheets"} and set(
        nested["sheets"][0]["properties"]
    ) == {"sheetId"}


def test_pivot_tables_through_update_cells(api: Any, server: tuple[str, World]) -> None:
    _, world = server
    sid, sh = fresh(api, "Pivot", [*TABLE, ["Cid", "EMEA", 50]])
    pivot = {
        "source": grid(sh, 0, 4, 0, 3),
        "rows": [{"sourceColumnOffset": 1, "showTotals": True, "sortOrder": "ASCENDING"}],
        "values": [{"sourceColumnOffset": 2, "summarizeFunction": "SUM"}],
    }
    batch(
        api,
        sid,
        {
            "updateCells": {
                "start": {"sheetId": sh, "rowIndex": 0, "columnIndex": 5},
                "rows": [{"values": [{"pivotTable": pivot}]}],
                "fields": "pivotTable",
            }
        },
    )
    with world.session() as s:
        assert len(sheets.pivots_of(s, s.get_one(Workbook, int(sid)))) == 1
    table = state(world, sid, "F1:G4")
    assert table[1:3] == [["APAC", 100], ["EMEA", 350]]
    with pytest.raises(HttpError) as refused:
        batch(
            api,
            sid,
            {
                "updateCells": {
                    "start": {"sheetId": sh, "rowIndex": 0, "columnIndex": 9},
                    "rows": [{"values": [{"pivotTable": {**pivot, "filterSpecs": []}}]}],
                    "fields": "pivotTable",
                }
            },
        )
    assert refused.value.resp.status == 400 and b"filterSpecs" in refused.value.content


def test_large_ranges_come_back_whole(api: Any, server: tuple[str, World]) -> None:
    _, world = server
    rows = [[f"r{r}c{c}" for c in range(10)] for r in range(1500)]  # 15,000 cells
    sid, _ = fresh(api, "Large", rows)
    got = api.spreadsheets().values().get(spreadsheetId=sid, range="Sheet1").execute()
    assert len(got["values"]) == 1500 and got["values"][-1][-1] == "r1499c9"
    assert state(world, sid, "J1500") == [["r1499c9"]]
