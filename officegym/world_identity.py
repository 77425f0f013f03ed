"""Which world a kept database holds: a file or PostgreSQL world records its scenario,
seed and image digest (a `WorldIdentity`) in the table `og_world` when it is created
from the image, so that reopening it as another world is refused (`officegym.world`).

The table is outside the models' metadata: no change-log trigger, diff or reset sees it.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass

from sqlalchemy import Column, Engine, Integer, MetaData, String, Table, insert, inspect, select
from sqlalchemy.exc import DatabaseError

from officegym.db import engine_for
from officegym.errors import Invalid

__all__ = [
    "IDENTITY_TABLE",
    "WorldIdentity",
    "file_path",
    "read_identity",
    "record_identity",
    "stored_identity",
]

IDENTITY_TABLE = "og_world"

_identity = Table(
    IDENTITY_TABLE,
    MetaData(),
    Column("id", Integer, primary_key=True),
    Column("scenario", String(80), nullable=False),
    Column("seed", Integer, nullable=False),
    Column("digest", String(64), nullable=False),
)


@dataclass(frozen=True)
class WorldIdentity:
    """Which world a database holds: the scenario's name, the seed, the image's digest."""

    scenario: str
    seed: int
    digest: str

    def __str__(self) -> str:
        return f"scenario {self.scenario!r} seed {self.seed}"


def file_path(url: str) -> str | None:
    """The file of a ``sqlite:///path`` URL (None for in-memory and server URLs)."""
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        return url.removeprefix("sqlite:///")
    return None


def record_identity(engine: Engine, identity: WorldIdentity) -> None:
    """Write `identity` into the database of `engine` (replacing any earlier one)."""
    with engine.begin() as conn:
        _identity.create(conn, checkfirst=True)
        conn.execute(_identity.delete())
        conn.execute(insert(_identity), {"id": 1, **asdict(identity)})


def read_identity(engine: Engine) -> WorldIdentity | None:
    """The identity recorded in the database of `engine`, or None if it records none."""
    with engine.connect() as conn:
        if not inspect(conn).has_table(IDENTITY_TABLE):
            return None
        row = conn.execute(
            select(_identity.c.scenario, _identity.c.seed, _identity.c.digest)
        ).first()
    return WorldIdentity(*row) if row is not None else None


def stored_identity(url: str) -> WorldIdentity | None:
    """`read_identity` of the database at `url` (None for a missing SQLite file, which is
    not created); `Invalid` if the database holds no world at all."""
    from officegym.apps.org.models import Person  # every world has a directory

    path = file_path(url)
    if path is not None and not os.path.exists(path):
        return None
    engine = engine_for(url)
    where = path or engine.url.render_as_string(hide_password=True)
    try:
        found = read_identity(engine)
        if found is None and not inspect(engine).has_table(Person.__tablename__):
            raise Invalid(f"{where} holds no officegym world", code="not_a_world")
        return found
    except DatabaseError as exc:
        raise Invalid(f"{where} is not a world database ({exc.orig})", code="not_a_world") from None
    finally:
        engine.dispose()
