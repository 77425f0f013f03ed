"""A Google Sheets API v4 subset under ``/gsheets/v4/...``, so code written for Google's
client runs against the clone unmodified::

    from google.oauth2.credentials import Credentials
    from googleapiclient.discovery import build

    api = build("sheets", "v4", credentials=Credentials(token="xoxp-kturner"),
                client_options={"api_endpoint": "http://127.0.0.1:8000/gsheets/"})
    api.spreadsheets().values().get(spreadsheetId="10", range="Orders!A1:C3").execute()

Methods: spreadsheets.get / create / batchUpdate (addSheet, deleteSheet,
updateSheetProperties, sortRange, insertDimension, deleteDimension), and
spreadsheets.values.get / batchGet / update / batchUpdate / append / clear. Ids are the
clone's: a spreadsheet id is the workbook id, a sheetId the sheet's row id. Errors come
back as Google's ``{"error": {"code", "message", "status"}}``; a batch of requests is
all or nothing.

Who acts is resolved as at every door (`officegym.personas.who_acts`): the person the
token ``xoxp-<handle>`` names (Bearer header or ``?access_token=``), within the
server's persona policy; with no token, the server's ``--persona`` or a 401. Requests
from other sites' pages are refused (`officegym.web.cross_site_reason`).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, g, jsonify, request
from werkzeug.wrappers import Response

from officegym.apps.sheets import api_requests as R
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.api_values import api_range, cell_input, label, spreadsheet, value_range
from officegym.apps.sheets.models import Workbook
from officegym.apps.sheets.refs import Area
from officegym.errors import Conflict, Forbidden, Invalid, NotFound, OfficeGymError
from officegym.personas import bearer_token, who_acts
from officegym.web import cross_site_reason, persona_policy

__all__ = ["URL_PREFIX", "bp"]

URL_PREFIX = "/gsheets"
bp = Blueprint("sheets_api", __name__)
STATUS = {
    NotFound: (404, "NOT_FOUND"),
    Forbidden: (403, "PERMISSION_DENIED"),
    Invalid: (400, "INVALID_ARGUMENT"),
    Conflict: (400, "INVALID_ARGUMENT"),
}


def _error(code: int, status: str, message: str) -> tuple[Response, int]:
    return jsonify({"error": {"code": code, "message": message, "status": status}}), code


@bp.errorhandler(OfficeGymError)
def domain_error(exc: OfficeGymError) -> tuple[Response, int]:
    g.db.rollback()
    code, status = next(
        (v for k, v in STATUS.items() if isinstance(exc, k)), (400, "INVALID_ARGUMENT")
    )
    if exc.code == "not_authed":
        code, status = 401, "UNAUTHENTICATED"
    return _error(code, status, exc.message)


@bp.before_request
def authenticate() -> tuple[Response, int] | None:
    """Refuse other sites' pages (`officegym.web.cross_site_reason`, every door's rule),
    then act as `officegym.personas.who_acts` says. Google's two ways of carrying the
    token are read (Bearer header, then ``?access_token=``); the token itself names a
    person as at every door, ``xoxp-<handle>``."""
    reason = cross_site_reason()
    if reason is not None:
        return _error(403, "PERMISSION_DENIED", reason)
    token = bearer_token(request.headers.get("Authorization")) or request.args.get("access_token")
    try:
        g.actor = who_acts(g.db, persona_policy(current_app), token or None)
    except Forbidden as exc:
        if exc.code == "persona_locked":
            return _error(403, "PERMISSION_DENIED", exc.message)
        return _error(401, "UNAUTHENTICATED", exc.message)
    return None


def _workbook(spreadsheet_id: str) -> Workbook:
    if not spreadsheet_id.isdigit():
        raise NotFound(f"Requested entity was not found: spreadsheet {spreadsheet_id!r}")
    return sheets.find_workbook(g.db, g.actor, int(spreadsheet_id))


def _body() -> dict[str, Any]:
    body = request.get_json(silent=True)
    if body is None and request.data:
        raise Invalid("the request body is not JSON")
    if body is not None and not isinstance(body, dict):
        raise Invalid("the request body must be a JSON object")
    return body or {}


@bp.get("/v4/spreadsheets/<spreadsheet_id>")
def get_spreadsheet(spreadsheet_id: str) -> Response:
    """spreadsheets.get"""
    return jsonify(spreadsheet(g.db, _workbook(spreadsheet_id), request.host_url))


@bp.post("/v4/spreadsheets")
def create_spreadsheet() -> Response:
    """spreadsheets.create"""
    body = _body()
    title = (body.get("properties") or {}).get("title") or "Untitled spreadsheet"
    names = [
        (x.get("properties") or {}).get("title") or f"Sheet{i + 1}"
        for i, x in enumerate(body.get("sheets") or [])
    ]
    wb = sheets.create_workbook(g.db, g.actor, title, names or None)
    return jsonify(spreadsheet(g.db, wb, request.host_url))


@bp.post("/v4/spreadsheets/<path:target>")
def post_spreadsheet(target: str) -> Response:
    """``<id>:batchUpdate``, ``<id>/values:batchUpdate``, ``<id>/values/<range>:append``
    and ``:clear`` (the method is the part after the last colon)."""
    head, _, verb = target.rpartition(":")
    spreadsheet_id, _, rest = head.partition("/")
    wb = _workbook(spreadsheet_id)
    if rest == "" and verb == "batchUpdate":
        return jsonify(R.batch_update(g.db, g.actor, wb, _body()))
    if rest == "values" and verb == "batchUpdate":
        return jsonify(_values_batch_update(wb, _body()))
    if rest == "values" and verb == "batchClear":
        ranges = _body().get("ranges") or []
        return jsonify(
            {"spreadsheetId": str(wb.id), "clearedRanges": [_clear(wb, r) for r in ranges]}
        )
    if rest.startswith("values/") and verb in ("append", "clear"):
        ref = rest.removeprefix("values/")
        if verb == "clear":
            return jsonify({"spreadsheetId": str(wb.id), "clearedRange": _clear(wb, ref)})
        return jsonify(_append(wb, ref, _body()))
    raise NotFound(f"no API method for POST {target!r}")


@bp.get("/v4/spreadsheets/<spreadsheet_id>/<path:rest>")
def get_values(spreadsheet_id: str, rest: str) -> Response:
    """values.get (``values/<range>``) and values.batchGet (``values:batchGet``)."""
    wb = _workbook(spreadsheet_id)
    option = request.args.get("valueRenderOption", "FORMATTED_VALUE")
    major = request.args.get("majorDimension", "ROWS")
    if rest == "values:batchGet":
        ranges = request.args.getlist("ranges")
        found = [value_range(g.db, g.actor, wb, r, option, major) for r in ranges]
        return jsonify({"spreadsheetId": str(wb.id), "valueRanges": found})
    if not rest.startswith("values/"):
        raise NotFound(f"no API method for GET {rest!r}")
    return jsonify(value_range(g.db, g.actor, wb, rest.removeprefix("values/"), option, major))


@bp.put("/v4/spreadsheets/<spreadsheet_id>/values/<path:ref>")
def update_values(spreadsheet_id: str, ref: str) -> Response:
    """values.update"""
    wb = _workbook(spreadsheet_id)
    body = _body()
    option = request.args.get("valueInputOption", "")
    result = _write(wb, body.get("range") or ref, body, option)
    if request.args.get("includeValuesInResponse") == "true":
        render = request.args.get("responseValueRenderOption", "FORMATTED_VALUE")
        result["updatedData"] = value_range(
            g.db, g.actor, wb, result["updatedRange"], render, "ROWS"
        )
    return jsonify(result)


def _rows(body: dict[str, Any], option: str) -> list[list[Any]]:
    values = body.get("values")
    if not isinstance(values, list) or not all(isinstance(r, list) for r in values):
        raise Invalid("values must be a list of rows (lists)")
    rows = [[cell_input(v, option) for v in row] for row in values]
    if body.get("majorDimension", "ROWS") == "COLUMNS":
        width = max((len(c) for c in rows), default=0)
        rows = [[c[i] if i < len(c) else None for c in rows] for i in range(width)]
    return rows


def _write(wb: Workbook, ref: str, body: dict[str, Any], option: str) -> dict[str, Any]:
    rows = _rows(body, option)
    sheet, area = api_range(g.db, wb, ref)
    if not rows or not any(rows):
        return {
            "spreadsheetId": str(wb.id),
            "updatedRange": label(sheet, Area(area.r1, area.c1, area.r1, area.c1)),
        }
    start = Area(area.r1, area.c1, area.r1, area.c1, sheet.name)
    width = max(len(r) for r in rows)
    padded = [r + [None] * (width - len(r)) for r in rows]
    written = sheets.write_range(g.db, g.actor, wb, start.label(), padded)
    return _updated(wb, sheet, written)


def _updated(wb: Workbook, sheet: Any, written: Area) -> dict[str, Any]:
    """An UpdateValuesResponse's counts."""
    return {
        "spreadsheetId": str(wb.id),
        "updatedRange": label(sheet, written),
        "updatedRows": written.rows,
        "updatedColumns": written.cols,
        "updatedCells": written.size,
    }


def _values_batch_update(wb: Workbook, body: dict[str, Any]) -> dict[str, Any]:
    option = body.get("valueInputOption", "")
    responses = [_write(wb, d.get("range", ""), d, option) for d in body.get("data") or []]
    totals = {
        f"total{k[0].upper()}{k[1:]}": sum(r.get(k, 0) for r in responses)
        for k in ("updatedRows", "updatedColumns", "updatedCells")
    }
    return {
        "spreadsheetId": str(wb.id),
        **totals,
        "totalUpdatedSheets": len({r["updatedRange"].rpartition("!")[0] for r in responses}),
        "responses": responses,
    }


def _append(wb: Workbook, ref: str, body: dict[str, Any]) -> dict[str, Any]:
    option = request.args.get("valueInputOption", "")
    rows = _rows(body, option)
    sheet, area = api_range(g.db, wb, ref)
    columns = Area(1, area.c1, 1_048_576, area.c2 if area.c2 < 16_384 else 16_384, sheet.name)
    written = sheets.append_rows(g.db, g.actor, wb, rows, sheet=sheet.name, ref=columns.label())
    table = label(sheet, area)
    return {
        "spreadsheetId": str(wb.id),
        "tableRange": table,
        "updates": _updated(wb, sheet, written),
    }


def _clear(wb: Workbook, ref: str) -> str:
    sheet, area = api_range(g.db, wb, ref)
    sheets.clear_range(g.db, g.actor, wb, area.label(), sheet=sheet.name)
    return label(sheet, area)
