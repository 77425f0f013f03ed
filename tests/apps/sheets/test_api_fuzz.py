"""Fuzzing every method of ``/gsheets/`` (Sheets v4, the Drive subset, the discovery
documents) with mistyped, nested and malformed requests (hypothesis, derandomized):
each is answered with a 4xx in Google's error shape, or a 2xx, never a 500."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.apps.sheets.api_requests import REQUESTS, UNSUPPORTED
from officegym.apps.sheets.models import Workbook
from officegym.web import create_app
from officegym.world import World, world_image

FUZZ = settings(
    max_examples=int(os.environ.get("OFFICEGYM_FUZZ_EXAMPLES", "200")),  # more for a long run
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
NASTY = ["", "Sheet1", "Sheet1!A1", "A1:B2", "Orders!A2:C", "A:A", "2:2", "'x'!A1", "\x00",
         "-1", "1e400", "99999999999999999999999", "NaN", "true", "😀", "\ud800", "A0",
         "XFE1", "A1048577", "x" * 3000, "=1/0", "=SUM((", "*", "a/b(c,d)", "((((", "ROWS",
         "COLUMNS", "USER_ENTERED", "RAW", "FORMULA", "UNFORMATTED_VALUE", "SERIAL_NUMBER",
         "FORMATTED_STRING", "INSERT_ROWS", "reader", "writer", "anyone", "user"]  # fmt: skip
KEYS = ["values", "range", "majorDimension", "data", "valueInputOption", "requests",
        "properties", "sheets", "ranges", "name", "mimeType", "role", "type", "emailAddress",
        "title", "sheetId", "startRowIndex", "endRowIndex", "startColumnIndex",
        "endColumnIndex", "dimension", "startIndex", "endIndex", "fields", "cell", "rows",
        "userEnteredValue", "userEnteredFormat", "numberFormat", "pattern", "sortSpecs",
        "dimensionIndex", "sortOrder", "namedRange", "namedRangeId", "source", "destination",
        "find", "replacement", "allSheets", "searchByRegex", "matchEntireCell", "start",
        "rowIndex", "columnIndex", "sourceAndDestination", "fillLength", "comparisonColumns",
        "sourceSheetId", "newSheetName", "insertSheetIndex", "gridProperties",
        "frozenRowCount", "index", "stringValue", "numberValue", "formulaValue", "boolValue",
        "pasteType"]  # fmt: skip
KINDS = [*REQUESTS, *UNSUPPORTED, "nope"]

scalars = (
    st.sampled_from(NASTY)
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.none()
    | st.booleans()
)
values = st.recursive(
    scalars | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=4)
    ),
    max_leaves=10,
)
requests_ = st.lists(
    st.builds(lambda k, v: {k: v}, st.sampled_from(KINDS), values), min_size=0, max_size=3
)
bodies = (
    st.dictionaries(st.sampled_from(KEYS), values, max_size=5)
    | st.builds(lambda r: {"requests": r}, requests_)
    | values
)
depths = st.integers(100, 30_000)


@pytest.fixture(scope="module")
def client() -> Iterator[tuple[FlaskClient, dict[str, str]]]:
    world = World(world_image("default", 0))
    app = create_app(world, config={"SECRET_KEY": "fuzz"})
    app.logger.disabled = True
    with world.session() as s:
        wb = s.scalars(select(Workbook).where(Workbook.name == "Product Catalog")).one()
        handle = s.get_one(Person, wb.owner_id).handle
        ids = {"own": str(wb.id), "other": "1", "none": "987654", "junk": "abc"}
    with app.test_client() as c:
        c.environ_base["HTTP_AUTHORIZATION"] = f"Bearer xoxp-{handle}"
        yield c, ids
    world.close()


STATUSES: dict[int, int] = {}


def check(answer: Any) -> None:
    STATUSES[answer.status_code] = STATUSES.get(answer.status_code, 0) + 1
    assert answer.status_code < 500, answer.get_data(as_text=True)[:500]
    if answer.status_code >= 400 and answer.is_json:
        error = answer.get_json()["error"]
        assert {"code", "message", "status"} <= set(error)


ids_ = st.sampled_from(["own", "own", "own", "other", "none", "junk"])
queries = st.dictionaries(
    st.sampled_from(["valueInputOption", "valueRenderOption", "majorDimension", "fields",
                     "dateTimeRenderOption", "includeGridData", "ranges", "insertDataOption",
                     "includeValuesInResponse", "q", "pageSize", "pageToken", "mimeType"]),
    st.sampled_from([x for x in NASTY if x != "\ud800"]) | st.text(max_size=10),
    max_size=4,
)  # fmt: skip
ranges = st.sampled_from([x for x in NASTY if x != "\ud800"]) | st.text(max_size=15)


@FUZZ
@given(which=ids_, body=bodies, query=queries, target=ranges, verb=st.integers(0, 6))
def test_sheets_methods_never_500(
    client: Any, which: str, body: Any, query: dict, target: str, verb: int
) -> None:
    c, ids = client
    sid = ids[which]
    path = f"/gsheets/v4/spreadsheets/{sid}"
    quoted = target.replace("/", "%2F").replace("?", "%3F").replace("#", "%23") or "A1"
    calls = [
        ("POST", f"{path}:batchUpdate"),
        ("POST", f"{path}/values:batchUpdate"),
        ("POST", f"{path}/values:batchClear"),
        ("POST", f"{path}/values/{quoted}:append"),
        ("PUT", f"{path}/values/{quoted}"),
        ("GET", f"{path}/values/{quoted}"),
        ("GET", path),
    ]
    method, url = calls[verb]
    check(c.open(url, method=method, json=body, query_string=query))
    if verb == 0:
        check(c.post("/gsheets/v4/spreadsheets", json=body, query_string=query))


@FUZZ
@given(which=ids_, body=bodies, query=queries, verb=st.integers(0, 6), pid=ranges)
def test_drive_and_discovery_never_500(
    client: Any, which: str, body: Any, query: dict, verb: int, pid: str
) -> None:
    c, ids = client
    fid = ids[which] if which != "own" else ids["other"]  # never delete the fuzzed workbook
    pid = pid.replace("/", "%2F").replace("?", "%3F").replace("#", "%23") or "x"
    calls = [
        ("GET", "/gsheets/drive/v3/files"),
        ("POST", "/gsheets/drive/v3/files"),
        ("GET", f"/gsheets/drive/v3/files/{fid}"),
        ("GET", f"/gsheets/drive/v3/files/{ids[which]}/export"),
        ("POST", f"/gsheets/drive/v3/files/{ids[which]}/permissions"),
        ("DELETE", f"/gsheets/drive/v3/files/{fid}/permissions/{pid}"),
        ("GET", "/gsheets/$discovery/rest"),
    ]
    method, url = calls[verb]
    check(c.open(url, method=method, json=body, query_string=query))


@FUZZ
@given(n=depths, verb=st.sampled_from(["batchUpdate", "values:batchUpdate"]))
def test_deeply_nested_bodies_are_400(client: Any, n: int, verb: str) -> None:
    c, ids = client
    key = "requests" if verb == "batchUpdate" else "data"
    text = f'{{"{key}": ' + "[" * n + "]" * n + "}"
    answer = c.post(
        f"/gsheets/v4/spreadsheets/{ids['own']}:{verb}".replace(":values", "/values"),
        data=text,
        content_type="application/json",
    )
    assert answer.status_code == 400 and answer.get_json()["error"]["status"] == "INVALID_ARGUMENT"


def test_the_fuzzed_workbook_still_reads(client: Any) -> None:
    c, ids = client
    answer = c.get(
        f"/gsheets/v4/spreadsheets/{ids['own']}", query_string={"includeGridData": "true"}
    )
    assert answer.status_code in (200, 400)
    assert json.loads(answer.get_data())  # a JSON answer either way


@pytest.mark.parametrize("bad", ["\ud800", "a\x00b"])
def test_strings_no_database_stores_are_400(client: Any, bad: str) -> None:
    c, ids = client
    path = f"/gsheets/v4/spreadsheets/{ids['own']}"
    calls = [
        ("PUT", f"{path}/values/A1?valueInputOption=RAW", {"values": [[bad]]}),
        ("POST", f"{path}/values/A1:append?valueInputOption=RAW", {"values": [[bad]]}),
        (
            "POST",
            f"{path}:batchUpdate",
            {"requests": [{"addSheet": {"properties": {"title": bad}}}]},
        ),
        ("POST", "/gsheets/v4/spreadsheets", {"properties": {"title": bad}}),
        ("POST", "/gsheets/drive/v3/files", {"name": bad}),
    ]
    for method, url, body in calls:
        answer = c.open(url, method=method, data=json.dumps(body), content_type="application/json")
        assert answer.status_code == 400 and answer.get_json()["error"]["code"] == 400
