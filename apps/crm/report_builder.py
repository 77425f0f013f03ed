"""The report builder: one CRM object's records grouped by a field, narrowed by owner,
stage or status and a date range on one of the object's dates (`DATE_FIELDS`: an
opportunity's close or created date, a case's created or closed date, a lead's created
or converted date, an account's created date), each group summarised as a count
and, where the object has an amount, its sum or average, as a Salesforce summary report.

Each row keeps the group's value (`ReportRow.key`) so a page can link it to the list of
the records it counts. Amounts are whole currency units: an opportunity's amount, an
account's annual revenue; cases and leads have none, so they are only counted."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

from sqlalchemy import ColumnElement, DateTime, extract, func, select
from sqlalchemy.orm import Session

from officegym.apps.crm.access import require_role
from officegym.apps.crm.fields import SPECS
from officegym.apps.crm.models import Account, Case, Lead, Opportunity
from officegym.apps.org.models import Person
from officegym.errors import Invalid

__all__ = [
    "DATE_FIELDS",
    "GROUPS",
    "OBJECTS",
    "Report",
    "ReportRow",
    "ReportSpec",
    "Summary",
    "run_report",
]

Summary = Literal["count", "sum", "average"]
SUMMARIES: tuple[Summary, ...] = get_args(Summary)
OBJECTS: dict[str, Any] = {"opportunity": Opportunity, "case": Case, "lead": Lead,
                           "account": Account}  # fmt: skip
# The fields each object can be grouped by, in the order a person picks them: those a list
# view filters by (or a close month, a date range), so every group links to its records.
GROUPS: dict[str, tuple[str, ...]] = {
    "opportunity": ("owner", "stage", "account", "type", "close_month"),
    "case": ("owner", "status", "priority", "origin", "account"),
    "lead": ("owner", "status", "source", "rating", "industry"),
    "account": ("owner", "type", "industry"),
}
# The amount summed or averaged, for the objects that have one.
AMOUNTS: dict[str, Any] = {"opportunity": Opportunity.amount, "account": Account.annual_revenue}
# The dates a range may apply to, the default first (a Salesforce report's "Date Field").
DATE_FIELDS: dict[str, tuple[str, ...]] = {
    "opportunity": ("close_date", "created_at"),
    "case": ("created_at", "closed_at"),
    "lead": ("created_at", "converted_at"),
    "account": ("created_at",),
}
# The field the stage/status filter applies to.
STATUS_FIELD = {"opportunity": "stage", "case": "status", "lead": "status"}


@dataclass(frozen=True)
class ReportSpec:
    """What a report asks: the object, the field to group by, the summary, and filters
    (owner id, a stage or status, dates from/to inclusive on `date_field`: one of the
    object's `DATE_FIELDS`, its first when None)."""

    record_type: str
    group_by: str
    summary: Summary = "count"
    owner_id: int | None = None
    status: str | None = None
    date_from: dt.date | None = None
    date_to: dt.date | None = None
    date_field: str | None = None

    @property
    def dated_by(self) -> str:
        """The date the range applies to: the one named, else the object's default."""
        return self.date_field or DATE_FIELDS.get(self.record_type, ("",))[0]


@dataclass(frozen=True)
class ReportRow:
    """One group: its value (an owner's handle, an account id, a (year, month), a field
    value or None), the label shown, how many records, their summed amount, the average
    over those that have one, and how many do (`priced`)."""

    key: Any
    label: str
    count: int
    total: int | None
    average: int | None
    priced: int = 0


@dataclass(frozen=True)
class Report:
    spec: ReportSpec
    rows: list[ReportRow]
    count: int
    total: int | None
    average: int | None


def run_report(s: Session, actor: Person, spec: ReportSpec) -> Report:
    """Group and summarise the records `spec` selects; Invalid for an object, field,
    summary or filter the builder does not offer."""
    require_role(s, actor)
    model = _check(spec)
    amount = AMOUNTS.get(spec.record_type)
    keys = _group_columns(spec.record_type, spec.group_by)
    measures = [func.count(model.id)]
    if amount is not None:
        measures += [func.sum(amount), func.count(amount)]
    stmt = select(*keys, *measures).group_by(*keys)
    for condition in _conditions(spec, model):
        stmt = stmt.where(condition)
    rows = [_row(spec, tuple(r[: len(keys)]), *r[len(keys) :]) for r in s.execute(stmt)]
    rows.sort(key=lambda r: _order(spec, r))
    if spec.group_by in ("owner", "account"):
        rows = _named(s, spec.group_by, rows)
    total = sum(r.total or 0 for r in rows) if amount is not None else None
    counted = sum(r.priced for r in rows)
    average = round(total / counted) if total is not None and counted else None
    return Report(spec, rows, sum(r.count for r in rows), total, average)


def _check(spec: ReportSpec) -> Any:
    if spec.record_type not in OBJECTS:
        raise Invalid(f"reports cover {', '.join(OBJECTS)}, not {spec.record_type!r}")
    if spec.group_by not in GROUPS[spec.record_type]:
        choices = ", ".join(GROUPS[spec.record_type])
        raise Invalid(f"a {spec.record_type} report groups by {choices}, not {spec.group_by!r}")
    if spec.summary not in SUMMARIES:
        raise Invalid(f"summary must be one of {', '.join(SUMMARIES)}, not {spec.summary!r}")
    if spec.summary != "count" and spec.record_type not in AMOUNTS:
        raise Invalid(f"{spec.record_type} records have no amount to {spec.summary}; count them")
    if spec.status is not None:
        field = STATUS_FIELD.get(spec.record_type)
        choices = SPECS[spec.record_type][field].choices if field else ()
        if spec.status not in choices:
            raise Invalid(f"a {spec.record_type}'s {field or 'status'} is one of "
                          f"{', '.join(choices) or 'nothing'}, not {spec.status!r}")  # fmt: skip
    if spec.dated_by not in DATE_FIELDS[spec.record_type]:
        choices = ", ".join(DATE_FIELDS[spec.record_type])
        raise Invalid(f"a {spec.record_type} report's dates are {choices}, "
                      f"not {spec.date_field!r}")  # fmt: skip
    if spec.date_from and spec.date_to and spec.date_from > spec.date_to:
        raise Invalid("the date range ends before it starts")
    return OBJECTS[spec.record_type]


def _group_columns(rt: str, group: str) -> list[ColumnElement[Any]]:
    model = OBJECTS[rt]
    if group == "close_month":
        return [extract("year", Opportunity.close_date), extract("month", Opportunity.close_date)]
    if group in ("owner", "account"):
        return [getattr(model, f"{group}_id")]
    return [getattr(model, group)]


def _conditions(spec: ReportSpec, model: Any) -> list[ColumnElement[bool]]:
    out = []
    if spec.owner_id is not None:
        out.append(model.owner_id == spec.owner_id)
    if spec.status is not None:
        out.append(getattr(model, STATUS_FIELD[spec.record_type]) == spec.status)
    return out + _date_range(spec, getattr(model, spec.dated_by))


def _date_range(spec: ReportSpec, column: Any) -> list[ColumnElement[bool]]:
    """The range's bounds on a date or a timestamp (a day's records whatever their time);
    a record without the date (an open case's closed date) is outside any range."""
    stamp = isinstance(column.type, DateTime)
    out = []
    if spec.date_from is not None:
        start = dt.datetime.combine(spec.date_from, dt.time()) if stamp else spec.date_from
        out.append(column >= start)
    if spec.date_to is not None:
        if stamp:
            out.append(column < dt.datetime.combine(spec.date_to + dt.timedelta(days=1), dt.time()))
        else:
            out.append(column <= spec.date_to)
    return out


def _row(spec: ReportSpec, key: tuple[Any, ...], n: int, *amounts: Any) -> ReportRow:
    total, priced = (int(amounts[0] or 0), int(amounts[1])) if amounts else (None, 0)
    average = round(total / priced) if total is not None and priced else None
    if spec.group_by == "close_month":
        year, month = int(key[0]), int(key[1])
        label = f"{dt.date(year, month, 1):%B %Y}"
        return ReportRow((year, month), label, n, total, average, priced)
    value = key[0]
    label = "" if value is None else str(value)
    return ReportRow(value, label or "(none)", n, total, average, priced)


def _order(spec: ReportSpec, row: ReportRow) -> tuple[Any, ...]:
    """Groups of a choice field in the field's order, months in time, the rest by label;
    the records without a value last."""
    if row.key is None:
        return (1, 0, "")
    spec_field = SPECS[spec.record_type].get(spec.group_by)
    if spec_field is not None and spec_field.kind == "choice" and row.key in spec_field.choices:
        return (0, spec_field.choices.index(row.key), "")
    if spec.group_by == "close_month":
        return (0, row.key[0] * 12 + row.key[1], "")
    return (0, 0, row.label)


def _named(s: Session, group: str, rows: list[ReportRow]) -> list[ReportRow]:
    """Rows keyed by owner or account id, relabelled by name (owners keyed by handle), in
    name order."""
    ids = [r.key for r in rows]
    if group == "owner":
        found = s.execute(select(Person.id, Person.name, Person.handle).where(Person.id.in_(ids)))
        names = {pid: (name, handle) for pid, name, handle in found}
    else:
        found = s.execute(select(Account.id, Account.name).where(Account.id.in_(ids)))
        names = {aid: (name, aid) for aid, name in found}
    named = [replace(r, key=names[r.key][1], label=names[r.key][0]) for r in rows
             if r.key in names]  # fmt: skip
    return [*sorted(named, key=lambda r: r.label), *(r for r in rows if r.key not in names)]
