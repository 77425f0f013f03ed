"""When people write: working hours (weekdays, 9:00 to 18:00) and waking hours (8:00 to
21:00) in a person's own time zone, so seeded posts and messages are not stamped at
05:03 on a Sunday. Times in and out are the world's naive UTC; draws come from the
caller's random stream."""

from __future__ import annotations

import datetime as dt
import functools
import random
import zoneinfo

WORK = (dt.time(9), dt.time(18))
WAKING = (dt.time(8), dt.time(21))
DAY = dt.timedelta(days=1)
Spans = list[tuple[dt.datetime, dt.datetime]]  # [from, to) times in naive UTC


@functools.cache
def _zone(name: str) -> dt.tzinfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return dt.UTC


def local(when: dt.datetime, tz: str) -> dt.datetime:
    """The naive UTC `when` as wall-clock time in `tz`."""
    return when.replace(tzinfo=dt.UTC).astimezone(_zone(tz))


def _utc(day: dt.date, at: dt.time, tz: str) -> dt.datetime:
    return dt.datetime.combine(day, at, _zone(tz)).astimezone(dt.UTC).replace(tzinfo=None)


def is_working(when: dt.datetime, tz: str) -> bool:
    """Whether `when` falls on a weekday between 9:00 and 18:00 in `tz`."""
    t = local(when, tz)
    return t.weekday() < 5 and WORK[0] <= t.time() < WORK[1]


def is_waking(when: dt.datetime, tz: str) -> bool:
    """Whether `when` falls between 8:00 and 21:00 in `tz`."""
    return WAKING[0] <= local(when, tz).time() < WAKING[1]


def intervals(
    lo: dt.datetime, hi: dt.datetime, tz: str, hours: tuple[dt.time, dt.time] = WORK,
    *, weekdays: bool = True,
) -> Spans:  # fmt: skip
    """The spans of `hours` (on weekdays only, with `weekdays`) within [lo, hi], in UTC."""
    out = []
    day = local(lo, tz).date() - DAY
    while day <= local(hi, tz).date() + DAY:
        if not weekdays or day.weekday() < 5:
            a, b = max(lo, _utc(day, hours[0], tz)), min(hi, _utc(day, hours[1], tz))
            if a < b:
                out.append((a, b))
        day += DAY
    return out


def pick(
    rng: random.Random, lo: dt.datetime, hi: dt.datetime, tz: str,
    hours: tuple[dt.time, dt.time] = WORK, *, weekdays: bool = True,
) -> dt.datetime | None:  # fmt: skip
    """A time drawn evenly from the `hours` within [lo, hi] (to the second); None if
    there are none."""
    return pick_in(rng, intervals(lo, hi, tz, hours, weekdays=weekdays))


def pick_in(rng: random.Random, spans: Spans) -> dt.datetime | None:
    """A time drawn evenly from `spans` (to the second); None if they are empty."""
    total = sum(int((b - a).total_seconds()) for a, b in spans)
    if total <= 0:
        return None
    return second(spans, rng.randrange(total))


def second(spans: Spans, k: int) -> dt.datetime | None:
    """The `k`-th second (from 0) of `spans` laid end to end; None past their end."""
    for a, b in spans:
        length = int((b - a).total_seconds())
        if k < length:
            return a + dt.timedelta(seconds=k)
        k -= length
    return None


def overlap(xs: Spans, ys: Spans, *, trim: dt.timedelta = dt.timedelta()) -> Spans:
    """The times in both `xs` and `ys` (each sorted), each span cut `trim` short."""
    out = []
    for a, b in xs:
        for c, d in ys:
            lo, hi = max(a, c), min(b, d) - trim
            if lo < hi:
                out.append((lo, hi))
    return out


def minus(xs: Spans, ys: Spans) -> Spans:
    """The times in `xs` outside every span of `ys`."""
    out = xs
    for c, d in ys:
        out = [
            piece
            for a, b in out
            for piece in ((a, min(b, c)), (max(a, d), b))
            if piece[0] < piece[1]
        ]
    return out


def nearest(
    when: dt.datetime, hi: dt.datetime, tz: str, hours: tuple[dt.time, dt.time] = WORK,
    *, weekdays: bool = True,
) -> dt.datetime | None:  # fmt: skip
    """`when` if it is within `hours`, else the next such time up to `hi` (as many
    minutes past the opening hour as `when` is past its hour); None if there is none."""
    for a, b in intervals(when, hi, tz, hours, weekdays=weekdays):
        if a <= when:
            return when
        return min(a + dt.timedelta(minutes=when.minute, seconds=when.second),
                   b - dt.timedelta(seconds=1))  # fmt: skip
    return None


def workday(
    when: dt.datetime, tz: str, hours: tuple[dt.time, dt.time] = WORK, *, back: bool = True
) -> dt.datetime:
    """`when` if it falls in `hours` on a weekday in `tz`, else moved into the `hours` of
    its own UTC date, as far into them as `when` is into its day (so "today" stays), or on
    a weekend those of the weekday before it (after it, without `back`). No draws."""
    t = local(when, tz)
    if t.weekday() < 5 and hours[0] <= t.time() < hours[1]:
        return when
    day = when.date()
    while day.weekday() >= 5:
        day += -DAY if back else DAY
    a, b = _utc(day, hours[0], tz), _utc(day, hours[1], tz)
    share = (when - dt.datetime.combine(when.date(), dt.time())) / DAY
    return a + dt.timedelta(seconds=int((b - a).total_seconds() * share))


def within(when: dt.datetime, tz: str, lo: dt.datetime, hi: dt.datetime) -> dt.datetime:
    """`workday(when, tz)` (or, if that is before `lo`, its forward form) when it lies in
    [lo, hi]; else `when` as it is."""
    for back in (True, False):
        at = workday(when, tz, back=back)
        if lo <= at <= hi:
            return at
    return when
