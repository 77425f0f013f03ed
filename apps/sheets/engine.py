"""The calculation engine: a workbook's cells in memory, the dependency graph, and
recalculation of exactly the cells an edit touches. A `Book` holds every sheet's cells
(input, value, format, compiled formula) and what each formula reads. `recalc(changed)`
follows the graph (cells by look-up, ranges by column buckets, spilled arrays by
`spill.Spills`), evaluates the affected formulas once each in topological order (volatile
ones, INDIRECT and OFFSET, once more after), then the readers of cells a spill changed;
formulas in a cycle get the circular-reference error. Changed cells go to `dirty`."""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, replace

from officegym.apps.sheets import budget, spill
from officegym.apps.sheets.columns import SheetData, Values
from officegym.apps.sheets.compiler import Compiled, compile_cell, compile_formula
from officegym.apps.sheets.formats import typed_value
from officegym.apps.sheets.outcome import outcome
from officegym.apps.sheets.parse import RefT
from officegym.apps.sheets.runtime import Ctx
from officegym.apps.sheets.values import CIRC, REF, Value
from officegym.errors import Invalid

__all__ = ["WIDE", "Book", "CellState", "Key", "SheetData"]

Key = tuple[int, int, int]  # (sheet id, row, col)
WIDE = 64  # ranges wider than this many columns are checked on every edit of their sheet


@dataclass(slots=True)
class CellState:
    """One stored cell: its row id (None until saved), input as typed, value, format.
    `owner` is the token of the book that may change it in place (a fork shares its
    parent's cells until it changes one: copy on write); `spill` an anchor's array size."""

    id: int | None
    input: str | None
    value: Value
    fmt: str | None = None
    formula: Compiled | None = None
    owner: int = 0
    spill: str | None = None


_TOKENS = itertools.count(1)


class Book:
    """A workbook's cells and formula graph, in memory."""

    def __init__(self, workbook_id: int, today: float) -> None:
        self.token = next(_TOKENS)
        self.workbook_id = workbook_id
        self.today = today
        self.sheets: dict[int, SheetData] = {}
        self.by_name: dict[str, int] = {}
        self.names: dict[str, tuple[int, tuple[int, int, int, int]]] = {}
        self.reads: dict[Key, list[tuple[int, tuple[int, int, int, int]]]] = {}
        self.cell_deps: dict[Key, dict[Key, None]] = {}
        self.col_deps: dict[tuple[int, int], dict[Key, list[tuple[int, int]]]] = {}
        self.wide_deps: dict[int, dict[Key, list[tuple[int, int, int, int]]]] = {}
        self.name_users: dict[Key, None] = {}
        self.volatile: dict[Key, None] = {}
        self.subtotals: dict[int, dict[tuple[int, int], None]] = {}  # cells calling SUBTOTAL
        self.dirty: dict[Key, None] = {}
        self.removed: list[int] = []  # ids of cell rows to delete
        self.circular: dict[Key, None] = {}
        self.spills = spill.Spills()
        self.over_budget: dict[Key, str] = {}  # cells the last recalculation cut short, why
        self.pool: dict[tuple, Value] | None = None  # aggregates computed while recalculating
        self.internal_errors = 0
        self.journal: dict[Key, tuple[str | None, str | None]] | None = None

    def fork(self) -> Book:
        """An independent copy (cells, names, graph), for a new episode or a grader's
        private copy: cheaper than loading the workbook again. Both books copy a shared
        cell before changing it: the parent takes a new token, so its own later edits
        cannot reach the fork either."""
        b = Book(self.workbook_id, self.today)
        self.token = next(_TOKENS)
        for sid, sh in self.sheets.items():  # cells shared until changed (see `own`)
            b.sheets[sid] = SheetData(
                sid, sh.name, dict(sh.cells), Values(sh.values), sh.max_row, sh.max_col
            )
        b.by_name, b.names, b.reads = dict(self.by_name), dict(self.names), dict(self.reads)
        b.cell_deps = {k: dict(v) for k, v in self.cell_deps.items()}
        b.col_deps = {k: {d: list(x) for d, x in v.items()} for k, v in self.col_deps.items()}
        b.wide_deps = {k: {d: list(x) for d, x in v.items()} for k, v in self.wide_deps.items()}
        b.name_users, b.volatile = dict(self.name_users), dict(self.volatile)
        b.subtotals = {k: dict(v) for k, v in self.subtotals.items()}
        b.circular, b.spills = dict(self.circular), self.spills.copy()
        return b

    def own(self, sid: int, row: int, col: int) -> CellState | None:
        """The cell's state, made this book's own first if a fork still shares it."""
        cells = self.sheets[sid].cells
        state = cells.get((row, col))
        if state is not None and state.owner != self.token:
            state = cells[(row, col)] = replace(state, owner=self.token)
        return state

    def place(self, sid: int, row: int, col: int, state: CellState | None) -> None:
        """Put a stored cell (or nothing) at a place, relinking its formula; values are
        taken as stored (no recalculation): for copies brought up to a saved state."""
        sheet = self.sheets[sid]
        key = (sid, row, col)
        old = sheet.cells.pop((row, col), None)
        sheet.values.pop((row, col), None)
        if old is not None and old.formula is not None:
            self._unlink(key)
        self.spills.note(key, None)
        if state is not None:
            state.formula = None
            self.load_cell(sid, row, col, state)

    def value(self, sid: int, row: int, col: int) -> Value:
        sheet = self.sheets.get(sid)
        return sheet.values.get((row, col)) if sheet is not None else REF

    def values_of(self, sid: int) -> dict[tuple[int, int], Value]:
        return self.sheets[sid].values

    def extent(self, sid: int) -> tuple[int, int]:
        s = self.sheets[sid]
        return s.max_row, s.max_col

    def sheet_id(self, name: str) -> int | None:
        return self.by_name.get(name.lower())

    def named(self, name: str) -> tuple[int, tuple[int, int, int, int]] | None:
        return self.names.get(name.upper())

    def add_sheet(self, sid: int, name: str) -> SheetData:
        sheet = SheetData(sid, name, {}, Values())
        self.sheets[sid] = sheet
        self.by_name[name.lower()] = sid
        return sheet

    def load_cell(self, sid: int, row: int, col: int, state: CellState) -> None:
        """Put a stored cell in place without recalculating (its value is trusted)."""
        sheet = self.sheets[sid]
        state.owner = self.token
        sheet.cells[(row, col)] = state
        if state.value is not None:
            sheet.values[(row, col)] = state.value
        if state.spill:
            self.spills.note((sid, row, col), state.spill)
        sheet.max_row, sheet.max_col = max(sheet.max_row, row), max(sheet.max_col, col)
        if state.input and state.input.startswith("=") and state.formula is None:
            try:
                state.formula = compile_cell(state.input[1:], row, col)
            except Invalid:  # a stored formula that no longer parses keeps its value
                state.formula = None
        if state.formula is not None:
            self._link((sid, row, col), state.formula)

    def _link(self, key: Key, formula: Compiled) -> None:
        sid, row, col = key
        areas: list[tuple[int, tuple[int, int, int, int]]] = []
        for ref in formula.refs:
            found = self._area(ref, sid, row, col, key)
            if found is not None:
                areas.append(found)
        self.reads[key] = areas
        if formula.volatile:
            self.volatile[key] = None
        if "SUBTOTAL" in formula.calls:
            self.subtotals.setdefault(sid, {})[(row, col)] = None
        for tsid, (r1, c1, r2, c2) in areas:
            if r1 == r2 and c1 == c2:
                self.cell_deps.setdefault((tsid, r1, c1), {})[key] = None
            elif c2 - c1 < WIDE:
                for c in range(c1, c2 + 1):
                    self.col_deps.setdefault((tsid, c), {}).setdefault(key, []).append((r1, r2))
            else:
                self.wide_deps.setdefault(tsid, {}).setdefault(key, []).append((r1, c1, r2, c2))

    def _area(
        self, ref: RefT, sid: int, row: int, col: int, key: Key
    ) -> tuple[int, tuple[int, int, int, int]] | None:
        if ref.name is not None:
            self.name_users[key] = None
            return self.names.get(ref.name.upper())
        area = ref.area(row, col)
        tsid = sid if ref.sheet is None else self.by_name.get(ref.sheet.lower())
        return None if area is None or tsid is None else (tsid, area)

    def _unlink(self, key: Key) -> None:
        for tsid, (r1, c1, r2, c2) in self.reads.pop(key, ()):
            if r1 == r2 and c1 == c2:
                self.cell_deps.get((tsid, r1, c1), {}).pop(key, None)
            elif c2 - c1 < WIDE:
                for c in range(c1, c2 + 1):
                    self.col_deps.get((tsid, c), {}).pop(key, None)
            else:
                self.wide_deps.get(tsid, {}).pop(key, None)
        self.name_users.pop(key, None)
        self.volatile.pop(key, None)
        self.subtotals.get(key[0], {}).pop(key[1:], None)

    def dependents(self, key: Key) -> list[Key]:
        """Formula cells that read `key` directly."""
        sid, row, col = key
        out = list(self.cell_deps.get(key, ()))
        for dep, spans in self.col_deps.get((sid, col), {}).items():
            if any(r1 <= row <= r2 for r1, r2 in spans):
                out.append(dep)
        for dep, areas in self.wide_deps.get(sid, {}).items():
            if any(r1 <= row <= r2 and c1 <= col <= c2 for r1, c1, r2, c2 in areas):
                out.append(dep)
        out.extend(self.spills.covering(self, key))
        return out

    def cell(self, sid: int, row: int, col: int) -> CellState | None:
        return self.sheets[sid].cells.get((row, col))

    def set_input(self, sid: int, row: int, col: int, text: str | None) -> None:
        """Type `text` into a cell (None or '' clears its content, keeping its format).
        A malformed formula raises `FormulaError` and changes nothing."""
        sheet = self.sheets[sid]
        key = (sid, row, col)
        old = self.own(sid, row, col)
        self.note(key, old)
        formula = None
        value: Value = None
        implied = None
        if text is not None and text.startswith("=") and len(text) > 1:
            formula = compile_formula(text[1:], row, col)
        elif text is not None and text.startswith("'"):
            value = text[1:]
        elif text:
            value, implied = typed_value(text)
        if old is not None and old.formula is not None:
            self._unlink(key)
        self.circular.pop(key, None)
        state = old or CellState(None, None, None, owner=self.token)
        state.input, state.formula = (text or None), formula
        state.fmt = state.fmt or implied
        state.value = value
        sheet.cells[(row, col)] = state
        self._set_value(sheet, row, col, value)
        if formula is not None:
            self._link(key, formula)
        self.dirty[key] = None

    def note(self, key: Key, state: CellState | None) -> None:
        """Journal the (input, format) a cell had before the operation `undo.track` notes."""
        if self.journal is not None and key not in self.journal:
            self.journal[key] = (state.input, state.fmt) if state is not None else (None, None)

    def set_format(self, sid: int, row: int, col: int, fmt: str | None) -> None:
        sheet, state = self.sheets[sid], self.own(sid, row, col)
        self.note((sid, row, col), state)
        if state is None:
            if fmt is None:
                return
            state = sheet.cells[(row, col)] = CellState(None, None, None, owner=self.token)
        state.fmt = fmt
        self.dirty[(sid, row, col)] = None

    def _set_value(self, sheet: SheetData, row: int, col: int, value: Value) -> None:
        if value is None:
            sheet.values.pop((row, col), None)
        else:
            sheet.values[(row, col)] = value
            sheet.max_row, sheet.max_col = max(sheet.max_row, row), max(sheet.max_col, col)

    def refit(self, sid: int) -> None:
        """Shrink a sheet's used extent to the cells that hold something."""
        sheet = self.sheets[sid]
        sheet.max_row = max((k[0] for k in sheet.cells), default=0)
        sheet.max_col = max((k[1] for k in sheet.cells), default=0)

    def drop(self, sid: int, row: int, col: int) -> None:
        """Remove a cell entirely (content and format)."""
        sheet = self.sheets[sid]
        self.note((sid, row, col), state := sheet.cells.pop((row, col), None))
        if state is None:
            return
        if state.formula is not None:
            self._unlink((sid, row, col))
        sheet.values.pop((row, col), None)
        if state.id is not None:
            self.removed.append(state.id)
        self.dirty.pop((sid, row, col), None)

    def recalc(self, changed: Iterable[Key]) -> int:
        """Re-evaluate every formula that depends on `changed` (and the changed formulas
        themselves), each once, in dependency order, then the volatile formulas and their
        dependents (they may read any cell just recomputed), all within one time budget
        (`budget`), aggregates over the same ranges computed once per pass (`pool`);
        returns how many formulas were evaluated."""
        self.over_budget = {}
        try:
            with budget.recalculation():
                self.pool = {}
                done = self._spilled(self._evaluate_in_order(*self._affected(changed)))
                if not self.volatile:
                    return done
                self.pool = {}  # the second pass may change what the first pooled
                return self._spilled(done + self._evaluate_in_order(*self._affected(self.volatile)))
        finally:
            self.pool = None

    def _spilled(self, done: int) -> int:
        """Recalculate the readers of cells spills changed (a few rounds: spills may feed
        spills); returns `done` plus the formulas evaluated."""
        for _ in range(8):
            moved = self.spills.take_changed()
            if not moved:
                break
            self.pool = {}
            done += self._evaluate_in_order(*self._affected(moved))
        return done

    def _affected(self, changed: Iterable[Key]) -> tuple[dict[Key, None], dict[Key, list[Key]]]:
        """The cells to evaluate after `changed`, and the edges ordering them."""
        affected: dict[Key, None] = dict.fromkeys(changed)
        edges: dict[Key, list[Key]] = {}
        queue = deque(affected)
        while queue:
            k = queue.popleft()
            deps = self.dependents(k)
            if deps:
                edges[k] = deps
            for d in deps:
                if d not in affected:
                    affected[d] = None
                    queue.append(d)
        return affected, edges

    def _evaluate_in_order(self, affected: dict[Key, None], edges: dict[Key, list[Key]]) -> int:
        indegree = dict.fromkeys(affected, 0)
        for deps in edges.values():
            for d in deps:
                indegree[d] += 1
        ready = deque(k for k, n in indegree.items() if n == 0)
        done = 0
        while ready:
            k = ready.popleft()
            done += self._evaluate(k)
            for d in edges.get(k, ()):
                indegree[d] -= 1
                if indegree[d] == 0:
                    ready.append(d)
        for k, n in indegree.items():
            if n > 0:
                self._store_value(k, CIRC)
                self.circular[k] = None
        return done

    def _evaluate(self, key: Key) -> int:
        sheet = self.sheets.get(key[0])
        state = sheet.cells.get(key[1:]) if sheet else None
        if state is None or state.formula is None:
            return self.spills.release(self, key)
        self.circular.pop(key, None)
        # once the time has run out, formulas show the budget's error unevaluated
        arrays: list[spill.Array] = []  # an array result to spill (spill.py)
        expired = budget.expired()
        value = self._over(key, budget.timeout()) if expired else self._run(key, state, arrays)
        self._store_value(key, spill.settle(self, key, value, arrays[0] if arrays else None))
        return 1

    def _run(self, key: Key, state: CellState, arrays: list[spill.Array]) -> Value:
        done = outcome(lambda: spill.evaluate(Ctx(self, *key, self.today), state.formula, arrays))
        self.internal_errors += done.internal
        return done.value if done.over is None else self._over(key, done.over)

    def _over(self, key: Key, over: budget.OverBudget) -> Value:
        self.over_budget[key] = over.reason
        return over.error

    def _store_value(self, key: Key, value: Value) -> None:
        sid, row, col = key
        sheet = self.sheets[sid]
        state = sheet.cells[(row, col)]
        if state.value != value or type(state.value) is not type(value):
            state = self.own(sid, row, col)  # type: ignore[assignment]
            state.value = value
            self._set_value(sheet, row, col, value)
            self.dirty[key] = None

    def recalc_all(self) -> int:
        """Evaluate every formula of the workbook (after structural changes, imports)."""
        cells = ((sid, k, st) for sid, s in self.sheets.items() for k, st in s.cells.items())
        return self.recalc([(sid, *k) for sid, k, st in cells if st.formula])

    def relink_all(self) -> None:
        """Rebuild the graph from the formulas (after sheets, names or cells moved)."""
        graphs = (self.reads, self.cell_deps, self.col_deps, self.wide_deps, self.name_users)
        for graph in (*graphs, self.volatile, self.subtotals):
            graph.clear()
        self.spills.rebuild(self)
        for sid, sheet in self.sheets.items():
            for (r, c), st in sheet.cells.items():
                if st.formula is not None:
                    self._link((sid, r, c), st.formula)
