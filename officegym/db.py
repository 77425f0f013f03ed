"""Database core: the declarative base every app shares, engines from URLs, and
SQLite snapshots.

All apps put their tables on one `Base.metadata`, so a person is one row used by
the chat, the CRM, the sheets and the bookings. Environments run on an in-memory
SQLite database restored from a serialized snapshot (reset = one memcpy);
`officegym serve` uses a SQLite file; a PostgreSQL URL selects the same models on
PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import importlib
import sqlite3
from collections.abc import Mapping
from typing import Annotated, Any, TypeVar

from sqlalchemy import (
    DateTime,
    Engine,
    Executable,
    MetaData,
    Result,
    Select,
    String,
    Table,
    bindparam,
    create_engine,
    event,
    inspect,
    select,
)
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.orm import DeclarativeBase, Session, mapped_column
from sqlalchemy.pool import StaticPool
from sqlalchemy.schema import CreateIndex, CreateTable

from officegym.errors import Busy, Invalid

__all__ = [
    "CLOCK",
    "DERIVED",
    "ID_MAX",
    "Base",
    "all_tables",
    "create_schema",
    "cursor",
    "engine_for",
    "get",
    "id_param",
    "intpk",
    "is_sqlite",
    "mark",
    "read",
    "restore",
    "serialize",
    "sha256_digest",
    "timestamp",
    "writer",
]

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

intpk = Annotated[int, mapped_column(primary_key=True)]
# The largest key every supported database stores in an ``Integer`` column (PostgreSQL's
# int4; SQLite's is 64 bits): the one ceiling for ids bound as parameters, so no sentinel
# or client's number beyond it ever reaches PostgreSQL (which refuses it: a DataError).
ID_MAX = 2**31 - 1
timestamp = Annotated[dt.datetime, mapped_column(DateTime())]
# Marks for final-state grading (officegym.tasks.freedom): a column two correct runs may
# fill differently (a stamp of the simulated clock), a table that is a log derived from
# other rows. Shared by many columns and tables: never mutate them.
CLOCK: dict[str, str] = {"free": "a stamp of the simulated clock"}
DERIVED: dict[str, Any] = {"info": {"free": "a log derived from other rows"}}
str80 = Annotated[str, mapped_column(String(80))]
str200 = Annotated[str, mapped_column(String(200))]


class Base(DeclarativeBase):
    """Declarative base of every officegym table (tables are named ``<app>_<thing>``)."""

    metadata = MetaData(naming_convention=NAMING)

    def to_dict(self) -> dict[str, Any]:
        """Column values by column name (used by graders and diffs)."""
        return {c.key: getattr(self, c.key) for c in self.__table__.columns}


M = TypeVar("M", bound=Base)


def get(s: Session, model: type[M], ident: int) -> M | None:
    """`Session.get` for integer primary keys, with a cheaper miss: the identity map
    first, then a statement built once per model (a third of `Session.get`'s cost)."""
    found = s.identity_map.get((model, (ident,), None))
    if found is not None:
        return found  # type: ignore[return-value]
    if not -ID_MAX - 1 <= ident <= ID_MAX:  # no row has it; PostgreSQL cannot bind it
        return None
    return s.scalars(_by_pk(model), {"pk": ident}).first()


def id_param(value: int) -> int:
    """`value` as an id bound in a range comparison (``id <= :x``, ``id >= :x``), held
    within what the database binds: beyond every key it is `ID_MAX`, below them -1.
    Every key lies on the same side of the clamped value as of `value`."""
    return max(-1, min(value, ID_MAX))


def cursor(s: Session) -> Any:
    """A DB-API cursor in the session's transaction, pending changes flushed first: for
    bulk reads and writes that skip SQLAlchemy's per-row work (a workbook's cells)."""
    s.flush()
    return s.connection().connection.driver_connection.cursor()  # type: ignore[union-attr]


def mark(s: Session) -> str:
    """The DB-API parameter marker of the session's database."""
    return "?" if s.get_bind().dialect.paramstyle == "qmark" else "%s"


def read(s: Session, stmt: Executable, params: Mapping[str, Any] | None = None) -> Result[Any]:
    """Run a Core statement that selects columns (not ORM objects) in the session's
    transaction, pending changes flushed first: a third of `Session.execute`'s cost."""
    s.flush()
    return s.connection().execute(stmt, params or {})


@functools.cache
def _by_pk(model: type[Base]) -> Select[Any]:
    (pk,) = inspect(model).primary_key
    return select(model).where(pk == bindparam("pk"))


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def engine_for(url: str = "sqlite://") -> Engine:
    """An engine for a database URL.

    ``sqlite://`` is one private in-memory database shared by every thread of
    this engine (StaticPool, so worker threads such as MCP's see the same data);
    ``sqlite:///path`` is a file; anything else (``postgresql+psycopg://...``) is
    passed to SQLAlchemy unchanged.
    """
    if url in ("sqlite://", "sqlite:///:memory:"):
        engine = create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
    elif url.startswith("sqlite"):
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT}
        )
        _begin_immediate(engine)
        event.listen(engine, "handle_error", _lock_wait_ran_out)
    else:
        engine = create_engine(url, pool_pre_ping=True)
        event.listen(engine, "handle_error", _unstorable_text)
        return engine
    event.listen(engine, "connect", _sqlite_pragmas)
    event.listen(engine, "handle_error", _unstorable_text)
    return engine


BUSY_TIMEOUT = 15.0  # seconds a served SQLite writer waits for the write lock


def _begin_immediate(engine: Engine) -> None:
    """Make every ORM session's transaction on a SQLite file take the write lock when it
    begins (``BEGIN IMMEDIATE``, waiting up to `BUSY_TIMEOUT`), SQLAlchemy's documented
    pysqlite recipe: concurrent writers then queue, and a transaction's reads are never
    stale by the time it writes. pysqlite's own deferred BEGIN lets two transactions read,
    then fail ("database is locked") or write on stale reads. Core connections (graders,
    world identity: readers) begin deferred, so they never wait for a writer's lock,
    even when the writer is a session open in the same thread (a request being graded).
    Sessions open at once in one thread therefore deadlock until the timeout: use one."""

    @event.listens_for(engine, "connect")
    def _no_driver_begin(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # SQLAlchemy emits BEGIN itself, below

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        immediate = conn.get_execution_options().get(WRITER, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _lock_wait_ran_out(ctx: ExceptionContext) -> None:
    """Raise `Busy` (HTTP 503, retry later) instead of the driver's "database is locked"
    once a SQLite writer has waited `BUSY_TIMEOUT` for the lock: an expected outcome
    under load that every door answers in its own shape, not a bug (500)."""
    exc = ctx.original_exception
    if isinstance(exc, sqlite3.OperationalError) and str(exc).startswith(_LOCKED):
        raise Busy(
            "the database is busy with other writers and nothing was changed: "
            f"retry in {Busy.retry_after} s"
        ) from exc


def _unstorable_text(ctx: ExceptionContext) -> None:
    """Raise `Invalid` for text the driver cannot encode (a lone UTF-16 surrogate, which
    no UTF-8 column stores): whatever door let it through, it is bad input, not a bug."""
    exc = ctx.original_exception
    if isinstance(exc, UnicodeEncodeError):
        raise Invalid("the text holds a character no database stores (a lone surrogate)") from exc


_LOCKED = ("database is locked", "database is busy", "database table is locked")
WRITER = "officegym_writer"  # execution option of the connections sessions write through


def writer(engine: Engine) -> Engine:
    """The engine sessions use: on a SQLite file their transactions begin IMMEDIATE (an
    in-memory world, one shared connection, and PostgreSQL are used as they are)."""
    if is_sqlite(engine) and not isinstance(engine.pool, StaticPool):
        return engine.execution_options(**{WRITER: True})
    return engine


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


APPS_WITH_MODELS = ("org", "slack", "crm", "sheets", "booking")  # officegym.apps.<app>.models


@functools.cache
def all_tables() -> tuple[Table, ...]:
    """Every table of every app, in foreign-key order. Each app's models are imported
    first: a schema, load, diff or match over only the models some import happened to
    load would skip the other apps' tables without a word."""
    for app in APPS_WITH_MODELS:
        importlib.import_module(f"officegym.apps.{app}.models")
    return tuple(Base.metadata.sorted_tables)


def create_schema(engine: Engine) -> None:
    """Create every table, then its indexes in name order.

    `MetaData.create_all` emits a table's indexes in set order, which varies with
    PYTHONHASHSEED and would make database bytes differ between processes.
    """
    with engine.begin() as conn:
        for table in all_tables():
            conn.execute(CreateTable(table, if_not_exists=True))
            for index in sorted(table.indexes, key=lambda i: str(i.name)):
                conn.execute(CreateIndex(index, if_not_exists=True))


def serialize(engine: Engine) -> bytes:
    """The whole SQLite database as bytes (the format of a database file)."""
    raw = engine.raw_connection()
    try:
        raw.rollback()
        return raw.driver_connection.serialize()
    finally:
        raw.close()


def restore(engine: Engine, data: bytes) -> None:
    """Replace the engine's in-memory SQLite database with `data` (from `serialize`)."""
    raw = engine.raw_connection()
    try:
        raw.rollback()
        raw.driver_connection.deserialize(data)
    finally:
        raw.close()


def sha256_digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
