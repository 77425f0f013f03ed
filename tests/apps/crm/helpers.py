"""Who is who in the seeded CRM, found from roles and teams (no hard-coded ids)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask.testing import FlaskClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.crm import service as crm
from officegym.apps.crm.models import Opportunity
from officegym.apps.org.models import Person
from officegym.tools import ToolContext, call_tool, load_tools
from tests.apps.pages import html_of


@dataclass(frozen=True)
class Cast:
    rep: Person  # a sales rep
    rep2: Person  # another sales rep
    manager: Person  # head of sales
    support_manager: Person  # head of customer support
    support_rep: Person
    admin: Person
    outsider: Person  # no CRM role


def cast(s: Session) -> Cast:
    """The people of the default world by CRM role and team."""
    admin = s.scalars(select(Person).where(Person.title == "Chief Operating Officer")).one()
    users = crm.list_users(s, admin)
    by_team: dict[str, dict[str, list[Person]]] = {}
    for person, role in users:
        by_team.setdefault(person.team.slug, {}).setdefault(role, []).append(person)
    sales, support = by_team["sales"], by_team["customer-support"]
    with_role = {p.id for p, _ in users}
    outsider = next(
        p for p in s.scalars(select(Person).order_by(Person.id)) if p.id not in with_role
    )
    reps = sorted(sales["rep"], key=lambda p: p.id)
    return Cast(reps[0], reps[1], sales["manager"][0], support["manager"][0],
                sorted(support["rep"], key=lambda p: p.id)[0], admin, outsider)  # fmt: skip


def open_opportunity_of(s: Session, person: Person) -> Opportunity:
    """An open opportunity owned by `person` (lowest id)."""
    return crm.search(
        s, person, "opportunity", filters={"owner_id": person.id}, is_open=True, sort="id"
    ).items[0]


def call(s: Session, actor: Person, tool_name: str, /, **arguments: Any) -> Any:
    """Call a tool as `actor` (errors propagate as the project's exceptions)."""
    load_tools()
    return call_tool(ToolContext(s, actor.id), tool_name, arguments)


def sign_in(client: FlaskClient, person: Person) -> None:
    """Sign the test client in as `person` (the login page redirects)."""
    assert client.get(f"/login/{person.handle}").status_code == 302


def record_page(client: FlaskClient, viewer: Person, opp: Opportunity) -> str:
    """`opp`'s record page as `viewer` sees it (signs the client in as `viewer`)."""
    sign_in(client, viewer)
    return html_of(client, f"/crm/opportunities/{opp.id}")
