"""CSV export and import of accounts, contacts, leads and opportunities, the way
people move CRM data between systems.

Files name related records portably: owners by email, accounts and opportunities
by name, contacts by email (full name when they have none); on import these are
names only, so an account called "1999" is never taken for the record with id
1999. Export writes the standard columns (the `id` column is informational and
ignored on import). Converted leads are exported too, with their conversion
date and the account, contact and opportunity they became; importing such a row
creates the lead already Converted with those links. Imported records keep the
history the file states (a closed opportunity keeps its close date; see
`service.create_record(imported=True)`).

`CSV_TYPES` is the order a set of files imports in: each file may name records
of the types before it (a converted lead names its opportunity). Import goes
through the service row by row inside one savepoint: every row is checked,
every bad row is reported with its row number (the header is row 1), column and
reason, and if any row is bad nothing at all is imported.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.crm import fields
from officegym.apps.crm import service as crm
from officegym.apps.crm.fields import SPECS, FieldError, text_value
from officegym.apps.org import service as org
from officegym.apps.org.models import Person
from officegym.errors import Invalid, OfficeGymError

__all__ = ["COLUMNS", "CSV_TYPES", "ImportResult", "RowError", "export_csv", "import_csv"]

CSV_TYPES = ("account", "contact", "opportunity", "lead")
COLUMNS: dict[str, tuple[str, ...]] = {
    "account": ("id", "name", "type", "industry", "website", "phone", "billing_city",
                "billing_country", "annual_revenue", "employees", "description", "owner"),
    "contact": ("id", "first_name", "last_name", "account", "title", "email", "phone", "owner"),
    "lead": ("id", "first_name", "last_name", "company", "title", "email", "phone", "industry",
             "status", "source", "rating", "owner", "converted_at", "converted_account",
             "converted_contact", "converted_opportunity"),
    "opportunity": ("id", "name", "account", "contact", "stage", "probability", "amount",
                    "close_date", "next_step", "type", "lead_source", "loss_reason",
                    "description", "owner"),
}  # fmt: skip
REQUIRED = {
    "account": ("name",),
    "contact": ("last_name",),
    "lead": ("last_name", "company"),
    "opportunity": ("name", "account", "close_date"),
}
# Columns naming another record -> (the field holding its id, the record's type).
LINKS = {
    "account": ("account_id", "account"),
    "contact": ("contact_id", "contact"),
    "converted_account": ("converted_account_id", "account"),
    "converted_contact": ("converted_contact_id", "contact"),
    "converted_opportunity": ("converted_opportunity_id", "opportunity"),
}
# A field name in a service error -> the CSV column that holds it.
FIELD_COLUMN = {"owner_id": "owner"} | {field: column for column, (field, _) in LINKS.items()}
AMBIGUOUS = "a CSV file names each linked record by a unique name or email"
MAX_ROWS = 20_000


@dataclass(frozen=True)
class RowError:
    """One problem in an imported file: row number (header = 1), column, reason."""

    row: int
    column: str
    reason: str

    def __str__(self) -> str:
        where = f"row {self.row}" + (f", column {self.column}" if self.column else "")
        return f"{where}: {self.reason}"


@dataclass
class ImportResult:
    """What an import did: the ids created (none if any row was bad) and the errors."""

    record_type: str
    created: list[int] = field(default_factory=list)
    errors: list[RowError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def _check_type(record_type: str) -> None:
    if record_type not in CSV_TYPES:
        raise Invalid(f"CSV covers {', '.join(CSV_TYPES)}, not {record_type!r}")


# ---------------------------------------------------------------- export


def export_csv(s: Session, actor: Person, record_type: str) -> str:
    """Every record of one type as CSV text with the standard columns, in id order."""
    _check_type(record_type)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS[record_type])
    offset = 0
    while True:
        page = crm.search(s, actor, record_type, sort="id", limit=200, offset=offset)
        for record in page.items:
            writer.writerow(_cells(s, actor, record_type, record))
        offset += len(page.items)
        if offset >= page.total or not page.items:
            return out.getvalue()


def _cells(s: Session, actor: Person, record_type: str, record: Any) -> list[str]:
    cells = []
    for column in COLUMNS[record_type]:
        if column == "owner":
            value: Any = record.owner.email
        elif column in LINKS:
            value = _link(s, actor, record, *LINKS[column])
        else:
            value = getattr(record, column)
        cells.append(text_value(value) or "")
    return cells


def _link(s: Session, actor: Person, record: Any, field_name: str, target: str) -> str | None:
    """How a file names the record `field_name` points to (None when it points nowhere)."""
    linked_id = getattr(record, field_name)
    if linked_id is None:
        return None
    linked = crm.get_record(s, actor, target, linked_id)
    if target == "contact":
        return linked.email or linked.name
    return linked.name


# ---------------------------------------------------------------- import


def import_csv(s: Session, actor: Person, record_type: str, text: str) -> ImportResult:
    """Create one record per row; all or nothing, with every bad row reported."""
    _check_type(record_type)
    result = ImportResult(record_type)
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    result.errors.extend(_header_errors(record_type, reader.fieldnames or []))
    if result.errors:
        return result
    savepoint = s.begin_nested()
    for number, row in enumerate(reader, start=2):
        if number > MAX_ROWS + 1:
            result.errors.append(RowError(number, "", f"a file holds at most {MAX_ROWS} rows"))
            break
        if any((v or "").strip() for v in row.values()):
            _import_row(s, actor, record_type, number, row, result)
    if result.errors:
        savepoint.rollback()
        result.created.clear()
    else:
        savepoint.commit()
    return result


def _header_errors(record_type: str, header: list[str]) -> list[RowError]:
    errors = []
    known = COLUMNS[record_type]
    for column in header:
        if column not in known:
            errors.append(RowError(1, column, f"unknown column (columns: {', '.join(known)})"))
    for column in REQUIRED[record_type]:
        if column not in header:
            errors.append(RowError(1, column, "required column is missing"))
    return errors


def _import_row(s: Session, actor: Person, record_type: str, number: int,
                row: dict[str, Any], result: ImportResult) -> None:  # fmt: skip
    """Create the record of one row (in its own savepoint), or note every problem of it."""
    if None in row:
        result.errors.append(RowError(number, "", "more cells than columns in the header"))
        return
    errors: list[RowError] = []
    values, owner = _values(
        s, actor, row, lambda col, why: errors.append(RowError(number, col, why))
    )
    looked_up = [e.column for e in errors]
    for name, value in values.items():
        if name in SPECS[record_type] and FIELD_COLUMN.get(name, name) not in looked_up:
            try:
                fields.clean(s, record_type, name, value)
            except FieldError as exc:
                errors.append(RowError(number, FIELD_COLUMN.get(name, name), exc.reason))
    if not errors:
        try:
            with s.begin_nested():
                record = crm.create_record(
                    s, actor, record_type, values, owner=owner, imported=True
                )
                result.created.append(record.id)
        except FieldError as exc:
            errors.append(RowError(number, FIELD_COLUMN.get(exc.field, exc.field), exc.reason))
        except OfficeGymError as exc:
            errors.append(RowError(number, "", exc.message))
    result.errors.extend(errors)


def _values(
    s: Session, actor: Person, row: dict[str, Any], report: Callable[[str, str], None]
) -> tuple[dict[str, Any], Any]:
    """The service's field values of one row, with owner, account and contact resolved."""
    values = {k: (v or "").strip() for k, v in row.items() if k not in ("id", "owner")}

    def lookup(column: str, ref: str | None, find: Callable[[str], Any]) -> Any:
        ref = (ref or "").strip()
        try:
            return find(ref) if ref else None
        except OfficeGymError as exc:
            report(column, exc.message)
            return None

    owner = lookup("owner", row.get("owner"), lambda ref: org.find_person(s, ref))
    for column, (field_name, target) in LINKS.items():
        if column in values:
            found = lookup(
                column,
                values.pop(column),
                lambda ref, t=target: crm.find_by_name(s, actor, t, ref, advice=AMBIGUOUS),
            )
            values[field_name] = found.id if found else None
    return values, owner
