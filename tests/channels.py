"""Who is in which channel of a world: test helpers for access rules (tools, MCP, API)."""

from __future__ import annotations

from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.apps.slack.models import Channel, Membership
from officegym.world import World


def members_of(world: World, channel: str) -> list[str]:
    """The handles of the members of `channel`, by person id."""
    with world.session() as s:
        stmt = (
            select(Person.handle)
            .join(Membership, Membership.person_id == Person.id)
            .join(Channel, Channel.id == Membership.channel_id)
            .where(Channel.name == channel)
            .order_by(Person.id)
        )
        return list(s.scalars(stmt))


def member_of(world: World, channel: str) -> str:
    """The handle of the first member (by id) of `channel`."""
    return members_of(world, channel)[0]


def channel_outside(world: World, handle: str, kind: str) -> str:
    """A channel of `kind` ('public' or 'private') that `handle` is not a member of."""
    with world.session() as s:
        me = s.scalars(select(Person).where(Person.handle == handle)).one()
        mine = select(Membership.channel_id).where(Membership.person_id == me.id)
        stmt = select(Channel.name).where(
            Channel.kind == kind, Channel.is_archived.is_(False), Channel.id.not_in(mine)
        )
        return s.scalars(stmt.order_by(Channel.name)).first()


def outsider_of(world: World, channel: str) -> str:
    """The handle of someone who is not in `channel` (the first by id)."""
    with world.session() as s:
        ch = s.scalars(select(Channel).where(Channel.name == channel)).one()
        inside = set(s.scalars(select(Membership.person_id).where(Membership.channel_id == ch.id)))
        return next(
            p.handle for p in s.scalars(select(Person).order_by(Person.id)) if p.id not in inside
        )
