"""Syntax trees -> Python closures, cached by the formula's relative (R1C1) form.

`compile_formula(text, row, col)` returns a `Compiled`: `run(ctx)` evaluates it for
the cell in `ctx` and `refs` lists what it reads (for the dependency graph). Formulas
that differ only by where they sit (a column filled down) share one compiled form, so
compiling costs a tokenization per cell and a parse per distinct formula.
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Protocol

from officegym.apps.sheets import budget, functions
from officegym.apps.sheets.parse import FormulaError, RefT, lex, parse_tree
from officegym.apps.sheets.refs import col_index
from officegym.apps.sheets.runtime import Ctx, Rng, broadcast, is_array
from officegym.apps.sheets.values import (
    COMPARISONS,
    DIV0,
    NAME,
    NUM,
    REF,
    VALUE,
    Raise,
    Value,
    XlError,
    as_number,
    as_text,
    compare,
)

__all__ = ["Compiled", "Node", "cache_size", "compile_cell", "compile_formula", "fast_key"]
__all__ += ["shown"]

Node = Callable[[Ctx], Any]


class _Book(Protocol):  # what evaluation needs of a workbook (see engine.Book)
    def value(self, sid: int, row: int, col: int) -> Value: ...


@dataclass(frozen=True)
class Compiled:
    """A compiled formula: `run(ctx)` gives its value; `refs` are the references it reads;
    `calls` the functions it calls. A volatile formula (INDIRECT, OFFSET) may read cells
    its `refs` do not name, so the engine recomputes it on every recalculation."""

    run: Node
    refs: tuple[RefT, ...]
    key: str
    calls: frozenset[str] = frozenset()
    raw: Node | None = None  # `run` before `shown`: an array or range kept whole (spill)

    @property
    def volatile(self) -> bool:
        return not VOLATILE.isdisjoint(self.calls)


VOLATILE = frozenset({"INDIRECT", "OFFSET"})  # read cells computed at run time
_GIVES_REF = VOLATILE  # functions whose value may be a reference (`Rng`)
Scope = dict[str, int]  # LET: a bound name -> its slot
_LET: ContextVar[dict[int, Any]] = ContextVar("let_values", default={})  # noqa: B039
_SLOTS = itertools.count()


_CACHE: dict[str, Compiled] = {}


def cache_size() -> int:
    return len(_CACHE)


def compile_formula(formula: str, row: int, col: int) -> Compiled:
    """The compiled form of `formula` (without '=') typed in (row, col); `FormulaError`
    (an `Invalid`) when it is malformed."""
    lexed = lex(formula, row, col)
    found = _CACHE.get(lexed.key)
    if found is None:
        tree = parse_tree(formula, lexed)
        refs: list[RefT] = []
        run = _node(tree, formula, refs, want_ref=False)
        found = Compiled(_top(run), tuple(dict.fromkeys(refs)), lexed.key, _calls(tree), run)
        if len(_CACHE) > 200_000:
            _CACHE.clear()
        _CACHE[lexed.key] = found
    return found


def shown(v: Any) -> Value:
    """What a cell shows of a formula's result: a reference or an array gives its top-left
    (the rest spills, see `spill.py`); a blank gives 0."""
    if isinstance(v, Rng):
        v = v.value_at(v.r1, v.c1) if v.valid else REF
    elif is_array(v):
        v = v[0][0] if v and v[0] else VALUE
    if v is None:
        return 0.0
    if isinstance(v, int) and not isinstance(v, bool):
        return float(v)
    return v


def _top(run: Node) -> Node:
    """The formula's run giving the one value its cell shows (`shown`)."""
    return lambda ctx: shown(run(ctx))


def _calls(tree: Any) -> frozenset[str]:
    """The names of the functions a syntax tree calls."""
    found: set[str] = set()
    stack = [tree]
    while stack:
        t = stack.pop()
        if isinstance(t, tuple) and t and t[0] == "func":
            found.add(t[1])
            stack.extend(t[2])
        elif isinstance(t, tuple) and t and t[0] in ("neg", "pos", "pct"):
            stack.append(t[1])
        elif isinstance(t, tuple) and t and t[0] == "bin":
            stack.extend(t[2:])
    return frozenset(found)


def _node(
    tree: tuple, formula: str, refs: list[RefT], *, want_ref: bool, scope: Scope | None = None
) -> Node:
    kind = tree[0]
    if kind in ("num", "str", "bool", "err"):
        const = tree[1]
        return lambda ctx: const
    if kind == "missing":
        return lambda ctx: None
    if kind == "arr":
        rows = [list(r) for r in tree[1]]
        return lambda ctx: rows
    if kind == "ref":
        ref = tree[1]
        if scope and ref.name is not None and ref.sheet is None and ref.name.upper() in scope:
            return _bound(scope[ref.name.upper()], want_ref)
        refs.append(ref)
        return _ref(ref, want_ref)
    if kind == "func" and tree[1] == "LET":
        return _let(tree[2], formula, refs, want_ref, scope or {})
    if kind == "func":
        return _func(tree[1], tree[2], formula, refs, want_ref, scope)
    if kind == "neg":
        inner = _node(tree[1], formula, refs, want_ref=False, scope=scope)
        return _unary(inner, operator.neg)
    if kind == "pos":
        return _node(tree[1], formula, refs, want_ref=want_ref, scope=scope)
    if kind == "pct":
        inner = _node(tree[1], formula, refs, want_ref=False, scope=scope)
        return _unary(inner, lambda x: x / 100)
    left = _node(tree[2], formula, refs, want_ref=False, scope=scope)
    right = _node(tree[3], formula, refs, want_ref=False, scope=scope)
    return _binary(tree[1], left, right)


def _ref(ref: RefT, want_ref: bool) -> Node:
    single = ref.last is None and ref.name is None

    def rng(ctx: Ctx) -> Rng | XlError:
        return ctx.resolve(ref)

    if want_ref:
        return rng
    if single:
        first, sheet = ref.first, ref.sheet

        def cell(ctx: Ctx) -> Value:
            r, c = first.at(ctx.row, ctx.col)
            if r < 1 or c < 1:
                return REF
            sid = ctx.sid if sheet is None else ctx.sheet_id(sheet)
            return REF if sid is None else ctx.book.value(sid, r, c)

        return cell

    return _dereferenced(rng)


def _dereferenced(node: Node) -> Node:
    """`node` with a reference it gives read as values: one cell's value, or an array."""

    def values(ctx: Ctx) -> Any:
        found = node(ctx)
        if not isinstance(found, Rng):
            return found
        return found.value_at(found.r1, found.c1) if found.size == 1 else found.matrix()

    return values


def _bound(slot: int, want_ref: bool) -> Node:
    """A name bound by an enclosing LET: the value computed for it in this evaluation."""

    def get(ctx: Ctx) -> Any:
        return _LET.get()[slot]

    return get if want_ref else _dereferenced(get)


def _let(args: list[tuple], formula: str, refs: list[RefT], want_ref: bool, scope: Scope) -> Node:
    """LET(name1, value1, [name2, value2, ...], calculation): each value computed once
    (it may use the names before it), the calculation reading them by name. The values
    live in a context variable for the extent of the call, so that a compiled formula
    shared by many cells (and threads) stays pure."""
    if len(args) < 3 or len(args) % 2 == 0:
        raise FormulaError(formula, "LET takes name, value pairs and then a calculation")
    inner, bindings = dict(scope), []
    for name_tree, value_tree in zip(args[:-1:2], args[1:-1:2], strict=True):
        ref = name_tree[1] if name_tree[0] == "ref" else None
        if ref is None or ref.name is None or ref.sheet is not None:
            raise FormulaError(formula, "LET's names must be plain names, such as x or total")
        value = _node(value_tree, formula, refs, want_ref=True, scope=inner)
        inner[ref.name.upper()] = slot = next(_SLOTS)
        bindings.append((slot, value))
    body = _node(args[-1], formula, refs, want_ref=want_ref, scope=inner)

    def run(ctx: Ctx) -> Any:
        env = dict(_LET.get())
        token = _LET.set(env)
        try:
            for slot, value in bindings:
                env[slot] = value(ctx)
            return body(ctx)
        finally:
            _LET.reset(token)

    return run


def _func(
    name: str,
    args: list[tuple],
    formula: str,
    refs: list[RefT],
    want_ref: bool = False,
    scope: Scope | None = None,
) -> Node:
    spec = functions.FUNCTIONS.get(name)
    if spec is None:
        return lambda ctx: NAME
    if len(args) < spec.min_args or (spec.max_args is not None and len(args) > spec.max_args):
        most = "" if spec.max_args is None else f" to {spec.max_args}"
        raise FormulaError(
            formula, f"{name} takes {spec.min_args}{most} arguments, not {len(args)}"
        )
    nodes = [_node(a, formula, refs, want_ref=True, scope=scope) for a in args]
    if name in _POOLED and all(a[0] in ("ref", "num", "str", "bool") for a in args):
        return _pooled(spec.bind(nodes), [a[1] for a in args if a[0] == "ref"])
    run = spec.bind(nodes)
    return _dereferenced(run) if name in _GIVES_REF and not want_ref else run


# Aggregates that never look at the formula's own cell: called over the same ranges
# during one recalculation, they give the same value, so a thousand ``=B2/SUM(B:B)``
# sum column B once (the pool lives on the book, see `engine.Book.recalc`).
_POOLED = frozenset(
    {"SUM", "COUNT", "COUNTA", "AVERAGE", "MIN", "MAX", "PRODUCT", "SUMSQ", "MEDIAN"}
    | {"SUMPRODUCT", "AVERAGEA", "MINA", "MAXA"}
)


def _pooled(call: Node, args: list[RefT]) -> Node:
    """`call` remembered in the workbook's pool (while it recalculates) under this call
    site and the areas its references name from the evaluating cell."""
    site = object()

    def run(ctx: Ctx) -> Any:
        pool = getattr(ctx.book, "pool", None)
        if pool is None:
            return call(ctx)
        key = (site, ctx.sid, *(r.name or r.area(ctx.row, ctx.col) for r in args))
        found = pool.get(key, pool)
        if found is pool:
            found = pool[key] = call(ctx)
        return found

    return run


def _unary(inner: Node, fn: Callable[[float], float]) -> Node:
    def run(ctx: Ctx) -> Value:
        v = inner(ctx)
        if is_array(v):
            return [[_apply1(fn, x) for x in row] for row in v]
        return _apply1(fn, v)

    return run


def _apply1(fn: Callable[[float], float], v: Value) -> Value:
    if isinstance(v, XlError):
        return v
    try:
        return fn(as_number(v))
    except Raise as r:
        return r.error


def _arith(op: str, a: float, b: float) -> Value:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return DIV0 if b == 0 else a / b
    if a == 0 and b <= 0:
        return NUM if b == 0 else DIV0
    try:
        result = a**b
    except OverflowError:
        return NUM
    return NUM if isinstance(result, complex) else float(result)


def _scalar_op(op: str, a: Value, b: Value) -> Value:
    if isinstance(a, XlError):
        return a
    if isinstance(b, XlError):
        return b
    try:
        if op in COMPARISONS:
            return COMPARISONS[op](compare(a, b))
        if op == "&":
            left, right = as_text(a), as_text(b)
            budget.text_size(len(left) + len(right))
            return left + right
        return _arith(op, as_number(a), as_number(b))
    except Raise as r:
        return r.error


def _binary(op: str, left: Node, right: Node) -> Node:
    def run(ctx: Ctx) -> Value:
        a, b = left(ctx), right(ctx)
        if is_array(a) or is_array(b):
            return broadcast(lambda x, y: _scalar_op(op, x, y), a, b)
        return _scalar_op(op, a, b)

    return run


# ---------------------------------------------------------------- the fast path

_CELL_REF = re.compile(
    r"(?<![\w.$'!])((?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?(\$?)([A-Za-z]{1,3})(\$?)(\d{1,7})(?![\w(!.])"
)
_WHOLE = re.compile(r"(?<![\w$])\$?(?:[A-Za-z]{1,3}|\d{1,7}):\$?(?:[A-Za-z]{1,3}|\d{1,7})(?![\w(])")
_FAST: dict[str, Compiled] = {}


def fast_key(formula: str, row: int, col: int) -> str | None:
    """The formula's relative form by a regular expression, without tokenizing: for
    formulas with no text literals and no whole-column or whole-row references (None
    otherwise). Two formulas with the same fast key compile to the same closure."""
    if '"' in formula or _WHOLE.search(formula):
        return None

    def rel(m: re.Match[str]) -> str:
        sheet, ca, letters, ra, digits = m.groups()
        c = col_index(letters) if ca else col_index(letters) - col
        r = int(digits) if ra else int(digits) - row
        return f"{(sheet or '').upper()}<{ca}{c},{ra}{r}>"

    return _CELL_REF.sub(rel, formula.upper())


def compile_cell(formula: str, row: int, col: int) -> Compiled:
    """`compile_formula`, skipping the tokenizer for a formula whose relative form was
    compiled before (loading a workbook of filled-down columns tokenizes each form once)."""
    key = fast_key(formula, row, col)
    if key is not None:
        found = _FAST.get(key)
        if found is not None:
            return found
    compiled = compile_formula(formula, row, col)
    if key is not None:
        if len(_FAST) > 200_000:
            _FAST.clear()
        _FAST[key] = compiled
    return compiled
