"""What the report builder's page needs besides the service: the report a URL asks for
(`report_request`) and, for each result row, the list view URL of the records it counts
(`row_url`), so a row leads to exactly those records."""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import g, url_for

from officegym.apps.crm import service as crm
from officegym.apps.crm.fields import SPECS
from officegym.apps.crm.pages import KINDS, SLUG, day_arg
from officegym.apps.crm.report_builder import (
    AMOUNTS,
    DATE_FIELDS,
    GROUPS,
    STATUS_FIELD,
    ReportRow,
)
from officegym.apps.org import service as org
from officegym.errors import Invalid

__all__ = [
    "DATE_LABEL",
    "GROUP_LABEL",
    "ReportRequest",
    "object_of",
    "report_request",
    "row_key",
    "row_url",
    "status_choices",
]

REPORT_OBJECTS = ("opportunity", "case", "lead", "account")
GROUP_LABEL = {"owner": "Owner", "stage": "Stage", "account": "Account", "type": "Type",
               "close_month": "Close month", "status": "Status", "priority": "Priority",
               "origin": "Origin", "source": "Lead source", "rating": "Rating",
               "industry": "Industry"}  # fmt: skip
AMOUNT_LABEL = {"opportunity": "amount", "account": "annual revenue"}
DATE_LABEL = {"close_date": "Close date", "created_at": "Created date",
              "closed_at": "Closed date", "converted_at": "Converted date"}  # fmt: skip


@dataclass(frozen=True)
class ReportRequest:
    """A report as its URL asks for it: the spec the service runs (None when the form has
    not been submitted yet), the record type, and the owner filter as a person."""

    record_type: str
    spec: crm.ReportSpec | None
    owner: Any | None = None


def report_request(args: Mapping[str, str]) -> ReportRequest:
    """Read ``object`` (a list slug, default opportunities), ``group``, ``summary``,
    ``owner`` (handle, email or name), ``status`` (a stage for opportunities), ``date``
    (the date the range applies to, the object's default when absent) and ``from``/``to``
    (YYYY-MM-DD); no ``group`` means only the form is shown."""
    rt = KINDS.get(args.get("object") or "opportunities")
    if rt not in REPORT_OBJECTS:
        raise Invalid(f"reports cover {', '.join(SLUG[r] for r in REPORT_OBJECTS)}, "
                      f"not {args.get('object')!r}")  # fmt: skip
    owner = org.find_person(g.db, args["owner"]) if args.get("owner") else None
    if not args.get("group"):
        return ReportRequest(rt, None, owner)
    spec = crm.ReportSpec(
        rt, args["group"], args.get("summary") or "count",  # type: ignore[arg-type]
        owner_id=owner.id if owner else None, status=args.get("status") or None,
        date_from=day_arg("from", args.get("from")), date_to=day_arg("to", args.get("to")),
        date_field=args.get("date") or None,
    )  # fmt: skip
    return ReportRequest(rt, spec, owner)


def object_of(args: Mapping[str, str]) -> str:
    """The record type a report URL names, opportunities when it names none we report on."""
    rt = KINDS.get(args.get("object") or "opportunities", "")
    return rt if rt in REPORT_OBJECTS else "opportunity"


def status_choices(rt: str) -> tuple[str, tuple[str, ...]]:
    """The stage/status filter of an object: (its label, its choices); empty for accounts."""
    field = STATUS_FIELD.get(rt)
    if field is None:
        return "", ()
    return field.capitalize(), SPECS[rt][field].choices


def has_amount(rt: str) -> bool:
    return rt in AMOUNTS


def row_url(req: ReportRequest, row: ReportRow) -> str | None:
    """The "All …" list view narrowed to the records of `row` (the report's filters and
    the row's group); None for the group of records without a value, and for a range on
    a date the lists cannot filter by (only an opportunity's close date)."""
    spec = req.spec
    if spec is None or row.key is None:
        return None
    if (spec.date_from or spec.date_to) and spec.dated_by != "close_date":
        return None
    params: dict[str, Any] = {"view": "all"}
    if req.owner is not None:
        params["owner"] = req.owner.handle
    if spec.status:
        params[STATUS_FIELD[spec.record_type]] = spec.status
    after, before = spec.date_from, spec.date_to
    if spec.group_by == "close_month":
        year, month = row.key
        first = dt.date(year, month, 1)
        last = dt.date(year, month, calendar.monthrange(year, month)[1])
        after, before = max(first, after or first), min(last, before or last)
    elif spec.group_by == "account":
        params["account"] = row.key
    else:
        params[spec.group_by] = row.key
    if after is not None:
        params["close_after"] = after.isoformat()
    if before is not None:
        params["close_before"] = before.isoformat()
    return url_for("crm.records", kind=SLUG[spec.record_type], **params)


def row_key(row: ReportRow) -> str:
    """The part of a row link's element id that names its group: ``2026-03`` for a month,
    an owner's handle, an account's id, a field's value."""
    if isinstance(row.key, tuple):
        return f"{row.key[0]:04d}-{row.key[1]:02d}"
    return str(row.key)


def date_choices(rt: str) -> list[tuple[str, str]]:
    """The dates a report on `rt` may range over: (field, label), the default first."""
    return [(f, DATE_LABEL[f]) for f in DATE_FIELDS[rt]]


def group_choices(rt: str) -> list[tuple[str, str]]:
    return [(gname, GROUP_LABEL[gname]) for gname in GROUPS[rt]]
