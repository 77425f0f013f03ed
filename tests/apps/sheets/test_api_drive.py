"""The Drive v3 calls of Google's client (files list, create, get, export, delete;
permissions create, list, delete) and the served discovery document, against a served
world."""

from __future__ import annotations

from typing import Any

from google.oauth2.credentials import Credentials
from googleapiclient.discovery import build

from officegym.apps.org.models import Person
from officegym.apps.sheets.models import Workbook
from officegym.world import World
from tests.apps.sheets.api_clients import (
    google,
    owner_of,
)


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
