"""Statistics of a sample's shape and of paired samples: exclusive percentiles and
percent ranks, RANK.AVG, trimmed and harmonic means, deviations, skew and kurtosis,
the normal distribution, linear regression (SLOPE, INTERCEPT, FORECAST, RSQ, STEYX),
covariances, COMBIN/PERMUT, the SUMX2 family and FREQUENCY."""

from __future__ import annotations

import math
import statistics
from bisect import bisect_left

from officegym.apps.sheets.functions import fn, numbers, scalar
from officegym.apps.sheets.functions.stats import nonempty, paired
from officegym.apps.sheets.runtime import Ctx, Rng, is_array
from officegym.apps.sheets.values import DIV0, NA, NUM, Raise, Value, as_bool, as_number


@fn("PERCENTILE.EXC", 2, mode="raw", lift=(1,))
def percentile_exc(ctx: Ctx, arr: object, p: object) -> float:
    return _percentile_exc(numbers([arr]), as_number(scalar(p, ctx)))


def _percentile_exc(nums: list[float], p: float) -> float:
    nums = sorted(nums)
    pos = p * (len(nums) + 1)
    if not nums or p <= 0 or p >= 1 or pos < 1 or pos > len(nums):
        raise Raise(NUM)
    lo = math.floor(pos)
    if lo == len(nums):
        return nums[-1]
    return nums[lo - 1] + (pos - lo) * (nums[lo] - nums[lo - 1])


@fn("QUARTILE.EXC", 2, mode="raw", lift=(1,))
def quartile_exc(ctx: Ctx, arr: object, q: object) -> float:
    quart = math.floor(as_number(scalar(q, ctx)))
    if not 1 <= quart <= 3:
        raise Raise(NUM)
    return _percentile_exc(numbers([arr]), quart / 4)


def _percent_rank(nums: list[float], x: float, inclusive: bool) -> float:
    """LibreOffice's GetPercentrank: the share of values below `x`, interpolated
    between neighbours when `x` is not itself in the data."""
    n = len(nums)
    if x == nums[0]:
        return 0.0 if inclusive else 1 / (n + 1)
    smaller, prev, i = 0, nums[0], 1
    while i < n and nums[i] < x:
        if nums[i] != prev:
            smaller, prev = i, nums[i]
        i += 1
    if nums[i] != prev:
        smaller = i
    if x == nums[i]:
        return smaller / (n - 1) if inclusive else (i + 1) / (n + 1)
    part = (x - nums[smaller - 1]) / (nums[smaller] - nums[smaller - 1])
    return (smaller - 1 + part) / (n - 1) if inclusive else (smaller + part) / (n + 1)


def _percentrank(ctx: Ctx, arr: object, x: object, digits: object, inclusive: bool) -> float:
    nums = sorted(numbers([arr]))
    v = as_number(scalar(x, ctx))
    d = math.floor(as_number(scalar(digits, ctx))) if digits is not None else 3
    if d < 1:
        raise Raise(NUM)
    if not nums or v < nums[0] or v > nums[-1]:
        raise Raise(NA)
    if len(nums) == 1:
        return 1.0
    scale = 10.0**d
    return math.floor(_percent_rank(nums, v, inclusive) * scale + 1e-9) / scale


@fn("PERCENTRANK|PERCENTRANK.INC", 2, 3, mode="raw", lift=(1,))
def percentrank(ctx: Ctx, arr: object, x: object, digits: object = None) -> float:
    return _percentrank(ctx, arr, x, digits, True)


@fn("PERCENTRANK.EXC", 2, 3, mode="raw", lift=(1,))
def percentrank_exc(ctx: Ctx, arr: object, x: object, digits: object = None) -> float:
    return _percentrank(ctx, arr, x, digits, False)


@fn("RANK.AVG", 2, 3, mode="raw", lift=(0,))
def rank_avg(ctx: Ctx, x: object, ref: object, order: object = None) -> float:
    value = as_number(scalar(x, ctx))
    nums = numbers([ref])
    ties = sum(1 for n in nums if n == value)
    if not ties:
        raise Raise(NA)
    ascending = order is not None and as_number(scalar(order, ctx)) != 0
    before = sum(1 for n in nums if (n < value if ascending else n > value))
    return before + (ties + 1) / 2


@fn("HARMEAN", 1, None, mode="raw")
def harmean(ctx: Ctx, *args: object) -> float:
    nums = nonempty(numbers(args), NUM)
    if any(x <= 0 for x in nums):
        raise Raise(NUM)
    return len(nums) / math.fsum(1 / x for x in nums)


@fn("TRIMMEAN", 2, mode="raw")
def trimmean(ctx: Ctx, arr: object, share: object) -> float:
    nums = sorted(nonempty(numbers([arr]), NUM))
    p = as_number(scalar(share, ctx))
    if not 0 <= p < 1:
        raise Raise(NUM)
    cut = math.floor(len(nums) * p / 2)
    kept = nums[cut : len(nums) - cut]
    return math.fsum(kept) / len(kept)


@fn("AVEDEV", 1, None, mode="raw")
def avedev(ctx: Ctx, *args: object) -> float:
    nums = nonempty(numbers(args), NUM)
    m = math.fsum(nums) / len(nums)
    return math.fsum(abs(x - m) for x in nums) / len(nums)


@fn("DEVSQ", 1, None, mode="raw")
def devsq(ctx: Ctx, *args: object) -> float:
    nums = nonempty(numbers(args), NUM)
    m = math.fsum(nums) / len(nums)
    return math.fsum((x - m) ** 2 for x in nums)


def _moments(args: tuple[object, ...], least: int) -> tuple[list[float], float, float]:
    nums = numbers(args)
    if len(nums) < least:
        raise Raise(DIV0)
    m = math.fsum(nums) / len(nums)
    s = statistics.stdev(nums)
    if s == 0:
        raise Raise(DIV0)
    return nums, m, s


@fn("SKEW", 1, None, mode="raw")
def skew(ctx: Ctx, *args: object) -> float:
    nums, m, s = _moments(args, 3)
    n = len(nums)
    return n / ((n - 1) * (n - 2)) * math.fsum(((x - m) / s) ** 3 for x in nums)


@fn("KURT", 1, None, mode="raw")
def kurt(ctx: Ctx, *args: object) -> float:
    nums, m, s = _moments(args, 4)
    n = len(nums)
    total = math.fsum(((x - m) / s) ** 4 for x in nums)
    return n * (n + 1) / ((n - 1) * (n - 2) * (n - 3)) * total - 3 * (n - 1) ** 2 / (
        (n - 2) * (n - 3)
    )


@fn("STANDARDIZE", 3)
def standardize(x: Value, mean: Value, sd: Value) -> float:
    s = as_number(sd)
    if s <= 0:
        raise Raise(NUM)
    return (as_number(x) - as_number(mean)) / s


def _normal(mean: Value, sd: Value) -> statistics.NormalDist:
    s = as_number(sd)
    if s <= 0:
        raise Raise(NUM)
    return statistics.NormalDist(as_number(mean), s)


@fn("NORM.DIST|NORMDIST", 4)
def norm_dist(x: Value, mean: Value, sd: Value, cumulative: Value) -> float:
    d = _normal(mean, sd)
    return d.cdf(as_number(x)) if as_bool(cumulative) else d.pdf(as_number(x))


@fn("NORM.S.DIST", 2)
def norm_s_dist(z: Value, cumulative: Value) -> float:
    return norm_dist(z, 0.0, 1.0, cumulative)


@fn("NORMSDIST", 1)
def normsdist(z: Value) -> float:
    return statistics.NormalDist().cdf(as_number(z))


@fn("NORM.INV|NORMINV", 3)
def norm_inv(p: Value, mean: Value, sd: Value) -> float:
    q = as_number(p)
    if not 0 < q < 1:
        raise Raise(NUM)
    return _normal(mean, sd).inv_cdf(q)


@fn("NORM.S.INV|NORMSINV", 1)
def norm_s_inv(p: Value) -> float:
    return norm_inv(p, 0.0, 1.0)


def _fit(ys: object, xs: object) -> tuple[float, float, float, float, float, int]:
    """Means of x and y, and Sxx, Sxy, Syy over the numeric pairs."""
    y, x = paired(ys, xs)
    if _shape(ys) != _shape(xs):
        raise Raise(NA)
    if not x:
        raise Raise(DIV0)
    mx, my = math.fsum(x) / len(x), math.fsum(y) / len(y)
    sxx = math.fsum((a - mx) ** 2 for a in x)
    sxy = math.fsum((a - mx) * (b - my) for a, b in zip(x, y, strict=True))
    syy = math.fsum((b - my) ** 2 for b in y)
    return mx, my, sxx, sxy, syy, len(x)


def _shape(v: object) -> tuple[int, int]:
    if isinstance(v, Rng):
        return v.rows, v.cols
    if is_array(v):
        return len(v), len(v[0]) if v else 0  # type: ignore[arg-type]
    return 1, 1


@fn("SLOPE", 2, mode="raw")
def slope(ctx: Ctx, ys: object, xs: object) -> float:
    _, _, sxx, sxy, _, _ = _fit(ys, xs)
    return sxy / sxx


@fn("INTERCEPT", 2, mode="raw")
def intercept(ctx: Ctx, ys: object, xs: object) -> float:
    mx, my, sxx, sxy, _, _ = _fit(ys, xs)
    return my - sxy / sxx * mx


@fn("FORECAST|FORECAST.LINEAR", 3, mode="raw", lift=(0,))
def forecast(ctx: Ctx, x: object, ys: object, xs: object) -> float:
    at = as_number(scalar(x, ctx))
    mx, my, sxx, sxy, _, _ = _fit(ys, xs)
    return my + sxy / sxx * (at - mx)


@fn("RSQ", 2, mode="raw")
def rsq(ctx: Ctx, ys: object, xs: object) -> float:
    _, _, sxx, sxy, syy, _ = _fit(ys, xs)
    return sxy * sxy / (sxx * syy)


@fn("PEARSON", 2, mode="raw")
def pearson(ctx: Ctx, ys: object, xs: object) -> float:
    _, _, sxx, sxy, syy, _ = _fit(ys, xs)
    return sxy / math.sqrt(sxx * syy)


@fn("STEYX", 2, mode="raw")
def steyx(ctx: Ctx, ys: object, xs: object) -> float:
    _, _, sxx, sxy, syy, n = _fit(ys, xs)
    if n < 3:
        raise Raise(DIV0)
    return math.sqrt((syy - sxy * sxy / sxx) / (n - 2))


@fn("COVAR|COVARIANCE.P", 2, mode="raw")
def covar(ctx: Ctx, a: object, b: object) -> float:
    _, _, _, sxy, _, n = _fit(a, b)
    return sxy / n


@fn("COVARIANCE.S", 2, mode="raw")
def covariance_s(ctx: Ctx, a: object, b: object) -> float:
    _, _, _, sxy, _, n = _fit(a, b)
    return sxy / (n - 1)


@fn("COMBIN", 2)
def combin(n: Value, k: Value) -> float:
    a, b = math.floor(as_number(n)), math.floor(as_number(k))
    if a < 0 or b < 0 or b > a:
        raise Raise(NUM)
    return float(math.comb(a, b))


@fn("PERMUT", 2)
def permut(n: Value, k: Value) -> float:
    a, b = math.floor(as_number(n)), math.floor(as_number(k))
    if a < 0 or b < 0 or b > a:
        raise Raise(NUM)
    return float(math.perm(a, b))


def _sum_pairs(a: object, b: object, term) -> float:
    if _shape(a) != _shape(b):
        raise Raise(NA)
    xs, ys = paired(a, b)
    return math.fsum(term(x, y) for x, y in zip(xs, ys, strict=True))


@fn("SUMX2MY2", 2, mode="raw")
def sumx2my2(ctx: Ctx, a: object, b: object) -> float:
    return _sum_pairs(a, b, lambda x, y: x * x - y * y)


@fn("SUMX2PY2", 2, mode="raw")
def sumx2py2(ctx: Ctx, a: object, b: object) -> float:
    return _sum_pairs(a, b, lambda x, y: x * x + y * y)


@fn("SUMXMY2", 2, mode="raw")
def sumxmy2(ctx: Ctx, a: object, b: object) -> float:
    return _sum_pairs(a, b, lambda x, y: (x - y) ** 2)


@fn("FREQUENCY", 2, mode="raw")
def frequency(ctx: Ctx, data: object, bins: object) -> list[list[Value]]:
    """How many values fall in each bin (up to and including its bound, above the next
    lower bound), in the bins' own order, and one more row for values above them all."""
    xs, bounds = numbers([data]), numbers([bins])
    ordered = sorted(set(bounds))
    counts = dict.fromkeys(ordered, 0)
    above = 0
    for x in xs:
        i = bisect_left(ordered, x)
        if i == len(ordered):
            above += 1
        else:
            counts[ordered[i]] += 1
    seen: set[float] = set()
    out: list[list[Value]] = []
    for b in bounds:
        out.append([float(counts[b]) if b not in seen else 0.0])
        seen.add(b)
    out.append([float(above)])
    return out
