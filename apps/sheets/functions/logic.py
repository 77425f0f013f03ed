"""Logic and information: IF, IFS, IFERROR, SWITCH, AND/OR/NOT, CHOOSE and the IS-
functions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from officegym.apps.sheets.functions import fn, scalar, values_of
from officegym.apps.sheets.runtime import Ctx, Rng, broadcast, is_array
from officegym.apps.sheets.values import (
    NA,
    VALUE,
    Raise,
    Value,
    XlError,
    as_bool,
    as_number,
    compare,
)

Thunk = Callable[[], Any]


def _cond(ctx: Ctx, v: Any) -> Any:
    if isinstance(v, Rng) and v.size > 1:
        v = v.matrix()
    if is_array(v):
        return [[_flag(x) for x in row] for row in v]
    return _flag(scalar(v, ctx))


def _flag(v: Value) -> bool | XlError:
    if isinstance(v, XlError):
        return v
    try:
        return as_bool(v)
    except Raise as r:
        return r.error


def _branch(v: Any) -> Any:
    return 0.0 if v is None else v


@fn("IF", 1, 3, mode="lazy")
def if_(ctx: Ctx, cond: Thunk, then: Thunk | None = None, other: Thunk | None = None) -> Any:
    c = _cond(ctx, cond())
    yes = (lambda: _branch(then())) if then else (lambda: True)
    no = (lambda: _branch(other())) if other else (lambda: False)
    if is_array(c):
        a, b = _values(ctx, yes()), _values(ctx, no())
        return _pick(c, a, b)
    if isinstance(c, XlError):
        return c
    return yes() if c else no()


def _values(ctx: Ctx, v: Any) -> Any:
    return v.matrix() if isinstance(v, Rng) else v


def _pick(c: list[list[Any]], a: Any, b: Any) -> list[list[Value]]:
    chosen = broadcast(lambda f, x: (f, x), c, a)
    return broadcast(
        lambda fx, y: fx[0] if isinstance(fx[0], XlError) else (fx[1] if fx[0] else y), chosen, b
    )


@fn("IFS", 2, None, mode="lazy")
def ifs(ctx: Ctx, *args: Thunk) -> Any:
    if len(args) % 2:
        raise Raise(VALUE)
    for i in range(0, len(args), 2):
        c = _flag(scalar(args[i](), ctx))
        if isinstance(c, XlError):
            return c
        if c:
            return _branch(args[i + 1]())
    return NA


@fn("IFERROR", 2, mode="lazy")
def iferror(ctx: Ctx, value: Thunk, fallback: Thunk) -> Any:
    v = value()
    if is_array(v):
        alt = fallback()
        return broadcast(lambda x, y: y if isinstance(x, XlError) else x, v, alt)
    v = scalar(v, ctx) if isinstance(v, Rng) and v.size == 1 else v
    return _branch(fallback()) if isinstance(v, XlError) else v


@fn("IFNA", 2, mode="lazy")
def ifna(ctx: Ctx, value: Thunk, fallback: Thunk) -> Any:
    v = value()
    v = scalar(v, ctx) if isinstance(v, Rng) and v.size == 1 else v
    return _branch(fallback()) if v == NA else v


def _logicals(args: tuple[object, ...]) -> list[bool]:
    out: list[bool] = []
    for a in args:
        if isinstance(a, Rng) or is_array(a):
            for v in values_of(a):
                if isinstance(v, XlError):
                    raise Raise(v)
                if isinstance(v, bool | float | int):
                    out.append(bool(v))
        elif a is not None:
            out.append(as_bool(a))  # type: ignore[arg-type]
    if not out:
        raise Raise(VALUE)
    return out


@fn("AND", 1, None, mode="raw")
def and_(ctx: Ctx, *args: object) -> bool:
    return all(_logicals(args))


@fn("OR", 1, None, mode="raw")
def or_(ctx: Ctx, *args: object) -> bool:
    return any(_logicals(args))


@fn("XOR", 1, None, mode="raw")
def xor(ctx: Ctx, *args: object) -> bool:
    return sum(_logicals(args)) % 2 == 1


@fn("NOT", 1)
def not_(v: Value) -> bool:
    return not as_bool(v)


@fn("TRUE", 0)
def true() -> bool:
    return True


@fn("FALSE", 0)
def false() -> bool:
    return False


@fn("SWITCH", 3, None, mode="lazy")
def switch(ctx: Ctx, expr: Thunk, *cases: Thunk) -> Any:
    v = scalar(expr(), ctx)
    if isinstance(v, XlError):
        return v
    pairs, default = (cases, None) if len(cases) % 2 == 0 else (cases[:-1], cases[-1])
    for i in range(0, len(pairs), 2):
        case = scalar(pairs[i](), ctx)
        if isinstance(case, XlError):
            return case
        numbers = _num(case) and _num(v)
        if (type(case) is type(v) or numbers) and compare(v, case) == 0:
            return _branch(pairs[i + 1]())
    return _branch(default()) if default else NA


@fn("CHOOSE", 2, None, mode="lazy")
def choose(ctx: Ctx, index: Thunk, *options: Thunk) -> Any:
    i = int(as_number(scalar(index(), ctx)))
    if not 1 <= i <= len(options):
        raise Raise(VALUE)
    return _branch(options[i - 1]())


def _info(test: Callable[[Value], bool]) -> Callable[[Ctx, object], Any]:
    def run(ctx: Ctx, v: object) -> Any:
        if isinstance(v, Rng) and v.size > 1:
            v = v.matrix()
        if is_array(v):
            return [[test(x) for x in row] for row in v]  # type: ignore[union-attr]
        return test(scalar(v, ctx))

    return run


def _num(v: Value) -> bool:
    return isinstance(v, float | int) and not isinstance(v, bool)


for _name, _test in {
    "ISBLANK": lambda v: v is None,
    "ISNUMBER": _num,
    "ISTEXT": lambda v: isinstance(v, str),
    "ISNONTEXT": lambda v: not isinstance(v, str),
    "ISLOGICAL": lambda v: isinstance(v, bool),
    "ISERROR": lambda v: isinstance(v, XlError),
    "ISERR": lambda v: isinstance(v, XlError) and v != NA,
    "ISNA": lambda v: v == NA,
}.items():
    fn(_name, 1, mode="raw")(_info(_test))


@fn("ISEVEN", 1)
def iseven(v: Value) -> bool:
    return int(as_number(v)) % 2 == 0


@fn("ISODD", 1)
def isodd(v: Value) -> bool:
    return int(as_number(v)) % 2 == 1


@fn("NA", 0)
def na() -> XlError:
    return NA


@fn("N", 1)
def n(v: Value) -> float:
    return float(v) if isinstance(v, float | int) else 0.0


@fn("T", 1)
def t(v: Value) -> str:
    return v if isinstance(v, str) else ""


_CODES = {"#NULL!": 1, "#DIV/0!": 2, "#VALUE!": 3, "#REF!": 4, "#NAME?": 5, "#NUM!": 6, "#N/A": 7}


@fn("ERROR.TYPE", 1, mode="raw")
def error_type(ctx: Ctx, v: object) -> Value:
    v = scalar(v, ctx)
    return float(_CODES[v.code]) if isinstance(v, XlError) else NA
