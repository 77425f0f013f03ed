"""The Drive v3 calls the Sheets clients need, over the clone's workbooks, under
``/gsheets/drive/v3/``: files.list (a ``q`` of ``name = '…'``, ``name contains '…'``,
``mimeType = '…'`` and ``trashed = false`` joined by ``and``), files.create (a
spreadsheet), files.get, files.delete, files.export (xlsx, or csv of the first sheet,
by the sheets service's own exports), and permissions.create / list / delete mapped
onto the workbook's sharing (reader → viewer, writer → editor, ``anyone`` → link
access), and files.copy. gspread's ``open(title)``, ``create``, ``share``, ``export``,
``copy`` and ``del_spreadsheet`` go through here."""

from __future__ import annotations

import re
from typing import Any

from flask import Response, g, request

from officegym.apps.org import service as org
from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.api_base import body, bp, not_found, reply, workbook
from officegym.apps.sheets.api_input import text
from officegym.apps.sheets.models import Workbook
from officegym.errors import Invalid, NotFound

__all__ = ["SPREADSHEET", "file_resource"]

SPREADSHEET = "application/vnd.google-apps.spreadsheet"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
_CLAUSE = re.compile(
    r"""^\s*(name|mimeType|trashed)\s*(=|!=|contains)\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(true|false))\s*$"""
)
FILE_FIELDS = frozenset({"name", "mimeType", "parents", "description", "properties"})
PERMISSION_FIELDS = frozenset(
    {"type", "role", "emailAddress", "domain", "allowFileDiscovery", "withLink", "view"}
)
_ROLES = {"reader": "viewer", "commenter": "viewer", "writer": "editor"}
_DRIVE_ROLE = {"viewer": "reader", "editor": "writer"}


def file_resource(wb: Workbook) -> dict[str, Any]:
    """A Drive File of a workbook."""
    return {
        "kind": "drive#file",
        "id": str(wb.id),
        "name": wb.name,
        "mimeType": SPREADSHEET,
        "createdTime": wb.created_at.isoformat(timespec="milliseconds") + "Z",
        "modifiedTime": wb.updated_at.isoformat(timespec="milliseconds") + "Z",
    }


def _clause(part: str) -> tuple[str, str, Any]:
    m = _CLAUSE.match(part)
    if m is None:
        raise Invalid(f"Invalid Value: the query term {part.strip()!r} is not supported")
    field, op, single, double, flag = m.groups()
    value = flag == "true" if flag else (single if single is not None else double)
    if isinstance(value, str):
        value = re.sub(r"\\(.)", r"\1", value)
    if (field == "trashed") != (flag is not None) or (op == "contains" and field != "name"):
        raise Invalid(f"Invalid Value: the query term {part.strip()!r} is not supported")
    return field, op, value


def _matches(wb: Workbook, terms: list[tuple[str, str, Any]]) -> bool:
    for field, op, value in terms:
        actual: Any = {"name": wb.name, "mimeType": SPREADSHEET, "trashed": False}[field]
        hit = value.lower() in actual.lower() if op == "contains" else actual == value
        if hit == (op == "!="):
            return False
    return True


def _split_and(q: str) -> list[str]:
    """A query's terms: split on ``and`` outside quotes."""
    parts, current, quote = [], "", ""
    tokens = re.split(r"""(\\.|'|"|\sand\s)""", q, flags=re.IGNORECASE)
    for tok in tokens:
        if tok in ("'", '"'):
            quote = "" if quote == tok else (quote or tok)
        if not quote and tok.lower().strip() == "and" and tok.strip() != tok:
            parts.append(current)
            current = ""
        else:
            current += tok
    return [*parts, current]


@bp.get("/drive/v3/files")
def list_files() -> Response:
    """files.list: the spreadsheets the caller can open that match ``q``."""
    q = request.args.get("q", "")
    if len(q) > 2000:
        raise Invalid("Invalid Value: the query is too long")
    terms = [_clause(p) for p in _split_and(q) if p.strip()] if q.strip() else []
    size = request.args.get("pageSize", "100")
    start = request.args.get("pageToken", "0")
    if not size.isdecimal() or not start.isdecimal() or len(start) > 9:
        raise Invalid("Invalid Value: pageSize and pageToken")
    found = [wb for wb in sheets.list_workbooks(g.db, g.actor) if _matches(wb, terms)]
    first, count = int(start), max(1, min(int(size), 1000))
    out: dict[str, Any] = {
        "kind": "drive#fileList",
        "incompleteSearch": False,
        "files": [file_resource(wb) for wb in found[first : first + count]],
    }
    if first + count < len(found):
        out["nextPageToken"] = str(first + count)
    return reply(out)


@bp.post("/drive/v3/files")
def create_file() -> Response:
    """files.create: a new, empty spreadsheet (the only kind of file here)."""
    data = body(FILE_FIELDS)
    kind = data.get("mimeType", SPREADSHEET)
    if kind != SPREADSHEET:
        raise Invalid(f"Invalid Value: only {SPREADSHEET} files can be created here")
    name = text(data, "name", "Untitled spreadsheet") or "Untitled spreadsheet"
    return reply(file_resource(sheets.create_workbook(g.db, g.actor, name)))


@bp.post("/drive/v3/files/<file_id>/copy")
def copy_file(file_id: str) -> Response:
    """files.copy: a new spreadsheet owned by the caller with every sheet, value,
    formula, number format, merge, named range and frozen row of the original (gspread's
    ``copy``). A workbook holding pivot tables is refused: its copy would hold their
    values only."""
    wb = workbook(file_id)
    data = body(FILE_FIELDS)
    if sheets.pivots_of(g.db, wb):
        raise Invalid(
            "files.copy of a spreadsheet with pivot tables is not supported by this clone "
            "(the copy would hold their values, not the tables)"
        )
    name = text(data, "name", f"Copy of {wb.name}") or f"Copy of {wb.name}"
    copied = sheets.import_xlsx(g.db, g.actor, "copy.xlsx", sheets.export_xlsx(g.db, g.actor, wb))
    sheets.rename_workbook(g.db, g.actor, copied, name)
    return reply(file_resource(copied))


@bp.get("/drive/v3/files/<file_id>/comments")
def list_comments(file_id: str) -> Response:
    """comments.list: the clone has no comments, so every file has none (gspread's
    ``copy`` reads them to copy them)."""
    workbook(file_id)
    return reply({"kind": "drive#commentList", "comments": []})


@bp.get("/drive/v3/files/<file_id>")
def get_file(file_id: str) -> Response:
    """files.get"""
    return reply(file_resource(workbook(file_id)))


@bp.delete("/drive/v3/files/<file_id>")
def delete_file(file_id: str) -> tuple[str, int]:
    """files.delete (the owner only)."""
    sheets.delete_workbook(g.db, g.actor, workbook(file_id))
    return "", 204


@bp.get("/drive/v3/files/<file_id>/export")
def export_file(file_id: str) -> Response:
    """files.export as xlsx, or csv (the first sheet, as Drive exports it)."""
    wb = workbook(file_id)
    kind = request.args.get("mimeType", "")
    if kind == XLSX:
        data: bytes = sheets.export_xlsx(g.db, g.actor, wb)
    elif kind == "text/csv":
        data = sheets.export_csv(g.db, g.actor, wb).encode()
    else:
        raise Invalid(f"Invalid Value: export as {XLSX} or text/csv, not {kind!r}")
    return Response(data, mimetype=kind)


def _permission(pid: str, kind: str, role: str, person: Person | None) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": "drive#permission", "id": pid, "type": kind, "role": role}
    if person is not None:
        out.update(emailAddress=person.email, displayName=person.name)
    return out


def _permissions(wb: Workbook) -> list[dict[str, Any]]:
    owner = g.db.get(Person, wb.owner_id)
    out = [_permission(str(wb.owner_id), "user", "owner", owner)]
    for person, role in sheets.shares_of(g.db, wb):
        out.append(_permission(str(person.id), "user", _DRIVE_ROLE[role], person))
    if wb.link_access != "none":
        out.append(_permission("anyoneWithLink", "anyone", _DRIVE_ROLE[wb.link_access], None))
    return out


@bp.get("/drive/v3/files/<file_id>/permissions")
def list_permissions(file_id: str) -> Response:
    """permissions.list: the owner, the people shared with, link access."""
    return reply({"kind": "drive#permissionList", "permissions": _permissions(workbook(file_id))})


@bp.post("/drive/v3/files/<file_id>/permissions")
def create_permission(file_id: str) -> Response:
    """permissions.create: share with a person by email, or open to the company."""
    wb = workbook(file_id)
    data = body(PERMISSION_FIELDS)
    role = _ROLES.get(text(data, "role", ""))
    if role is None:
        raise Invalid("Invalid Value: role is reader, commenter or writer (ownership stays)")
    kind = text(data, "type", "user")
    if kind in ("anyone", "domain"):
        sheets.set_link_access(g.db, g.actor, wb, role)
        return reply(_permission("anyoneWithLink", "anyone", _DRIVE_ROLE[role], None))
    if kind not in ("user", "group"):
        raise Invalid(f"Invalid Value: permission type {kind!r}")
    try:
        person = org.find_person(g.db, text(data, "emailAddress", ""))
    except NotFound:
        raise Invalid("Invalid Value: the emailAddress names nobody in this company") from None
    current = dict((p.id, r) for p, r in sheets.shares_of(g.db, wb))
    if current.get(person.id) != role:
        sheets.share_workbook(g.db, g.actor, wb, person, role)
    return reply(_permission(str(person.id), "user", _DRIVE_ROLE[role], person))


@bp.delete("/drive/v3/files/<file_id>/permissions/<permission_id>")
def delete_permission(file_id: str, permission_id: str) -> tuple[str, int]:
    """permissions.delete: take a person's access away, or close link access."""
    wb = workbook(file_id)
    if permission_id == "anyoneWithLink":
        sheets.set_link_access(g.db, g.actor, wb, "none")
        return "", 204
    ok = permission_id.isdecimal() and len(permission_id) <= 18
    person = g.db.get(Person, int(permission_id)) if ok else None
    if person is None:
        raise not_found(f"permission {permission_id!r}")
    sheets.share_workbook(g.db, g.actor, wb, person, None)
    return "", 204
