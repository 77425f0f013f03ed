"""Directory look-ups. Everyone in the company may read the directory."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person, Team
from officegym.db import get
from officegym.errors import NotFound

__all__ = [
    "add_person",
    "add_team",
    "find_person",
    "get_person",
    "list_people",
    "list_teams",
    "person_ids",
]


def get_person(s: Session, person_id: int) -> Person:
    person = get(s, Person, person_id)
    if person is None:
        raise NotFound(f"no person with id {person_id}", code="user_not_found")
    return person


def find_person(s: Session, ref: str) -> Person:
    """A person by handle (with or without '@'), email, or exact full name."""
    key = ref.strip().lstrip("@")
    handles, emails, names = _directory(s)
    person_id = handles.get(key) or emails.get(key.lower()) or names.get(key)
    if person_id is None:
        raise NotFound(f"no person with handle, email or name {ref!r}", code="user_not_found")
    person = get(s, Person, person_id)
    if person is None:  # the directory lists only existing people
        raise NotFound(f"no person with id {person_id}", code="user_not_found")
    return person


def person_ids(s: Session, handles: Iterable[str]) -> list[int]:
    """Ids of the people with these handles (unknown handles are skipped)."""
    by_handle = _directory(s)[0]
    return [by_handle[h] for h in handles if h in by_handle]


_DIRECTORY = select(Person.id, Person.handle, Person.email, Person.name).order_by(Person.id)


def _directory(s: Session) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """Handle, email and name -> person id, read once per world and shared by its sessions
    through `session.info` (people are created only by seeding, which clears it)."""
    cache = s.info.setdefault("directory", {})
    if not cache:
        handles: dict[str, int] = {}
        emails: dict[str, int] = {}
        names: dict[str, int] = {}
        for pid, handle, email, name in s.execute(_DIRECTORY):
            handles.setdefault(handle, pid)
            emails.setdefault(email.lower(), pid)
            names.setdefault(name, pid)
        cache["maps"] = (handles, emails, names)
    return cache["maps"]


def list_people(
    s: Session, *, query: str | None = None, team: str | None = None, limit: int = 50
) -> list[Person]:
    """People matching a substring of name, handle, title or email, optionally in one team."""
    stmt = select(Person).order_by(Person.name).limit(limit)
    if query:
        like = f"%{query.strip().lstrip('@')}%"
        stmt = stmt.where(
            or_(
                Person.name.ilike(like),
                Person.handle.ilike(like),
                Person.title.ilike(like),
                Person.email.ilike(like),
            )
        )
    if team:
        stmt = stmt.join(Team, Person.team_id == Team.id).where(
            or_(Team.slug == team, Team.name == team)
        )
    return list(s.scalars(stmt))


def list_teams(s: Session) -> list[Team]:
    return list(s.scalars(select(Team).order_by(Team.name)))


def add_team(s: Session, *, name: str, slug: str) -> Team:
    """Create a team (directory administration; used by seeders)."""
    team = Team(name=name, slug=slug)
    s.add(team)
    s.flush()
    return team


def add_person(
    s: Session,
    *,
    handle: str,
    name: str,
    email: str,
    title: str,
    team: Team,
    manager: Person | None,
    timezone: str,
) -> Person:
    """Create a person in the directory (directory administration; used by seeders)."""
    person = Person(
        handle=handle,
        name=name,
        email=email,
        title=title,
        team_id=team.id,
        manager_id=manager.id if manager else None,
        timezone=timezone,
    )
    s.add(person)
    s.flush()
    s.info.get("directory", {}).clear()
    return person
