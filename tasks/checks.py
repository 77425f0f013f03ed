"""Rubric checks and change allowances: the declarative parts of a task.

A check reads the final state (and the episode's changes, and the agent's
answer) and says pass/fail with a detail line. An `Allow` names changes a task
may make; every change no allowance matches is collateral damage. Text is
matched as whole tokens (`officegym.tasks.statements`); what an answer must
say, and must not, is a `Says`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Select, Table, bindparam, select

from officegym.changes import RowChange
from officegym.db import Base
from officegym.tasks.statements import Says, mentions

__all__ = [
    "Allow",
    "AnswerSays",
    "Check",
    "FieldEquals",
    "GradeContext",
    "Predicate",
    "RowAbsent",
    "RowExists",
]


@dataclass(frozen=True)
class GradeContext:
    """Everything a check may look at: both states, the changes, the final answer."""

    initial: Connection
    final: Connection
    changes: tuple[RowChange, ...]
    answer: str | None

    def inserted_ids(self, table: str) -> set[int]:
        return {c.row_id for c in self.changes if c.table == table and c.kind == "insert"}

    def new_rows(self, table: str, where: Mapping[str, Any]) -> list[dict]:
        """Rows of `table` inserted during the episode whose columns equal `where`
        (read from the changes, which hold their final values: no query)."""
        return [
            c.after
            for c in self.changes
            if c.table == table
            and c.kind == "insert"
            and c.after is not None
            and all(c.after[k] == v for k, v in where.items())
        ]

    def rows(self, table: str, where: Mapping[str, Any], *, initial: bool = False) -> list[dict]:
        """Rows of `table` in the final (or initial) state whose columns equal `where`."""
        keys = tuple(sorted((k, where[k] is None) for k in where))
        params = {k: v for k, v in where.items() if v is not None}
        conn = self.initial if initial else self.final
        return [dict(r._mapping) for r in conn.execute(_matching(table, keys), params)]


@functools.lru_cache(maxsize=1024)
def _matching(table: str, keys: tuple[tuple[str, bool], ...]) -> Select:
    """SELECT rows where each key equals its bound value (or IS NULL), built once per shape."""
    t = _table(table)
    conds = [t.c[k].is_(None) if is_null else t.c[k] == bindparam(k) for k, is_null in keys]
    return select(t).where(*conds).order_by(t.c.id)


def _table(name: str) -> Table:
    try:
        return Base.metadata.tables[name]
    except KeyError:
        raise ValueError(f"no table {name!r}") from None


def _contains_all(value: Any, phrases: Sequence[str]) -> bool:
    text = str(value or "")
    return all(mentions(text, p) for p in phrases)


@dataclass(frozen=True, kw_only=True)
class Check:
    """Base of every check: a name shown to people, a weight, and whether success needs it."""

    name: str
    weight: float = 1.0
    required: bool = True

    def evaluate(self, g: GradeContext) -> tuple[bool, str]:
        raise NotImplementedError


@dataclass(frozen=True, kw_only=True)
class RowExists(Check):
    """A row matching `where` exists whose text columns contain the given phrases.

    `new=True` counts only rows inserted during the episode; `count` demands
    exactly that many matches instead of at least one.
    """

    table: str
    where: Mapping[str, Any] = field(default_factory=dict)
    contains: Mapping[str, Sequence[str]] = field(default_factory=dict)
    new: bool = False
    count: int | None = None

    def evaluate(self, g: GradeContext) -> tuple[bool, str]:
        rows = g.new_rows(self.table, self.where) if self.new else g.rows(self.table, self.where)
        hits = [r for r in rows if all(_contains_all(r[k], v) for k, v in self.contains.items())]
        ok = len(hits) == self.count if self.count is not None else bool(hits)
        want = f"exactly {self.count}" if self.count is not None else "at least 1"
        return ok, f"{len(hits)} matching {self.table} row(s), want {want}"


@dataclass(frozen=True, kw_only=True)
class RowAbsent(Check):
    """No row matching `where` exists in the final state."""

    table: str
    where: Mapping[str, Any] = field(default_factory=dict)

    def evaluate(self, g: GradeContext) -> tuple[bool, str]:
        n = len(g.rows(self.table, self.where))
        return n == 0, f"{n} matching {self.table} row(s), want none"


@dataclass(frozen=True, kw_only=True)
class FieldEquals(Check):
    """Row `row_id` of `table` has `field == value` (or contains the words in `contains`)."""

    table: str
    row_id: int
    field: str
    value: Any = None
    contains: Sequence[str] = ()

    def evaluate(self, g: GradeContext) -> tuple[bool, str]:
        rows = g.rows(self.table, {"id": self.row_id})
        if not rows:
            return False, f"{self.table} {self.row_id} no longer exists"
        got = rows[0][self.field]
        ok = _contains_all(got, self.contains) if self.contains else got == self.value
        return ok, f"{self.field} is {str(got)[:80]!r}"


@dataclass(frozen=True, kw_only=True)
class AnswerSays(Check):
    """The final answer says what `says` asks: the expected value, none of the distractors,
    so answering with every candidate at once does not pass."""

    says: Says

    def evaluate(self, g: GradeContext) -> tuple[bool, str]:
        ok, detail = self.says.judge(g.answer)
        return ok, f"answer {detail}"


@dataclass(frozen=True, kw_only=True)
class Predicate(Check):
    """Anything the declarative checks cannot say: `fn(grade_context) -> (ok, detail)`."""

    fn: Callable[[GradeContext], tuple[bool, str]]

    def evaluate(self, g: GradeContext) -> tuple[bool, str]:
        return self.fn(g)


@dataclass(frozen=True)
class Allow:
    """Changes a task may make: to `table`, of these kinds, to rows matching `where`;
    for updates only the named `fields` (any if None); at most `limit` rows."""

    table: str
    kinds: tuple[str, ...] = ("insert",)
    where: Mapping[str, Any] = field(default_factory=dict)
    fields: frozenset[str] | None = None
    limit: int | None = None

    def matches(self, change: RowChange) -> bool:
        if change.table != self.table or change.kind not in self.kinds:
            return False
        row = change.row
        if any(row.get(k) != v for k, v in self.where.items()):
            return False
        return not (change.kind == "update" and self.fields is not None) or (
            change.fields <= self.fields
        )
