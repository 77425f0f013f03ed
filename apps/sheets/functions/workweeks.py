"""Working days under any weekend (NETWORKDAYS.INTL, WORKDAY.INTL), TIMEVALUE, the
YEARFRAC day counts and EPOCHTODATE. Weekends are Excel's codes (1 Saturday-Sunday ...
7 Friday-Saturday, 11-17 one day) or a seven-character mask from Monday ("0000011")."""

from __future__ import annotations

import calendar
import datetime as dt
import math
import re

from officegym.apps.sheets.functions import fn, numbers, scalar
from officegym.apps.sheets.runtime import Ctx
from officegym.apps.sheets.values import NUM, VALUE, Raise, Value, as_number, date_of

_PAIRS = {k: ((k + 4) % 7, (k + 5) % 7) for k in range(1, 8)}  # Monday is 0


def weekend_days(code: Value) -> frozenset[int]:
    """The weekdays (Monday 0) a weekend code or mask rests on."""
    if code is None:
        return frozenset((5, 6))
    if isinstance(code, str):
        if not re.fullmatch(r"[01]{7}", code) or code == "1111111":
            raise Raise(VALUE)
        return frozenset(i for i, ch in enumerate(code) if ch == "1")
    k = math.trunc(as_number(code))
    if k in _PAIRS:
        return frozenset(_PAIRS[k])
    if 11 <= k <= 17:
        return frozenset(((k - 11 + 6) % 7,))
    raise Raise(NUM)


def _weekday(serial: int) -> int:
    return (serial + 5) % 7  # serial 2 (1900-01-01) was a Monday


def _count(a: int, b: int, rest: frozenset[int], off: set[int]) -> int:
    """Working days from a to b inclusive (a <= b), by whole weeks."""
    weeks = (b - a + 1) // 7
    n = weeks * (7 - len(rest))
    n += sum(1 for s in range(a + weeks * 7, b + 1) if _weekday(s) not in rest)
    return n - sum(1 for h in off if a <= h <= b and _weekday(h) not in rest)


def _serial(ctx: Ctx, v: object) -> int:
    s = math.floor(as_number(scalar(v, ctx)))
    date_of(s)  # #NUM! outside the calendar
    return int(s)


def _holidays(arg: object) -> set[int]:
    return {math.floor(x) for x in numbers([arg])} if arg is not None else set()


@fn("NETWORKDAYS.INTL", 2, 4, mode="raw")
def networkdays_intl(
    ctx: Ctx, start: object, end: object, weekend: object = None, holidays: object = None
) -> float:
    a, b = _serial(ctx, start), _serial(ctx, end)
    rest = weekend_days(scalar(weekend, ctx) if weekend is not None else None)
    off = _holidays(holidays)
    return float(_count(a, b, rest, off) if b >= a else -_count(b, a, rest, off))


@fn("WORKDAY.INTL", 2, 4, mode="raw")
def workday_intl(
    ctx: Ctx, start: object, days: object, weekend: object = None, holidays: object = None
) -> float:
    s = _serial(ctx, start)
    k = math.trunc(as_number(scalar(days, ctx)))
    rest = weekend_days(scalar(weekend, ctx) if weekend is not None else None)
    off, per_week = _holidays(holidays), 7 - len(rest)
    step = 1 if k >= 0 else -1
    while abs(k) > 2 * per_week:
        weeks = (abs(k) - per_week) // per_week
        nxt = s + 7 * weeks * step
        date_of(nxt)
        lo, hi = (s + 1, nxt) if step > 0 else (nxt, s - 1)
        k -= step * _count(lo, hi, rest, off)
        s = nxt
    while k:
        s += step
        if _weekday(s) not in rest and s not in off:
            k -= step
    date_of(s)
    return float(s)


_TIME = re.compile(
    r"(?:.*?\s)?(\d{1,2}):(\d{1,2})(?::(\d{1,2}(?:\.\d+)?))?\s*([ap]\.?m\.?)?\s*", re.IGNORECASE
)


@fn("TIMEVALUE", 1)
def timevalue(v: Value) -> float:
    """The time of day a text names, as a fraction of a day ("13:30", "1:30 PM",
    "2024-03-01 08:15:00"); text with no time reading is #VALUE!."""
    if not isinstance(v, str):
        raise Raise(VALUE)
    m = _TIME.fullmatch(v.strip())
    if m is None:
        raise Raise(VALUE)
    h, mi, sec = int(m.group(1)), int(m.group(2)), float(m.group(3) or 0)
    if m.group(4):
        if not 1 <= h <= 12:
            raise Raise(VALUE)
        h = h % 12 + (12 if m.group(4).lower().startswith("p") else 0)
    if h > 23 or mi > 59 or sec >= 60:
        raise Raise(VALUE)
    return (h * 3600 + mi * 60 + sec) / 86400


def _leap(y: int) -> bool:
    return calendar.isleap(y)


def _feb29_between(a: dt.date, b: dt.date) -> bool:
    return any(_leap(y) and a <= dt.date(y, 2, 29) <= b for y in {a.year, b.year})


def actual_actual(a: dt.date, b: dt.date) -> float:
    """YEARFRAC's basis 1 as Excel counts it (a <= b)."""
    if a == b:
        return 0.0
    within = a.year == b.year or (b.year == a.year + 1 and (a.month, a.day) >= (b.month, b.day))
    if within:
        if a.year == b.year:
            length = 366 if _leap(a.year) else 365
        else:
            length = 366 if _feb29_between(a, b) else 365
        return (b - a).days / length
    years = range(a.year, b.year + 1)
    average = sum(366 if _leap(y) else 365 for y in years) / len(years)
    return (b - a).days / average


def european_30_360(a: dt.date, b: dt.date) -> float:
    """YEARFRAC's basis 4: both days of month capped at 30."""
    d1, d2 = min(a.day, 30), min(b.day, 30)
    return ((b.year - a.year) * 360 + (b.month - a.month) * 30 + (d2 - d1)) / 360


@fn("EPOCHTODATE", 1, 2)
def epochtodate(timestamp: Value, unit: Value = 1.0) -> float:
    """A Unix time (1 seconds, 2 milliseconds, 3 microseconds) as a date-time serial."""
    u = math.trunc(as_number(unit)) if unit is not None else 1
    scale = {1: 1.0, 2: 1e3, 3: 1e6}.get(u)
    t = as_number(timestamp)
    if scale is None or t < 0:
        raise Raise(NUM)
    return t / scale / 86400 + 25569
