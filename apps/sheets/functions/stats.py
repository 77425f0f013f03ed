"""Counting and statistics: AVERAGE, COUNT, MIN/MAX and their conditional forms,
medians, ranks, percentiles and deviations."""

from __future__ import annotations

import math
import statistics
from collections import Counter

from officegym.apps.sheets.functions import (
    EVEN_CRITERIA,
    ODD_CRITERIA,
    fn,
    numbers,
    scalar,
    values_of,
)
from officegym.apps.sheets.functions.criteria import count_matching
from officegym.apps.sheets.functions.math import check_shape, matched_values
from officegym.apps.sheets.runtime import Ctx, Rng, is_array
from officegym.apps.sheets.values import DIV0, NA, NUM, VALUE, Raise, Value, XlError, as_number


def nonempty(nums: list[float], error: XlError = DIV0) -> list[float]:
    """`nums`, or the error `error` (#DIV/0! unless said) when there are none."""
    if not nums:
        raise Raise(error)
    return nums


@fn("AVERAGE", 1, None, mode="raw")
def average(ctx: Ctx, *args: object) -> float:
    nums = nonempty(numbers(args))
    return math.fsum(nums) / len(nums)


def _a_values(args: tuple[object, ...]) -> list[float]:
    """Values as the -A functions read them: text in ranges 0, TRUE 1, FALSE 0."""
    out: list[float] = []
    for a in args:
        if isinstance(a, Rng) or is_array(a):
            for v in values_of(a):
                if isinstance(v, XlError):
                    raise Raise(v)
                out.append(float(v) if isinstance(v, float | int) else 0.0)
        elif a is not None:
            out.append(as_number(a))  # type: ignore[arg-type]
    return out


@fn("AVERAGEA", 1, None, mode="raw")
def averagea(ctx: Ctx, *args: object) -> float:
    nums = nonempty(_a_values(args))
    return math.fsum(nums) / len(nums)


@fn("MINA", 1, None, mode="raw")
def mina(ctx: Ctx, *args: object) -> float:
    return min(_a_values(args), default=0.0)


@fn("MAXA", 1, None, mode="raw")
def maxa(ctx: Ctx, *args: object) -> float:
    return max(_a_values(args), default=0.0)


@fn("COUNT", 1, None, mode="raw")
def count(ctx: Ctx, *args: object) -> float:
    n = 0
    for a in args:
        if isinstance(a, Rng) or is_array(a):
            n += sum(
                1 for v in values_of(a) if isinstance(v, float | int) and not isinstance(v, bool)
            )
        elif isinstance(a, bool | float | int):
            n += 1
        elif isinstance(a, str):
            try:
                as_number(a)
                n += 1
            except Raise:
                pass
    return float(n)


@fn("COUNTA", 1, None, mode="raw")
def counta(ctx: Ctx, *args: object) -> float:
    n = 0
    for a in args:
        if isinstance(a, Rng) or is_array(a):
            n += sum(1 for v in values_of(a) if v is not None)
        elif a is not None:
            n += 1
    return float(n)


@fn("COUNTBLANK", 1, mode="raw")
def countblank(ctx: Ctx, rng: object) -> float:
    if not isinstance(rng, Rng):
        raise Raise(VALUE)
    filled = sum(1 for v in rng.values() if v != "")
    return float(rng.size - filled)


@fn("MIN", 1, None, mode="raw")
def min_(ctx: Ctx, *args: object) -> float:
    return min(numbers(args), default=0.0)


@fn("MAX", 1, None, mode="raw")
def max_(ctx: Ctx, *args: object) -> float:
    return max(numbers(args), default=0.0)


def _pairs(ctx: Ctx, pairs: tuple[object, ...]) -> list[tuple[object, Value]]:
    if len(pairs) % 2 or not pairs:
        raise Raise(VALUE)
    return [(pairs[i], scalar(pairs[i + 1], ctx)) for i in range(0, len(pairs), 2)]


def _matched_numbers(target: object, crit: list[tuple[object, Value]]) -> list[float]:
    check_shape(target, crit)
    vals = matched_values(target, crit)
    if list(map(type, vals)).count(float) == len(vals):
        return vals  # type: ignore[return-value]
    for v in vals:
        if isinstance(v, XlError):
            raise Raise(v)
    return [float(v) for v in vals if isinstance(v, float | int) and not isinstance(v, bool)]


@fn("COUNTIF", 2, mode="raw", lift=(1,))
def countif(ctx: Ctx, rng: object, criterion: object) -> float:
    return float(count_matching([(rng, scalar(criterion, ctx))]))


@fn("COUNTIFS", 2, None, mode="raw", lift=ODD_CRITERIA)
def countifs(ctx: Ctx, *pairs: object) -> float:
    return float(count_matching(_pairs(ctx, pairs)))


@fn("AVERAGEIF", 2, 3, mode="raw", lift=(1,))
def averageif(ctx: Ctx, rng: object, criterion: object, avg_range: object = None) -> float:
    nums = nonempty(
        _matched_numbers(
            avg_range if avg_range is not None else rng, [(rng, scalar(criterion, ctx))]
        )
    )
    return math.fsum(nums) / len(nums)


@fn("AVERAGEIFS", 3, None, mode="raw", lift=EVEN_CRITERIA)
def averageifs(ctx: Ctx, avg_range: object, *pairs: object) -> float:
    nums = nonempty(_matched_numbers(avg_range, _pairs(ctx, pairs)))
    return math.fsum(nums) / len(nums)


@fn("MINIFS", 3, None, mode="raw", lift=EVEN_CRITERIA)
def minifs(ctx: Ctx, rng: object, *pairs: object) -> float:
    return min(_matched_numbers(rng, _pairs(ctx, pairs)), default=0.0)


@fn("MAXIFS", 3, None, mode="raw", lift=EVEN_CRITERIA)
def maxifs(ctx: Ctx, rng: object, *pairs: object) -> float:
    return max(_matched_numbers(rng, _pairs(ctx, pairs)), default=0.0)


@fn("MEDIAN", 1, None, mode="raw")
def median(ctx: Ctx, *args: object) -> float:
    return float(statistics.median(nonempty(numbers(args), NUM)))


@fn("MODE|MODE.SNGL", 1, None, mode="raw")
def mode(ctx: Ctx, *args: object) -> float:
    nums = numbers(args)
    counts = Counter(nums)
    best = max(counts.values(), default=0)
    if best < 2:
        raise Raise(NA)
    return next(x for x in nums if counts[x] == best)


def _kth(args: object, k: Value, largest: bool) -> float:
    nums = sorted(numbers([args]), reverse=largest)
    i = math.ceil(as_number(k))
    if not 1 <= i <= len(nums):
        raise Raise(NUM)
    return nums[i - 1]


@fn("LARGE", 2, mode="raw", lift=(1,))
def large(ctx: Ctx, arr: object, k: object) -> float:
    return _kth(arr, scalar(k, ctx), True)


@fn("SMALL", 2, mode="raw", lift=(1,))
def small(ctx: Ctx, arr: object, k: object) -> float:
    return _kth(arr, scalar(k, ctx), False)


@fn("RANK|RANK.EQ", 2, 3, mode="raw", lift=(0,))
def rank(ctx: Ctx, x: object, ref: object, order: object = None) -> float:
    value = as_number(scalar(x, ctx))
    nums = numbers([ref])
    if value not in nums:
        raise Raise(NA)
    ascending = order is not None and as_number(scalar(order, ctx)) != 0
    return float(1 + sum(1 for n in nums if (n < value if ascending else n > value)))


def _spread(args: tuple[object, ...], sample: bool) -> float:
    nums = numbers(args)
    if len(nums) < (2 if sample else 1):
        raise Raise(DIV0)
    return statistics.variance(nums) if sample else statistics.pvariance(nums)


@fn("VAR|VAR.S", 1, None, mode="raw")
def var(ctx: Ctx, *args: object) -> float:
    return _spread(args, True)


@fn("VARP|VAR.P", 1, None, mode="raw")
def varp(ctx: Ctx, *args: object) -> float:
    return _spread(args, False)


@fn("STDEV|STDEV.S", 1, None, mode="raw")
def stdev(ctx: Ctx, *args: object) -> float:
    return math.sqrt(_spread(args, True))


@fn("STDEVP|STDEV.P", 1, None, mode="raw")
def stdevp(ctx: Ctx, *args: object) -> float:
    return math.sqrt(_spread(args, False))


def _percentile(nums: list[float], p: float) -> float:
    if not nums or not 0 <= p <= 1:
        raise Raise(NUM)
    nums = sorted(nums)
    pos = p * (len(nums) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(nums) - 1)
    return nums[lo] + (pos - lo) * (nums[hi] - nums[lo])


@fn("PERCENTILE|PERCENTILE.INC", 2, mode="raw", lift=(1,))
def percentile(ctx: Ctx, arr: object, p: object) -> float:
    return _percentile(numbers([arr]), as_number(scalar(p, ctx)))


@fn("QUARTILE|QUARTILE.INC", 2, mode="raw", lift=(1,))
def quartile(ctx: Ctx, arr: object, q: object) -> float:
    quart = math.floor(as_number(scalar(q, ctx)))
    if not 0 <= quart <= 4:
        raise Raise(NUM)
    return _percentile(numbers([arr]), quart / 4)


@fn("GEOMEAN", 1, None, mode="raw")
def geomean(ctx: Ctx, *args: object) -> float:
    nums = nonempty(numbers(args), NUM)
    if any(x <= 0 for x in nums):
        raise Raise(NUM)
    return math.exp(math.fsum(math.log(x) for x in nums) / len(nums))


@fn("CORREL", 2, mode="raw")
def correl(ctx: Ctx, a: object, b: object) -> float:
    xs, ys = paired(a, b)
    if len(xs) < 2:
        raise Raise(DIV0)
    return statistics.correlation(xs, ys)


def paired(a: object, b: object) -> tuple[list[float], list[float]]:
    """Pairs of numbers at the same positions of two equally shaped ranges."""
    ga = a.matrix() if isinstance(a, Rng) else a
    gb = b.matrix() if isinstance(b, Rng) else b
    if not (is_array(ga) and is_array(gb)):
        raise Raise(VALUE)
    xs, ys = [], []
    for ra, rb in zip(ga, gb, strict=False):  # type: ignore[arg-type]
        for x, y in zip(ra, rb, strict=False):
            if (
                isinstance(x, float | int)
                and isinstance(y, float | int)
                and not isinstance(x, bool)
                and not isinstance(y, bool)
            ):
                xs.append(float(x))
                ys.append(float(y))
    return xs, ys
