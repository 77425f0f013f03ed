"""Worlds: a seeded database image, built once per (scenario, seed) and cached,
and live databases restored from it.

Reset is `restore(engine, image.data)`: SQLite deserializes the snapshot in one
copy, so an environment can reset in well under a millisecond. On PostgreSQL the
image's rows are loaded table by table instead (slower, same content).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import threading
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from sqlalchemy import Connection, DateTime, Engine, func, insert, select
from sqlalchemy.orm import Session

from officegym.clock import SimClock
from officegym.db import Base, create_schema, engine_for, is_sqlite, restore, sha256_digest

__all__ = ["World", "WorldImage", "world_image"]


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


_IMAGES: dict[tuple[str, int], WorldImage] = {}
_LOCK = threading.Lock()


def world_image(scenario: str = "default", seed: int = 0) -> WorldImage:
    """The image of (scenario, seed): built on first use, then cached in memory and on
    disk (``$OFFICEGYM_CACHE``, default ``~/.cache/officegym``; ``OFFICEGYM_CACHE=off``
    disables the disk cache). The disk key covers the scenario file, the seed and the
    source of every model, service and generator, so a code change rebuilds."""
    key = (scenario, seed)
    with _LOCK:
        if key not in _IMAGES:
            _IMAGES[key] = _load_or_build(scenario, seed)
        return _IMAGES[key]


def _load_or_build(scenario: str, seed: int) -> WorldImage:
    from officegym.seed_data import build_image
    from officegym.seed_data.scenario import load_scenario, scenario_path

    root = os.environ.get("OFFICEGYM_CACHE", str(Path.home() / ".cache" / "officegym"))
    if root == "off":
        return build_image(scenario, seed)
    path = scenario_path(scenario)
    key = hashlib.sha256(path.read_bytes() + f"|{seed}|".encode() + _code_fingerprint())
    file = Path(root) / f"{path.stem}-{seed}-{key.hexdigest()[:20]}.sqlite"
    if file.exists():
        sc = load_scenario(scenario)
        return WorldImage(scenario=sc.name, seed=seed, data=file.read_bytes(), start=sc.date)
    image = build_image(scenario, seed)
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
    ``sqlite:///file.db`` (served worlds; the file is written from the image
    unless it exists), or a PostgreSQL URL.
    """

    def __init__(self, image: WorldImage, url: str = "sqlite://", *, fresh: bool = True) -> None:
        self.image = image
        self.url = url
        self.clock = SimClock(image.start)
        self._directory: dict[str, object] = {}  # org look-ups, filled on first use
        if url.startswith("sqlite:///") and url not in ("sqlite:///:memory:",):
            _write_file_if_missing(url.removeprefix("sqlite:///"), image.data, fresh)
        self.engine: Engine = engine_for(url)
        if not url.startswith("sqlite:///") or url == "sqlite:///:memory:":
            self.reset()
        else:  # a kept file may hold later changes: new ones must come after them
            self.clock.reset(max(image.start, latest_time(self.engine) or image.start))

    def reset(self) -> None:
        """Restore the seeded state and rewind the simulated clock."""
        self.clock.reset(self.image.start)
        if is_sqlite(self.engine):
            restore(self.engine, self.image.data)
        else:
            _load_rows(self.engine, self.initial_engine)

    def session(self) -> Session:
        """A new session on this world; it carries the world's clock."""
        return Session(
            self.engine,
            info={"clock": self.clock, "directory": self._directory},
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
        for table in Base.metadata.sorted_tables:
            for column in table.columns:
                if isinstance(column.type, DateTime):
                    value = conn.execute(select(func.max(column))).scalar()
                    if value is not None and (latest is None or value > latest):
                        latest = value
    return latest


def _write_file_if_missing(path: str, data: bytes, fresh: bool) -> None:
    import os

    if fresh or not os.path.exists(path):
        with open(path, "wb") as fh:
            fh.write(data)


def _load_rows(target: Engine, source: Engine) -> None:
    """Replace every table of `target` with the rows of `source` (non-SQLite backends)."""
    tables = Base.metadata.sorted_tables
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
