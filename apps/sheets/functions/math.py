"""Arithmetic: SUM and its conditional forms, products, rounding, integer maths."""

from __future__ import annotations

import math
import operator
from collections import deque
from collections.abc import Callable, Iterator
from decimal import ROUND_CEILING, ROUND_DOWN, ROUND_FLOOR, ROUND_HALF_UP, ROUND_UP, Decimal
from itertools import accumulate, compress, repeat
from operator import itemgetter

from officegym.apps.sheets.functions import EVEN_CRITERIA, fn, numbers
from officegym.apps.sheets.functions.criteria import column_mask, matching_positions
from officegym.apps.sheets.runtime import Ctx, Rng, is_array
from officegym.apps.sheets.values import DIV0, NUM, VALUE, Raise, Value, XlError, as_number


def _n(v: Value) -> float:
    return as_number(v)


@fn("SUM", 1, None, mode="raw")
def sum_(ctx: Ctx, *args: object) -> float:
    return math.fsum(numbers(args))


@fn("PRODUCT", 1, None, mode="raw")
def product(ctx: Ctx, *args: object) -> float:
    return math.prod(numbers(args))


@fn("SUMSQ", 1, None, mode="raw")
def sumsq(ctx: Ctx, *args: object) -> float:
    return math.fsum(x * x for x in numbers(args))


def _grid(arg: object) -> list[list[Value]]:
    if isinstance(arg, Rng):
        return arg.matrix()
    if is_array(arg):
        return arg  # type: ignore[return-value]
    return [[arg]]  # type: ignore[list-item]


@fn("SUMPRODUCT", 1, None, mode="raw")
def sumproduct(ctx: Ctx, *args: object) -> float:
    """Products of corresponding entries, summed; non-numbers count as 0. Ranges much
    larger than what their sheet stores are walked sparsely (a whole sheet costs its
    stored cells, not its area)."""
    shapes = {
        (a.rows, a.cols) if isinstance(a, Rng) else (len(a), len(a[0])) if is_array(a) else (1, 1)
        for a in args
    }  # type: ignore[arg-type]
    if len(shapes) > 1:
        raise Raise(VALUE)
    ranges = [a for a in args if isinstance(a, Rng)]
    if len(ranges) == len(args) and any(a.sparse() for a in ranges):
        return _sumproduct_sparse(ranges)
    if all(isinstance(a, Rng) and a.cols == 1 for a in args):
        columns = [a.cells() for a in args]  # type: ignore[union-attr]
        odds = [a.odd(len(c)) for a, c in zip(args, columns, strict=True)]  # type: ignore[union-attr]
        if all(odd is not None for odd in odds):
            return _sum_in_order(columns, odds)  # type: ignore[arg-type]
        return _sumproduct_columns(columns)
    grids = [_grid(a) for a in args]
    rows = min(len(g) for g in grids) if grids else 0
    total = 0.0
    for i in range(rows):
        for j in range(len(grids[0][i])):
            p = 1.0
            for g in grids:
                v = g[i][j] if j < len(g[i]) else None
                if isinstance(v, XlError):
                    raise Raise(v)
                p *= float(v) if isinstance(v, float | int) and not isinstance(v, bool) else 0.0
            total += p
    return total


def _sumproduct_sparse(ranges: list[Rng]) -> float:
    """SUMPRODUCT of same-shaped ranges over the first one's stored numbers (a product
    is 0 wherever any factor is blank), in row order as the dense walk adds them."""
    for rng in ranges:
        for _, _, v in rng.stored():
            if type(v) is XlError:
                raise Raise(v)
    first, rest = ranges[0], ranges[1:]
    hits = sorted((r, c, v) for r, c, v in first.stored() if type(v) is float)
    total = 0.0
    for r, c, v in hits:
        p = v
        for other in rest:
            w = other.value_at(other.r1 + r - first.r1, other.c1 + c - first.c1)
            p *= w if type(w) is float else 0.0
        total += p
    return total


def _sum_in_order(columns: list[list[Value]], odds: list[list[int]]) -> float:
    """`_sumproduct_columns` for columns whose non-numbers are known (`odds`, offsets):
    those are errors (raised) or 0, then the same products are added in the same order
    from 0.0, in C, so the same float results."""
    for col, odd in zip(columns, odds, strict=True):
        for i in odd:
            if type(col[i]) is XlError:
                raise Raise(col[i])  # type: ignore[arg-type]
    for col, odd in zip(columns, odds, strict=True):
        for i in odd:
            col[i] = 0.0
    products: Iterator[Value] = iter(columns[0])
    for col in columns[1:]:
        products = map(operator.mul, products, col)
    return deque(accumulate(products, initial=0.0), maxlen=1)[0]


def _sumproduct_columns(columns: list[list[Value]]) -> float:
    for col in columns:
        for v in col:
            if type(v) is XlError:
                raise Raise(v)
    total = 0.0
    for values in zip(*columns, strict=False):
        p = 1.0
        for v in values:
            p *= v if type(v) is float else 0.0
        total += p
    return total


def _quantize(x: float, digits: int, mode: str) -> float:
    d = Decimal(repr(x))
    exp = Decimal(1).scaleb(-digits)
    return (
        float(d.quantize(exp, rounding=mode))
        if digits >= 0
        else float(
            (d / Decimal(10) ** -digits).quantize(Decimal(1), rounding=mode)
            * Decimal(10) ** -digits
        )
    )


def _to_digits(mode: str) -> Callable[..., float]:
    """ROUND and its kin: the number rounded (by `mode`) to `digits` decimal places."""

    def rounded(x: Value, digits: Value = 0.0) -> float:
        return _quantize(_n(x), int(_n(digits)), mode)

    return rounded


ROUNDINGS = {
    "ROUND": ROUND_HALF_UP,
    "ROUNDUP": ROUND_UP,
    "ROUNDDOWN": ROUND_DOWN,
    "TRUNC": ROUND_DOWN,
}
for _name, _mode in ROUNDINGS.items():
    fn(_name, 1, 2)(_to_digits(_mode))


@fn("INT", 1)
def int_(x: Value) -> float:
    return float(math.floor(_n(x)))


@fn("MROUND", 2)
def mround(x: Value, multiple: Value) -> float:
    a, m = _n(x), _n(multiple)
    if m == 0:
        return 0.0
    if a * m < 0:
        raise Raise(NUM)
    return _quantize(a / m, 0, ROUND_HALF_UP) * m


def _multiple(a: float, s: float, rounding: str, both_negative: str) -> float:
    """`a` rounded to a multiple of `s` (`both_negative` rounding when both are negative)."""
    if a > 0 and s < 0:
        raise Raise(NUM)
    mode = both_negative if a < 0 and s < 0 else rounding
    return float(Decimal(repr(a / s)).quantize(Decimal(1), rounding=mode)) * s


@fn("CEILING", 1, 2)
def ceiling(x: Value, significance: Value = 1.0) -> float:
    a, s = _n(x), _n(significance)
    if s == 0:
        return 0.0
    return _multiple(a, s, ROUND_CEILING, ROUND_UP)


@fn("FLOOR", 1, 2)
def floor(x: Value, significance: Value = 1.0) -> float:
    a, s = _n(x), _n(significance)
    if s == 0:
        raise Raise(DIV0)
    return _multiple(a, s, ROUND_FLOOR, ROUND_DOWN)


def _math_rounding(step: Callable[[float], int]) -> Callable[..., float]:
    """CEILING.MATH or FLOOR.MATH: `step` (ceil or floor) to a multiple of the significance;
    a nonzero `mode` rounds negative numbers away from zero instead."""

    def rounded(x: Value, significance: Value = 1.0, mode: Value = 0.0) -> float:
        a, s = _n(x), abs(_n(significance)) or 1.0
        if a < 0 and _n(mode):
            return -step(-a / s) * s
        return step(a / s) * s

    return rounded


fn("CEILING.MATH", 1, 3)(_math_rounding(math.ceil))
fn("FLOOR.MATH", 1, 3)(_math_rounding(math.floor))


@fn("ABS", 1)
def abs_(x: Value) -> float:
    return abs(_n(x))


@fn("SIGN", 1)
def sign(x: Value) -> float:
    a = _n(x)
    return float((a > 0) - (a < 0))


@fn("MOD", 2)
def mod(x: Value, y: Value) -> float:
    a, b = _n(x), _n(y)
    if b == 0:
        raise Raise(DIV0)
    return a - b * math.floor(a / b)


@fn("QUOTIENT", 2)
def quotient(x: Value, y: Value) -> float:
    a, b = _n(x), _n(y)
    if b == 0:
        raise Raise(DIV0)
    return float(math.trunc(a / b))


@fn("POWER", 2)
def power(x: Value, y: Value) -> float:
    a, b = _n(x), _n(y)
    if a == 0 and b <= 0:
        raise Raise(NUM if b == 0 else DIV0)
    r = a**b
    if isinstance(r, complex):
        raise Raise(NUM)
    return float(r)


def _of_a_number(f: Callable[[float], float]) -> Callable[[Value], float]:
    """The spreadsheet function that applies `f` to its one argument, read as a number."""
    return lambda x: f(_n(x))


for _name, _f in {"SQRT": math.sqrt, "EXP": math.exp, "LN": math.log}.items():
    fn(_name, 1)(_of_a_number(_f))


@fn("LOG", 1, 2)
def log(x: Value, base: Value = 10.0) -> float:
    b = _n(base)
    if b == 1:
        raise Raise(DIV0)
    return math.log(_n(x), b)


@fn("LOG10", 1)
def log10(x: Value) -> float:
    return math.log10(_n(x))


@fn("PI", 0)
def pi() -> float:
    return math.pi


TRIGONOMETRY = {
    "RADIANS": math.radians,
    "DEGREES": math.degrees,
    "SIN": math.sin,
    "COS": math.cos,
    "TAN": math.tan,
}
for _name, _f in TRIGONOMETRY.items():
    fn(_name, 1)(_of_a_number(_f))


@fn("EVEN", 1)
def even(x: Value) -> float:
    a = _n(x)
    n = math.ceil(abs(a) / 2) * 2
    return float(n if a >= 0 else -n)


@fn("ODD", 1)
def odd(x: Value) -> float:
    a = _n(x)
    n = math.ceil(abs(a))
    n = n if n % 2 else n + 1
    return float(n if a >= 0 else -n)


@fn("FACT", 1)
def fact(x: Value) -> float:
    """n! for 0 <= n <= 170, as Excel (171! overflows a double: #NUM!, never computed)."""
    a = _n(x)
    if not 0 <= a < 171:
        raise Raise(NUM)
    return float(math.factorial(int(a)))


@fn("GCD", 1, None, mode="raw")
def gcd(ctx: Ctx, *args: object) -> float:
    nums = [int(x) for x in numbers(args)]
    if any(not 0 <= x < 2**53 for x in nums):
        raise Raise(NUM)
    return float(math.gcd(*nums))


@fn("LCM", 1, None, mode="raw")
def lcm(ctx: Ctx, *args: object) -> float:
    """Least common multiple; #NUM! past 2**53 (Excel's bound), checked as it grows so
    that many large arguments never build a huge integer."""
    nums = [int(x) for x in numbers(args)]
    if any(not 0 <= x < 2**53 for x in nums):
        raise Raise(NUM)
    out = 1
    for x in nums:
        out = math.lcm(out, x)
        if out >= 2**53:
            raise Raise(NUM)
    return float(out)


def matched_values(target: object, crit: list[tuple[object, Value]]) -> list[Value]:
    """The values of `target` where every criterion matches, in row order (blanks past
    the sheet's used rows may be left out: every caller skips blanks)."""
    if isinstance(target, Rng) and target.cols == 1:
        keep = column_mask(crit)
        if keep is not None:
            return list(compress(target.column(0), keep))
    hits, _, _ = matching_positions(crit)
    return _target(target, hits)


def _target(rng: object, hits: list[tuple[int, int]]) -> list[Value]:
    """The values of `rng` at the matching offsets."""
    if isinstance(rng, Rng):
        if rng.cols == 1:
            column = rng.column(0)
            last = max(map(itemgetter(0), hits), default=-1)
            column.extend(repeat(None, last + 1 - len(column)))  # rows past the sheet: blank
            return list(map(column.__getitem__, map(itemgetter(0), hits)))
        return [rng.value_at(rng.r1 + i, rng.c1 + j) for i, j in hits]
    grid = rng if is_array(rng) else [[rng]]
    return [grid[i][j] for i, j in hits]  # type: ignore[index]


def _sum_numbers(vals: list[Value]) -> float:
    if list(map(type, vals)).count(float) == len(vals):
        return math.fsum(vals)  # type: ignore[arg-type]
    nums = [v for v in vals if type(v) is float or type(v) is int]  # bools are not numbers
    if len(nums) != len(vals):
        for v in vals:
            if isinstance(v, XlError):
                raise Raise(v)
    return math.fsum(nums)


@fn("SUMIF", 2, 3, mode="raw", lift=(1,))
def sumif(ctx: Ctx, rng: object, criterion: object, sum_range: object = None) -> float:
    from officegym.apps.sheets.functions import scalar

    crit = [(rng, scalar(criterion, ctx))]
    return _sum_numbers(matched_values(sum_range if sum_range is not None else rng, crit))


@fn("SUMIFS", 3, None, mode="raw", lift=EVEN_CRITERIA)
def sumifs(ctx: Ctx, sum_range: object, *pairs: object) -> float:
    from officegym.apps.sheets.functions import scalar

    if len(pairs) % 2:
        raise Raise(VALUE)
    crit = [(pairs[i], scalar(pairs[i + 1], ctx)) for i in range(0, len(pairs), 2)]
    check_shape(sum_range, crit)
    return _sum_numbers(matched_values(sum_range, crit))


def check_shape(target: object, crit: list[tuple[object, Value]]) -> None:
    if isinstance(target, Rng):
        for rng, _ in crit:
            if isinstance(rng, Rng) and (rng.rows, rng.cols) != (target.rows, target.cols):
                raise Raise(VALUE)
