"""Loan schedules, effective rates and depreciation: IPMT, PPMT, CUMIPMT, CUMPRINC,
XNPV, MIRR, EFFECT, NOMINAL, FVSCHEDULE, DOLLARDE/DOLLARFR, SLN, SYD, DDB, DB. The
formulas are LibreOffice's (which follow Excel's), so the schedules agree to the cent."""

from __future__ import annotations

import math

from officegym.apps.sheets.functions import fn, numbers, scalar
from officegym.apps.sheets.functions.finance import fv, pmt
from officegym.apps.sheets.runtime import Ctx
from officegym.apps.sheets.values import DIV0, NUM, Raise, Value, as_number


def _n(v: Value, default: float = 0.0) -> float:
    return as_number(v) if v is not None else default


def _interest(r: float, per: float, n: float, p: float, f: float, t: float) -> float:
    """The interest part of payment `per` (LibreOffice's ScGetIpmt)."""
    payment = pmt(r, n, p, f, t)
    if per == 1:
        owed = 0.0 if t else -p
    elif t:
        owed = fv(r, per - 2, payment, p, 1.0) - payment
    else:
        owed = fv(r, per - 1, payment, p, 0.0)
    return owed * r


@fn("IPMT", 4, 6)
def ipmt(rate: Value, per: Value, nper: Value, pv: Value, fv_: Value = 0.0, kind: Value = 0.0):
    r, k, n, t = _n(rate), _n(per), _n(nper), 1.0 if _n(kind) else 0.0
    if not 1 <= k <= n:
        raise Raise(NUM)
    return _interest(r, k, n, _n(pv), _n(fv_), t)


@fn("PPMT", 4, 6)
def ppmt(rate: Value, per: Value, nper: Value, pv: Value, fv_: Value = 0.0, kind: Value = 0.0):
    r, k, n, t = _n(rate), _n(per), _n(nper), 1.0 if _n(kind) else 0.0
    if not 1 <= k <= n:
        raise Raise(NUM)
    return pmt(r, n, _n(pv), _n(fv_), t) - _interest(r, k, n, _n(pv), _n(fv_), t)


def _cumulative_args(rate: Value, nper: Value, pv: Value, start: Value, end: Value, kind: Value):
    r, n, p = _n(rate), _n(nper), _n(pv)
    a, b, t = math.floor(_n(start)), math.floor(_n(end)), _n(kind)
    if a < 1 or b < a or r <= 0 or b > n or n <= 0 or p <= 0 or t not in (0, 1):
        raise Raise(NUM)
    return r, n, p, int(a), int(b), t


@fn("CUMIPMT", 6)
def cumipmt(rate: Value, nper: Value, pv: Value, start: Value, end: Value, kind: Value) -> float:
    r, n, p, a, b, t = _cumulative_args(rate, nper, pv, start, end, kind)
    return math.fsum(_interest(r, k, n, p, 0.0, t) for k in range(a, b + 1))


@fn("CUMPRINC", 6)
def cumprinc(rate: Value, nper: Value, pv: Value, start: Value, end: Value, kind: Value) -> float:
    r, n, p, a, b, t = _cumulative_args(rate, nper, pv, start, end, kind)
    payment = pmt(r, n, p, 0.0, t)
    return math.fsum(payment - _interest(r, k, n, p, 0.0, t) for k in range(a, b + 1))


@fn("XNPV", 3, mode="raw")
def xnpv(ctx: Ctx, rate: object, flows: object, dates: object) -> float:
    r = as_number(scalar(rate, ctx))
    xs, ds = numbers([flows]), [math.floor(d) for d in numbers([dates])]
    if len(xs) != len(ds) or not xs:
        raise Raise(NUM)
    if any(d < ds[0] for d in ds):
        raise Raise(NUM)
    return math.fsum(x / (1 + r) ** ((d - ds[0]) / 365) for x, d in zip(xs, ds, strict=True))


@fn("MIRR", 3, mode="raw")
def mirr(ctx: Ctx, flows: object, finance: object, reinvest: object) -> float:
    xs = numbers([flows])
    fr, rr = as_number(scalar(finance, ctx)), as_number(scalar(reinvest, ctx))
    n = len(xs)
    gains = math.fsum(x / (1 + rr) ** i for i, x in enumerate(xs) if x > 0)
    costs = math.fsum(x / (1 + fr) ** i for i, x in enumerate(xs) if x < 0)
    if gains == 0 or costs == 0 or n < 2:
        raise Raise(DIV0)
    return (-gains * (1 + rr) ** (n - 1) / costs) ** (1 / (n - 1)) - 1


@fn("EFFECT", 2)
def effect(nominal: Value, periods: Value) -> float:
    r, p = _n(nominal), math.floor(_n(periods))
    if r <= 0 or p < 1:
        raise Raise(NUM)
    return (1 + r / p) ** p - 1


@fn("NOMINAL", 2)
def nominal(effective: Value, periods: Value) -> float:
    r, p = _n(effective), math.floor(_n(periods))
    if r <= 0 or p < 1:
        raise Raise(NUM)
    return p * ((1 + r) ** (1 / p) - 1)


@fn("FVSCHEDULE", 2, mode="raw")
def fvschedule(ctx: Ctx, principal: object, schedule: object) -> float:
    out = as_number(scalar(principal, ctx))
    for rate in numbers([schedule]):
        out *= 1 + rate
    return out


def _fraction_parts(x: Value, fraction: Value) -> tuple[float, float, float]:
    f = math.floor(_n(fraction))
    if f < 0:
        raise Raise(NUM)
    if f == 0:
        raise Raise(DIV0)
    v = _n(x)
    whole = float(math.trunc(v))
    return whole, v - whole, f


@fn("DOLLARDE", 2)
def dollarde(x: Value, fraction: Value) -> float:
    whole, part, f = _fraction_parts(x, fraction)
    return whole + part * 10 ** math.ceil(math.log10(f)) / f


@fn("DOLLARFR", 2)
def dollarfr(x: Value, fraction: Value) -> float:
    whole, part, f = _fraction_parts(x, fraction)
    return whole + part * f / 10 ** math.ceil(math.log10(f))


@fn("SLN", 3)
def sln(cost: Value, salvage: Value, life: Value) -> float:
    return (_n(cost) - _n(salvage)) / _n(life)


@fn("SYD", 4)
def syd(cost: Value, salvage: Value, life: Value, per: Value) -> float:
    c, s, n, k = _n(cost), _n(salvage), _n(life), _n(per)
    if n <= 0 or k <= 0 or k > n:
        raise Raise(NUM)
    return (c - s) * (n - k + 1) * 2 / (n * (n + 1))


@fn("DDB", 4, 5)
def ddb(cost: Value, salvage: Value, life: Value, period: Value, factor: Value = 2.0) -> float:
    c, s, n, k, f = _n(cost), _n(salvage), _n(life), _n(period), _n(factor, 2.0)
    if c < 0 or s < 0 or f <= 0 or s > c or k < 1 or k > n or n <= 0:
        raise Raise(NUM)
    rate = f / n
    if rate >= 1:
        rate, before = 1.0, (c if k == 1 else 0.0)
    else:
        before = c * (1 - rate) ** (k - 1)
    after = c * (1 - rate) ** k
    out = before - s if after < s else before - after
    return max(out, 0.0)


@fn("DB", 4, 5)
def db(cost: Value, salvage: Value, life: Value, period: Value, month: Value = 12.0) -> float:
    c, s, n, k, m = _n(cost), _n(salvage), _n(life), _n(period), _n(month, 12.0)
    if not 1 <= m <= 12 or n > 1200 or s < 0 or k > n + 1 or s > c or c <= 0 or n <= 0 or k <= 0:
        raise Raise(NUM)
    rate = math.floor((1 - (s / c) ** (1 / n)) * 1000 + 0.5) / 1000
    first = c * rate * m / 12
    if math.floor(k) == 1:
        return first
    spent, out = first, 0.0
    for _ in range(2, math.floor(min(n, k)) + 1):
        out = (c - spent) * rate
        spent += out
    if k > n:
        out = (c - spent) * rate * (12 - m) / 12
    return out
