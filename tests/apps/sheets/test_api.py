"""The Google Sheets API subset through Google's own client (google-api-python-client
with its bundled discovery document), pointed at a real server on 127.0.0.1: values
read and written in every render and input option, batch updates all or nothing,
Google's error format, and persona by bearer token."""

from __future__ import annotations

import pytest
from google.auth.exceptions import RefreshError
from googleapiclient.errors import HttpError
from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.world import World
from tests.apps.sheets.api_clients import google, owner_of


def test_the_client_composes_our_urls(server: tuple[str, World]) -> None:
    base, world = server
    handle, sid = owner_of(world, "Orders 2025")
    request = (
        google(base, handle).spreadsheets().values().get(spreadsheetId=sid, range="Orders!A1:C2")
    )
    assert request.uri.startswith(f"{base}v4/spreadsheets/{sid}/values/Orders%21A1%3AC2")


def test_get_and_values_in_every_render_option(server: tuple[str, World]) -> None:
    base, world = server
    handle, sid = owner_of(world, "Orders 2025")
    sheets = google(base, handle).spreadsheets()
    meta = sheets.get(spreadsheetId=sid).execute()
    assert meta["properties"]["title"] == "Orders 2025"
    props = meta["sheets"][0]["properties"]
    assert (props["title"], props["gridProperties"]["frozenRowCount"]) == ("Orders", 1)
    shown = sheets.values().get(spreadsheetId=sid, range="Orders!H2:I2").execute()
    raw = (
        sheets.values()
        .get(spreadsheetId=sid, range="Orders!H2:I2", valueRenderOption="UNFORMATTED_VALUE")
        .execute()
    )
    assert shown["values"][0][0].startswith("$") and isinstance(raw["values"][0][0], int)
    assert shown["range"] == "Orders!H2:I2"
    both = (
        sheets.values()
        .batchGet(spreadsheetId=sid, ranges=["Orders!A1", "Orders!C1:C3"], majorDimension="COLUMNS")
        .execute()
    )
    assert both["valueRanges"][0]["values"] == [["Order ID"]]
    assert (
        both["valueRanges"][1]["values"][0][0] == "Region"
        and len(both["valueRanges"][1]["values"][0]) == 3
    )


def test_update_append_clear_and_formulas(server: tuple[str, World]) -> None:
    base, world = server
    handle, sid = owner_of(world, "Headcount Plan 2026")
    values = google(base, handle).spreadsheets().values()
    done = values.update(
        spreadsheetId=sid,
        range="Plan!J1",
        valueInputOption="USER_ENTERED",
        body={"values": [["=SUM(C2:C7)", "'007", "=1/0"]]},
        includeValuesInResponse=True,
    ).execute()
    assert done["updatedRange"] == "Plan!J1:L1" and done["updatedCells"] == 3
    row = done["updatedData"]["values"][0]
    assert int(row[0]) > 0 and row[1:] == ["007", "#DIV/0!"]
    formula = values.get(spreadsheetId=sid, range="Plan!J1", valueRenderOption="FORMULA").execute()
    assert formula["values"] == [["=SUM(C2:C7)"]]
    values.update(
        spreadsheetId=sid,
        range="Plan!J2",
        valueInputOption="RAW",
        body={"values": [["=2+2", "12"]]},
    ).execute()
    assert values.get(spreadsheetId=sid, range="Plan!J2:K2").execute()["values"] == [["=2+2", "12"]]
    appended = values.append(
        spreadsheetId=sid,
        range="Plan!A:G",
        valueInputOption="USER_ENTERED",
        body={"values": [["Interns", "", 0, 2, 2, 0, "=SUM(C10:F10)"]]},
    ).execute()
    assert appended["updates"]["updatedRange"].startswith("Plan!A")
    where = appended["updates"]["updatedRange"].split("!")[1].split(":")[0]
    assert values.get(spreadsheetId=sid, range=f"Plan!{where}").execute()["values"] == [["Interns"]]
    cleared = values.clear(spreadsheetId=sid, range="Plan!J1:L2", body={}).execute()
    assert cleared["clearedRange"] == "Plan!J1:L2"
    assert "values" not in values.get(spreadsheetId=sid, range="Plan!J1:L2").execute()
    batch = values.batchUpdate(
        spreadsheetId=sid,
        body={
            "valueInputOption": "USER_ENTERED",
            "data": [
                {"range": "Plan!N1", "values": [[1], [2]]},
                {"range": "Plan!O1", "values": [["=N1+N2"]]},
            ],
        },
    ).execute()
    assert batch["totalUpdatedCells"] == 3
    assert values.get(spreadsheetId=sid, range="Plan!O1").execute()["values"] == [["3"]]


def test_batch_update_requests_and_their_atomicity(server: tuple[str, World]) -> None:
    base, world = server
    handle, sid = owner_of(world, "Support Tickets Weekly")
    sheets = google(base, handle).spreadsheets()
    reply = sheets.batchUpdate(
        spreadsheetId=sid,
        body={
            "requests": [
                {"addSheet": {"properties": {"title": "Notes"}}},
            ]
        },
    ).execute()
    new_id = reply["replies"][0]["addSheet"]["properties"]["sheetId"]
    weekly = sheets.get(spreadsheetId=sid).execute()["sheets"][0]["properties"]["sheetId"]
    sheets.batchUpdate(
        spreadsheetId=sid,
        body={
            "requests": [
                {
                    "updateSheetProperties": {
                        "properties": {"sheetId": new_id, "title": "Comments"},
                        "fields": "title",
                    }
                },
                {
                    "sortRange": {
                        "range": {
                            "sheetId": weekly,
                            "startRowIndex": 1,
                            "endRowIndex": 14,
                            "startColumnIndex": 0,
                            "endColumnIndex": 3,
                        },
                        "sortSpecs": [{"dimensionIndex": 1, "sortOrder": "DESCENDING"}],
                    }
                },
                {
                    "insertDimension": {
                        "range": {
                            "sheetId": weekly,
                            "dimension": "ROWS",
                            "startIndex": 1,
                            "endIndex": 3,
                        }
                    }
                },
                {
                    "deleteDimension": {
                        "range": {
                            "sheetId": weekly,
                            "dimension": "COLUMNS",
                            "startIndex": 2,
                            "endIndex": 3,
                        }
                    }
                },
            ]
        },
    ).execute()
    got = (
        sheets.values()
        .get(spreadsheetId=sid, range="Weekly!A1:C5", valueRenderOption="UNFORMATTED_VALUE")
        .execute()["values"]
    )
    assert got[0] == ["Week of", "Opened"] and got[1:3] == [[], []]
    assert got[3][1] >= got[4][1]
    titles = [x["properties"]["title"] for x in sheets.get(spreadsheetId=sid).execute()["sheets"]]
    assert titles == ["Weekly", "Comments"]
    with pytest.raises(HttpError) as bad:
        sheets.batchUpdate(
            spreadsheetId=sid,
            body={
                "requests": [
                    {"addSheet": {"properties": {"title": "Temp"}}},
                    {"deleteSheet": {"sheetId": 999999}},
                ]
            },
        ).execute()
    assert bad.value.resp.status == 400  # Google: INVALID_ARGUMENT "No grid with id"
    titles = [x["properties"]["title"] for x in sheets.get(spreadsheetId=sid).execute()["sheets"]]
    assert titles == ["Weekly", "Comments"]  # the addSheet before the failure was undone


def test_errors_and_personas(server: tuple[str, World]) -> None:
    base, world = server
    handle, sid = owner_of(world, "FY2026 Team Budgets")
    with world.session() as s:
        outsider = (
            s.scalars(select(Person).where(Person.title == "Chief Executive Officer")).one().handle
        )
    for maker, status, word in [
        (
            lambda: google(base, outsider).spreadsheets().get(spreadsheetId=sid),
            403,
            "The caller does not have permission",
        ),
        (lambda: google(base, handle).spreadsheets().get(spreadsheetId="987654"), 404, "NOT_FOUND"),
        (
            lambda: (
                google(base, handle).spreadsheets().values().get(spreadsheetId=sid, range="Nope!A1")
            ),
            400,
            "Unable to parse range: Nope!A1",
        ),
        (
            lambda: (
                google(base, handle)
                .spreadsheets()
                .values()
                .update(spreadsheetId=sid, range="Q1!A1", body={"values": [[1]]})
            ),
            400,
            "valueInputOption",
        ),
        (
            lambda: (
                google(base, handle)
                .spreadsheets()
                .values()
                .update(
                    spreadsheetId=sid,
                    range="Q1!A1",
                    valueInputOption="USER_ENTERED",
                    body={"values": [["=SUM(("]]},
                )
            ),
            400,
            "formula",
        ),
    ]:
        with pytest.raises(HttpError) as err:
            maker().execute()
        assert err.value.resp.status == status and word in err.value.content.decode()
    # A token that names nobody is a 401, which Google's client answers by trying to
    # refresh the token (and failing: these tokens have no refresh).
    with pytest.raises(RefreshError):
        google(base, "nobody-here").spreadsheets().get(spreadsheetId=sid).execute()
