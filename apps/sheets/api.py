"""A Google Sheets API v4 subset under ``/gsheets/v4/...`` and the Drive v3 calls its
clients need under ``/gsheets/drive/v3/...``, so code written for Google's client or
gspread runs against the clone unmodified::

    from google.oauth2.credentials import Credentials
    from googleapiclient.discovery import build

    api = build("sheets", "v4", credentials=Credentials(token="xoxp-kturner"),
                client_options={"api_endpoint": "http://127.0.0.1:8000/gsheets/"})
    api.spreadsheets().values().get(spreadsheetId="10", range="Orders!A1:C3").execute()

Methods: spreadsheets.get (with ``includeGridData``, ``ranges``, ``fields``) / create /
batchUpdate (the request kinds of `api_requests`), spreadsheets.values.get / batchGet /
update / batchUpdate / append / clear / batchClear, and Drive's files and permissions
(`api_drive`). Ids are the clone's: a spreadsheet id is the workbook id, a sheetId the
sheet's row id. Errors and who acts: `api_base`. A batch is all or nothing.
"""

from __future__ import annotations

from typing import Any

from flask import Response, g, redirect, request

from officegym.apps.sheets import api_batch, api_discovery, api_drive, api_writes
from officegym.apps.sheets import api_requests as R
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.api_base import URL_PREFIX, body, bp, flag, not_found, reply, workbook
from officegym.apps.sheets.api_sheets import spreadsheet
from officegym.apps.sheets.api_values import value_range
from officegym.apps.sheets.models import Workbook
from officegym.errors import Invalid

__all__ = ["URL_PREFIX", "bp"]

# The fields of each method's request body (anything else is Google's 400).
VALUE_RANGE = frozenset({"range", "majorDimension", "values"})
CREATE = frozenset({"spreadsheetId", "properties", "sheets", "namedRanges", "spreadsheetUrl"})
BATCH = frozenset(
    {"requests", "includeSpreadsheetInResponse", "responseRanges", "responseIncludeGridData"}
)
VALUES_BATCH = frozenset(
    {
        "valueInputOption",
        "data",
        "includeValuesInResponse",
        "responseValueRenderOption",
        "responseDateTimeRenderOption",
    }
)
CLEAR = frozenset({"ranges"})
_ = (api_batch, api_discovery, api_drive)  # their routes are on `bp`


def _title(props: Any, default: str) -> str:
    if props is None:
        return default
    if not isinstance(props, dict) or not isinstance(props.get("title", ""), str):
        raise Invalid("Invalid properties: an object whose title is a string")
    return props.get("title") or default


@bp.get("/spreadsheets/d/<spreadsheet_id>/edit")
def open_in_browser(spreadsheet_id: str) -> Response:
    """A spreadsheet's ``spreadsheetUrl`` (Google's form, which gspread's
    ``open_by_url`` reads the id from) opens the workbook's grid, whose page checks who
    may see it (this address is public, as Google's is)."""
    if not spreadsheet_id.isdigit():
        raise not_found(f"spreadsheet {spreadsheet_id!r}")
    return redirect(f"/sheets/{int(spreadsheet_id)}")


@bp.route("/<path:rest>", methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
def no_such_method(rest: str) -> Response:
    """Any other address is Google's JSON 404 naming the call, never an HTML page."""
    raise not_found(f"no API method for {request.method} {rest!r}")


@bp.get("/v4/spreadsheets/<spreadsheet_id>")
def get_spreadsheet(spreadsheet_id: str) -> Response:
    """spreadsheets.get"""
    wb = workbook(spreadsheet_id)
    grid = flag("includeGridData")
    ranges = request.args.getlist("ranges")
    return reply(spreadsheet(g.db, wb, request.host_url, grid=grid, ranges=ranges))


@bp.post("/v4/spreadsheets")
def create_spreadsheet() -> Response:
    """spreadsheets.create"""
    data = body(CREATE)
    title = _title(data.get("properties"), "Untitled spreadsheet")
    tabs = data.get("sheets") or []
    if not isinstance(tabs, list) or not all(isinstance(x, dict) for x in tabs):
        raise Invalid("Invalid sheets: a list of Sheet objects")
    names = [_title(x.get("properties"), f"Sheet{i + 1}") for i, x in enumerate(tabs)]
    wb = sheets.create_workbook(g.db, g.actor, title, names or None)
    return reply(spreadsheet(g.db, wb, request.host_url))


@bp.post("/v4/spreadsheets/<path:target>")
def post_spreadsheet(target: str) -> Response:
    """``<id>:batchUpdate``, ``<id>/values:batchUpdate``, ``<id>/values:batchClear``,
    ``<id>/values/<range>:append`` and ``:clear`` (the method follows the last colon)."""
    head, _, verb = target.rpartition(":")
    spreadsheet_id, _, rest = head.partition("/")
    wb = workbook(spreadsheet_id)
    if rest == "" and verb == "batchUpdate":
        return reply(_batch_update(wb))
    if rest == "values" and verb == "batchUpdate":
        data = body(VALUES_BATCH)
        result = api_writes.batch_write(g.db, g.actor, wb, data)
        for response in result["responses"]:
            _include_values(wb, response, data)
        return reply(result)
    if rest == "values" and verb == "batchClear":
        ranges = body(CLEAR).get("ranges") or []
        if not isinstance(ranges, list):
            raise Invalid("Invalid ranges: a list of A1 ranges")
        with g.db.begin_nested():
            cleared = [api_writes.clear(g.db, g.actor, wb, r) for r in ranges]
        return reply({"spreadsheetId": str(wb.id), "clearedRanges": cleared})
    if rest.startswith("values/") and verb == "clear":
        body(frozenset())
        cleared = api_writes.clear(g.db, g.actor, wb, rest.removeprefix("values/"))
        return reply({"spreadsheetId": str(wb.id), "clearedRange": cleared})
    if rest.startswith("values/") and verb == "append":
        ref = rest.removeprefix("values/")
        data = body(VALUE_RANGE)
        result = api_writes.append(g.db, g.actor, wb, ref, data, request.args.to_dict())
        _include_values(wb, result["updates"], request.args)
        return reply(result)
    raise not_found(f"no API method for POST {target!r}")


def _batch_update(wb: Workbook) -> dict[str, Any]:
    """``<id>:batchUpdate``'s reply, with the updated spreadsheet when the body asks."""
    data = body(BATCH)
    result = R.batch_update(g.db, g.actor, wb, data)
    if _boolean(data, "includeSpreadsheetInResponse"):
        ranges = data.get("responseRanges") or []
        if not isinstance(ranges, list) or not all(isinstance(r, str) for r in ranges):
            raise Invalid("Invalid responseRanges: a list of A1 ranges")
        grid = _boolean(data, "responseIncludeGridData")
        result["updatedSpreadsheet"] = spreadsheet(
            g.db, wb, request.host_url, grid=grid, ranges=ranges
        )
    return result


def _boolean(data: dict[str, Any], key: str) -> bool:
    value = data.get(key) or False
    if not isinstance(value, bool):
        raise Invalid(f"Invalid {key}: true or false")
    return value


def _render_args() -> tuple[str, str, str]:
    args = request.args
    return (
        args.get("valueRenderOption", "FORMATTED_VALUE"),
        args.get("majorDimension", "ROWS"),
        args.get("dateTimeRenderOption", "SERIAL_NUMBER"),
    )


@bp.get("/v4/spreadsheets/<spreadsheet_id>/<path:rest>")
def get_values(spreadsheet_id: str, rest: str) -> Response:
    """values.get (``values/<range>``) and values.batchGet (``values:batchGet``)."""
    wb = workbook(spreadsheet_id)
    option, major, dates = _render_args()
    if rest == "values:batchGet":
        ranges = request.args.getlist("ranges")
        found = [value_range(g.db, g.actor, wb, r, option, major, dates) for r in ranges]
        return reply({"spreadsheetId": str(wb.id), "valueRanges": found})
    if not rest.startswith("values/"):
        raise not_found(f"no API method for GET {rest!r}")
    ref = rest.removeprefix("values/")
    return reply(value_range(g.db, g.actor, wb, ref, option, major, dates))


@bp.put("/v4/spreadsheets/<spreadsheet_id>/values/<path:ref>")
def update_values(spreadsheet_id: str, ref: str) -> Response:
    """values.update (nulls leave their cells as they are)."""
    wb = workbook(spreadsheet_id)
    data = body(VALUE_RANGE)
    option = request.args.get("valueInputOption", "")
    result = api_writes.write(g.db, g.actor, wb, data.get("range") or ref, data, option)
    _include_values(wb, result, request.args)
    return reply(result)


def _include_values(wb: Any, result: dict[str, Any], options: Any) -> None:
    """With ``includeValuesInResponse``, an update's ``updatedData``: the written range
    as it now reads (rendered as ``responseValueRenderOption`` says), as Google does on
    values.update, values.append and values.batchUpdate."""
    if options is request.args:
        wanted = flag("includeValuesInResponse")
    else:
        wanted = options.get("includeValuesInResponse") or False
        if not isinstance(wanted, bool):
            raise Invalid("Invalid includeValuesInResponse: true or false")
    if not wanted or "updatedRange" not in result:
        return
    render = options.get("responseValueRenderOption") or "FORMATTED_VALUE"
    dates = options.get("responseDateTimeRenderOption") or "SERIAL_NUMBER"
    for name, value in (
        ("responseValueRenderOption", render),
        ("responseDateTimeRenderOption", dates),
    ):
        if not isinstance(value, str):
            raise Invalid(f"Invalid {name}: {value!r}")
    result["updatedData"] = value_range(
        g.db, g.actor, wb, result["updatedRange"], render, "ROWS", dates
    )
