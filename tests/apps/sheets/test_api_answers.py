"""Calls that once answered 200 with a wrong result, made with the real clients
(Google's and gspread) against a served world: each result is checked against what
Google does, and the clone's own state is read back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import requests
from google.oauth2.credentials import Credentials
from googleapiclient.discovery import build as discovery_build
from googleapiclient.errors import HttpError

from officegym.apps.sheets.api_kinds import GOOGLE_KINDS, markdown
from officegym.apps.sheets.api_requests import REQUESTS
from officegym.world import World
from tests.apps.sheets.api_clients import (
    TABLE,
    batch,
    fresh,
    google,
    grid,
    gspread_client,
    owner_of,
    state,
)


@pytest.mark.parametrize("ref", ["Sheet1!A0", "Sheet1!A1:A0", "Sheet1!A0:B2", "Nope!A1", "A00"])
def test_row_zero_and_unknown_sheets_are_400(api: Any, ref: str) -> None:
    sid, _ = fresh(api, "Zero", TABLE)
    with pytest.raises(HttpError) as err:
        api.spreadsheets().values().get(spreadsheetId=sid, range=ref).execute()
    assert err.value.resp.status == 400 and "Unable to parse range" in str(err.value)


def _find(sheet: int, find: str, new: str, **flags: Any) -> dict[str, Any]:
    return {"findReplace": {"find": find, "replacement": new, "sheetId": sheet, **flags}}


def test_find_replace_matches_raw_text_as_shown(server: tuple[str, World]) -> None:
    base, world = server
    gc = gspread_client(base, owner_of(world, "Orders 2025")[0])
    book = gc.create("Raw find")
    book.sheet1.update([["east", "northeast"], ["EAST", "least"]], "A1")  # RAW, gspread's default
    sid, sh = book.id, book.sheet1.id
    body = {"requests": [_find(sh, "east", "East", matchEntireCell=True)]}
    reply = book.batch_update(body)
    assert reply["replies"][0]["findReplace"]["occurrencesChanged"] == 2
    assert state(world, sid, "A1:B2") == [["East", "northeast"], ["East", "least"]]
    anchored = _find(sh, "^n.*t$", "N", searchByRegex=True)
    assert (
        book.batch_update({"requests": [anchored]})["replies"][0]["findReplace"]["valuesChanged"]
        == 1
    )
    assert state(world, sid, "B1") == [["N"]]
    assert state(world, sid, "B1", mode="formulas") == [["'N"]]  # still RAW text


def test_find_replace_regex_groups(api: Any, server: tuple[str, World]) -> None:
    _, world = server
    sid, sh = fresh(api, "Groups", [["Smith, Ann"], ["Jones, Bob"], ["2024-03-05"]])
    flip = _find(sh, r"(\w+), (\w+)", "$2 $1", searchByRegex=True)
    batch(api, sid, flip)
    assert state(world, sid, "A1:A2") == [["Ann Smith"], ["Bob Jones"]]
    with pytest.raises(HttpError) as err:
        batch(api, sid, _find(sh, r"(\w+)", "$2", searchByRegex=True))
    assert err.value.resp.status == 400 and "$2" in str(err.value)
    batch(api, sid, _find(sh, "Ann", "$1"))  # not a regex: taken as written
    assert state(world, sid, "A1") == [["$1 Smith"]]


def test_cut_paste_moves_references(api: Any, server: tuple[str, World]) -> None:
    _, world = server
    rows = [[1, 2, "=A1+B1"], [10, 20, "=SUM(A1:B2)"], ["=A1*2", "", "=C1"]]
    sid, sh = fresh(api, "Cut", rows)
    cut = {
        "cutPaste": {
            "source": grid(sh, 0, 2, 0, 2),
            "destination": {"sheetId": sh, "rowIndex": 4, "columnIndex": 3},
        }
    }
    batch(api, sid, cut)
    formulas = state(world, sid, "A1:F6", mode="formulas")
    assert formulas[4][3:5] == ["1", "2"] and formulas[5][3:5] == ["10", "20"]
    assert formulas[0][2] == "=D5+E5" and formulas[1][2] == "=SUM(D5:E6)"
    assert formulas[2][0] == "=D5*2" and formulas[0][:2] == ["", ""]
    assert state(world, sid, "C1:C3") == [[3], [33], [3]]
    assert state(world, sid, "A3") == [[2]]


def test_cut_paste_within_itself_and_overwritten_references(
    api: Any, server: tuple[str, World]
) -> None:
    _, world = server
    sid, sh = fresh(api, "Cut 2", [[5, "=A1*2"], [7, ""], ["=A2", ""]])
    cut = {
        "cutPaste": {
            "source": grid(sh, 0, 1, 0, 2),
            "destination": {"sheetId": sh, "rowIndex": 1, "columnIndex": 0},
        }
    }
    batch(api, sid, cut)  # A1:B1 onto A2:B2, which A3 read
    assert state(world, sid, "A1:B3", mode="formulas") == [["", ""], ["5", "=A2*2"], ["=#REF!", ""]]
    assert state(world, sid, "B2") == [[10]]


def test_include_values_in_response_on_append_and_batch_update(api: Any) -> None:
    sid, _ = fresh(api, "Echo", TABLE)
    values = api.spreadsheets().values()
    appended = values.append(
        spreadsheetId=sid,
        range="Sheet1!A1",
        valueInputOption="USER_ENTERED",
        includeValuesInResponse=True,
        body={"values": [["Cid", "EMEA", "=C2+C3"]]},
    ).execute()
    assert appended["updates"]["updatedData"]["values"] == [["Cid", "EMEA", "400"]]
    assert appended["updates"]["updatedData"]["range"] == "Sheet1!A4:C4"
    updated = values.batchUpdate(
        spreadsheetId=sid,
        body={
            "valueInputOption": "USER_ENTERED",
            "includeValuesInResponse": True,
            "responseValueRenderOption": "UNFORMATTED_VALUE",
            "data": [{"range": "Sheet1!D1:D2", "values": [["x"], ["=2*3"]]}],
        },
    ).execute()
    assert updated["responses"][0]["updatedData"]["values"] == [["x"], [6]]
    plain = values.append(
        spreadsheetId=sid, range="A1", valueInputOption="RAW", body={"values": [["z"]]}
    ).execute()
    assert "updatedData" not in plain["updates"]


def test_include_spreadsheet_in_batch_update_response(api: Any) -> None:
    sid, _ = fresh(api, "Whole", TABLE)
    reply = (
        api.spreadsheets()
        .batchUpdate(
            spreadsheetId=sid,
            body={
                "requests": [{"addSheet": {"properties": {"title": "Extra"}}}],
                "includeSpreadsheetInResponse": True,
            },
        )
        .execute()
    )
    titles = [x["properties"]["title"] for x in reply["updatedSpreadsheet"]["sheets"]]
    assert titles == ["Sheet1", "Extra"]


def test_frozen_columns_through_gspread_and_xlsx(server: tuple[str, World]) -> None:
    base, world = server
    gc = gspread_client(base, owner_of(world, "Orders 2025")[0])
    book = gc.create("Frozen")
    book.sheet1.freeze(rows=1, cols=2)
    grid_props = book.fetch_sheet_metadata()["sheets"][0]["properties"]["gridProperties"]
    assert grid_props["frozenRowCount"] == 1 and grid_props["frozenColumnCount"] == 2
    copy = gc.copy(book.id, title="Frozen copy")  # Drive files.copy, through xlsx
    copied = copy.fetch_sheet_metadata()["sheets"][0]["properties"]["gridProperties"]
    assert copied["frozenColumnCount"] == 2 and copy.title == "Frozen copy"
    book.sheet1.freeze(cols=0)
    assert (
        "frozenColumnCount"
        not in (book.fetch_sheet_metadata()["sheets"][0]["properties"]["gridProperties"])
    )


def test_drive_copy_keeps_cells_and_unknown_addresses_are_json_404(
    api: Any, server: tuple[str, World]
) -> None:
    base, world = server
    sid, _ = fresh(api, "Original", [*TABLE, ["", "", "=SUM(C2:C3)"]])
    drive = google(base, owner_of(world, "Orders 2025")[0], "drive", "v3")
    made = drive.files().copy(fileId=sid, body={"name": "Duplicate"}).execute()
    assert made["name"] == "Duplicate" and made["id"] != sid
    assert state(world, made["id"], "Sheet1!A1:C4", mode="formulas")[3][2] == "=SUM(C2:C3)"
    assert state(world, made["id"], "Sheet1!C4") == [[400]]
    with pytest.raises(HttpError) as err:
        drive.files().copy(fileId="999999", body={}).execute()
    assert err.value.resp.status == 404 and "Requested entity was not found" in str(err.value)
    token = {"Authorization": f"Bearer xoxp-{owner_of(world, 'Orders 2025')[0]}"}
    for method in ("get", "post", "delete"):
        answer = requests.request(method, f"{base}v4/nothing/here", headers=token, timeout=10)
        assert answer.status_code == 404
        assert answer.json()["error"]["status"] == "NOT_FOUND"


def test_spreadsheet_url_is_googles_form_and_opens_by_url(server: tuple[str, World]) -> None:
    base, world = server
    gc = gspread_client(base, owner_of(world, "Orders 2025")[0])
    book = gc.create("By URL")
    url = book.fetch_sheet_metadata()["spreadsheetUrl"]
    assert url == f"{base}spreadsheets/d/{book.id}/edit"
    assert gc.open_by_url(url).title == "By URL"


def test_the_docs_list_the_kinds_the_code_serves() -> None:
    docs = (Path(__file__).parents[3] / "docs" / "serving.md").read_text()
    assert markdown(list(REQUESTS)) in docs.splitlines(), (
        "docs/serving.md's batchUpdate row is not the code's: write it again from "
        "officegym.apps.sheets.api_kinds.markdown(list(api_requests.REQUESTS))"
    )
    assert set(REQUESTS) <= set(GOOGLE_KINDS)


@pytest.mark.parametrize("kind", ["addChart", "setDataValidation", "updateBorders", "addTable"])
def test_valid_kinds_not_served_are_named_as_unsupported(api: Any, kind: str) -> None:
    sid, _ = fresh(api, "Kinds", TABLE)
    with pytest.raises(HttpError) as err:
        batch(api, sid, {kind: {}})
    text = str(err.value)
    assert err.value.resp.status == 400 and "not support" in text and "Unknown name" not in text
    with pytest.raises(HttpError) as err:
        batch(api, sid, {kind + "s": {}})
    assert "Unknown name" in str(err.value)


def test_copy_paste_repeats_over_a_multiple_and_trim_and_append_cells(
    api: Any, server: tuple[str, World]
) -> None:
    _, world = server
    sid, sh = fresh(api, "Tiles", [[1, "=A1*10"], ["  two   words ", " +x "]])
    paste = {"copyPaste": {"source": grid(sh, 0, 1, 1, 2), "destination": grid(sh, 2, 5, 1, 2)}}
    batch(api, sid, paste)
    assert state(world, sid, "B3:B5", mode="formulas") == [["=A3*10"], ["=A4*10"], ["=A5*10"]]
    trimmed = batch(api, sid, {"trimWhitespace": {"range": grid(sh, 0, 2, 0, 2)}})
    assert trimmed["replies"][0]["trimWhitespace"]["cellsChangedCount"] == 2
    assert state(world, sid, "A2:B2") == [["two words", "+x"]]
    row = {"values": [{"userEnteredValue": {"stringValue": "tail"}}]}
    batch(api, sid, {"appendCells": {"sheetId": sh, "rows": [row], "fields": "userEnteredValue"}})
    assert state(world, sid, "A6") == [["tail"]]


def test_http_batch_endpoint_of_new_batch_http_request(server: tuple[str, World]) -> None:
    base, world = server
    handle = owner_of(world, "Orders 2025")[0]
    api = discovery_build(
        "sheets",
        "v4",
        credentials=Credentials(token=f"xoxp-{handle}"),
        static_discovery=False,
        discoveryServiceUrl=base + "$discovery/rest?version={apiVersion}",
    )
    sid, _ = fresh(api, "Batched", TABLE)
    answers: dict[str, Any] = {}

    def note(request_id: str, response: Any, exception: Exception | None) -> None:
        answers[request_id] = exception or response

    calls = api.new_batch_http_request(callback=note)
    calls.add(api.spreadsheets().values().get(spreadsheetId=sid, range="A2:C2"), request_id="read")
    calls.add(
        api.spreadsheets()
        .values()
        .update(
            spreadsheetId=sid,
            range="D1",
            valueInputOption="USER_ENTERED",
            body={"values": [["=C2*2"]]},
        ),
        request_id="write",
    )
    calls.add(api.spreadsheets().values().get(spreadsheetId=sid, range="Nope!A1"), request_id="bad")
    calls.execute()
    assert answers["read"]["values"] == [["Ann", "EMEA", "300"]]
    assert answers["write"]["updatedCells"] == 1 and state(world, sid, "D1") == [[600]]
    assert isinstance(answers["bad"], HttpError) and answers["bad"].resp.status == 400
