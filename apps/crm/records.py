"""Finding and writing CRM records generically: look-ups by id or name, search
with filters, sort and pages, and the create/update steps every object shares.
`service.py` builds the object-specific operations on these."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, bindparam, func, inspect, or_, select
from sqlalchemy.orm import Session, joinedload

from officegym.apps.crm import fields
from officegym.apps.crm.access import require_assignable, require_edit, require_role
from officegym.apps.crm.models import (
    CLOSED_STAGES,
    MODELS,
    RECORD_TYPES,
    Account,
    Case,
    Contact,
    Lead,
    Opportunity,
)
from officegym.apps.org.models import Person
from officegym.clock import now
from officegym.db import get, read
from officegym.errors import Conflict, Invalid, NotFound
from officegym.writes import unique_or

__all__ = [
    "FILTERS",
    "SORTS",
    "Page",
    "create",
    "describe",
    "find",
    "find_by_name",
    "get_record",
    "record_name",
    "search",
    "update",
]

TEXT_COLUMNS = {
    "account": (Account.name, Account.website, Account.billing_city),
    "contact": (Contact.first_name, Contact.last_name, Contact.email, Contact.title),
    "lead": (Lead.first_name, Lead.last_name, Lead.company, Lead.email),
    "opportunity": (Opportunity.name, Opportunity.next_step),
    "case": (Case.number, Case.subject),
}
FILTERS: dict[str, tuple[str, ...]] = {
    "account": ("industry", "type", "owner_id", "billing_country"),
    "contact": ("account_id", "owner_id"),
    "lead": ("status", "source", "rating", "industry", "owner_id"),
    "opportunity": ("stage", "type", "account_id", "owner_id"),
    "case": ("status", "priority", "origin", "account_id", "owner_id"),
}
SORTS: dict[str, tuple[str, ...]] = {
    "account": ("name", "industry", "type", "annual_revenue", "employees", "created_at", "id"),
    "contact": ("last_name", "first_name", "email", "title", "created_at", "id"),
    "lead": ("last_name", "company", "status", "rating", "created_at", "id"),
    "opportunity": ("name", "stage", "amount", "probability", "close_date", "created_at", "id"),
    "case": ("number", "subject", "status", "priority", "created_at", "id"),
}
MAX_PAGE = 200


@dataclass(frozen=True)
class Page:
    """One page of search results and the total number of matches."""

    items: list[Any]
    total: int
    offset: int
    limit: int


def record_name(record_type: str, record: Any) -> str:
    """What people call a record: an account's name, a person's full name, a case number."""
    if record_type == "case":
        return f"Case {record.number}"
    return str(record.name)


def describe(record_type: str, record: Any) -> str:
    return f"{record_type} {record.id} ({record_name(record_type, record)})"


def _model(record_type: str) -> Any:
    model = MODELS.get(record_type)  # type: ignore[call-overload]
    if model is None:
        raise Invalid(f"record type must be one of {', '.join(RECORD_TYPES)}, not {record_type!r}")
    return model


def get_record(s: Session, actor: Person, record_type: str, record_id: int) -> Any:
    """A record by type and id; any CRM user may read it."""
    require_role(s, actor)
    record = get(s, _model(record_type), record_id)
    if record is None:
        raise NotFound(f"no {record_type} with id {record_id}", code=f"{record_type}_not_found")
    return record


def _full(model: Any) -> Any:
    return func.lower(model.first_name + " " + model.last_name)


# Hot-path look-ups by name are built once; calls only bind values.
_BY_NAME: dict[str, tuple[Select[Any], ...]] = {
    "account": (select(Account).where(func.lower(Account.name) == bindparam("k")).limit(6),),
    "contact": (
        select(Contact).where(Contact.email == bindparam("k")).limit(6),
        select(Contact).where(_full(Contact) == bindparam("k")).limit(6),
    ),
    "lead": (
        select(Lead).where(Lead.email == bindparam("k")).limit(6),
        select(Lead).where(_full(Lead) == bindparam("k")).limit(6),
    ),
    "opportunity": (
        select(Opportunity).where(func.lower(Opportunity.name) == bindparam("k")).limit(6),
    ),
    "case": (select(Case).where(Case.number == bindparam("k")).limit(6),),
}


def find(s: Session, actor: Person, record_type: str, ref: int | str) -> Any:
    """A record by id, or by name (accounts, opportunities), email or full name (contacts,
    leads), or case number; Invalid if a name matches several records."""
    if isinstance(ref, int):
        return get_record(s, actor, record_type, ref)
    key = ref.strip()
    if key.isdecimal() and record_type != "case":
        return get_record(s, actor, record_type, int(key))
    return find_by_name(s, actor, record_type, ref)


def find_by_name(
    s: Session, actor: Person, record_type: str, name: str, *, advice: str = "use an id"
) -> Any:
    """A record by name, email or case number as `find` looks them up, but never by id:
    an all-digit name is a name (CSV files link records this way). Invalid, ending with
    `advice`, if the name matches several records."""
    require_role(s, actor)
    _model(record_type)
    key = name.strip()
    key = key.zfill(8) if record_type == "case" and key.isdecimal() else key.lower()
    for stmt in _BY_NAME[record_type]:
        found = list(s.scalars(stmt, {"k": key}))
        if len(found) == 1:
            return found[0]
        if found:
            ids = ", ".join(str(r.id) for r in found)
            raise Invalid(
                f"{len(found)} {record_type} records match {name!r} (ids {ids}); {advice}"
            )
    raise NotFound(f"no {record_type} named {name!r}", code=f"{record_type}_not_found")


MAX_WORDS = 20  # distinct words in one search (as the chat's search)


def search(
    s: Session,
    actor: Person,
    record_type: str,
    *,
    query: str | None = None,
    filters: Mapping[str, Any] | None = None,
    is_open: bool | None = None,
    close_after: dt.date | None = None,
    close_before: dt.date | None = None,
    sort: str | None = None,
    descending: bool = False,
    limit: int = 50,
    offset: int = 0,
) -> Page:
    """Records whose text fields contain every word of `query` (at most `MAX_WORDS`
    distinct ones) and that match every filter; `is_open` and the close-date bounds
    apply to the types that have them."""
    require_role(s, actor)
    _model(record_type)  # an unknown type is refused before anything else
    words = _words(query)
    given = {k: v for k, v in (filters or {}).items() if v is not None and v != ""}
    params: dict[str, Any] = {f"w{i}": f"%{w}%" for i, w in enumerate(words)}
    params |= {f"f_{k}": _filter_value(s, record_type, k, v) for k, v in given.items()}
    if (close_after is not None or close_before is not None) and record_type != "opportunity":
        raise Invalid("close-date bounds apply only to opportunities")
    params |= {"after": close_after, "before": close_before}
    shape = (
        record_type,
        len(words),
        tuple(sorted(given)),
        is_open,
        close_after is not None,
        close_before is not None,
    )
    total = read(s, _count(shape), params).scalar() or 0
    order = _sort_key(record_type, sort)
    params |= {"limit": max(1, min(int(limit), MAX_PAGE)), "offset": max(0, int(offset))}
    rows = list(s.scalars(_page(shape, order, descending), params))
    return Page(rows, total, params["offset"], params["limit"])


def _words(query: str | None) -> list[str]:
    """The distinct words of a search, at most `MAX_WORDS` (each becomes a SQL clause:
    thousands would overflow the parser)."""
    words = list(dict.fromkeys((query or "").split()))
    if len(words) > MAX_WORDS:
        raise Invalid(f"search query has more than {MAX_WORDS} words; search with fewer")
    return words


SearchShape = tuple[str, int, tuple[str, ...], bool | None, bool, bool]


@functools.cache
def _matching(shape: SearchShape) -> Select[Any]:
    """The records a search of this shape selects, its values left as parameters
    (built once per shape: building costs as much as running)."""
    record_type, words, keys, is_open, after, before = shape
    model = _model(record_type)
    stmt = select(model)
    for i in range(words):
        word = bindparam(f"w{i}")
        stmt = stmt.where(or_(*(c.ilike(word) for c in TEXT_COLUMNS[record_type])))
    for key in keys:
        stmt = stmt.where(getattr(model, key) == bindparam(f"f_{key}"))
    stmt = _open_filter(stmt, record_type, is_open)
    if after:
        stmt = stmt.where(Opportunity.close_date >= bindparam("after"))
    if before:
        stmt = stmt.where(Opportunity.close_date <= bindparam("before"))
    return stmt


@functools.cache
def _count(shape: SearchShape) -> Select[Any]:
    return select(func.count()).select_from(_matching(shape).subquery())


@functools.cache
def _page(shape: SearchShape, sort: str, descending: bool) -> Select[Any]:
    model = _model(shape[0])
    order = getattr(model, sort)
    stmt = _matching(shape).order_by(order.desc() if descending else order, model.id)
    # Result views name each record's account and contact: load them with the page.
    named = [r for r in ("account", "contact") if r in inspect(model).relationships]
    stmt = stmt.options(*(joinedload(getattr(model, r)) for r in named))
    return stmt.limit(bindparam("limit")).offset(bindparam("offset"))


def _filter_value(s: Session, record_type: str, key: str, value: Any) -> Any:
    if key not in FILTERS[record_type]:
        allowed = ", ".join(FILTERS[record_type])
        raise Invalid(f"cannot filter {record_type} records by {key!r} (filters: {allowed})")
    if key.endswith("_id"):
        try:
            return int(value)
        except (TypeError, ValueError):
            raise Invalid(f"filter {key} must be a numeric id, not {value!r}") from None
    return fields.clean(s, record_type, key, value)


def _open_filter(stmt: Select[Any], record_type: str, is_open: bool | None) -> Select[Any]:
    if is_open is None:
        return stmt
    if record_type == "opportunity":
        closed = Opportunity.stage.in_(CLOSED_STAGES)
    elif record_type == "case":
        closed = Case.status == "Closed"
    elif record_type == "lead":
        closed = Lead.status.in_(("Converted", "Unqualified"))
    else:
        raise Invalid(f"{record_type} records are neither open nor closed")
    return stmt.where(~closed if is_open else closed)


def _sort_key(record_type: str, sort: str | None) -> str:
    if sort is None or sort == "":
        return SORTS[record_type][0]
    if sort not in SORTS[record_type]:
        allowed = ", ".join(SORTS[record_type])
        raise Invalid(f"cannot sort {record_type} records by {sort!r} (sort by: {allowed})")
    return sort


def create(
    s: Session,
    actor: Person,
    record_type: str,
    values: Mapping[str, Any],
    *,
    owner: Person | None = None,
    extra: Mapping[str, Any] | None = None,
) -> Any:
    """Validate `values`, check the owner may be assigned, insert; `extra` is trusted."""
    owner = owner or actor
    require_assignable(s, actor, owner)
    cleaned = fields.clean_all(s, record_type, values)
    record = _model(record_type)(**cleaned, **(extra or {}), owner_id=owner.id, created_at=now(s))
    s.add(record)
    with unique_or(_taken(record_type)):  # a concurrent create took the name or number
        s.flush()
    return record


def _taken(record_type: str) -> Conflict:
    """The error of a create or rename that lost a race for a unique name or case number."""
    if record_type == "account":
        return Conflict("another account with this name was just saved", code="duplicate_account")
    return Conflict(
        f"another {record_type} was saved at the same moment and took its number; "
        "nothing was saved, try again",
        code="conflict",
    )


def update(
    s: Session, actor: Person, record_type: str, record: Any, changes: Mapping[str, Any]
) -> list[str]:
    """Check the actor may edit `record`, validate, write changes and their history."""
    require_edit(s, actor, record, describe(record_type, record))
    cleaned = fields.clean_all(s, record_type, changes, partial=True)
    with unique_or(_taken(record_type)):
        return fields.record_changes(s, actor, record_type, record, cleaned)


def account_named(s: Session, name: str) -> Account | None:
    """The account with exactly this name (case-insensitive), if any."""
    return s.scalars(_BY_NAME["account"][0], {"k": name.strip().lower()}).first()


def require_unique_account_name(s: Session, name: str, exclude_id: int | None = None) -> None:
    """Conflict if another account already has this name (case-insensitive)."""
    other = account_named(s, name)
    if other is not None and other.id != exclude_id:
        raise Conflict(
            f"an account named {name.strip()!r} already exists (id {other.id})",
            code="duplicate_account",
        )
