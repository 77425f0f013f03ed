"""Fixtures of the MCP tests: worlds and people in and out of channels."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.apps.slack.models import Channel, Membership
from officegym.world import World, world_image


@pytest.fixture
def file_world(tmp_path: Path) -> Iterator[World]:
    """The default world in a SQLite file of its own, as `officegym serve` keeps it."""
    w = World(world_image("default", 0), url=f"sqlite:///{tmp_path / 'world.sqlite'}")
    yield w
    w.close()


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


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run on asyncio (the backend uvicorn and the SDK's clients use here)."""
    return "asyncio"
