"""Google's client calling spreadsheets.batchUpdate with every request kind the clone
maps onto its services, and Google's errors for what it refuses; the clone's state is
read back after each call."""

from __future__ import annotations

from typing import Any

import pytest
from googleapiclient.errors import HttpError
from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.apps.sheets.models import Workbook
from officegym.world import World
from tests.apps.sheets.api_clients import (
    TABLE,
    batch,
    fresh,
    google,
    grid,
    state,
)


def test_batch_update_kinds_on_cells(api: Any, server: tuple[str, World]) -> None:
    _, world = server
    sid, sh = fresh(api, "Kinds", [*TABLE, ["Ann", "EMEA", 300]])
    number = {"numberFormat": {"type": "NUMBER", "pattern": "#,##0.00"}}
    batch(
        api,
        sid,
        {
            "repeatCell": {
                "range": grid(sh, 1, 4, 2, 3),
                "cell": {"userEnteredFormat": number},
                "fields": "userEnteredFormat/numberFormat",
            }
        },
    )
    assert state(world, sid, "C2", mode="formatted") == [["300.00"]]
    removed = batch(api, sid, {"deleteDuplicates": {"range": grid(sh, 0, 4, 0, 3)}})
    assert removed["replies"][0]["deleteDuplicates"]["duplicatesRemovedCount"] == 1
    assert state(world, sid, "A4") == [[""]]
    batch(
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
    batch(
        api,
        sid,
        {
            "copyPaste": {
                "source": grid(sh, 3, 4, 2, 3),
                "destination": grid(sh, 3, 4, 3, 4),
                "pasteType": "PASTE_NORMAL",
            }
        },
    )
    assert state(world, sid, "D4", mode="formulas") == [["=D2+D3"]]
    batch(
        api,
        sid,
        {
            "cutPaste": {
                "source": grid(sh, 3, 4, 3, 4),
                "destination": {"sheetId": sh, "rowIndex": 9, "columnIndex": 0},
            }
        },
    )
    # a cut formula keeps reading the cells it read, as in Sheets
    assert state(world, sid, "D4") == [[""]] and state(world, sid, "A10", mode="formulas") == [
        ["=D2+D3"]
    ]
    batch(
        api,
        sid,
        {
            "updateCells": {
                "range": grid(sh, 1, 2, 4, 5),
                "rows": [{"values": [{"userEnteredValue": {"formulaValue": "=C2*2"}}]}],
                "fields": "userEnteredValue",
            }
        },
    )
    batch(api, sid, {"autoFill": {"range": grid(sh, 1, 4, 4, 5)}})
    assert state(world, sid, "E2:E4") == [[600], [200], [800]]
    found = batch(
        api, sid, {"findReplace": {"find": "EMEA", "replacement": "Europe", "allSheets": True}}
    )
    assert found["replies"][0]["findReplace"]["occurrencesChanged"] == 1
    assert state(world, sid, "B2") == [["Europe"]]


def test_batch_update_kinds_on_sheets(api: Any, server: tuple[str, World]) -> None:
    _, world = server
    sid, sh = fresh(
        api, "Structure", [["pad", "Name", "Score"], ["", "Ann", 1], ["", "Bob", 3], ["", "Cid", 2]]
    )
    batch(
        api,
        sid,
        {
            "sortRange": {
                "range": grid(sh, 1, 4, 1, 3),
                "sortSpecs": [{"dimensionIndex": 2, "sortOrder": "DESCENDING"}],
            }
        },
    )
    assert state(world, sid, "B2:C4") == [["Bob", 3], ["Cid", 2], ["Ann", 1]]  # by column C
    reply = batch(
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
        {"addNamedRange": {"namedRange": {"name": "Scores", "range": grid(sh, 1, 4, 2, 3)}}},
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
    batch(
        api,
        sid,
        {"deleteNamedRange": {"namedRangeId": named["namedRangeId"]}},
        {"deleteSheet": {"sheetId": copy_id}},
    )
    assert "namedRanges" not in api.spreadsheets().get(spreadsheetId=sid).execute()


def test_google_errors(api: Any, server: tuple[str, World]) -> None:
    base, world = server
    sid, sh = fresh(api, "Errors", TABLE)
    basic_filter = {"setBasicFilter": {"filter": {"range": grid(sh, 0, 1, 0, 1)}}}
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
                body={"requests": [basic_filter]},
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


def test_find_replace_regex_is_bounded(api: Any, server: tuple[str, World]) -> None:
    _, world = server
    sid, sh = fresh(api, "Regex", [["a" * 60 + "!"], ["order 12"], ["order 7"]])
    done = batch(
        api,
        sid,
        {
            "findReplace": {
                "find": r"order (\d+)",
                "replacement": "#",
                "searchByRegex": True,
                "sheetId": sh,
            }
        },
    )
    assert done["replies"][0]["findReplace"]["valuesChanged"] == 2
    assert state(world, sid, "A2:A3") == [["#"], ["#"]]
    slow = {"find": "(a|aa)+$", "replacement": "x", "searchByRegex": True, "allSheets": True}
    with pytest.raises(HttpError) as refused:
        batch(api, sid, {"findReplace": slow})
    assert refused.value.resp.status == 400 and b"took longer" in refused.value.content
    assert state(world, sid, "A1") == [["a" * 60 + "!"]]


def test_misspelt_request_fields_are_refused_not_dropped(
    api: Any, server: tuple[str, World]
) -> None:
    _, world = server
    sid, sh = fresh(api, "Typos", [["b"], ["a"]])
    typo = {"sortRange": {"range": grid(sh, 0, 2, 0, 1), "sortSpec": [{"dimensionIndex": 0}]}}
    with pytest.raises(HttpError) as refused:
        batch(api, sid, typo)
    assert (
        refused.value.resp.status == 400 and b'Unknown name \\"sortSpec\\"' in refused.value.content
    )
    assert state(world, sid, "A1:A2") == [["b"], ["a"]]
