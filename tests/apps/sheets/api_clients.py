"""Google's API client and gspread, unmodified, pointed at a real officegym server on
127.0.0.1: Google's client by its ``api_endpoint`` (or the served discovery document),
gspread by a requests session whose adapter sends Google's hosts to the server (the
way one points any requests-based client at an emulator)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import gspread
import requests
from google.auth.transport.requests import AuthorizedSession
from google.oauth2.credentials import Credentials
from googleapiclient.discovery import build
from requests.adapters import HTTPAdapter
from sqlalchemy import select
from werkzeug.serving import WSGIRequestHandler, make_server

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Workbook
from officegym.web import create_app
from officegym.world import World, world_image

GOOGLE_HOSTS = ("https://sheets.googleapis.com/", "https://www.googleapis.com/")


class _Quiet(WSGIRequestHandler):
    def log_request(self, *args: object, **kwargs: object) -> None:
        """No access log in test output."""


def serve_world() -> Iterator[tuple[str, World]]:
    """A seeded world served over HTTP; yields (the API's base URL, the world)."""
    world = World(world_image("default", 0))
    app = create_app(world, config={"TESTING": True, "SECRET_KEY": "test"})
    http = make_server("127.0.0.1", 0, app, request_handler=_Quiet, threaded=False)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{http.server_port}/gsheets/", world
    http.shutdown()
    thread.join(5)
    world.close()


def owner_of(world: World, workbook: str) -> tuple[str, str]:
    """The owner's handle and the workbook's id (the API's spreadsheet id)."""
    with world.session() as s:
        wb = s.scalars(select(Workbook).where(Workbook.name == workbook)).one()
        return s.get_one(Person, wb.owner_id).handle, str(wb.id)


def google(base: str, handle: str, api: str = "sheets", version: str = "v4") -> Any:
    """Google's client for `api`, as its own bundled discovery document describes it
    (Drive's endpoint is its service path under the server's)."""
    endpoint = base + ("drive/v3/" if api == "drive" else "")
    return build(
        api,
        version,
        credentials=Credentials(token=f"xoxp-{handle}"),
        client_options={"api_endpoint": endpoint},
        cache_discovery=False,
    )


class _ToServer(HTTPAdapter):
    """Sends requests for Google's API hosts to the local server instead."""

    def __init__(self, base: str) -> None:
        super().__init__()
        self.base = base

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        for host in GOOGLE_HOSTS:
            if request.url and request.url.startswith(host):
                request.url = self.base + request.url.removeprefix(host)
        return super().send(request, **kwargs)


def gspread_client(base: str, handle: str) -> gspread.Client:
    """gspread as its users build it, with the session pointed at the server."""
    session = AuthorizedSession(Credentials(token=f"xoxp-{handle}"))
    for host in GOOGLE_HOSTS:
        session.mount(host, _ToServer(base))
    return gspread.Client(auth=None, session=session)  # type: ignore[arg-type]


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


def batch(api: Any, sid: str, *requests: dict[str, Any]) -> dict[str, Any]:
    return (
        api.spreadsheets()
        .batchUpdate(spreadsheetId=sid, body={"requests": list(requests)})
        .execute()
    )


def grid(sheet: int, r1: int, r2: int, c1: int, c2: int) -> dict[str, int]:
    return {
        "sheetId": sheet,
        "startRowIndex": r1,
        "endRowIndex": r2,
        "startColumnIndex": c1,
        "endColumnIndex": c2,
    }
