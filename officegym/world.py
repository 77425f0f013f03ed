"""Worlds: a seeded database image, built once per (scenario, seed) and cached,
and live databases restored from it.

Reset is `restore(engine, image.data)`: SQLite deserializes the snapshot in one
copy, so an environment can reset in well under a millisecond. On PostgreSQL the
image's rows are loaded table by table instead (slower, same content).

A world kept in a file or on PostgreSQL records which world it is (a `WorldIdentity`,
`officegym.world_identity`); in-memory worlds do not, so their bytes stay the image's.
Reopening a kept database as a different world raises `Conflict`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from sqlalchemy import Connection, DateTime, Engine, func, insert, select
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
from officegym.errors import Conflict
from officegym.world_identity import WorldIdentity, file_path, read_identity, record_identity

__all__ = [
    "BuildProgress",
    "Checkpoint",
    "World",
    "WorldImage",
    "cache_root",
    "latest_time",
    "seeded_engine",
    "world_image",
]


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

    root = cache_root()
    if root is None:
        return build_image(scenario, seed, progress=progress)
    path = scenario_path(scenario)
    key = hashlib.sha256(path.read_bytes() + f"|{seed}|".encode() + _code_fingerprint())
    file = root / f"{path.stem}-{seed}-{key.hexdigest()[:20]}.sqlite"
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


def cache_root() -> Path | None:
    """Where built worlds (and instance stores, `officegym.tasks.instances`) are kept:
    ``$OFFICEGYM_CACHE``, default ``~/.cache/officegym``; None when it is ``off``."""
    root = os.environ.get("OFFICEGYM_CACHE", str(Path.home() / ".cache" / "officegym"))
    return None if root == "off" else Path(root)


def _code_fingerprint() -> bytes:
    import faker
    import sqlalchemy

    import officegym
    import officegym.apps
    import officegym.seed_data

    h = hashlib.sha256(f"{faker.VERSION}|{sqlalchemy.__version__}".encode())
    roots = [Path(officegym.__file__).parent, *map(Path, officegym.apps.__path__)]
    roots += [Path(p) for p in officegym.seed_data.__path__]
    for root in roots:  # code, and the data files generators read (conversations/*.toml)
        for f in sorted((*root.rglob("*.py"), *root.rglob("*.toml"))):
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
        path = file_path(url)
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
        where = file_path(self.url) or self.engine.url.render_as_string(hide_password=True)
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
        if file_path(self.url) is not None:
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

    @property
    def initial_engine(self) -> Engine:
        """The seeded state, never written (for graders): the process's one copy of the
        image (`seeded_engine`), shared by every world of it."""
        return seeded_engine(self.image)

    def initial_connection(self) -> Connection:
        return self.initial_engine.connect()

    def close(self) -> None:
        """Close the live database (the seeded copy stays, for the process's other worlds)."""
        self.engine.dispose()


_SEEDED: dict[int, tuple[WorldImage, Engine]] = {}


def seeded_engine(image: WorldImage) -> Engine:
    """A read-only in-memory copy of `image`, one per process: every world of the image
    grades against it and templates read it, so a further env holds only its live copy."""
    with _LOCK:
        held = _SEEDED.get(id(image))
        if held is None or held[0] is not image:  # the image is kept, so its id stays its own
            engine = engine_for("sqlite://")
            restore(engine, image.data)
            with engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA query_only=ON")
            held = _SEEDED[id(image)] = (image, engine)
        return held[1]


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
