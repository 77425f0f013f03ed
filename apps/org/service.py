"""Directory look-ups. Everyone in the company may read the directory."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, bindparam, or_, select
from sqlalchemy.orm import Session, aliased

from officegym.apps.org.models import Person, Team
from officegym.db import get, read
from officegym.errors import NotFound

__all__ = [
    "Profile",
    "add_person",
    "add_team",
    "find_person",
    "find_person_id",
    "get_person",
    "list_people",
    "list_teams",
    "people_ids",
    "person_ids",
    "profile",
    "profiles",
]


@dataclass(frozen=True)
class Profile:
    """A person's directory card as plain values (people and teams never change once
    seeded, so cards are read once per world and shared by its sessions)."""

    id: int
    handle: str
    name: str
    email: str
    title: str
    team: str
    team_slug: str
    manager: str | None  # the manager's handle
    timezone: str


def get_person(s: Session, person_id: int) -> Person:
    person = get(s, Person, person_id)
    if person is None:
        raise NotFound(f"no person with id {person_id}", code="user_not_found")
    return person


def find_person(s: Session, ref: str) -> Person:
    """A person by handle (with or without '@'), email, or exact full name."""
    person_id = find_person_id(s, ref)
    person = get(s, Person, person_id)
    if person is None:  # the directory lists only existing people
        raise NotFound(f"no person with id {person_id}", code="user_not_found")
    return person


def find_person_id(s: Session, ref: str) -> int:
    """The id of `find_person` (no object loaded)."""
    key = ref.strip().lstrip("@")
    handles, emails, names = _directory(s)
    person_id = handles.get(key) or emails.get(key.lower()) or names.get(key)
    if person_id is None:
        raise NotFound(f"no person with handle, email or name {ref!r}", code="user_not_found")
    return person_id


def profile(s: Session, person_id: int) -> Profile:
    """The directory card of a person."""
    found = profiles(s).get(person_id)
    if found is None:
        raise NotFound(f"no person with id {person_id}", code="user_not_found")
    return found


def profiles(s: Session) -> dict[int, Profile]:
    """Every directory card by person id, read once per world."""
    cache = s.info.setdefault("directory", {})
    if "profiles" not in cache:
        boss = aliased(Person)
        p = Person
        stmt = (
            select(p.id, p.handle, p.name, p.email, p.title, Team.name, Team.slug, boss.handle)
            .add_columns(p.timezone)
            .join(Team, Team.id == p.team_id)
            .outerjoin(boss, boss.id == p.manager_id)
            .order_by(p.id)
        )
        cache["profiles"] = {row[0]: Profile(*row) for row in read(s, stmt)}
    return cache["profiles"]


def person_ids(s: Session, handles: Iterable[str]) -> list[int]:
    """Ids of the people with these handles (unknown handles are skipped)."""
    by_handle = _directory(s)[0]
    return [by_handle[h] for h in handles if h in by_handle]


_DIRECTORY = select(Person.id, Person.handle, Person.email, Person.name).order_by(Person.id)


def _directory(s: Session) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """Handle, email and name -> person id, read once per world and shared by its sessions
    through `session.info` (people are created only by seeding, which clears it)."""
    cache = s.info.setdefault("directory", {})
    if "maps" not in cache:
        handles: dict[str, int] = {}
        emails: dict[str, int] = {}
        names: dict[str, int] = {}
        for pid, handle, email, name in read(s, _DIRECTORY):
            handles.setdefault(handle, pid)
            emails.setdefault(email.lower(), pid)
            names.setdefault(name, pid)
        cache["maps"] = (handles, emails, names)
    return cache["maps"]


def list_people(
    s: Session, *, query: str | None = None, team: str | None = None, limit: int = 50
) -> list[Person]:
    """People matching a substring of name, handle, title or email, optionally in one
    team, by name."""
    stmt = _people(Person, bool(query), bool(team))
    return list(s.scalars(stmt, _people_params(query, team, limit)))


def people_ids(
    s: Session, *, query: str | None = None, team: str | None = None, limit: int = 50
) -> list[int]:
    """The ids of `list_people` (cheaper: no objects; see `profile`)."""
    stmt = _people(Person.id, bool(query), bool(team))
    return list(read(s, stmt, _people_params(query, team, limit)).scalars())


def _people_params(query: str | None, team: str | None, limit: int) -> dict[str, Any]:
    like = f"%{(query or '').strip().lstrip('@')}%"
    return {"like": like, "team": team, "n": limit}


@functools.cache
def _people(what: Any, query: bool, team: bool) -> Select[Any]:
    """The statement of one `list_people` variant, built once."""
    stmt = select(what).order_by(Person.name, Person.id).limit(bindparam("n"))
    if query:
        like = bindparam("like")
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
            or_(Team.slug == bindparam("team"), Team.name == bindparam("team"))
        )
    return stmt


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
