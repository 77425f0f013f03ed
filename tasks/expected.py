"""The end state a task expects: what its reference solution leaves, call by call.

`expected(task)` replays the reference solution once per task instance on a fresh copy
of the task's world (as the persona, with the simulated colleague of an ask task, as
`officegym validate` does: both run `run_calls`) and records, after each write call,
the rows it changed. The grader then asks that every row the reference changes ends as
the reference leaves it (`officegym.tasks.matching`), except what is free
(`officegym.tasks.freedom`). Rows the simulated colleague writes are its own, not
expected of the agent; in a row the agent's calls also wrote, only the fields the
colleague changed are (free, for that row), so the rest of the row stays graded.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import Connection, select, text
from sqlalchemy.orm import Session

from officegym.changes import CHANGE_TABLE, RowChange, diff
from officegym.db import Base, all_tables
from officegym.runner import CallOutcome, ToolRunner
from officegym.tasks.base import Task
from officegym.tasks.freedom import Free, Freedoms, table_free
from officegym.tasks.responders import colleague_for
from officegym.tools import ToolCall, load_tools
from officegym.world import Checkpoint, World, world_image

__all__ = ["Expected", "Step", "expected", "remember", "run_calls"]

Key = tuple[str, int]  # (table, row id)


@dataclass(frozen=True)
class Step:
    """One write call of the reference: its index, its tool, and the rows it changed
    that the reference's end state holds changed (what the call must leave behind)."""

    index: int
    tool: str
    rows: tuple[Key, ...]


@dataclass(frozen=True)
class Expected:
    """The reference's end state: its steps, the changes expected of the agent (the
    colleague's rows and free tables left out), the task's freedoms, the calls' errors."""

    steps: tuple[Step, ...]
    changes: tuple[RowChange, ...]
    freedoms: Freedoms
    errors: tuple[str, ...]


class Recorder:
    """Which rows each call touched, read from the world's change log after the call
    (and emptied there, so the next call starts afresh), and what the simulated
    colleague changed: per row, the fields (None: a row of its own)."""

    def __init__(self) -> None:
        self.by_call: dict[int, set[Key]] = {}
        self.colleague: dict[Key, frozenset[str] | None] = {}
        self.seen: set[Key] = set()
        self.last: dict[Key, dict | None] = {}  # rows as the agent's calls left them

    def note(self, s: Session, keys: set[Key]) -> None:
        """Remember `keys` as the agent's call left them (to tell the colleague's fields)."""
        self.last.update(_read(s, keys))

    def colleague_wrote(self, s: Session, initial: Connection) -> None:
        """Take the rows the colleague touched, and note the fields it changed."""
        keys = self.take(s)
        now = _read(s, keys)
        before = _read(initial, {k for k in keys if k not in self.last})
        for key in keys:
            old = self.last[key] if key in self.last else before.get(key)
            new = now.get(key)
            fields = None
            if old is not None and new is not None:
                fields = frozenset(f for f in new if new[f] != old.get(f))
            had = self.colleague.get(key, frozenset())
            self.colleague[key] = None if fields is None or had is None else had | fields
            if key in self.last:
                self.last[key] = new

    def take(self, s: Session) -> set[Key]:
        keys = {(t, i) for t, i in s.execute(_TOUCHED).all()}
        s.execute(_FORGET)
        s.commit()
        self.seen |= keys
        return keys

    def restore(self, s: Session) -> None:
        """Put every touched row back in the change log, so `diff` sees the whole run."""
        if self.seen:
            s.execute(_REMEMBER, [{"t": t, "i": i} for t, i in sorted(self.seen)])
            s.commit()


def _read(conn: Session | Connection, keys: Iterable[Key]) -> dict[Key, dict | None]:
    """The rows `keys` name as `conn` holds them (None: not there)."""
    out: dict[Key, dict | None] = {}
    by_table: dict[str, list[int]] = {}
    for t, i in keys:
        by_table.setdefault(t, []).append(i)
    for name, ids in by_table.items():
        table = Base.metadata.tables[name]
        found = {
            r.id: dict(r._mapping) for r in conn.execute(select(table).where(table.c.id.in_(ids)))
        }
        out.update(((name, i), found.get(i)) for i in ids)
    return out


_TOUCHED = text(f"SELECT tbl, row_id FROM {CHANGE_TABLE}")
_FORGET = text(f"DELETE FROM {CHANGE_TABLE}")
_REMEMBER = text(f"INSERT OR IGNORE INTO {CHANGE_TABLE} VALUES (:t, :i)")


def run_calls(
    world: World,
    task: Task,
    calls: Iterable[ToolCall],
    *,
    start: tuple[int, Checkpoint] | None = None,
    save: dict[int, Checkpoint | None] | None = None,
    recorder: Recorder | None = None,
    outcomes: list[CallOutcome] | None = None,
) -> list[str]:
    """Run `calls` as the task's persona on a fresh copy of the world (the requester of an
    ask task answering in chat after each write); returns the calls' errors. With `start`
    (n, checkpoint) the world is rewound to the checkpoint taken before call n and the
    first n calls are not run again; `save` receives a checkpoint before each call whose
    index it holds as a key (len(calls): after the last); `recorder` notes the rows each
    call touched; `outcomes` receives each call's outcome."""
    calls = list(calls)
    first = 0
    if start is None:
        world.reset()
    else:
        first, point = start
        world.rewind(point)
    runner = ToolRunner(world, task.persona)
    colleague = colleague_for(task, runner.session)  # the requester answers questions
    registry = load_tools()
    errors = []
    initial = world.initial_connection() if recorder is not None else None
    if recorder is not None and initial is not None:
        recorder.colleague_wrote(runner.session, initial)
    for i, c in enumerate(calls[first:], start=first):
        if save is not None and i in save:
            save[i] = world.checkpoint()
        out = runner.call(c.name, c.arguments)
        if outcomes is not None:
            outcomes.append(out)
        if not out.ok:
            errors.append(f"call {i} {c.name}: {out.error}")
        known = c.name in registry
        wrote = out.ok and known and registry[c.name].kind == "write"
        if recorder is not None:
            recorder.by_call[i] = recorder.take(runner.session)
            if colleague is not None:
                recorder.note(runner.session, recorder.by_call[i])
        if colleague is not None and wrote and colleague.answer(runner.session):
            runner.session.commit()
        if recorder is not None and initial is not None:
            recorder.colleague_wrote(runner.session, initial)
    if save is not None and len(calls) in save:
        save[len(calls)] = world.checkpoint()
    if recorder is not None:
        recorder.restore(runner.session)
    if initial is not None:
        initial.close()
    runner.close()
    return errors


_LOCK = threading.Lock()
_WORLDS: OrderedDict[tuple[str, int], World] = OrderedDict()
_CACHE: OrderedDict[tuple, tuple[Task, Expected]] = OrderedDict()
CACHE_SIZE = 4096  # task instances whose expected end state is kept


def expected(task: Task) -> Expected:
    """The end state `task`'s reference solution leaves: replayed once per task instance
    (id, seed, world, level) and cached."""
    key = (task.id, task.seed, task.scenario, task.world_seed, task.difficulty)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None and _same_task(hit[0], task):
            _CACHE.move_to_end(key)
            return hit[1]
        found = _replay(_world(task.scenario, task.world_seed), task)
        _CACHE[key] = (task, found)
        if len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
        return found


def remember(task: Task, found: Expected) -> None:
    """Take `found` as `task`'s expected end state, computed elsewhere (an instance store,
    `officegym.tasks.instances`), so grading the task does not replay its reference."""
    key = (task.id, task.seed, task.scenario, task.world_seed, task.difficulty)
    with _LOCK:
        _CACHE[key] = (task, found)
        _CACHE.move_to_end(key)
        if len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)


def _same_task(cached: Task, task: Task) -> bool:
    """Whether `task` expects what `cached` did: the same object (make_task caches its
    tasks), or the same reference, declared freedoms and checks (a rebuilt task)."""
    if cached is task:
        return True
    return (cached.solution, cached.free, cached.checks) == (task.solution, task.free, task.checks)


def _world(scenario: str, world_seed: int) -> World:
    key = (scenario, world_seed)
    if key not in _WORLDS:
        _WORLDS[key] = World(world_image(scenario, world_seed))
        if len(_WORLDS) > 2:
            _WORLDS.popitem(last=False)[1].close()
    _WORLDS.move_to_end(key)
    return _WORLDS[key]


def _replay(world: World, task: Task) -> Expected:
    recorder = Recorder()
    errors = run_calls(world, task, task.solution, recorder=recorder)
    with world.initial_connection() as before, world.engine.connect() as after:
        changes = diff(before, after)
        declared = [*task.free, *(f for c in task.checks for f in c.frees(before))]
    mine = set().union(*recorder.by_call.values())
    theirs = {k for k, f in recorder.colleague.items() if f is None or k not in mine}
    kept = tuple(
        c for c in changes if (c.table, c.row_id) not in theirs and table_free(c.table) is None
    )
    declared += [
        Free(t, tuple(sorted(f)), "changed by the simulated colleague", {"id": i})
        for (t, i), f in sorted(recorder.colleague.items())
        if f and (t, i) not in theirs
    ]
    changed = {(c.table, c.row_id) for c in kept}
    writes = _write_calls(task)
    steps = tuple(
        Step(
            i,
            task.solution[i].name,
            tuple(sorted(recorder.by_call.get(i, set()) & changed, key=_parents_first)),
        )
        for i in writes
    )
    return Expected(tuple(s for s in steps if s.rows), kept, Freedoms(declared), tuple(errors))


def _parents_first(key: Key) -> tuple[int, int]:
    """Rows in foreign-key order of their tables (a booking before its nights), then id."""
    return _rank()[key[0]], key[1]


@functools.cache
def _rank() -> dict[str, int]:
    return {t.name: i for i, t in enumerate(all_tables())}


@functools.cache
def _kinds() -> dict[str, str]:
    return {name: t.kind for name, t in load_tools().items()}


def _write_calls(task: Task) -> list[int]:
    kinds = _kinds()
    return [i for i, c in enumerate(task.solution) if kinds.get(c.name) == "write"]
