"""Field rules of every CRM object: which fields exist, which are required, what
values they take. One table feeds creation, updates, CSV import and the forms,
so a value is validated the same way whoever sends it. Changed fields are
written to the history table here too."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from sqlalchemy.orm import Session

from officegym.apps.crm import models as m
from officegym.apps.org.models import Person
from officegym.clock import now
from officegym.db import get
from officegym.errors import Invalid
from officegym.writes import insert_row, update_row

__all__ = [
    "CONVERSION",
    "SPECS",
    "FieldError",
    "Spec",
    "clean",
    "clean_all",
    "clean_with",
    "record_changes",
    "text_value",
]

Kind = Literal["text", "email", "phone", "url", "int", "money", "date", "datetime", "choice", "ref"]
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")
PHONE_RE = re.compile(r"^[0-9+().\- x]{5,40}$")
URL_RE = re.compile(r"^(https?://)?[a-z0-9-]+(\.[a-z0-9-]+)+(/\S*)?$")
# A number as people type it: optional sign, digits grouped by thousands with commas (or
# not grouped at all), optional decimals. Amounts may also start with a dollar sign.
NUMBER_RE = re.compile(r"^[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$")
EARLIEST, LATEST = dt.date(2000, 1, 1), dt.date(2100, 12, 31)


class FieldError(Invalid):
    """An invalid value of one named field (CSV import reports the column)."""

    def __init__(self, record_type: str, field: str, reason: str) -> None:
        super().__init__(f"{record_type} {field}: {reason}", code="invalid_field")
        self.field = field
        self.reason = reason


@dataclass(frozen=True)
class Spec:
    """How one field is validated; `empty` is what a cleared optional field stores."""

    kind: Kind = "text"
    required: bool = False
    max_len: int = 120
    choices: tuple[str, ...] = ()
    lo: int = 0
    hi: int = 10**12
    empty: Any = None
    target: m.RecordType | None = None


def _choice(lit: Any, required: bool = False) -> Spec:
    return Spec("choice", required, choices=get_args(lit))


_TEXT, _LONG = Spec(), Spec(max_len=32_000, empty="")
_NAME = Spec(required=True)
_EMAIL, _PHONE = Spec("email", max_len=200), Spec("phone", max_len=40)
_ACCOUNT = Spec("ref", target="account")
_CONTACT = Spec("ref", target="contact")

SPECS: dict[str, dict[str, Spec]] = {
    "account": {
        "name": _NAME,
        "industry": _choice(m.Industry),
        "type": _choice(m.AccountType, True),
        "website": Spec("url", max_len=200),
        "phone": _PHONE,
        "billing_city": Spec(max_len=80),
        "billing_country": Spec(max_len=80),
        "annual_revenue": Spec("money"),
        "employees": Spec("int", hi=5_000_000),
        "description": _LONG,
    },
    "contact": {
        "account_id": _ACCOUNT,
        "first_name": Spec(max_len=60, empty=""),
        "last_name": Spec(required=True, max_len=80),
        "title": _TEXT,
        "email": _EMAIL,
        "phone": _PHONE,
    },
    "lead": {
        "first_name": Spec(max_len=60, empty=""),
        "last_name": Spec(required=True, max_len=80),
        "company": _NAME,
        "title": _TEXT,
        "email": _EMAIL,
        "phone": _PHONE,
        "industry": _choice(m.Industry),
        "status": _choice(m.LeadStatus, True),
        "source": _choice(m.LeadSource),
        "rating": _choice(m.Rating),
    },
    "opportunity": {
        "name": _NAME,
        "account_id": Spec("ref", required=True, target="account"),
        "contact_id": _CONTACT,
        "stage": _choice(m.Stage),
        "amount": Spec("money", hi=1_000_000_000),
        "probability": Spec("int", required=True, hi=100),
        "close_date": Spec("date", required=True),
        "next_step": Spec(max_len=255, empty=""),
        "type": _choice(m.OpportunityType),
        "lead_source": _choice(m.LeadSource),
        "loss_reason": _choice(m.LossReason),
        "description": _LONG,
    },
    "case": {
        "subject": Spec(required=True, max_len=200),
        "description": _LONG,
        "account_id": _ACCOUNT,
        "contact_id": _CONTACT,
        "status": _choice(m.CaseStatus, True),
        "priority": _choice(m.CasePriority, True),
        "origin": _choice(m.CaseOrigin),
    },
    "activity": {
        "kind": _choice(m.ActivityKind, True),
        "subject": Spec(required=True, max_len=200),
        "body": _LONG,
        "status": _choice(m.ActivityStatus, True),
        "due_date": Spec("date"),
    },
}
# A lead's conversion links: set by converting the lead, or stated by a CSV import of a
# lead converted elsewhere; never by forms or updates, so they are not in SPECS.
CONVERSION: dict[str, Spec] = {
    "converted_account_id": Spec("ref", required=True, target="account"),
    "converted_contact_id": Spec("ref", required=True, target="contact"),
    "converted_opportunity_id": Spec("ref", target="opportunity"),
    "converted_at": Spec("datetime"),
}


def clean(s: Session, record_type: str, field: str, value: Any) -> Any:
    """The stored form of `value` for one field, or `FieldError` saying why it is wrong."""
    spec = SPECS[record_type].get(field)
    if spec is None:
        known = ", ".join(SPECS[record_type])
        raise FieldError(record_type, field, f"no such field (fields: {known})")
    return clean_with(s, record_type, field, spec, value)


def clean_with(s: Session, record_type: str, field: str, spec: Spec, value: Any) -> Any:
    """`clean` by an explicit rule (for fields kept out of SPECS, such as `CONVERSION`)."""
    if isinstance(value, str):
        value = value.strip()
    if value is None or value == "":
        if spec.required:
            raise FieldError(record_type, field, "is required")
        return spec.empty
    try:
        return _CLEANERS[spec.kind](s, spec, value)
    except ValueError as exc:
        raise FieldError(record_type, field, str(exc)) from None


def clean_all(
    s: Session, record_type: str, values: Mapping[str, Any], *, partial: bool = False
) -> dict[str, Any]:
    """Clean several fields; unless `partial`, missing required fields are errors too."""
    out = {k: clean(s, record_type, k, v) for k, v in values.items()}
    if not partial:
        for name, spec in SPECS[record_type].items():
            if spec.required and name not in out:
                raise FieldError(record_type, name, "is required")
    return out


def _text(_s: Session, spec: Spec, value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"must be text, not {type(value).__name__}")
    if len(value) > spec.max_len:
        raise ValueError(f"is longer than {spec.max_len} characters")
    return value


def _pattern(regex: re.Pattern[str], what: str, lower: bool = False) -> Any:
    def check(s: Session, spec: Spec, value: Any) -> str:
        text = _text(s, spec, value)
        text = text.lower() if lower else text
        if not regex.match(text):
            raise ValueError(f"{value!r} is not a valid {what}")
        return text

    return check


def _int(_s: Session, spec: Spec, value: Any) -> int:
    return _whole(spec, value, "a whole number")


def _money(_s: Session, spec: Spec, value: Any) -> int:
    """An amount in whole dollars: ``15500``, ``15,500``, ``$15,500`` or ``15500.00``."""
    if isinstance(value, str):
        text = value.replace(" ", "")
        sign = "-" if text.startswith("-") else ""
        value = sign + text.removeprefix("-").removeprefix("$")
    return _whole(spec, value, "an amount in whole dollars such as 15,500 or $15,500")


def _whole(spec: Spec, value: Any, what: str) -> int:
    """A whole number within the spec's bounds, from a number or text as people type it
    (thousands separated by commas, ``.00`` decimals allowed)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"must be {what}, not {value!r}")
    if isinstance(value, str) and not NUMBER_RE.match(value):
        raise ValueError(f"must be {what}, not {value!r}")
    number = float(str(value).replace(",", ""))
    if number != int(number) or not spec.lo <= number <= spec.hi:
        raise ValueError(f"must be a whole number from {spec.lo:,} to {spec.hi:,} (got {value})")
    return int(number)


def _date(_s: Session, _spec: Spec, value: Any) -> dt.date:
    if isinstance(value, dt.datetime):
        value = value.date()
    if not isinstance(value, dt.date):
        try:
            value = dt.date.fromisoformat(str(value))
        except ValueError:
            raise ValueError(f"must be a date as YYYY-MM-DD, not {value!r}") from None
    if not EARLIEST <= value <= LATEST:
        raise ValueError(f"must be between {EARLIEST} and {LATEST} (got {value})")
    return value


def _datetime(s: Session, spec: Spec, value: Any) -> dt.datetime:
    if not isinstance(value, dt.datetime):
        try:
            value = dt.datetime.fromisoformat(str(value))
        except ValueError:
            raise ValueError(f"must be a date and time, YYYY-MM-DD HH:MM, not {value!r}") from None
    _date(s, spec, value.date())
    return value


def _choice_value(_s: Session, spec: Spec, value: Any) -> str:
    by_lower = {c.lower(): c for c in spec.choices}
    found = by_lower.get(str(value).lower())
    if found is None:
        raise ValueError(f"{value!r} is not one of: {', '.join(spec.choices)}")
    return found


def _ref(s: Session, spec: Spec, value: Any) -> int:
    try:
        ref = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"must be the numeric id of a {spec.target}, not {value!r}") from None
    model = m.MODELS.get(spec.target)  # type: ignore[arg-type]
    if model is None:
        raise ValueError(f"refers to no known record type ({spec.target!r})")
    if get(s, model, ref) is None:
        raise ValueError(f"no {spec.target} with id {ref}")
    return ref


_CLEANERS = {
    "text": _text,
    "email": _pattern(EMAIL_RE, "email address", lower=True),
    "phone": _pattern(PHONE_RE, "phone number"),
    "url": _pattern(URL_RE, "web address", lower=True),
    "int": _int,
    "money": _money,
    "date": _date,
    "datetime": _datetime,
    "choice": _choice_value,
    "ref": _ref,
}


def text_value(value: Any) -> str | None:
    """How a value is written in the history table and CSV files."""
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def record_changes(
    s: Session, actor: Person, record_type: str, record: Any, values: Mapping[str, Any]
) -> list[str]:
    """Set already-cleaned values on `record`, one history row per field that changed."""
    changed = [k for k, v in values.items() if getattr(record, k) != v]
    if not changed:
        return []
    when = now(s)
    for field in changed:
        insert_row(
            s,
            m.FieldHistory,
            record_type=record_type,
            record_id=record.id,
            field=field,
            old_value=text_value(getattr(record, field)),
            new_value=text_value(values[field]),
            changed_by_id=actor.id,
            changed_at=when,
        )
    update_row(s, record, **{field: values[field] for field in changed})
    return changed
