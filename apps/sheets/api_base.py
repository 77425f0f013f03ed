"""What every method of the Google Sheets and Drive APIs shares: the blueprint, the
acting person (the bearer token's, within the server's persona policy; other sites'
pages refused), the JSON body read safely, the spreadsheet an id names, partial
responses (``fields``) and Google's error shape::

    {"error": {"code": 400, "message": "Unable to parse range: Nope!A1",
               "status": "INVALID_ARGUMENT"}}

Errors as Google gives them: 404 only for a spreadsheet id that does not exist, 403
"The caller does not have permission" for one the caller cannot open or change, 400
INVALID_ARGUMENT for everything the request got wrong (a bad range, an unknown sheet,
a malformed or mistyped body)."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, g, jsonify, request
from werkzeug.exceptions import InternalServerError

from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.api_fields import parse_mask, select_fields
from officegym.apps.sheets.models import Workbook
from officegym.db import get
from officegym.errors import Busy, Forbidden, Invalid, NotFound, OfficeGymError
from officegym.personas import bearer_token, who_acts
from officegym.web import persona_policy
from officegym.web_guards import cross_site_reason

__all__ = ["NO_PERMISSION", "URL_PREFIX", "body", "bp", "error", "reply", "workbook"]

URL_PREFIX = "/gsheets"
NO_PERMISSION = "The caller does not have permission"
MAX_BODY = 5_000_000  # bytes of JSON in one request
bp = Blueprint("sheets_api", __name__)
PUBLIC = {  # a batch's parts each say who acts
    "sheets_api.discovery_v2",
    "sheets_api.discovery_v1",
    "sheets_api.open_in_browser",
    "sheets_api.batch",
}


def error(code: int, status: str, message: str) -> tuple[Response, int]:
    return jsonify({"error": {"code": code, "message": message, "status": status}}), code


@bp.errorhandler(OfficeGymError)
def domain_error(exc: OfficeGymError) -> tuple[Response, int]:
    """A domain error in Google's shape: Forbidden 403, an unknown spreadsheet 404 (set
    by `workbook`), a database busy past its lock wait 503 UNAVAILABLE with
    ``Retry-After``, anything else the request got wrong 400."""
    g.db.rollback()
    if exc.code == "not_authed":
        return error(401, "UNAUTHENTICATED", exc.message)
    if isinstance(exc, Forbidden):
        return error(403, "PERMISSION_DENIED", f"{NO_PERMISSION}: {exc.message}")
    if isinstance(exc, NotFound) and exc.code == "api_not_found":
        return error(404, "NOT_FOUND", exc.message)
    if isinstance(exc, Busy):  # the lock wait ran out: nothing changed, retry
        answer, status = error(503, "UNAVAILABLE", exc.message)
        answer.headers.update(exc.headers)
        return answer, status
    return error(400, "INVALID_ARGUMENT", exc.message)


@bp.errorhandler(InternalServerError)
def internal_error(_exc: InternalServerError) -> tuple[Response, int]:
    """A bug (in a method or at the commit) in Google's shape rather than an HTML page."""
    return error(500, "INTERNAL", "Internal error encountered.")


@bp.before_request
def authenticate() -> tuple[Response, int] | None:
    """Refuse other sites' pages (`officegym.web_guards.cross_site_reason`, every door's rule),
    then act as `officegym.personas.who_acts` says (discovery documents are public, as
    Google's are). Google's two ways of carrying the token are read (Bearer header, then
    ``?access_token=``); the token itself names a person as at every door,
    ``xoxp-<handle>``."""
    if request.endpoint in PUBLIC:
        return None
    reason = cross_site_reason()
    if reason is not None:
        return error(403, "PERMISSION_DENIED", reason)
    token = bearer_token(request.headers.get("Authorization")) or request.args.get("access_token")
    try:
        g.actor = who_acts(g.db, persona_policy(current_app), token or None)
    except Forbidden as exc:
        if exc.code == "persona_locked":
            return error(403, "PERMISSION_DENIED", exc.message)
        return error(401, "UNAUTHENTICATED", exc.message)
    return None


def not_found(what: str) -> NotFound:
    return NotFound(f"Requested entity was not found: {what}", code="api_not_found")


def workbook(spreadsheet_id: str) -> Workbook:
    """The spreadsheet of an id: 404 when there is none, 403 when the caller cannot
    open it."""
    if not spreadsheet_id.isdecimal() or len(spreadsheet_id) > 18:
        raise not_found(f"spreadsheet {spreadsheet_id!r}")
    if get(g.db, Workbook, int(spreadsheet_id)) is None:
        raise not_found(f"spreadsheet {spreadsheet_id!r}")
    try:
        return sheets.find_workbook(g.db, g.actor, int(spreadsheet_id))
    except NotFound:
        raise Forbidden("you cannot open this spreadsheet", code="no_access") from None


def body(fields: frozenset[str] | None = None) -> dict[str, Any]:
    """The request's JSON object ({} when there is none); Google's 400 for anything that
    is not a JSON object, however deeply it nests, and for a field the method does not
    have (when `fields` lists the method's fields)."""
    parsed = _parsed()
    unknown = sorted(set(parsed) - fields) if fields is not None else []
    if unknown:
        raise Invalid(
            f'Invalid JSON payload received. Unknown name "{unknown[0]}": Cannot find field.'
        )
    return parsed


def _parsed() -> dict[str, Any]:
    raw = request.get_data(cache=True)
    if not raw.strip():
        return {}
    if len(raw) > MAX_BODY:
        raise Invalid(f"Invalid JSON payload received: larger than {MAX_BODY} bytes")
    try:
        parsed = json.loads(raw)
    except (ValueError, RecursionError):
        raise Invalid("Invalid JSON payload received.") from None
    if not isinstance(parsed, dict):
        raise Invalid("Invalid JSON payload received: the body must be a JSON object")
    _check_strings(parsed)
    return parsed


def _check_strings(data: Any) -> None:
    """Refuse strings no database stores: lone surrogates (not UTF-8) and NUL."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise Invalid(
                    "Invalid JSON payload received: a string is not valid UTF-8"
                ) from None
            if "\x00" in item:
                raise Invalid("Invalid JSON payload received: a string holds a NUL character")


def reply(data: Any) -> Response:
    """A JSON response, cut to the ``fields`` the request asked for."""
    fields = request.args.get("fields")
    if fields:
        data = select_fields(data, parse_mask(fields))
    return jsonify(data)


def flag(name: str) -> bool:
    """A boolean query parameter (``true``/``false``; anything else is a 400)."""
    value = request.args.get(name, "false").lower()
    if value not in ("true", "false", "1", "0", ""):
        raise Invalid(f"Invalid value at '{name}' ({value!r}): true or false")
    return value in ("true", "1")
