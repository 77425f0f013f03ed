"""The CRM's users (`Crew`: its admin, sales and support teams, granted their roles by
`crew`) and what its seeder made (`Made`), shared by the CRM's seeders."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from officegym.apps.crm import service as crm
from officegym.apps.crm.models import Account, Case, Contact, Lead, Opportunity
from officegym.apps.org.models import Person
from officegym.errors import ConfigError
from officegym.seed_data.context import SeedContext


@dataclass
class Crew:
    """The CRM users: the admin, and the sales and support teams (head first)."""

    admin: Person
    sales: list[Person]
    support: list[Person]


@dataclass
class Made:
    """What the seeder created, for later steps (and later generators via ctx.made)."""

    accounts: list[Account] = field(default_factory=list)
    contacts: dict[int, list[Contact]] = field(default_factory=dict)
    opportunities: list[Opportunity] = field(default_factory=list)
    leads: list[Lead] = field(default_factory=list)
    cases: list[Case] = field(default_factory=list)


def crew(s: Session, ctx: SeedContext) -> Crew:
    """Grant roles: the admin by title, heads of the two teams manage, the rest are reps."""
    p = ctx.scenario.crm
    admin = next((x for x in ctx.people if x.title == p.admin_title), None)
    if admin is None:
        raise ConfigError(
            ctx.scenario.name, "crm.admin_title", f"nobody has title {p.admin_title!r}"
        )
    crm.set_role(s, admin, person=admin, role="admin")
    teams = []
    for key, name in (("crm.sales_team", p.sales_team), ("crm.support_team", p.support_team)):
        members = sorted(
            (x for x in ctx.people if x.team.name == name),
            key=lambda x: (not x.title.startswith("Head of"), x.id),
        )
        if not members:
            raise ConfigError(ctx.scenario.name, key, f"no team named {name!r} with people")
        for person in members:
            role = "manager" if person.title.startswith("Head of") else "rep"
            crm.set_role(s, admin, person=person, role=role)
        teams.append(members)
    return Crew(admin, teams[0], teams[1])
