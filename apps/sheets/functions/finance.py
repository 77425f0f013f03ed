"""Money over time: PMT, FV, PV, NPER, NPV, RATE-free basics people use in budgets."""

from __future__ import annotations

from officegym.apps.sheets.functions import fn, numbers, scalar
from officegym.apps.sheets.runtime import Ctx
from officegym.apps.sheets.values import NUM, Raise, Value, as_number


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
