"""Compare an episode's changes with the reference's: which expected rows the agent left
as the reference does, and which of its changes are its own.

Rows the reference inserts are matched one to one with rows the agent inserted into the
same table, equal on every column that is not free (`officegym.tasks.freedom`); tables
go in foreign-key order, so a column naming a row the reference inserted is compared
through the rows already matched. Among equal candidates the one whose free columns
also agree wins, then the lowest id, so ties resolve the same way every time. A row the
reference updates must hold the reference's final value in every non-free field it
changed; a row it deletes must be gone. Text is compared as `same_text` does (case,
spacing, Unicode form). What the agent changed beyond that is returned for the task's
allowances.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from officegym.changes import RowChange
from officegym.db import Base, all_tables
from officegym.tasks.expected import Expected, Key
from officegym.tasks.freedom import Freedoms, model_free, table_free
from officegym.tasks.statements import same_text

__all__ = ["Matching", "match"]

_MISSING = object()  # a reference row no agent row was matched to


@dataclass
class Matching:
    """The verdict on every expected row (None: as the reference leaves it, else what
    differs), the agent's changes that match the reference, and the rest (an update to a
    matched row reduced to the fields the reference did not change)."""

    verdicts: dict[Key, str | None] = field(default_factory=dict)
    matched: list[RowChange] = field(default_factory=list)
    rest: list[RowChange] = field(default_factory=list)
    pairs: dict[Key, Key] = field(default_factory=dict)  # reference row -> agent's row


def match(exp: Expected, changes: Sequence[RowChange]) -> Matching:
    """Match the agent's `changes` against the reference's end state `exp`."""
    out = Matching()
    ids: dict[str, dict[int, int]] = defaultdict(dict)  # table -> reference id -> agent id
    new = _inserted(exp.changes)
    wanted: dict[str, list[RowChange]] = defaultdict(list)
    for c in exp.changes:
        if c.kind == "insert":
            wanted[c.table].append(c)
    pools: dict[str, list[RowChange]] = defaultdict(list)
    for c in changes:
        if c.kind == "insert" and c.table in wanted:
            pools[c.table].append(c)
    taken: set[Key] = set()
    for table in _order():
        if table in wanted:
            _match_table(wanted[table], Pool(pools[table], exp.freedoms), ids, new, out, taken)
    agent = {(c.table, c.row_id): c for c in changes}
    for want in exp.changes:
        key = (want.table, want.row_id)
        if want.kind == "delete":
            got = agent.get(key)
            if got is not None and got.kind == "delete":
                out.verdicts[key] = None
                taken.add(key)
                out.matched.append(got)
            else:
                out.verdicts[key] = f"{want.table} #{want.row_id}: want deleted, still there"
        elif want.kind == "update":
            out.verdicts[key] = _updated(want, agent.get(key), ids, new, exp.freedoms, out, taken)
    out.pairs.update((k, k) for k in agent if k in out.verdicts and k not in out.pairs)
    out.rest = [c for c in changes if (c.table, c.row_id) not in taken] + out.rest
    return out


def _match_table(
    wants: list[RowChange],
    pool: Pool,
    ids: dict[str, dict[int, int]],
    new: Mapping[str, set[int]],
    out: Matching,
    taken: set[Key],
) -> None:
    """Match the reference's rows `wants` of one table: first to agent rows that agree on
    their free columns too (a row written as the reference's is not taken by an earlier
    reference row it only resembles: two welcomes whose text is free), then the rest."""
    done: set[Key] = set()
    for exact, want in [(True, w) for w in wants] + [(False, w) for w in wants]:
        key = (want.table, want.row_id)
        if key in done:
            continue
        got = pool.pick(want, taken, ids, new, exact=exact)
        if got is None:
            if not exact:
                out.verdicts[key] = pool.nearest(want, taken, ids, new)
            continue
        done.add(key)
        taken.add((got.table, got.row_id))
        ids[want.table][want.row_id] = got.row_id
        out.pairs[key] = (got.table, got.row_id)
        out.verdicts[key] = None
        out.matched.append(got)


def _updated(
    want: RowChange,
    got: RowChange | None,
    ids: Mapping[str, Mapping[int, int]],
    new: Mapping[str, set[int]],
    freedoms: Freedoms,
    out: Matching,
    taken: set[Key],
) -> str | None:
    """The verdict on a row the reference updated; the agent's change to it is matched,
    any fields it changed beyond the reference's go to `out.rest`."""
    assert want.after is not None
    fields = want.fields - freedoms.columns(want.table, want.after)
    final = want.before if got is None else got.after
    if final is None:
        return f"{want.table} #{want.row_id}: deleted, want it kept"
    if not fields and got is None:  # every field it changes is free: it must still change
        return (
            f"{want.table} #{want.row_id}: unchanged, want {', '.join(sorted(want.fields))} changed"
        )
    wanted = {f: _want(want.table, f, want.after[f], ids, new) for f in fields}
    wrong = {f for f in fields if not _same(final[f], wanted[f])}
    if got is not None:
        taken.add((got.table, got.row_id))
        out.matched.append(got)
        beyond = dict(got.before or {})
        beyond.update({f: got.after[f] for f in want.fields})  # type: ignore[index]
        extra = RowChange(got.table, got.row_id, beyond, got.after)
        if extra.fields:
            out.rest.append(extra)
    return _differs(want, final, wrong, wanted) if wrong else None


class Pool:
    """The agent's inserted rows of one table, indexed by the columns no freedom of the
    table can free and no foreign key maps (a coarse key: candidates are then checked
    column by column), so matching hundreds of cells stays linear."""

    def __init__(self, rows: list[RowChange], freedoms: Freedoms) -> None:
        self.rows = [c for c in rows if c.after is not None]
        self.freedoms = freedoms
        self.anchor: tuple[str, ...] = ()
        self.index: dict[tuple, list[RowChange]] = defaultdict(list)
        if self.rows:
            table = self.rows[0].table
            loose = freedoms.loose(table) | _foreign(table).keys()
            self.anchor = tuple(k for k in self.rows[0].after if k not in loose)  # type: ignore[union-attr]
        for c in self.rows:
            self.index[_coarse(c.after, self.anchor)].append(c)  # type: ignore[arg-type]

    def _wanted(self, want: RowChange, ids: Mapping, new: Mapping) -> tuple[dict, frozenset[str]]:
        row = want.after
        assert row is not None
        free = self.freedoms.columns(want.table, row)
        wanted = {k: _want(want.table, k, v, ids, new) for k, v in row.items() if k not in free}
        return wanted, free

    def pick(
        self, want: RowChange, taken: set[Key], ids: Mapping, new: Mapping, exact: bool = False
    ) -> RowChange | None:
        """The agent's inserted row matching `want` on every non-free column (free columns
        agreeing breaks ties, then the lowest id); `exact`: also on the columns the task
        frees (not the model's: ids, clock stamps, generated codes)."""
        wanted, free = self._wanted(want, ids, new)
        row = want.after
        assert row is not None
        best, score = None, -1
        strict = (free & row.keys()) - model_free(want.table) if exact else frozenset()
        for c in self.index.get(_coarse(wanted, self.anchor), ()):
            if (c.table, c.row_id) in taken:
                continue
            if all(_same(c.after[k], v) for k, v in wanted.items()) and all(  # type: ignore[index]
                _same(c.after.get(k), row[k])  # type: ignore[union-attr]
                for k in strict
            ):
                agree = sum(_same(c.after.get(k), row[k]) for k in free & row.keys() if k != "id")  # type: ignore[index]
                if agree > score:
                    best, score = c, agree
        return best

    def nearest(self, want: RowChange, taken: set[Key], ids: Mapping, new: Mapping) -> str:
        """Got/want for an inserted row no agent row matches: the closest unmatched one."""
        wanted, _ = self._wanted(want, ids, new)
        left = [c for c in self.rows if (c.table, c.row_id) not in taken]
        if not left:
            return f"no new {want.table} row like #{want.row_id}"

        def agree(c: RowChange) -> int:
            return sum(_same(c.after[k], v) for k, v in wanted.items())  # type: ignore[index]

        closest = max(left, key=agree)
        wrong = {k for k, v in wanted.items() if not _same(closest.after[k], v)}  # type: ignore[index]
        return _differs(want, closest.after, wrong, wanted)  # type: ignore[arg-type]


def _coarse(row: Mapping[str, Any], columns: tuple[str, ...]) -> tuple:
    """A key equal for rows `_same` holds equal on `columns` (text folded to its letters
    and digits, lists and dicts as sorted JSON)."""
    return tuple(_fold(row[k]) for k in columns)


def _fold(value: Any) -> Any:
    if isinstance(value, str):
        folded = unicodedata.normalize("NFKC", value).casefold()
        return "".join(ch for ch in folded if ch.isalnum())
    if isinstance(value, (list, dict)):
        return json.dumps(value, sort_keys=True)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _differs(
    want: RowChange, got: Mapping[str, Any], wrong: set[str], wanted: Mapping[str, Any]
) -> str:
    """``table #id: got col=value; want col=value`` for up to three differing columns, a
    foreign key shown as the agent's row it must name (or, when no agent row matched the
    reference's, as that row, unmatched)."""
    assert want.after is not None
    shown = sorted(wrong)[:3]
    gots = ", ".join(f"{k}={_short(got.get(k))}" for k in shown)
    wants = ", ".join(f"{k}={_shown(want.after[k], wanted.get(k, want.after[k]))}" for k in shown)
    return f"{want.table} #{want.row_id}: got {gots}; want {wants}"


def _shown(reference: Any, mapped: Any) -> str:
    return f"#{reference} (unmatched)" if mapped is _MISSING else _short(mapped)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _want(
    table: str,
    column: str,
    value: Any,
    ids: Mapping[str, Mapping[int, int]],
    new: Mapping[str, set[int]],
) -> Any:
    """The value an agent's row must hold where the reference's holds `value`: a foreign
    key to a row the reference inserted maps to the agent's row matched to it."""
    target = _foreign(table).get(column)
    if target is None or value not in new.get(target, ()):
        return value
    return ids.get(target, {}).get(value, _MISSING)


def _same(got: Any, want: Any) -> bool:
    if got == want:
        return True
    if isinstance(got, str) and isinstance(want, str):
        if got.startswith("=") and want.startswith("="):  # formulas: $ marks no difference
            return same_text(_relative(got), _relative(want))  # in the cell itself
        return same_text(got, want)
    if isinstance(got, (list, dict)) and isinstance(want, (list, dict)):
        return json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True)
    return False


_QUOTED = re.compile(r'("(?:[^"]|"")*")')


def _relative(formula: str) -> str:
    """A formula with the `$` of its absolute references dropped (not inside quoted
    text): A1 and $A$1 read the same cell; only copying the formula tells them apart."""
    parts = _QUOTED.split(formula)
    return "".join(p if i % 2 else p.replace("$", "") for i, p in enumerate(parts))


def _inserted(changes: Sequence[RowChange]) -> dict[str, set[int]]:
    new: dict[str, set[int]] = defaultdict(set)
    for c in changes:
        if c.kind == "insert":
            new[c.table].add(c.row_id)
    return new


@functools.cache
def _foreign(table: str) -> dict[str, str]:
    """Column -> the table its foreign key names."""
    t = Base.metadata.tables[table]
    return {fk.parent.name: fk.column.table.name for fk in t.foreign_keys}


@functools.cache
def _order() -> tuple[str, ...]:
    return tuple(t.name for t in all_tables())


def units(change: RowChange) -> int:
    """How much a change changed: 1 for an inserted or deleted row, else its changed
    fields that are not free by their model (clock stamps); nothing for a row of a log
    derived from other rows (counted there)."""
    if table_free(change.table) is not None:
        return 0
    if change.kind != "update":
        return 1
    return len(change.fields - model_free(change.table))
