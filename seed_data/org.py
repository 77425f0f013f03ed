"""Seed the org directory: a leadership group and one head plus staff per team."""

from __future__ import annotations

import random
import unicodedata

from faker import Faker
from sqlalchemy.orm import Session

from officegym.apps.org import service as org
from officegym.apps.org.models import Person
from officegym.seed_data.context import SeedContext
from officegym.seed_data.scenario import Scenario

TIMEZONES = ["America/New_York", "America/Chicago", "America/Los_Angeles", "Europe/London"]
TITLES = {
    "Engineering": ["Software Engineer", "Senior Software Engineer", "Staff Engineer", "SRE"],
    "Sales": ["Account Executive", "Sales Development Rep", "Senior Account Executive"],
    "Customer Support": ["Support Engineer", "Support Specialist", "Customer Success Manager"],
    "Marketing": ["Marketing Manager", "Content Strategist", "Product Marketing Manager"],
    "Finance": ["Financial Analyst", "Accountant", "Revenue Operations Analyst"],
    "People Operations": ["Recruiter", "People Partner", "Office Manager"],
}
LEADERS = [("Chief Executive Officer", "ceo"), ("Chief Operating Officer", "coo")]


def slugify(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return "-".join(ascii_name.lower().split())


ORDER = 0


def seed(s: Session, ctx: SeedContext) -> None:
    """Create teams and people; every person except the CEO has a manager."""
    ctx.people = seed_org(s, ctx.scenario, ctx.fake, ctx.rng)


def seed_org(s: Session, sc: Scenario, fake: Faker, rng: random.Random) -> list[Person]:
    names = _unique_names(fake, sc.org.people)
    handles: set[str] = set()
    leadership = org.add_team(s, name="Leadership", slug="leadership")
    people: list[Person] = []

    def make(name: str, title: str, team, manager: Person | None) -> Person:
        first, last = name.split(" ", 1)
        handle = _handle(first, last, handles)
        person = org.add_person(
            s,
            handle=handle,
            name=name,
            email=f"{handle.replace('-', '.')}@{sc.email_domain}",
            title=title,
            team=team,
            manager=manager,
            timezone=rng.choice(TIMEZONES),
        )
        people.append(person)
        return person

    ceo = make(names.pop(), LEADERS[0][0], leadership, None)
    coo = make(names.pop(), LEADERS[1][0], leadership, ceo)
    teams = [org.add_team(s, name=t, slug=slugify(t)) for t in sc.org.teams]
    per_team = [len(names) // len(teams)] * len(teams)
    for i in range(len(names) % len(teams)):
        per_team[i] += 1
    for team, size in zip(teams, per_team, strict=True):
        titles = TITLES.get(team.name, [f"{team.name} Specialist"])
        head = make(names.pop(), f"Head of {team.name}", team, rng.choice([ceo, coo]))
        for _ in range(size - 1):
            make(names.pop(), rng.choice(titles), team, head)
    return people


def _unique_names(fake: Faker, n: int) -> list[str]:
    seen: list[str] = []
    while len(seen) < n:
        name = f"{fake.first_name()} {fake.last_name()}"
        if name not in seen:
            seen.append(name)
    seen.reverse()
    return seen


def _handle(first: str, last: str, taken: set[str]) -> str:
    base = slugify(f"{first[0]}{last}").replace("-", "")
    handle, n = base, 2
    while handle in taken:
        handle, n = f"{base}{n}", n + 1
    taken.add(handle)
    return handle
