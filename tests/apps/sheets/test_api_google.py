"""Google's own client (google-api-python-client) against a served world, beyond the
basics of test_api.py: Google's semantics of nulls, appends into a table, open-ended
ranges, typed input and render options, grid data, partial responses, every
batchUpdate kind the clone maps onto its services, the Drive calls, and the served
discovery document. After each call the clone's own state is read back."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from google.oauth2.credentials import Credentials
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError
from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Workbook
from officegym.world import World
from tests.apps.sheets.api_clients import google, owner_of, serve_world


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, World]]:
    yield from serve_world()


def state(world: World, sid: str, ref: str, mode: str = "values") -> list[list[Any]]:
    """What the clone stores in a range, read by the service as the owner."""
    with world.session() as s:
        wb = s.get_one(Workbook, int(sid))
        return sheets.read_range(s, s.get_one(Person, wb.owner_id), wb, ref, mode=mode).rows


def fresh(api: Any, title: str, rows: list[list[Any]]) -> tuple[str, int]:
    """A new spreadsheet with `rows` from Sheet1!A1; its id and first sheet's id."""
    made = api.spreadsheets().create(body={"properties": {"title": title}}).execute()
    sid = made["spreadsheetId"]
    api.spreadsheets().values().update(
        spreadsheetId=sid, range="Sheet1!A1", valueInputOption="USER_ENTERED", body={"values": rows}
    ).execute()
    return sid, made["sheets"][0]["properties"]["sheetId"]


TABLE = [["Name", "Region", "Amount"], ["Ann", "EMEA", 300], ["Bob", "APAC", 100]]


@pytest.fixture
def api(server: tuple[str, World]) -> Any:
    base, world = server
    return google(base, owner_of(world, "Orders 2025")[0])


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


def _batch(api: Any, sid: str, *requests: dict[str, Any]) -> dict[str, Any]:
    return (
        api.spreadsheets()
        .batchUpdate(spreadsheetId=sid, body={"requests": list(requests)})
        .execute()
    )


def _grid(sheet: int, r1: int, r2: int, c1: int, c2: int) -> dict[str, int]:
    return {
        "sheetId": sheet,
        "startRowIndex": r1,
        "endRowIndex": r2,
        "startColumnIndex": c1,
        "endColumnIndex": c2,
    }


def test_batch_update_kinds_on_cells(api: Any, server: tuple[str, World]) -> None:
    _, world = server
    sid, sh = fresh(api, "Kinds", [*TABLE, ["Ann", "EMEA", 300]])
    number = {"numberFormat": {"type": "NUMBER", "pattern": "#,##0.00"}}
    _batch(
        api,
        sid,
        {
            "repeatCell": {
                "range": _grid(sh, 1, 4, 2, 3),
                "cell": {"userEnteredFormat": number},
                "fields": "userEnteredFormat/numberFormat",
            }
        },
    )
    assert state(world, sid, "C2", mode="formatted") == [["300.00"]]
    removed = _batch(api, sid, {"deleteDuplicates": {"range": _grid(sh, 0, 4, 0, 3)}})
    assert removed["replies"][0]["deleteDuplicates"]["duplicatesRemovedCount"] == 1
    assert state(world, sid, "A4") == [[""]]
    _batch(
        api,
        sid,
        {
            "updateCells": {
                "start": {"sheetId": sh, "rowIndex": 3, "columnIndex": 0},
                "rows": [
                    {
                        "values": [
                            {"userEnteredValue": {"stringValue": "Cid"}},
                            {"userEnteredValue": {"stringValue": "NA"}},
                            {"userEnteredValue": {"formulaValue": "=C2+C3"}},
                        ]
                    }
                ],
                "fields": "userEnteredValue",
            }
        },
    )
    assert state(world, sid, "A4:C4") == [["Cid", "NA", 400]]
    _batch(
        api,
        sid,
        {
            "copyPaste": {
                "source": _grid(sh, 3, 4, 2, 3),
                "destination": _grid(sh, 3, 4, 3, 4),
                "pasteType": "PASTE_NORMAL",
            }
        },
    )
    assert state(world, sid, "D4", mode="formulas") == [["=D2+D3"]]
    _batch(
        api,
        sid,
        {
            "cutPaste": {
                "source": _grid(sh, 3, 4, 3, 4),
                "destination": {"sheetId": sh, "rowIndex": 9, "columnIndex": 0},
            }
        },
    )
    assert state(world, sid, "D4") == [[""]] and state(world, sid, "A10", mode="formulas") == [
        ["=A8+A9"]
    ]
    _batch(
        api,
        sid,
        {
            "updateCells": {
                "range": _grid(sh, 1, 2, 4, 5),
                "rows": [{"values": [{"userEnteredValue": {"formulaValue": "=C2*2"}}]}],
                "fields": "userEnteredValue",
            }
        },
    )
    _batch(api, sid, {"autoFill": {"range": _grid(sh, 1, 4, 4, 5)}})
    assert state(world, sid, "E2:E4") == [[600], [200], [800]]
    found = _batch(
        api, sid, {"findReplace": {"find": "EMEA", "replacement": "Europe", "allSheets": True}}
    )
    assert found["replies"][0]["findReplace"]["occurrencesChanged"] == 1
    assert state(world, sid, "B2") == [["Europe"]]


def test_batch_update_kinds_on_sheets(api: Any, server: tuple[str, World]) -> None:
    _, world = server
    sid, sh = fresh(
        api, "Structure", [["pad", "Name", "Score"], ["", "Ann", 1], ["", "Bob", 3], ["", "Cid", 2]]
    )
    _batch(
        api,
        sid,
        {
            "sortRange": {
                "range": _grid(sh, 1, 4, 1, 3),
                "sortSpecs": [{"dimensionIndex": 2, "sortOrder": "DESCENDING"}],
            }
        },
    )
    assert state(world, sid, "B2:C4") == [["Bob", 3], ["Cid", 2], ["Ann", 1]]  # by column C
    reply = _batch(
        api,
        sid,
        {
            "updateSpreadsheetProperties": {
                "properties": {"title": "Structure 2"},
                "fields": "title",
            }
        },
        {
            "updateSheetProperties": {
                "properties": {
                    "sheetId": sh,
                    "title": "Main",
                    "gridProperties": {"frozenRowCount": 1},
                },
                "fields": "title,gridProperties/frozenRowCount",
            }
        },
        {"addNamedRange": {"namedRange": {"name": "Scores", "range": _grid(sh, 1, 4, 2, 3)}}},
        {"duplicateSheet": {"sourceSheetId": sh, "newSheetName": "Main copy"}},
        {
            "insertDimension": {
                "range": {"sheetId": sh, "dimension": "ROWS", "startIndex": 1, "endIndex": 2}
            }
        },
        {
            "deleteDimension": {
                "range": {"sheetId": sh, "dimension": "COLUMNS", "startIndex": 0, "endIndex": 1}
            }
        },
    )
    named = reply["replies"][2]["addNamedRange"]["namedRange"]
    copy_id = reply["replies"][3]["duplicateSheet"]["properties"]["sheetId"]
    meta = api.spreadsheets().get(spreadsheetId=sid).execute()
    assert meta["properties"]["title"] == "Structure 2"
    assert [s["properties"]["title"] for s in meta["sheets"]] == ["Main", "Main copy"]
    assert meta["sheets"][0]["properties"]["gridProperties"]["frozenRowCount"] == 1
    assert state(world, sid, "Main!A1:B3") == [["Name", "Score"], ["", ""], ["Bob", 3]]
    assert state(world, sid, "'Main copy'!B2:C2") == [["Bob", 3]]
    _batch(
        api,
        sid,
        {"deleteNamedRange": {"namedRangeId": named["namedRangeId"]}},
        {"deleteSheet": {"sheetId": copy_id}},
    )
    assert "namedRanges" not in api.spreadsheets().get(spreadsheetId=sid).execute()


def test_google_errors(api: Any, server: tuple[str, World]) -> None:
    base, world = server
    sid, sh = fresh(api, "Errors", TABLE)
    cases = [
        (
            api.spreadsheets().values().get(spreadsheetId=sid, range="Nope!A1"),
            400,
            "Unable to parse range: Nope!A1",
        ),
        (api.spreadsheets().get(spreadsheetId="99999999"), 404, "Requested entity was not found"),
        (
            api.spreadsheets().batchUpdate(
                spreadsheetId=sid, body={"requests": [{"frobnicate": {}}]}
            ),
            400,
            'Unknown name \\"frobnicate\\"',
        ),
        (
            api.spreadsheets().batchUpdate(
                spreadsheetId=sid,
                body={"requests": [{"mergeCells": {"range": _grid(sh, 0, 1, 0, 2)}}]},
            ),
            400,
            "not supported",
        ),
        (
            api.spreadsheets()
            .values()
            .update(
                spreadsheetId=sid,
                range="Sheet1!A1:B1",
                valueInputOption="RAW",
                body={"values": [[1, 2, 3]]},
            ),
            400,
            "Requested writing within range",
        ),
    ]
    for request, status, words in cases:
        with pytest.raises(HttpError) as err:
            request.execute()
        assert err.value.resp.status == status and words in err.value.content.decode()
    with world.session() as s:
        owner_id = s.get_one(Workbook, int(sid)).owner_id
        outsider = s.scalars(select(Person.handle).where(Person.id != owner_id)).first()
    with pytest.raises(HttpError) as denied:
        google(base, outsider).spreadsheets().get(spreadsheetId=sid).execute()
    assert (
        denied.value.resp.status == 403
        and b"The caller does not have permission" in denied.value.content
    )
    assert state(world, sid, "A1:C1") == [TABLE[0]]  # none of the refused calls wrote


def test_drive_calls_and_the_served_discovery_document(api: Any, server: tuple[str, World]) -> None:
    base, world = server
    handle = owner_of(world, "Orders 2025")[0]
    drive = google(base, handle, "drive", "v3")
    made = (
        drive.files()
        .create(body={"name": "From Drive", "mimeType": "application/vnd.google-apps.spreadsheet"})
        .execute()
    )
    listed = (
        drive.files()
        .list(
            q="name = 'From Drive' and mimeType = 'application/vnd.google-apps.spreadsheet' "
            "and trashed = false"
        )
        .execute()
    )
    assert [f["id"] for f in listed["files"]] == [made["id"]]
    assert drive.files().get(fileId=made["id"]).execute()["name"] == "From Drive"
    with world.session() as s:
        colleague = s.get_one(
            Person, 2 if s.get_one(Workbook, int(made["id"])).owner_id != 2 else 3
        )
    perm = (
        drive.permissions()
        .create(
            fileId=made["id"],
            body={"type": "user", "role": "reader", "emailAddress": colleague.email},
        )
        .execute()
    )
    roles = drive.permissions().list(fileId=made["id"]).execute()["permissions"]
    assert {(p["id"], p["role"]) for p in roles} >= {(perm["id"], "reader")}
    drive.permissions().delete(fileId=made["id"], permissionId=perm["id"]).execute()
    assert len(drive.permissions().list(fileId=made["id"]).execute()["permissions"]) == 1
    csv = drive.files().export(fileId=made["id"], mimeType="text/csv").execute()
    assert csv == b""
    drive.files().delete(fileId=made["id"]).execute()
    with world.session() as s:
        assert s.get(Workbook, int(made["id"])) is None
    served = build(
        "sheets",
        "v4",
        credentials=Credentials(token=f"xoxp-{handle}"),
        discoveryServiceUrl=base + "$discovery/rest?version={apiVersion}",
        static_discovery=False,
        cache_discovery=False,
    )
    sid = owner_of(world, "Orders 2025")[1]
    got = served.spreadsheets().values().get(spreadsheetId=sid, range="Orders!A1").execute()
    assert got["values"] == [["Order ID"]]


def test_pivot_tables_through_update_cells(api: Any, server: tuple[str, World]) -> None:
    _, world = server
    sid, sh = fresh(api, "Pivot", [*TABLE, ["Cid", "EMEA", 50]])
    pivot = {
        "source": _grid(sh, 0, 4, 0, 3),
        "rows": [{"sourceColumnOffset": 1, "showTotals": True, "sortOrder": "ASCENDING"}],
        "values": [{"sourceColumnOffset": 2, "summarizeFunction": "SUM"}],
    }
    _batch(
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
        _batch(
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
