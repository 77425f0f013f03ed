"""Single-row writes that skip the ORM's unit of work: one INSERT, UPDATE or DELETE
through the session's connection, with the session kept exact (identity map and
look-up memos).

Flushing one row through the unit of work costs ~200 µs; these cost a quarter of
that, and a tool call mostly writes a row or two. Services use them for rows they
write and need at once; the ORM (`session.add`, attribute changes) still works
beside them, since pending ORM changes are flushed first.

On rollback (a savepoint's too) the database forgets the writes, and so does the
session: objects these functions inserted are expunged and, after updates, every
object is expired (a savepoint's rollback alone would not expire them).

Races: two sessions may both check that a row is absent and then both insert it.
`insert_new` inserts with ``ON CONFLICT DO NOTHING`` (SQLite and PostgreSQL) and
returns None when a unique constraint already holds the row, so the service answers
with its domain error (or the row that won) instead of an IntegrityError, and the
transaction stays usable on both databases; `unique_or` turns a unique violation of
an ORM flush into a domain error.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlalchemy import Delete, Insert, Table, Update, bindparam, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value

from officegym import memo
from officegym.db import Base
from officegym.errors import OfficeGymError

__all__ = [
    "delete_row",
    "insert_new",
    "insert_row",
    "is_unique_violation",
    "unique_or",
    "update_by_id",
    "update_if",
    "update_row",
]

M = TypeVar("M", bound=Base)
_INSERTED = "og_inserted"  # session.info key: objects inserted in the open transaction
_UPDATED = "og_updated"  # session.info key: set once an update wrote committed values


def insert_row(s: Session, model: type[M], **values: Any) -> M:
    """INSERT one row and return it as a persistent object of `s` (defaults applied)."""
    table = _table(model)
    row = {**_defaults(table), **values}
    s.flush()  # pending ORM changes first, in order (a no-op when there are none)
    result = s.connection().execute(_insert(table), row)
    obj = model(**row, id=result.inserted_primary_key[0])
    make_transient_to_detached(obj)  # every column is known: no reload on access
    s.add(obj)
    s.info.setdefault(_INSERTED, []).append(obj)
    memo.changed(s, model)
    return obj


def insert_new(s: Session, model: type[M], **values: Any) -> M | None:
    """`insert_row`, unless a unique constraint already holds such a row (a concurrent
    session may have just inserted it): then nothing is written and None is returned."""
    table = _table(model)
    row = {**_defaults(table), **values}
    s.flush()
    conn = s.connection()
    stmt = _insert_new(table, conn.dialect.name)
    if stmt is None:  # another database: a plain insert, its violation turned into None
        try:
            with s.begin_nested():
                return insert_row(s, model, **values)
        except IntegrityError as exc:
            if not is_unique_violation(exc):
                raise
            return None
    new_id = conn.execute(stmt, row).scalar()
    memo.changed(s, model)
    if new_id is None:
        return None
    obj = model(**row, id=new_id)
    make_transient_to_detached(obj)
    s.add(obj)
    s.info.setdefault(_INSERTED, []).append(obj)
    return obj


def is_unique_violation(exc: IntegrityError) -> bool:
    """Whether a database error is a unique (or primary key) constraint violation."""
    code = getattr(exc.orig, "sqlstate", None)  # psycopg
    if code is not None:
        return code == "23505"
    return "UNIQUE constraint failed" in str(exc.orig)


@contextmanager
def unique_or(error: OfficeGymError) -> Iterator[None]:
    """Raise `error` instead of a unique violation from the block (an ORM flush). The
    session must then be rolled back, as after any failed operation."""
    try:
        yield
    except IntegrityError as exc:
        if not is_unique_violation(exc):
            raise
        raise error from None


def update_row(s: Session, obj: Base, **values: Any) -> None:
    """UPDATE columns of one persistent object, in the database and on the object."""
    update_by_id(s, type(obj), obj.id, **values)


def update_by_id(s: Session, model: type[Base], row_id: int, **values: Any) -> None:
    """UPDATE columns of the row `row_id`, and of its object if the session holds it."""
    s.flush()
    stmt = _update(_table(model), tuple(sorted(values)))
    s.connection().execute(stmt, {"_id": row_id, **{f"v_{k}": v for k, v in values.items()}})
    obj = s.identity_map.get((model, (row_id,), None))
    if obj is not None:
        for key, value in values.items():
            set_committed_value(obj, key, value)
        s.info[_UPDATED] = True
    memo.changed(s, model)


def update_if(s: Session, obj: Base, expected: dict[str, Any], **values: Any) -> bool:
    """UPDATE one object's row only while its columns still hold `expected` (a compare and
    set: a concurrent session that changed them first makes this a no-op). Returns whether
    the row was written; the object follows the database either way."""
    s.flush()
    table = _table(type(obj))
    where = [table.c.id == obj.id, *(table.c[k] == v for k, v in expected.items())]
    done = s.connection().execute(table.update().where(*where).values(values)).rowcount == 1
    if done:
        for key, value in values.items():
            set_committed_value(obj, key, value)
        s.info[_UPDATED] = True
        memo.changed(s, type(obj))
    else:
        s.refresh(obj)
    return done


def delete_row(s: Session, obj: Base) -> None:
    """DELETE one persistent object's row and forget the object."""
    s.flush()
    s.connection().execute(_delete(_table(type(obj))), {"_id": obj.id})
    s.expunge(obj)
    memo.changed(s, type(obj))


def _table(model: type[Base]) -> Table:
    return model.__table__  # type: ignore[return-value]


@functools.cache
def _defaults(table: Table) -> dict[str, Any]:
    """Column values an INSERT gets when not given: scalar defaults, else NULL. Columns
    with computed or server defaults are left to the database (and load on access)."""
    out: dict[str, Any] = {}
    for column in table.columns:
        default = column.default
        if column.primary_key or column.server_default is not None:
            continue
        if default is None:
            out[column.key] = None
        elif default.is_scalar:
            out[column.key] = default.arg
    return out


@functools.cache
def _insert(table: Table) -> Insert:
    return table.insert()


@functools.cache
def _insert_new(table: Table, dialect: str) -> Insert | None:
    """INSERT ... ON CONFLICT DO NOTHING RETURNING id, where the database has it."""
    module = {"sqlite": sqlite, "postgresql": postgresql}.get(dialect)
    if module is None:
        return None
    return module.insert(table).on_conflict_do_nothing().returning(table.c.id)


@functools.cache
def _update(table: Table, keys: tuple[str, ...]) -> Update:
    where = table.c.id == bindparam("_id")
    return table.update().where(where).values({k: bindparam(f"v_{k}") for k in keys})


@functools.cache
def _delete(table: Table) -> Delete:
    return table.delete().where(table.c.id == bindparam("_id"))


@event.listens_for(Session, "after_soft_rollback")
def _forget_inserted(s: Session, _previous: Any) -> None:
    for obj in s.info.pop(_INSERTED, ()):
        if obj in s:
            s.expunge(obj)
    if s.info.pop(_UPDATED, False):
        s.expire_all()


@event.listens_for(Session, "after_commit")
def _keep_inserted(s: Session) -> None:
    s.info.pop(_INSERTED, None)
    s.info.pop(_UPDATED, None)
