"""What a task leaves free: the columns an agent's rows need not share with the reference's.

Grading compares the state an episode ends in with the state the task's reference
solution leaves (`officegym.tasks.expected`). Some values differ between two correct
runs, and are declared free, each with its reason:

- a model column marked ``info={"free": "why"}`` (stamps from the simulated clock,
  generated codes), and a whole table marked so in ``__table_args__`` (logs derived
  from other rows: the sheets' edit history, CRM field history, chat mentions);
- the primary key of every inserted row (rows are matched, not their ids);
- `Spec.free`, what a template declares;
- what a check judges itself (`Check.frees`): the text a typed reader judges, the
  cells a computation check perturbs.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Table

from officegym.db import Base

__all__ = ["Free", "Freedoms", "model_free", "table_free"]


@dataclass(frozen=True)
class Free:
    """`columns` of `table` are free, for rows whose columns match `where` (a value, a
    range/set of values the column may take, or a matcher such as `Same`), because `why`
    (one line)."""

    table: str
    columns: tuple[str, ...]
    why: str
    where: Mapping[str, Any] = field(default_factory=dict)

    def covers(self, row: Mapping[str, Any]) -> bool:
        return all(_fits(row.get(k), v) for k, v in self.where.items())


def _fits(value: Any, wanted: Any) -> bool:
    if isinstance(wanted, (range, set, frozenset)):
        return value in wanted
    if hasattr(wanted, "matches"):  # a `where` matcher of the checks: Same, Within
        return bool(wanted.matches(value))
    return value == wanted


@functools.cache
def model_free(table: str) -> frozenset[str]:
    """Columns of `table` its model marks free, or ephemeral (read markers: never a
    change), always with the primary key `id`."""
    t: Table = Base.metadata.tables[table]
    marked = (c.name for c in t.columns if c.info.get("free") or c.info.get("ephemeral"))
    return frozenset(marked) | {"id"}


@functools.cache
def table_free(table: str) -> str | None:
    """Why a whole table is free (a log derived from other rows), or None."""
    return Base.metadata.tables[table].info.get("free")


class Freedoms:
    """The free columns of one task: model marks plus its declared `Free`s, by table."""

    def __init__(self, declared: Iterable[Free] = ()) -> None:
        self.declared: dict[str, list[Free]] = {}
        for f in declared:
            self.declared.setdefault(f.table, []).append(f)

    def columns(self, table: str, row: Mapping[str, Any]) -> frozenset[str]:
        """The columns of `row` (a row of the reference's end state) that are free."""
        base = model_free(table)
        extra = [f.columns for f in self.declared.get(table, ()) if f.covers(row)]
        return base.union(*extra) if extra else base

    def loose(self, table: str) -> frozenset[str]:
        """Every column of `table` free for some row (model marks and declarations)."""
        extra = [f.columns for f in self.declared.get(table, ())]
        return model_free(table).union(*extra) if extra else model_free(table)

    def reasons(self) -> dict[str, str]:
        """``table.column`` -> why, for the declared freedoms (for reports)."""
        return {
            f"{f.table}.{','.join(f.columns)}": f.why for fs in self.declared.values() for f in fs
        }
