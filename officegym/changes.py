"""Which rows an episode changed: the input of every collateral-damage check.

On SQLite a trigger per table records the id of every inserted, updated or
deleted row in `og_change`, so a diff reads only the touched rows instead of the
whole database, and appends every write to `og_write` in the order it was made, so a
grader knows what was written before what (`write_order`: a confirmation counts only
when sent after the work it claims). Without the log (e.g. PostgreSQL) the diff
compares every table row by row; both give the same answer (a test holds them to it).

Columns created with ``info={"ephemeral": True}`` (read markers and the like)
are never counted as changes: reading a channel is not damage.

What was said stays said: on SQLite the log also keeps, in `og_text`, every text a row
held before an update replaced it or a delete removed it (`earlier_texts`), so a message
sent and then edited or deleted, or a cell typed and then cleared, is judged on every
version it had (`officegym.tasks.writings`). Without the log only final texts are known.
"""

from __future__ import annotations

import functools
import weakref
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import Connection, Engine, Select, String, Table, bindparam, select, text
from sqlalchemy.exc import OperationalError

from officegym.db import all_tables

__all__ = [
    "CHANGE_TABLE",
    "TEXT_TABLE",
    "WRITE_TABLE",
    "RowChange",
    "diff",
    "earlier_texts",
    "full_diff",
    "install_change_log",
    "write_order",
]

CHANGE_TABLE = "og_change"
TEXT_TABLE = "og_text"
WRITE_TABLE = "og_write"  # every write, in order: (seq, tbl, row_id)


@dataclass(frozen=True)
class RowChange:
    """One row that differs between the initial and the final state."""

    table: str
    row_id: int
    before: dict[str, Any] | None
    after: dict[str, Any] | None

    @property
    def kind(self) -> Literal["insert", "update", "delete"]:
        if self.before is None:
            return "insert"
        return "delete" if self.after is None else "update"

    @functools.cached_property
    def fields(self) -> set[str]:
        """Names of the columns whose values differ (all columns for insert/delete)."""
        if self.before is None or self.after is None:
            return set((self.before or self.after or {}).keys())
        return {k for k in self.after if self.after[k] != self.before.get(k)}

    @property
    def row(self) -> dict[str, Any]:
        """The row as it is now, or as it was if deleted."""
        return self.after if self.after is not None else self.before  # type: ignore[return-value]


@functools.cache
def _tracked_tables() -> list[Table]:
    """Every app's tables but the change log itself (sorted once)."""
    return [t for t in all_tables() if t.name not in (CHANGE_TABLE, WRITE_TABLE, TEXT_TABLE)]


@functools.cache
def _ephemeral(table: Table) -> frozenset[str]:
    return frozenset(c.name for c in table.columns if c.info.get("ephemeral"))


@functools.cache
def _text_columns(table: Table) -> tuple[str, ...]:
    """The columns of `table` holding text (not ephemeral ones)."""
    return tuple(
        c.name
        for c in table.columns
        if isinstance(c.type, String) and c.name not in _ephemeral(table)
    )


def install_change_log(engine: Engine) -> None:
    """Create `og_change`, `og_write` and `og_text`, and one trigger per table and
    operation (SQLite only)."""
    with engine.begin() as conn:
        conn.execute(
            text(
                f"CREATE TABLE IF NOT EXISTS {TEXT_TABLE} (seq INTEGER PRIMARY KEY, "
                "tbl TEXT NOT NULL, row_id INTEGER NOT NULL, col TEXT NOT NULL, text TEXT)"
            )
        )
        for table in _tracked_tables():
            for sql in _text_triggers(table):
                conn.execute(text(sql))
        conn.execute(
            text(
                f"CREATE TABLE IF NOT EXISTS {CHANGE_TABLE} (tbl TEXT NOT NULL, "
                "row_id INTEGER NOT NULL, PRIMARY KEY (tbl, row_id)) WITHOUT ROWID"
            )
        )
        conn.execute(
            text(
                f"CREATE TABLE IF NOT EXISTS {WRITE_TABLE} (seq INTEGER PRIMARY KEY, "
                "tbl TEXT NOT NULL, row_id INTEGER NOT NULL)"
            )
        )
        for table in _tracked_tables():
            for op, ref in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")):
                conn.execute(
                    text(
                        f"CREATE TRIGGER IF NOT EXISTS og_{op.lower()}_{table.name} "
                        f"AFTER {op} ON {table.name} BEGIN "
                        f"INSERT OR IGNORE INTO {CHANGE_TABLE} VALUES ('{table.name}', {ref}.id); "
                        f"INSERT INTO {WRITE_TABLE}(tbl,row_id) VALUES ('{table.name}', {ref}.id); "
                        "END"
                    )
                )


def _text_triggers(table: Table) -> list[str]:
    """Triggers keeping the text a row held before each update or delete in `og_text`."""
    cols = _text_columns(table)
    if not cols:
        return []
    log = f"INSERT INTO {TEXT_TABLE} (tbl, row_id, col, text) SELECT '{table.name}', OLD.id"
    kept = " ".join(
        f"{log}, '{c}', OLD.{c} WHERE OLD.{c} IS NOT NULL AND OLD.{c} != '' "
        f"AND OLD.{c} IS NOT NEW.{c};"
        for c in cols
    )
    gone = " ".join(
        f"{log}, '{c}', OLD.{c} WHERE OLD.{c} IS NOT NULL AND OLD.{c} != '';" for c in cols
    )
    return [
        f"CREATE TRIGGER IF NOT EXISTS og_text_update_{table.name} AFTER UPDATE ON "
        f"{table.name} BEGIN {kept} END",
        f"CREATE TRIGGER IF NOT EXISTS og_text_delete_{table.name} AFTER DELETE ON "
        f"{table.name} BEGIN {gone} END",
    ]


_EARLIER = text(f"SELECT tbl, row_id, col, text FROM {TEXT_TABLE} ORDER BY seq")


def earlier_texts(final: Connection) -> dict[tuple[str, int], list[tuple[str, str]]]:
    """The texts each row held before an update or a delete replaced them, oldest first,
    as (column, text), keyed by (table, row id): empty where no log is kept."""
    if final.dialect.name != "sqlite":
        return {}
    try:
        logged = final.execute(_EARLIER).all()
    except OperationalError:  # a world built without `install_change_log`
        return {}
    out: dict[tuple[str, int], list[tuple[str, str]]] = defaultdict(list)
    for tbl, row_id, col, said in logged:
        out[(tbl, row_id)].append((col, said))
    return dict(out)


_TOUCHED = text(f"SELECT tbl, row_id FROM {CHANGE_TABLE}")


def diff(initial: Connection, final: Connection) -> list[RowChange]:
    """Rows that differ between two states of one world, ordered by table then id."""
    if final.dialect.name != "sqlite":
        return full_diff(initial, final)
    try:
        logged = final.execute(_TOUCHED).all()
    except OperationalError:  # a world built without `install_change_log`
        return full_diff(initial, final)
    touched: dict[str, list[int]] = defaultdict(list)
    for tbl, row_id in logged:
        touched[tbl].append(row_id)
    tables = {t.name: t for t in _tracked_tables()}
    changes: list[RowChange] = []
    for name in sorted(touched):
        table = tables[name]
        ids = touched[name]
        before = _seeded_rows(initial, table, ids)
        after = _rows(final, table, ids)
        changes.extend(_compare(table, sorted(set(before) | set(after)), before, after))
    return changes


_ORDER = text(f"SELECT tbl, row_id, min(seq), max(seq) FROM {WRITE_TABLE} GROUP BY tbl, row_id")


def write_order(conn: Connection) -> dict[tuple[str, int], tuple[int, int]] | None:
    """(table, row id) -> (first, last) position among the writes made to the state
    `conn` holds since it was seeded or reset; None where the order is not logged (a
    world without `install_change_log`, PostgreSQL)."""
    if conn.dialect.name != "sqlite":
        return None
    try:
        found = conn.execute(_ORDER).all()
    except OperationalError:
        return None
    return {(t, r): (first, last) for t, r, first, last in found}


def full_diff(initial: Connection, final: Connection) -> list[RowChange]:
    """The same result as `diff`, by comparing every row of every table."""
    changes: list[RowChange] = []
    for table in sorted(_tracked_tables(), key=lambda t: t.name):
        before = _rows(initial, table, None)
        after = _rows(final, table, None)
        changes.extend(_compare(table, sorted(set(before) | set(after)), before, after))
    return changes


@functools.cache
def _by_ids(table: Table) -> Select:
    return select(table).where(table.c.id.in_(bindparam("ids", expanding=True)))


_SEEDED: weakref.WeakKeyDictionary[Engine, dict[str, dict[int, dict[str, Any] | None]] | None] = (
    weakref.WeakKeyDictionary()
)


def _seeded_rows(conn: Connection, table: Table, ids: list[int]) -> dict[int, dict[str, Any]]:
    """`_rows` of an initial state; a read-only database's rows (a world's seeded copy,
    `PRAGMA query_only`) are read once and remembered, so episodes that touch the same
    thousands of rows read them once per world."""
    engine = conn.engine
    if engine not in _SEEDED:
        frozen = conn.exec_driver_sql("PRAGMA query_only").scalar() == 1
        _SEEDED[engine] = {} if frozen else None
    seen = _SEEDED[engine]
    if seen is None:
        return _rows(conn, table, ids)
    known = seen.setdefault(table.name, {})
    missing = [i for i in ids if i not in known]
    if missing:
        found = _rows(conn, table, missing)
        for i in missing:
            known[i] = found.get(i)
    return {i: row for i in ids if (row := known[i]) is not None}


@functools.cache
def _by_span(table: Table) -> Select:
    return select(table).where(table.c.id.between(bindparam("lo"), bindparam("hi")))


def _rows(conn: Connection, table: Table, ids: Iterable[int] | None) -> dict[int, dict[str, Any]]:
    wanted = None if ids is None else set(ids)
    if wanted is None:
        result = conn.execute(select(table))
    elif not wanted:
        return {}
    elif max(wanted) - min(wanted) < 4 * len(wanted) + 64:
        # ids close together (a sorted or filled range): one span, no per-id parameters
        result = conn.execute(_by_span(table), {"lo": min(wanted), "hi": max(wanted)})
    else:
        result = conn.execute(_by_ids(table), {"ids": sorted(wanted)})
    keys = list(result.keys())
    at = keys.index("id")
    return {
        row[at]: dict(zip(keys, row, strict=True))
        for row in result.all()
        if wanted is None or row[at] in wanted
    }


def _compare(
    table: Table,
    ids: list[int],
    before: dict[int, dict[str, Any]],
    after: dict[int, dict[str, Any]],
) -> list[RowChange]:
    skip = _ephemeral(table)
    out = []
    for row_id in ids:
        b, a = before.get(row_id), after.get(row_id)
        if b is not None and a is not None and all(a[k] == b[k] for k in a if k not in skip):
            continue
        out.append(RowChange(table.name, row_id, b, a))
    return out
