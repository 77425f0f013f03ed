"""Money over time: PMT, FV, PV, NPER, NPV, and the rates found by iteration (IRR,
XIRR, RATE), which follow Excel's Newton iterations and answer #NUM! when they do not
converge."""

from __future__ import annotations

import math
from collections.abc import Callable

from officegym.apps.sheets.functions import fn, numbers, scalar, values_of
from officegym.apps.sheets.runtime import Ctx, Rng
from officegym.apps.sheets.values import NUM, VALUE, Raise, Value, XlError, as_number


def _n(v: Value, default: float = 0.0) -> float:
    return as_number(v) if v is not None else default


@fn("PMT", 3, 5)
def pmt(rate: Value, nper: Value, pv: Value, fv: Value = 0.0, kind: Value = 0.0) -> float:
    r, n, p, f, t = _n(rate), _n(nper), _n(pv), _n(fv), _n(kind)
    if n == 0:
        raise Raise(NUM)
    if r == 0:
        return -(p + f) / n
    g = (1 + r) ** n
    return -(r * (p * g + f)) / ((1 + r * t) * (g - 1))


@fn("FV", 3, 5)
def fv(rate: Value, nper: Value, payment: Value, pv: Value = 0.0, kind: Value = 0.0) -> float:
    r, n, m, p, t = _n(rate), _n(nper), _n(payment), _n(pv), _n(kind)
    if r == 0:
        return -(p + m * n)
    g = (1 + r) ** n
    return -(p * g + m * (1 + r * t) * (g - 1) / r)


@fn("PV", 3, 5)
def pv(rate: Value, nper: Value, payment: Value, fv_: Value = 0.0, kind: Value = 0.0) -> float:
    r, n, m, f, t = _n(rate), _n(nper), _n(payment), _n(fv_), _n(kind)
    if r == 0:
        return -(f + m * n)
    g = (1 + r) ** n
    return -(f + m * (1 + r * t) * (g - 1) / r) / g


@fn("NPER", 3, 5)
def nper(rate: Value, payment: Value, pv_: Value, fv_: Value = 0.0, kind: Value = 0.0) -> float:
    import math

    r, m, p, f, t = _n(rate), _n(payment), _n(pv_), _n(fv_), _n(kind)
    if r == 0:
        if m == 0:
            raise Raise(NUM)
        return -(p + f) / m
    a = m * (1 + r * t) - f * r
    b = p * r + m * (1 + r * t)
    return math.log(a / b) / math.log(1 + r)


@fn("NPV", 2, None, mode="raw")
def npv(ctx: Ctx, rate: object, *flows: object) -> float:
    r = as_number(scalar(rate, ctx))
    return sum(x / (1 + r) ** (i + 1) for i, x in enumerate(numbers(flows)))


def _newton(
    f: Callable[[float], tuple[float, float]], guess: float, steps: int, tol: float
) -> float:
    """The root Newton's method reaches from `guess` (a step under `tol` within `steps`
    steps), `f` giving the value and the slope; #NUM! when it does not converge."""
    x = guess
    for _ in range(steps):
        value, slope = f(x)
        if slope == 0 or not math.isfinite(value) or not math.isfinite(slope):
            raise Raise(NUM)
        step = value / slope
        x -= step
        if abs(step) < tol:
            if x <= -1 or not math.isfinite(x):
                raise Raise(NUM)
            return x
    raise Raise(NUM)


def _guess(ctx: Ctx, guess: object, default: float = 0.1) -> float:
    g = scalar(guess, ctx)
    if isinstance(g, XlError):
        raise Raise(g)
    return default if g is None else as_number(g)


@fn("IRR", 1, 2, mode="raw")
def irr(ctx: Ctx, values: object, guess: object = None) -> float:
    """The rate at which the cash flows (one per period; text and blanks skipped) have a
    net present value of 0: Newton from `guess` (10%), at most 20 steps, to 1e-7 (as
    Excel and LibreOffice); #NUM! without both a payment and a receipt."""
    flows = numbers([values])
    if not (any(v > 0 for v in flows) and any(v < 0 for v in flows)):
        raise Raise(NUM)

    def npv_slope(r: float) -> tuple[float, float]:
        value = sum(v / (1 + r) ** i for i, v in enumerate(flows))
        slope = sum(-i * v / (1 + r) ** (i + 1) for i, v in enumerate(flows))
        return value, slope

    return _newton(npv_slope, _guess(ctx, guess), 20, 1e-7)


@fn("XIRR", 2, 3, mode="raw")
def xirr(ctx: Ctx, values: object, dates: object, guess: object = None) -> float:
    """The annual rate at which cash flows on the given dates have a net present value
    of 0 (days / 365 from the first date): Newton from `guess` (10%), at most 100 steps;
    #NUM! when the counts differ, a date precedes the first, the flows do not change
    sign or the iteration does not converge; #VALUE! for a date that is no number."""
    given, when = _listed(values), _listed(dates)
    if len(given) != len(when) or len(given) < 2:
        raise Raise(NUM)
    if any(not isinstance(x, float) for x in (*given, *when)):
        raise Raise(VALUE)
    flows, days = [float(v) for v in given], [float(d) for d in when]  # type: ignore[arg-type]
    years = [(math.floor(d) - math.floor(days[0])) / 365 for d in days]
    if min(years) < 0 or not (max(flows) > 0 > min(flows)):
        raise Raise(NUM)

    def value_slope(r: float) -> tuple[float, float]:
        if r <= -1:
            raise Raise(NUM)
        value = sum(v / (1 + r) ** t for v, t in zip(flows, years, strict=True))
        slope = sum(-t * v / (1 + r) ** (t + 1) for v, t in zip(flows, years, strict=True))
        return value, slope

    return _newton(value_slope, _guess(ctx, guess), 100, 1e-10)


def _listed(arg: object) -> list[object]:
    """Every cell of a range or array (blanks as None) or the one value given."""
    if isinstance(arg, Rng):
        return (
            [v for row in arg.matrix() for v in row]
            if arg.size > 1
            else [arg.value_at(arg.r1, arg.c1)]
        )
    got = list(values_of(arg))
    for v in got:
        if isinstance(v, XlError):
            raise Raise(v)
    return [float(v) if isinstance(v, int) and not isinstance(v, bool) else v for v in got]


@fn("RATE", 3, 6)
def rate(
    nper: Value,
    payment: Value,
    pv_: Value,
    fv_: Value = 0.0,
    kind: Value = 0.0,
    guess: Value = 0.1,
) -> float:
    """The rate per period of an annuity: Newton on pv*(1+r)^n + pmt*((1+r)^n-1)/r + fv
    = 0 (payments at the start when `kind` is 1) from `guess`, to a step under 1e-7;
    #NUM! when it does not converge. At most 150 steps, as LibreOffice: Excel documents
    20, yet answers a 30-year mortgage's rate, which Newton from 10% needs ~30 for."""
    n, m, p, f = _n(nper), _n(payment), _n(pv_), _n(fv_)
    if _n(kind) != 0:  # payments at the start: the same sum with shifted end values
        f, p = f - m, p + m
    if n <= 0:
        raise Raise(NUM)

    def value_slope(r: float) -> tuple[float, float]:
        grown = (1 + r) ** (n - 1)
        if r == 0:
            series, series_slope = n, n * (n - 1) / 2
        else:
            series = (grown * (1 + r) - 1) / r
            series_slope = n * grown / r - series / r
        return f + p * grown * (1 + r) + m * series, p * n * grown + m * series_slope

    return _newton(value_slope, _n(guess, 0.1), 150, 1e-7)
