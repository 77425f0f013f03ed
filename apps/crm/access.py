"""Who may do what in the CRM, decided in one place.

Everyone with a CRM role reads every record. Reps edit the records they own;
managers edit records owned by anyone in their own team; admins edit everything.
A record can be given only to a CRM user whose records the actor could edit.
People without a role have no CRM access at all.
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from officegym.apps.crm.models import ROLES, Role, UserRole
from officegym.apps.org.models import Person
from officegym.apps.org.service import profile, profiles
from officegym.db import read
from officegym.errors import Conflict, Forbidden, Invalid, NotFound
from officegym.memo import recall, watch
from officegym.writes import unique_or

__all__ = [
    "can_edit",
    "edit_rule",
    "list_users",
    "require_assignable",
    "require_edit",
    "require_role",
    "role_of",
    "set_role",
]

_ROLE = select(UserRole).where(UserRole.person_id == bindparam("p"))
_ROLE_NAME = _ROLE.with_only_columns(UserRole.role)
_ANY_ADMIN = select(UserRole.id).where(UserRole.role == "admin").limit(1)
watch("crm.role", UserRole)  # every check asks; runners memoize the answer


def _row(s: Session, person: Person) -> UserRole | None:
    return s.scalars(_ROLE, {"p": person.id}).first()


def role_of(s: Session, person: Person) -> Role | None:
    """The person's CRM role, or None if they have no CRM access."""
    params = {"p": person.id}
    return recall(s, "crm.role", person.id, lambda: read(s, _ROLE_NAME, params).scalar())


def require_role(s: Session, actor: Person) -> Role:
    """The actor's role; Forbidden if they have none."""
    role = role_of(s, actor)
    if role is None:
        raise Forbidden(
            f"{actor.name} has no CRM access; a CRM admin must grant a role first",
            code="no_crm_access",
        )
    return role


def can_edit(s: Session, actor: Person, owner_id: int) -> bool:
    """Whether the actor may change a record owned by `owner_id`."""
    role = role_of(s, actor)
    if role == "admin":
        return True
    if role == "manager":
        return owner_id in profiles(s) and profile(s, owner_id).team == profile(s, actor.id).team
    return role == "rep" and owner_id == actor.id


def require_edit(s: Session, actor: Person, record: Any, what: str) -> None:
    """Forbidden unless the actor may change `record` (described as `what` in the message)."""
    require_role(s, actor)
    if can_edit(s, actor, record.owner_id):
        return
    owner = s.get_one(Person, record.owner_id)
    raise Forbidden(f"{what} is owned by {owner.name}; {edit_rule(s, actor)}", code="not_owner")


def edit_rule(s: Session, actor: Person) -> str:
    """Which records the actor may change, as a sentence (why others are read-only)."""
    role = require_role(s, actor)
    if role == "admin":
        return "admins edit every record"
    if role == "manager":
        return f"managers edit records owned by their team ({actor.team.name})"
    return "reps edit only the records they own"


def require_assignable(s: Session, actor: Person, owner: Person) -> None:
    """Forbidden unless `owner` holds a CRM role and the actor could edit their records."""
    if role_of(s, owner) is None:
        raise Invalid(f"{owner.name} has no CRM role and cannot own records", code="not_crm_user")
    role = require_role(s, actor)
    if can_edit(s, actor, owner.id):
        return
    if role == "manager":
        reason = f"managers assign records only within their team ({actor.team.name})"
    else:
        reason = "reps cannot give records to other people; ask your manager"
    raise Forbidden(f"you cannot assign records to {owner.name}: {reason}", code="not_owner")


def set_role(s: Session, actor: Person, *, person: Person, role: Role | None) -> UserRole | None:
    """Grant, change or (role=None) revoke a person's CRM role; admins only.

    While the CRM has no admin at all, anyone may grant the first admin role
    (bootstrapping an empty CRM)."""
    bootstrap = role == "admin" and s.scalars(_ANY_ADMIN).first() is None
    if not bootstrap and role_of(s, actor) != "admin":
        raise Forbidden("only a CRM admin can change roles", code="not_admin")
    if role is not None and role not in ROLES:
        raise Invalid(f"role must be one of {', '.join(ROLES)}, not {role!r}")
    row = _row(s, person)
    if role is None:
        if row is None:
            raise NotFound(f"{person.name} has no CRM role")
        s.delete(row)
        s.flush()
        return None
    if row is None:
        row = UserRole(person_id=person.id, role=role)
        s.add(row)
    else:
        row.role = role
    taken = Conflict(f"{person.name}'s role was set by someone else just now", code="conflict")
    with unique_or(taken):
        s.flush()
    return row


def list_users(s: Session, actor: Person) -> list[tuple[Person, Role]]:
    """Every CRM user and their role, by name."""
    require_role(s, actor)
    stmt = select(Person, UserRole.role).join(UserRole, UserRole.person_id == Person.id)
    return [(p, cast(Role, r)) for p, r in s.execute(stmt.order_by(Person.name))]
