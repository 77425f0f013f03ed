"""Rubric checks and change allowances: the declarative parts of a task.

A check reads the final state (and the episode's changes, and the agent's
answer) and says pass/fail with a detail line. An `Allow` names changes a task
may make; every change no allowance matches is collateral damage. Text is
matched as whole tokens (`officegym.tasks.statements`); what a message or field
must say, and must not, is a `Says`; a question's answer is a typed fact
(`officegym.tasks.facts`) judged by `AnswerIs`. In a `where`, `Same("text")`
matches a text column up to case, spacing and Unicode normal form (names,
titles, companies), and `NewRowId(...)` a row the episode created.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Select, Table, bindparam, func, select

from officegym.changes import RowChange
from officegym.db import Base
from officegym.tasks.facts import Fact, judge_answer
from officegym.tasks.freedom import Free
from officegym.tasks.statements import Says, mentions, same_text

__all__ = [
    "Allow",
    "AnswerIs",
    "Check",
    "FieldEquals",
    "GradeContext",
    "NewRowId",
    "Predicate",
    "RowAbsent",
    "RowExists",
    "Same",
    "Within",
    "free_where",
]


@dataclass(frozen=True)
class Same:
    """A `where` value matching a text column up to case, spacing, Unicode normal form and
    closing punctuation (`same_text`): for names, titles and companies a person would call
    the same whatever their case."""

    text: str

    def matches(self, value: Any) -> bool:
        return isinstance(value, str) and same_text(value, self.text)


@dataclass(frozen=True)
class Within:
    """A `where` value matching a number from `low` to `high`, both included: the rows or
    columns of a cell range an allowance names (a sheet's cells, never the whole sheet)."""

    low: int
    high: int

    def matches(self, value: Any) -> bool:
        return isinstance(value, int) and self.low <= value <= self.high


MATCHERS = (Same, Within)  # `where` values compared after the query, by their `matches`


def _equal(actual: Any, wanted: Any) -> bool:
    return wanted.matches(actual) if isinstance(wanted, MATCHERS) else actual == wanted


@dataclass(frozen=True)
class NewRowId:
    """The id of the row of `table` matching `where` that the episode inserts (the first,
    if several): for rows a task asks for, whose ids depend on the order the agent works
    in. Use it as a value in a check's or an allowance's `where`; it matches nothing if
    no such row was inserted."""

    table: str
    where: Mapping[str, Any]

    def resolve(self, g: GradeContext) -> int | None:
        ids = [r["id"] for r in g.new_rows(self.table, resolve(self.where, g))]
        return min(ids) if ids else None


UNRESOLVED = -1  # an id no row has: what an unresolved `NewRowId` matches


def resolve(where: Mapping[str, Any], g: GradeContext) -> dict[str, Any]:
    """`where` with every `NewRowId` replaced by the id it names in this episode."""
    return {k: (_resolved_id(v, g) if isinstance(v, NewRowId) else v) for k, v in where.items()}


def _resolved_id(ref: NewRowId, g: GradeContext) -> int:
    found = ref.resolve(g)
    return UNRESOLVED if found is None else found


@dataclass(frozen=True)
class GradeContext:
    """Everything a check may look at: both states, the changes, the final answer."""

    initial: Connection
    final: Connection
    changes: tuple[RowChange, ...]
    answer: str | None
    goal: str = ""  # the task's instructions: messages must not merely post them back
    words: str = ""  # the task's own text (its reference's messages): words a reader knows
    # (table, id) -> (first, last) position among the episode's writes (None: not logged)
    order: Mapping[tuple[str, int], tuple[int, int]] | None = None
    # with `order`: new rows count only when first written after this position (a claim
    # judged on what was sent after the work it claims: `officegym.tasks.claims`)
    sent_after: int | None = None

    def inserted_ids(self, table: str) -> set[int]:
        return {c.row_id for c in self.changes if c.table == table and c.kind == "insert"}

    def new_rows(self, table: str, where: Mapping[str, Any]) -> list[dict]:
        """Rows of `table` inserted during the episode whose columns equal `where`
        (read from the changes, which hold their final values: no query); with
        `sent_after`, only those first written after it."""
        where = alike(table, where)
        return [
            c.after
            for c in self.changes
            if c.table == table
            and c.kind == "insert"
            and c.after is not None
            and self._later(table, c.row_id)
            and all(_equal(c.after[k], v) for k, v in where.items())
        ]

    def _later(self, table: str, row_id: int) -> bool:
        if self.sent_after is None or self.order is None:
            return True
        written = self.order.get((table, row_id))
        return written is not None and written[0] > self.sent_after

    def rows(self, table: str, where: Mapping[str, Any], *, initial: bool = False) -> list[dict]:
        """Rows of `table` in the final (or initial) state whose columns equal `where`
        (`Same` and `Within` values compared after the query)."""
        where = alike(table, where)
        exact = {k: v for k, v in where.items() if not isinstance(v, MATCHERS)}
        keys = tuple(sorted((k, exact[k] is None) for k in exact))
        params = {k: v for k, v in exact.items() if v is not None}
        conn = self.initial if initial else self.final
        rows = [dict(r._mapping) for r in conn.execute(_matching(table, keys), params)]
        later = {k: v for k, v in where.items() if isinstance(v, MATCHERS)}
        return [r for r in rows if all(v.matches(r[k]) for k, v in later.items())]


def alike(table: str, where: Mapping[str, Any]) -> Mapping[str, Any]:
    """`where` with the text of columns the product compares whatever their case and
    spacing (a model column marked ``info={"alike": why}``: a spreadsheet cell's text)
    matched as `Same`."""
    loose = _alike_columns(table)
    if not loose or not any(k in loose and isinstance(v, str) for k, v in where.items()):
        return where
    return {k: Same(v) if k in loose and isinstance(v, str) else v for k, v in where.items()}


@functools.cache
def _alike_columns(table: str) -> frozenset[str]:
    return frozenset(c.name for c in _table(table).columns if c.info.get("alike"))


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


def free_where(where: Mapping[str, Any], initial: Connection) -> dict[str, Any]:
    """`where` as a `Free` reads it on the reference's end state: `Same` and `Within` match
    as they do here, and a `NewRowId` is any id its table did not hold before the episode
    (the reference's own new row among them), so a check frees only the rows it judges."""
    return {
        k: _new_ids(initial, v.table) if isinstance(v, NewRowId) else v for k, v in where.items()
    }


def _new_ids(initial: Connection, table: str) -> range:
    top = initial.execute(select(func.max(_table(table).c.id))).scalar()
    return range((top or 0) + 1, 2**63)


def _contains_all(value: Any, phrases: Sequence[str]) -> bool:
    text = str(value or "")
    return all(mentions(text, p) for p in phrases)


@dataclass(frozen=True, kw_only=True)
class Check:
    """Base of every check: a name shown to people, a weight, whether success needs it, and
    whether failing it voids the whole episode (`fatal`: what was done cannot be undone by
    the rest, as a secret once told).
    A check that `claims` work (a confirmation, a report of it) earns its weight only
    when that work is done (`officegym.tasks.claims`)."""

    name: str
    weight: float = 1.0
    required: bool = True

    @property
    def fatal(self) -> bool:
        """Whether failing this check makes the episode's reward 0, whatever its weight."""
        return False

    @property
    def claims(self) -> bool:
        """Whether passing this check says the task's work is done."""
        return False

    def evaluate(self, g: GradeContext) -> tuple[bool, str]:
        raise NotImplementedError

    def frees(self, initial: Connection) -> Sequence[Free]:
        """What this check judges itself, so the end state need not equal the reference's
        there (the text a typed reader judges): none unless a check says so. `initial`
        is the world before the episode, to look up what a check names."""
        return ()

    def judged_calls(self) -> frozenset[int]:
        """Indexes of reference calls whose whole outcome this check judges itself (a reply
        that may go to one of several people): their rows are not held to the
        reference's. None unless a check says so."""
        return frozenset()


@dataclass(frozen=True, kw_only=True)
class RowExists(Check):
    """A row matching `where` exists whose text columns contain the given phrases
    (`contains`) and say what their `Says` asks (`says`).

    `new=True` counts only rows inserted during the episode; `count` demands
    exactly that many matches instead of at least one.
    """

    table: str
    where: Mapping[str, Any] = field(default_factory=dict)
    contains: Mapping[str, Sequence[str]] = field(default_factory=dict)
    says: Mapping[str, Says] = field(default_factory=dict)
    new: bool = False
    count: int | None = None

    def evaluate(self, g: GradeContext) -> tuple[bool, str]:
        where = resolve(self.where, g)
        rows = g.new_rows(self.table, where) if self.new else g.rows(self.table, where)
        hits = [r for r in rows if self._fits(r, g.goal, g.words)]
        ok = len(hits) == self.count if self.count is not None else bool(hits)
        want = f"exactly {self.count}" if self.count is not None else "at least 1"
        return ok, f"{len(hits)} matching {self.table} row(s), want {want}"

    def frees(self, initial: Connection) -> Sequence[Free]:
        judged = (*self.contains, *self.says)
        if not judged:
            return ()
        where = free_where(self.where, initial)
        return (Free(self.table, tuple(judged), f"judged by {self.name!r}", where),)

    def _fits(self, row: Mapping[str, Any], goal: str, words: str = "") -> bool:
        return all(_contains_all(row[k], v) for k, v in self.contains.items()) and all(
            says.judge(str(row[k] or ""), goal, words)[0] for k, says in self.says.items()
        )


@dataclass(frozen=True, kw_only=True)
class RowAbsent(Check):
    """No row matching `where` exists in the final state."""

    table: str
    where: Mapping[str, Any] = field(default_factory=dict)

    def evaluate(self, g: GradeContext) -> tuple[bool, str]:
        n = len(g.rows(self.table, resolve(self.where, g)))
        return n == 0, f"{n} matching {self.table} row(s), want none"


@dataclass(frozen=True, kw_only=True)
class FieldEquals(Check):
    """Row `row_id` of `table` has `field == value` (or, for text, contains the phrases in
    `contains` or says what `says` asks)."""

    table: str
    row_id: int
    field: str
    value: Any = None
    contains: Sequence[str] = ()
    says: Says | None = None

    def evaluate(self, g: GradeContext) -> tuple[bool, str]:
        rows = g.rows(self.table, {"id": self.row_id})
        if not rows:
            return False, f"{self.table} {self.row_id} no longer exists"
        got = rows[0][self.field]
        if self.says is not None:
            ok = self.says.judge(str(got or ""), g.goal, g.words)[0]
        elif self.contains:
            ok = _contains_all(got, self.contains)
        else:
            ok = got == self.value
        return ok, f"{self.field} is {str(got)[:80]!r}"

    def frees(self, initial: Connection) -> Sequence[Free]:
        if self.says is None and not self.contains:
            return ()
        why = f"judged by {self.name!r}"
        return (Free(self.table, (self.field,), why, {"id": self.row_id}),)


@dataclass(frozen=True, kw_only=True)
class AnswerIs(Check):
    """The final answer states exactly the typed `fact` (`judge_answer`): its value, no
    other value of its type, no hedge, negation or question. Added to every question task
    from `Spec.answer`; templates do not write it themselves."""

    fact: Fact

    def evaluate(self, g: GradeContext) -> tuple[bool, str]:
        ok, detail = judge_answer(self.fact, g.answer, goal=g.goal, words=g.words)
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

    @classmethod
    def update(
        cls, table: str, row_id: int, fields: Iterable[str], *, limit: int | None = 1
    ) -> Allow:
        """Updates of `fields` on the one row `row_id` of `table` (`limit`: how many rows
        may change, at most that one unless None)."""
        where = {"id": row_id}
        return cls(table, kinds=("update",), where=where, fields=frozenset(fields), limit=limit)

    def resolved(self, g: GradeContext) -> Allow:
        """This allowance with the ids of rows the episode created filled in."""
        if not any(isinstance(v, NewRowId) for v in self.where.values()):
            return self
        return dataclasses.replace(self, where=resolve(self.where, g))

    def matches(self, change: RowChange) -> bool:
        if change.table != self.table or change.kind not in self.kinds:
            return False
        row = change.row
        if not all(_equal(row.get(k), v) for k, v in self.where.items()):
            return False
        return not (change.kind == "update" and self.fields is not None) or (
            change.fields <= self.fields
        )
