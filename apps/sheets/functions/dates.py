"""Dates and times as serial numbers (days since 1899-12-30): DATE, EDATE, EOMONTH,
NETWORKDAYS, WEEKDAY, DATEDIF ... TODAY() is the world's simulated date."""

from __future__ import annotations

import calendar
import datetime as dt
import math

from officegym.apps.sheets.functions import fn, numbers, scalar
from officegym.apps.sheets.runtime import Ctx
from officegym.apps.sheets.values import NUM, VALUE, Raise, Value, as_number, date_of, serial_of


def _day(v: Value) -> dt.date:
    return date_of(math.floor(as_number(v)))


def _add_months(day: dt.date, months: int) -> tuple[int, int]:
    total = day.year * 12 + day.month - 1 + months
    return total // 12, total % 12 + 1


@fn("DATE", 3)
def date(y: Value, m: Value, d: Value) -> float:
    year, month, day = (
        int(as_number(y)),
        math.floor(as_number(m)),
        math.floor(as_number(d)),
    )
    if 0 <= year < 1900:
        year += 1900
    if not 1900 <= year <= 9999:
        raise Raise(NUM)
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return serial_of(dt.date(year, month, 1)) + day - 1


@fn("TODAY", 0, mode="raw")
def today(ctx: Ctx) -> float:
    return ctx.today


@fn("NOW", 0, mode="raw")
def now(ctx: Ctx) -> float:
    return ctx.today


@fn("YEAR", 1)
def year(v: Value) -> float:
    return float(_day(v).year)


@fn("MONTH", 1)
def month(v: Value) -> float:
    return float(_day(v).month)


@fn("DAY", 1)
def day(v: Value) -> float:
    return float(_day(v).day)


@fn("WEEKDAY", 1, 2)
def weekday(v: Value, kind: Value = 1.0) -> float:
    iso = _day(v).isoweekday()  # Monday 1 .. Sunday 7
    k = int(as_number(kind)) if kind is not None else 1
    if k == 1 or k == 17:
        return float(iso % 7 + 1)
    if k in (2, 11):
        return float(iso)
    if k == 3:
        return float(iso - 1)
    if 12 <= k <= 16:
        start = k - 10  # 12: Tuesday=1 ... 16: Saturday=1
        return float((iso - start) % 7 + 1)
    raise Raise(NUM)


@fn("WEEKNUM", 1, 2)
def weeknum(v: Value, kind: Value = 1.0) -> float:
    day_ = _day(v)
    k = int(as_number(kind)) if kind is not None else 1
    if k == 21:
        return float(day_.isocalendar()[1])
    first = dt.date(day_.year, 1, 1)
    start = 6 if k == 1 else 0  # week starts Sunday (1) or Monday (2)
    offset = (first.weekday() - start) % 7
    return float((day_ - first).days + offset) // 7 + 1


@fn("ISOWEEKNUM", 1)
def isoweeknum(v: Value) -> float:
    return float(_day(v).isocalendar()[1])


@fn("EDATE", 2)
def edate(v: Value, months: Value) -> float:
    start = _day(v)
    y, m = _add_months(start, int(as_number(months)))
    return serial_of(dt.date(y, m, min(start.day, calendar.monthrange(y, m)[1])))


@fn("EOMONTH", 2)
def eomonth(v: Value, months: Value) -> float:
    y, m = _add_months(_day(v), int(as_number(months)))
    if not 1900 <= y <= 9999:
        raise Raise(NUM)
    return serial_of(dt.date(y, m, calendar.monthrange(y, m)[1]))


def _holidays(arg: object) -> set[float]:
    return {math.floor(x) for x in numbers([arg])} if arg is not None else set()


def _is_workday(serial: int, off: set[float]) -> bool:
    return (serial + 5) % 7 < 5 and serial not in off  # serial 0 was a Saturday


def _workdays_between(a: int, b: int, off: set[float]) -> int:
    """Working days from a to b inclusive (a <= b), by whole weeks: the cost does not
    grow with the span."""
    weeks = (b - a + 1) // 7
    n = weeks * 5 + sum(1 for s in range(a + weeks * 7, b + 1) if (s + 5) % 7 < 5)
    return n - sum(1 for h in off if a <= h <= b and (int(h) + 5) % 7 < 5)


@fn("NETWORKDAYS", 2, 3, mode="raw")
def networkdays(ctx: Ctx, start: object, end: object, holidays: object = None) -> float:
    a = math.floor(as_number(scalar(start, ctx)))
    b = math.floor(as_number(scalar(end, ctx)))
    date_of(a), date_of(b)  # #NUM! outside Excel's dates
    off = _holidays(holidays)
    if b >= a:
        return float(_workdays_between(int(a), int(b), off))
    return -float(_workdays_between(int(b), int(a), off))


@fn("WORKDAY", 2, 3, mode="raw")
def workday(ctx: Ctx, start: object, days: object, holidays: object = None) -> float:
    """The date `days` working days away; whole weeks are jumped (a holiday inside a
    jumped week is made up after it), so the cost does not grow with `days`."""
    s = math.floor(as_number(scalar(start, ctx)))
    date_of(s)
    k = int(as_number(scalar(days, ctx)))
    if abs(k) > 2958465:
        raise Raise(NUM)
    off = _holidays(holidays)
    step = 1 if k >= 0 else -1
    while abs(k) > 10:
        weeks = (abs(k) - 5) // 5
        nxt = s + 7 * weeks * step
        lo, hi = (s + 1, nxt) if step > 0 else (nxt, s - 1)
        date_of(nxt)
        k -= step * _workdays_between(lo, hi, off)
        s = nxt
    while k:
        s += step
        if _is_workday(s, off):
            k -= step
    date_of(s)
    return float(s)


@fn("DAYS", 2)
def days(end: Value, start: Value) -> float:
    return float(math.floor(as_number(end)) - math.floor(as_number(start)))


@fn("DATEDIF", 3)
def datedif(start: Value, end: Value, unit: Value) -> float:
    a, b = _day(start), _day(end)
    if b < a:
        raise Raise(NUM)
    u = str(unit).upper()
    months = (b.year - a.year) * 12 + b.month - a.month - (b.day < a.day)
    if u == "D":
        return float((b - a).days)
    if u == "M":
        return float(months)
    if u == "Y":
        return float(months // 12)
    if u == "YM":
        return float(months % 12)
    if u == "MD":
        return float(b.day - a.day if b.day >= a.day else (b - _shift(b, -1, a.day)).days)
    if u == "YD":
        anniversary = _shift(a, 12 * (months // 12), a.day)
        return float((b - anniversary).days)
    raise Raise(NUM)


def _shift(day_: dt.date, months: int, dom: int) -> dt.date:
    y, m = _add_months(day_, months)
    return dt.date(y, m, min(dom, calendar.monthrange(y, m)[1]))


@fn("DATEVALUE", 1)
def datevalue(v: Value) -> float:
    if not isinstance(v, str):
        raise Raise(VALUE)
    for pattern in ("%Y-%m-%d", "%m/%d/%Y", "%d-%b-%Y", "%b %d, %Y", "%B %d, %Y", "%d %B %Y"):
        try:
            return serial_of(dt.datetime.strptime(v.strip(), pattern).date())
        except ValueError:
            continue
    raise Raise(VALUE)


@fn("TIME", 3)
def time(h: Value, m: Value, s: Value) -> float:
    total = int(as_number(h)) * 3600 + int(as_number(m)) * 60 + int(as_number(s))
    if total < 0:
        raise Raise(NUM)
    return (total % 86400) / 86400


def _seconds(v: Value) -> int:
    x = as_number(v)
    return round((x - math.floor(x)) * 86400) % 86400


@fn("HOUR", 1)
def hour(v: Value) -> float:
    return float(_seconds(v) // 3600)


@fn("MINUTE", 1)
def minute(v: Value) -> float:
    return float(_seconds(v) // 60 % 60)


@fn("SECOND", 1)
def second(v: Value) -> float:
    return float(_seconds(v) % 60)


@fn("YEARFRAC", 2, 3)
def yearfrac(start: Value, end: Value, basis: Value = 0.0) -> float:
    a, b = sorted((_day(start), _day(end)))
    k = int(as_number(basis)) if basis is not None else 0
    if k == 0:
        d1, d2 = min(a.day, 30), b.day
        if d1 == 30 and d2 == 31:
            d2 = 30
        if a.month == 2 and a.day == calendar.monthrange(a.year, 2)[1]:
            d1 = 30
            if b.month == 2 and b.day == calendar.monthrange(b.year, 2)[1]:
                d2 = 30
        return ((b.year - a.year) * 360 + (b.month - a.month) * 30 + (d2 - d1)) / 360
    if k == 3:
        return (b - a).days / 365
    if k == 2:
        return (b - a).days / 360
    from officegym.apps.sheets.functions.workweeks import actual_actual, european_30_360

    if k == 1:
        return actual_actual(a, b)
    if k == 4:
        return european_30_360(a, b)
    raise Raise(NUM)


@fn("DAYS360", 2)
def days360(start: Value, end: Value) -> float:
    a, b = _day(start), _day(end)
    d1 = (
        30
        if a.day == 31 or (a.month == 2 and a.day == calendar.monthrange(a.year, 2)[1])
        else a.day
    )
    d2 = b.day
    if d2 == 31 and d1 >= 30:
        d2 = 30
    return float((b.year - a.year) * 360 + (b.month - a.month) * 30 + d2 - d1)
