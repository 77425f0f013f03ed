"""What the CRM pages need besides the service: URL slugs, list columns, form
fields built from the field rules, and turning a submitted form into the
values the service takes. Reads go through the service only."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from flask import abort, g, render_template, url_for

from officegym.apps.crm import service as crm
from officegym.apps.crm.fields import SPECS, Spec, text_value
from officegym.apps.crm.models import CLOSED_STAGES, STAGES
from officegym.apps.crm.records import FILTERS, SORTS
from officegym.apps.org import service as org
from officegym.errors import Invalid

PAGE_SIZE = 25
MAX_PAGE = 100_000  # further pages are empty anyway, and the offset must stay in 64 bits
KINDS: dict[str, str] = {
    "accounts": "account",
    "contacts": "contact",
    "leads": "lead",
    "opportunities": "opportunity",
    "cases": "case",
}
SLUG = {rt: slug for slug, rt in KINDS.items()}
LABEL = {"account": "Account", "contact": "Contact", "lead": "Lead",
         "opportunity": "Opportunity", "case": "Case"}  # fmt: skip
PLURAL = {"account": "Accounts", "contact": "Contacts", "lead": "Leads",
          "opportunity": "Opportunities", "case": "Cases"}  # fmt: skip
# Columns of each list view: (attribute, header); the first one links to the record.
LIST_COLUMNS: dict[str, list[tuple[str, str]]] = {
    "account": [("name", "Name"), ("type", "Type"), ("industry", "Industry"),
                ("billing_city", "City"), ("annual_revenue", "Revenue"), ("owner", "Owner")],
    "contact": [("name", "Name"), ("title", "Title"), ("account", "Account"), ("email", "Email"),
                ("owner", "Owner")],
    "lead": [("name", "Name"), ("company", "Company"), ("status", "Status"), ("rating", "Rating"),
             ("source", "Source"), ("owner", "Owner")],
    "opportunity": [("name", "Name"), ("account", "Account"), ("stage", "Stage"),
                    ("amount", "Amount"), ("close_date", "Close date"), ("owner", "Owner")],
    "case": [("number", "Number"), ("subject", "Subject"), ("status", "Status"),
             ("priority", "Priority"), ("account", "Account"), ("owner", "Owner")],
}  # fmt: skip
# Sortable list columns map to the service's sort keys.
SORT_KEY = {"name": "name", "title": "title", "email": "email", "company": "company",
            "status": "status", "rating": "rating", "type": "type", "industry": "industry",
            "annual_revenue": "annual_revenue", "stage": "stage", "amount": "amount",
            "close_date": "close_date", "number": "number", "subject": "subject",
            "priority": "priority"}  # fmt: skip


def record_type(kind: str) -> str:
    """The record type of a URL slug ('opportunities' -> 'opportunity'), else 404."""
    if kind not in KINDS:
        abort(404)
    return KINDS[kind]


def record_url(rt: str, record: Any) -> str:
    return url_for("crm.record", kind=SLUG[rt], rid=record.id)


def cell(record: Any, column: str) -> Any:
    """A list cell: people and linked records by name, amounts and dates as the pages
    show them."""
    if column == "owner":
        return record.owner.name
    if column == "account":
        return record.account.name if record.account else ""
    return shown_value(record, column)


MONEY = frozenset(n for specs in SPECS.values() for n, sp in specs.items() if sp.kind == "money")


def money(value: Any) -> str:
    """An amount as the pages show it: ``$52,000`` (empty when there is none)."""
    if value is None or value == "":
        return ""
    return f"-${-int(value):,}" if int(value) < 0 else f"${int(value):,}"


def shown_date(value: dt.date | dt.datetime | None) -> str:
    """A date or time as every CRM page shows it, always with its year:
    ``Mar 11, 2026`` and ``Jan 21, 2026 12:51 AM`` (empty when there is none)."""
    if value is None:
        return ""
    day = f"{value:%b} {value.day}, {value.year}"
    if not isinstance(value, dt.datetime):
        return day
    return f"{day} {value.hour % 12 or 12}:{value:%M} {value:%p}"


def shown_value(record: Any, name: str) -> str:
    """A field's value as a record page or list shows it (amounts as currency, dates with
    their year)."""
    value = getattr(record, name)
    if name in MONEY:
        return money(value)
    if isinstance(value, dt.date):
        return shown_date(value)
    return current_value(record, name)


def shown_change(rt: str, field: str, text: str | None) -> str:
    """A value of the field history (stored as text) as the pages show that field:
    amounts as currency, dates and times with their year."""
    spec = SPECS.get(rt, {}).get(field)
    if not text:
        return ""
    try:
        if spec is not None and spec.kind == "money":
            return money(int(text))
        if ISO_DATE.match(text):
            when = dt.datetime.fromisoformat(text)
            return shown_date(when.date() if len(text) == 10 else when)
    except ValueError:
        pass
    return text


ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$")


def next_stage(stage: str) -> str | None:
    """The open stage after `stage`, where "Mark Stage as Complete" moves a deal; None for
    the last open stage (closing is a choice of Won or Lost) and the closed ones."""
    at = STAGES.index(stage)  # type: ignore[arg-type]
    following = STAGES[at + 1] if at + 1 < len(STAGES) else None
    return following if following is not None and following not in CLOSED_STAGES else None


def stage_path(stage: str) -> list[tuple[str, str]]:
    """The stages of an opportunity's path in order, closed ones last, each with its state:
    ``complete`` (passed), ``current`` or ``upcoming``; a closed deal has passed every open
    stage, and the closed stage it did not reach stays upcoming."""
    at = STAGES.index(stage)  # type: ignore[arg-type]
    closed = stage in CLOSED_STAGES
    states = []
    for i, st in enumerate(STAGES):
        if st == stage:
            state = "current"
        elif i < at and not (closed and st in CLOSED_STAGES):
            state = "complete"
        else:
            state = "upcoming"
        states.append((st, state))
    return states


def sort_key(rt: str, column: str) -> str | None:
    """The service's sort key of a list column, None if the list cannot sort by it."""
    key = "last_name" if rt in ("contact", "lead") and column == "name" else SORT_KEY.get(column)
    return key if key in SORTS[rt] else None


@dataclass(frozen=True)
class FormField:
    """One input of a create/edit form, derived from the field rules; `label` names the
    field (record pages show it too), `help` says what the form accepts."""

    name: str
    label: str
    widget: str  # text, textarea, number, date, email, select
    required: bool
    options: list[tuple[str, str]]
    help: str = ""


def form_fields(rt: str, record: Any | None = None) -> list[FormField]:
    """The inputs of a record's form; choices the form may not set are left out."""
    out = []
    for name, spec in SPECS[rt].items():
        if rt == "lead" and name == "status" and record is None:
            continue
        if rt == "case" and name == "status":
            continue
        field = _field(rt, name, spec)
        if rt == "opportunity" and name == "probability":
            # Left blank, the service sets the stage's probability (as the tools do).
            field = replace(field, label="Probability (%)", required=False,
                            help="Leave blank for the stage's default.")  # fmt: skip
        out.append(field)
    return out


def field_label(name: str) -> str:
    """A field's name as people read it: ``contact_id`` -> ``Contact``."""
    return name.removesuffix("_id").replace("_", " ").capitalize()


def _field(rt: str, name: str, spec: Spec) -> FormField:
    label = field_label(name)
    options: list[tuple[str, str]] = []
    widget = {"int": "number", "date": "date", "email": "email", "choice": "select"}.get(
        spec.kind, "text"
    )
    help_text = "In US dollars, for example 15,500 or $15,500." if spec.kind == "money" else ""
    if spec.kind == "choice":
        options = [(c, c) for c in spec.choices if not (rt == "lead" and c == "Converted")]
    if spec.empty == "" and spec.max_len > 1000:
        widget = "textarea"
    if name == "account_id":
        widget, options = "select", account_options()
    if name == "contact_id":
        widget, help_text = "text", "The contact's full name, email or id."
    return FormField(name, label, widget, spec.required, options, help_text)


def account_options() -> list[tuple[str, str]]:
    """Every account as a (value, label) option, by name."""
    page = crm.search(g.db, g.actor, "account", sort="name", limit=200)
    found = list(page.items)
    while len(found) < page.total:
        more = crm.search(g.db, g.actor, "account", sort="name", limit=200, offset=len(found))
        found.extend(more.items)
    return [(str(a.id), a.name) for a in found]


def user_options() -> list[tuple[str, str]]:
    """Every CRM user as a (handle, label) option."""
    users = crm.list_users(g.db, g.actor)
    return [(p.handle, f"{p.name} ({role}, {p.team.name})") for p, role in users]


def assignable_options() -> list[tuple[str, str]]:
    """The CRM users the signed-in person may give records to (themselves at least)."""
    users = crm.list_users(g.db, g.actor)
    return [(p.handle, f"{p.name} ({role}, {p.team.name})") for p, role in users
            if crm.can_edit(g.db, g.actor, p.id)]  # fmt: skip


def form_values(rt: str, form: Mapping[str, str], record: Any | None = None) -> dict[str, Any]:
    """The submitted fields (only those that differ from `record`, when editing); a
    contact is looked up by the name, email or id typed."""
    values: dict[str, Any] = {}
    for f in form_fields(rt, record):
        if f.name not in form:
            continue
        value = form[f.name].strip()
        if record is not None and value == form_value(record, f.name):
            continue
        if f.name == "contact_id" and value:
            value = str(crm.find(g.db, g.actor, "contact", value).id)
        if record is None or value != current_value(record, f.name):
            values[f.name] = value
    return values


def current_value(record: Any, name: str) -> str:
    return text_value(getattr(record, name)) or ""


def form_value(record: Any, name: str) -> str:
    """What the edit form shows in a field: a contact by name, amounts with thousands
    separators, anything else as stored."""
    value = getattr(record, name)
    if name == "contact_id" and value is not None:
        return str(record.contact.name)
    if name in MONEY and value is not None:
        return f"{value:,}"
    return current_value(record, name)


def filter_options(rt: str) -> list[FormField]:
    """The select filters of a list view (owner included)."""
    out = []
    for name in FILTERS[rt]:
        if name == "owner_id":
            out.append(FormField("owner", "Owner", "select", False, user_options()))
        elif name in SPECS[rt] and SPECS[rt][name].kind == "choice":
            out.append(_field(rt, name, SPECS[rt][name]))
    return out


# The list views every list offers, as Salesforce names them; "mine" is where lists open.
VIEWS: dict[str, str] = {
    "mine": "My {plural}",
    "all": "All {plural}",
    "recent": "Recently Viewed",
}


@dataclass(frozen=True)
class ListQuery:
    """What a list view's URL asks for: the list view, the `crm.search` arguments, and
    the account the list is narrowed to (shown by name on the page)."""

    view: str
    search: dict[str, Any]
    account: Any | None = None

    @property
    def narrowed(self) -> bool:
        """Whether anything (words, a filter, open only, a close date) narrows the list;
        the "My" view's owner counts only when the URL names it."""
        s = self.search
        filters = dict(s["filters"])
        if self.view == "mine":
            filters.pop("owner_id", None)
        given = [s["query"], s["is_open"], *filters.values()]
        given += [s.get("close_after"), s.get("close_before")]
        return any(v is not None for v in given)


def list_view(args: Mapping[str, str]) -> str:
    """The list view a URL asks for: ``view=mine``, ``all`` or ``recent`` (records opened in
    this session, `officegym.apps.crm.recent`); without one a list
    opens on "My …", unless the URL picks an owner (then that owner's, as before)."""
    view = args.get("view") or ("all" if args.get("owner") else "mine")
    if view not in VIEWS:
        raise Invalid(f"view must be one of {', '.join(VIEWS)}, not {view!r}")
    return view


def list_query(rt: str, args: Mapping[str, str]) -> ListQuery:
    """The search a list URL asks for: ``view`` (`list_view`), ``q`` (words), the select
    filters (``owner`` by handle or name), ``account`` (id or exact name), ``open=1``
    (leads, opportunities, cases) and, for opportunities, ``close_after``/``close_before``
    (YYYY-MM-DD, inclusive)."""
    view = list_view(args)
    filters: dict[str, Any] = {f.name: args.get(f.name) or None for f in filter_options(rt)}
    if owner := filters.pop("owner", None):
        filters["owner_id"] = org.find_person(g.db, owner).id
    elif view == "mine":
        filters["owner_id"] = g.actor.id
    account = None
    if args.get("account") and "account_id" in FILTERS[rt]:
        account = crm.find(g.db, g.actor, "account", args["account"])
        filters["account_id"] = account.id
    search: dict[str, Any] = {
        "query": args.get("q") or None,
        "filters": filters,
        "is_open": True if args.get("open") and rt in ("lead", "opportunity", "case") else None,
    }
    if rt == "opportunity":
        search |= {k: day_arg(k, args.get(k)) for k in ("close_after", "close_before")}
    return ListQuery(view, search, account)


def page_numbers(page_no: int, pages_total: int, around: int = 2) -> list[int | None]:
    """The page links of a list: the first, the last and those within `around` of the
    current page, None where pages are skipped (shown as an ellipsis)."""
    keep = {1, pages_total, *range(page_no - around, page_no + around + 1)}
    out: list[int | None] = []
    for n in sorted(k for k in keep if 1 <= k <= pages_total):
        if out and n - (out[-1] or 0) > 1:
            out.append(None)
        out.append(n)
    return out


def day_arg(name: str, value: str | None) -> dt.date | None:
    """The date a query argument names as YYYY-MM-DD (None when empty); Invalid otherwise."""
    if not value:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise Invalid(f"{name} must be a date as YYYY-MM-DD, not {value!r}") from None


def amount_total(rt: str, query: ListQuery, found: Any) -> int | None:
    """The summed amount of every opportunity a narrowed list matches, over all its pages
    (`found`: the page shown, a `crm.search` result); None for other lists."""
    if rt != "opportunity" or not query.narrowed or query.view == "recent":
        return None
    rows = list(found.items) if found.offset == 0 and len(found.items) >= found.total else []
    while len(rows) < found.total:
        more = crm.search(g.db, g.actor, rt, **query.search, sort="id", limit=200,
                          offset=len(rows)).items  # fmt: skip
        if not more:
            break
        rows.extend(more)
    return sum(r.amount or 0 for r in rows)


def render(template: str, **context: Any) -> str:
    """Render a CRM page with the helpers every template uses."""
    return render_template(template, kinds=KINDS, slug=SLUG, label=LABEL, plural=PLURAL,
                           record_url=record_url, cell=cell, views=VIEWS, **context)  # fmt: skip
