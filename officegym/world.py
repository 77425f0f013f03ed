"""Worlds: a seeded database image, built once per (scenario, seed) and cached,
and live databases restored from it.

Reset is `restore(engine, image.data)`: SQLite deserializes the snapshot in one
copy, so an environment can reset in well under a millisecond. On PostgreSQL the
image's rows are loaded table by table instead (slower, same content).

A world kept in a file or on PostgreSQL records which world it is (scenario,
seed and image digest, a `WorldIdentity`) in the table `og_world`, written when
the database is created from the image. The table is outside the models'
metadata, so diffs, the change log and resets never see it; in-memory worlds do
not have it, so their bytes stay the image's. Reopening a kept database as a
different world raises `Conflict`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import cached_property
from pathlib import Path

from sqlalchemy import (
    Column,
    Connection,
    DateTime,
    Engine,
    Integer,
    MetaData,
    String,
    Table,
    func,
    insert,
    inspect,
    select,
)
from sqlalchemy.exc import DatabaseError
from sqlalchemy.orm import Session

from officegym.clock import SimClock
from officegym.db import (
    all_tables,
    create_schema,
    engine_for,
    is_sqlite,
    restore,
    serialize,
    sha256_digest,
    writer,
)
from officegym.errors import Conflict, Invalid

__all__ = [
    "IDENTITY_TABLE",
    "BuildProgress",
    "Checkpoint",
    "World",
    "WorldIdentity",
    "WorldImage",
    "read_identity",
    "record_identity",
    "stored_identity",
    "world_image",
]

IDENTITY_TABLE = "og_world"

# Not on `Base.metadata`: no change-log trigger, no diff, no reset touches it.
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


@dataclass(frozen=True)
class Checkpoint:
    """A world's database and clock at one moment (`World.checkpoint`)."""

    data: bytes
    start: dt.datetime
    ticks: int


@dataclass(frozen=True)
class WorldImage:
    """A built world: the serialized SQLite database and its simulated date."""

    scenario: str
    seed: int
    data: bytes
    start: dt.datetime

    @cached_property
    def digest(self) -> str:
        return sha256_digest(self.data)

    @property
    def identity(self) -> WorldIdentity:
        return WorldIdentity(self.scenario, self.seed, self.digest)


# Told (step name, steps done, steps in all) as a world is built.
BuildProgress = Callable[[str, int, int], None]

_IMAGES: dict[tuple[str, int], WorldImage] = {}
_LOCK = threading.Lock()


def world_image(
    scenario: str = "default", seed: int = 0, *, progress: BuildProgress | None = None
) -> WorldImage:
    """The image of (scenario, seed): built on first use, then cached in memory and on
    disk (``$OFFICEGYM_CACHE``, default ``~/.cache/officegym``; ``OFFICEGYM_CACHE=off``
    disables the disk cache). The disk key covers the scenario file, the seed and the
    source of every model, service and generator, so a code change rebuilds.
    `progress(step, done, total)` is told each generator as a build runs (a command's
    progress bar); a cached image calls it never."""
    key = (scenario, seed)
    with _LOCK:
        if key not in _IMAGES:
            _IMAGES[key] = _load_or_build(scenario, seed, progress)
        return _IMAGES[key]


def _load_or_build(scenario: str, seed: int, progress: BuildProgress | None) -> WorldImage:
    from officegym.seed_data import build_image
    from officegym.seed_data.scenario import load_scenario, scenario_path

    root = os.environ.get("OFFICEGYM_CACHE", str(Path.home() / ".cache" / "officegym"))
    if root == "off":
        return build_image(scenario, seed, progress=progress)
    path = scenario_path(scenario)
    key = hashlib.sha256(path.read_bytes() + f"|{seed}|".encode() + _code_fingerprint())
    file = Path(root) / f"{path.stem}-{seed}-{key.hexdigest()[:20]}.sqlite"
    if file.exists():
        sc = load_scenario(scenario)
        return WorldImage(scenario=sc.name, seed=seed, data=file.read_bytes(), start=sc.date)
    image = build_image(scenario, seed, progress=progress)
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        tmp = file.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(image.data)
        os.replace(tmp, file)
    except OSError:
        pass  # a read-only home only costs a rebuild next time
    return image


def _code_fingerprint() -> bytes:
    import faker
    import sqlalchemy

    import officegym
    import officegym.apps
    import officegym.seed_data

    h = hashlib.sha256(f"{faker.VERSION}|{sqlalchemy.__version__}".encode())
    roots = [Path(officegym.__file__).parent, *map(Path, officegym.apps.__path__)]
    roots += [Path(p) for p in officegym.seed_data.__path__]
    for root in roots:
        for f in sorted(root.rglob("*.py")):
            h.update(f.read_bytes())
    return h.digest()


class World:
    """A live world database that can be reset to its image.

    `url` selects the backend: ``sqlite://`` (default, private in-memory),
    ``sqlite:///file.db`` (served worlds; the file is written from the image, or
    kept with its changes if it exists and not `fresh`), or a PostgreSQL URL
    (loaded from the image, or kept if not `fresh` and it already holds a world: the
    worker processes of one server open it so). A file or PostgreSQL world records the image's
    `WorldIdentity`; keeping a file that records another world raises `Conflict`.
    """

    def __init__(self, image: WorldImage, url: str = "sqlite://", *, fresh: bool = True) -> None:
        self.image = image
        self.url = url
        self.clock = SimClock(image.start)
        self._directory: dict[str, object] = {}  # org look-ups, filled on first use
        self.generation = 0  # bumped as reset and rewind replace the database: caches check it
        path = _file_path(url)
        kept = path is not None and not fresh and os.path.exists(path)
        if path is not None and not kept:
            _write_file(path, image.data)
        self.engine: Engine = engine_for(url)
        self._writer = writer(self.engine)  # sessions' transactions begin IMMEDIATE on a file
        if not fresh and path is None and not is_sqlite(self.engine):
            kept = read_identity(self.engine) is not None  # a server database that holds one
        if kept:  # a kept database may hold later changes: new ones must come after them
            self._check_kept()
            self.clock.reset(max(image.start, latest_time(self.engine) or image.start))
            return
        if path is None:
            self.reset()
        if path is not None or not is_sqlite(self.engine):  # in memory: the image's bytes
            record_identity(self.engine, image.identity)

    def _check_kept(self) -> None:
        """Refuse a kept database that records another world than the image's."""
        found = read_identity(self.engine)
        expected = self.image.identity
        if found is None or found == expected:
            return
        self.engine.dispose()
        where = _file_path(self.url) or self.engine.url.render_as_string(hide_password=True)
        if (found.scenario, found.seed) != (expected.scenario, expected.seed):
            raise Conflict(
                f"{where} holds the world of {found}, not {expected}", code="world_mismatch"
            )
        raise Conflict(
            f"{where} holds the world of {found} as another version of the seed data built it "
            f"(image {found.digest[:12]}, this version's {expected.digest[:12]}), so its changes "
            "would be judged against the wrong seeded state; rewrite it from the seeded world",
            code="world_mismatch",
        )

    def reset(self) -> None:
        """Restore the seeded state and rewind the simulated clock (in memory, in a served
        SQLite file, or on a database server)."""
        self.clock.reset(self.image.start)
        self.generation += 1  # before and after: a read during the restore is of neither
        if _file_path(self.url) is not None:
            _restore_file(self.engine, self.image.data)
            record_identity(self.engine, self.image.identity)
        elif is_sqlite(self.engine):
            restore(self.engine, self.image.data)
        else:
            _load_rows(self.engine, self.initial_engine)
        self.generation += 1

    def changed_rows(self) -> int:
        """How many rows differ from the seeded state (0: the world is fresh). A grade
        counts every one of them, so a world used for one task is no fresh start for the
        next (`officegym serve --fresh-per-task`, ``POST /reset``)."""
        from officegym.changes import diff

        with self.initial_connection() as before, self.engine.connect() as now:
            return len(diff(before, now))

    @property
    def can_checkpoint(self) -> bool:
        """Whether `checkpoint` works here (SQLite, whose database serializes to bytes)."""
        return is_sqlite(self.engine)

    def checkpoint(self) -> Checkpoint:
        """The current database and clock, to come back to with `rewind` (in-memory
        SQLite: validation replays many near-identical episodes from shared prefixes)."""
        if not self.can_checkpoint:
            raise TypeError("checkpoints need a SQLite world")
        return Checkpoint(serialize(self.engine), self.clock.start, self.clock.ticks)

    def rewind(self, point: Checkpoint) -> None:
        """Put the database and the clock back as they were at `point`."""
        self.generation += 1
        restore(self.engine, point.data)
        self.generation += 1
        self.clock.reset(point.start)
        self.clock.ticks = point.ticks

    def session(self) -> Session:
        """A new session on this world; it carries the world's clock (and the world, whose
        `generation` caches of its content check)."""
        return Session(
            self._writer,
            info={"clock": self.clock, "directory": self._directory, "world": self},
            expire_on_commit=False,
        )

    @cached_property
    def initial_engine(self) -> Engine:
        """A private in-memory copy of the seeded state, never written (for graders)."""
        engine = engine_for("sqlite://")
        restore(engine, self.image.data)
        with engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA query_only=ON")
        return engine

    def initial_connection(self) -> Connection:
        return self.initial_engine.connect()

    def close(self) -> None:
        self.engine.dispose()
        if "initial_engine" in self.__dict__:
            self.initial_engine.dispose()


def latest_time(engine: Engine) -> dt.datetime | None:
    """The latest timestamp stored in any table of the world, if any."""
    latest = None
    with engine.connect() as conn:
        for table in all_tables():
            for column in table.columns:
                if isinstance(column.type, DateTime):
                    value = conn.execute(select(func.max(column))).scalar()
                    if value is not None and (latest is None or value > latest):
                        latest = value
    return latest


def _file_path(url: str) -> str | None:
    """The file of a ``sqlite:///path`` URL (None for in-memory and server URLs)."""
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        return url.removeprefix("sqlite:///")
    return None


def _restore_file(engine: Engine, data: bytes) -> None:
    """Overwrite a SQLite file's database with `data` in one transaction (SQLite's backup
    API), so the engine's other connections see the seeded state on their next read."""
    source = sqlite3.connect(":memory:")
    try:
        source.deserialize(data)
        raw = engine.raw_connection()
        try:
            raw.rollback()
            source.backup(raw.driver_connection)
        finally:
            raw.close()
    finally:
        source.close()


def _write_file(path: str, data: bytes) -> None:
    with open(path, "wb") as fh:
        fh.write(data)


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

    path = _file_path(url)
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


def _load_rows(target: Engine, source: Engine) -> None:
    """Replace every table of `target` with the rows of `source` (non-SQLite backends)."""
    tables = all_tables()
    create_schema(target)
    with source.connect() as src, target.begin() as dst:
        for table in reversed(tables):
            dst.execute(table.delete())
        for table in tables:
            rows = [dict(r._mapping) for r in src.execute(select(table))]
            if rows:
                dst.execute(insert(table), rows)
        if target.dialect.name == "postgresql":  # new rows continue after the loaded ids
            for table in tables:
                dst.exec_driver_sql(
                    f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                    f"COALESCE((SELECT max(id) FROM {table.name}), 0) + 1, false)"
                )
