"""Series the fill handle continues, as Sheets does: given the inputs of a selection's
column (or row), the inputs of the next cells, or None when they make no series and the
fill repeats them instead.

A series needs two cells or more (one cell is copied): numbers by their step (the line
that fits them best when the steps differ), dates by day or by month (same day of each
month), weekday and month names (Mon, Tuesday, Jan, MARCH) and text ending in a number
(Item 1, Item 2; Q3, Q4), each written back in the sources' own style.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Callable

from officegym.apps.sheets.formats import format_value, typed_value
from officegym.apps.sheets.values import date_of, general, serial_of

__all__ = ["extend"]

Input = str | None
DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]  # fmt: skip
_TAIL = re.compile(r"^(.*?)(\d+)$")
_DATE_FORMATS = ("yyyy-mm-dd", "mm/dd/yyyy", "mmm d, yyyy")


def extend(sources: list[Input], count: int) -> list[Input] | None:
    """The `count` inputs that continue `sources`, or None when they are no series."""
    if len(sources) < 2 or any(not s or s.startswith(("=", "'")) for s in sources):
        return None
    for kind in (_numbers, _dates, _names, _tails):
        found = kind(sources, count)
        if found is not None:
            return found
    return None


def _line(ys: list[float], count: int) -> list[float]:
    """The next `count` points of the line through `ys` (its step when they have one,
    else the least-squares fit), rounded off the float noise of adding steps."""
    n = len(ys)
    steps = {round(b - a, 9) for a, b in itertools.pairwise(ys)}
    if len(steps) == 1:
        step = ys[1] - ys[0]
        return [round(ys[-1] + step * k, 9) for k in range(1, count + 1)]
    mx, my = (n - 1) / 2, sum(ys) / n
    slope = sum((i - mx) * (y - my) for i, y in enumerate(ys)) / sum(
        (i - mx) ** 2 for i in range(n)
    )
    return [round(my + slope * (n - 1 + k - mx), 9) for k in range(1, count + 1)]


def _numbers(sources: list[str], count: int) -> list[Input] | None:
    typed = [typed_value(s) for s in sources]
    if not all(isinstance(v, float) and f not in _DATE_FORMATS for v, f in typed):
        return None
    fmt = typed[-1][1]
    return [
        format_value(y, fmt) if fmt else general(y) for y in _line([v for v, _ in typed], count)
    ]  # type: ignore[misc]


def _dates(sources: list[str], count: int) -> list[Input] | None:
    typed = [typed_value(s) for s in sources]
    if not all(isinstance(v, float) and f in _DATE_FORMATS for v, f in typed):
        return None
    fmt = typed[-1][1]
    days = [date_of(v) for v, _ in typed]  # type: ignore[arg-type]
    months = [d.year * 12 + d.month - 1 for d in days]
    steps = {b - a for a, b in itertools.pairwise(months)}
    if len({d.day for d in days}) == 1 and len(steps) == 1 and 0 not in steps:
        step, last = steps.pop(), days[-1]
        out = [_month_later(last, step * k) for k in range(1, count + 1)]
    else:
        out = [date_of(round(x)) for x in _line([v for v, _ in typed], count)]  # type: ignore[misc]
    return [format_value(serial_of(d), fmt) for d in out]


def _month_later(day: dt.date, months: int) -> dt.date:
    """The same day `months` later, or that month's last day when it has fewer."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    for d in (day.day, 30, 29, 28):
        try:
            return dt.date(year, month + 1, d)
        except ValueError:
            continue
    raise ValueError(day)


def _names(sources: list[str], count: int) -> list[Input] | None:
    for names in (DAYS, MONTHS):
        for width in (None, 3):
            table = [n[:width] if width else n for n in names]
            found = [
                table.index(s.strip().lower()) if s.strip().lower() in table else -1
                for s in sources
            ]
            if -1 in found:
                continue
            steps = {(b - a) % len(table) for a, b in itertools.pairwise(found)}
            if len(steps) != 1:
                return None
            step, style = steps.pop(), _style(sources[-1].strip())
            return [style(table[(found[-1] + step * k) % len(table)]) for k in range(1, count + 1)]
    return None


def _style(sample: str) -> Callable[[str], str]:
    if sample.isupper() and len(sample) > 1:
        return str.upper
    if sample.islower():
        return str.lower
    return str.capitalize


def _tails(sources: list[str], count: int) -> list[Input] | None:
    parts = [_TAIL.match(s) for s in sources]
    if not all(parts) or len({p.group(1) for p in parts}) != 1:  # type: ignore[union-attr]
        return None
    head, width = parts[-1].group(1), len(parts[-1].group(2))  # type: ignore[union-attr]
    numbers = [float(p.group(2)) for p in parts]  # type: ignore[union-attr]
    if not head:
        return None  # plain numbers: `_numbers`
    out = []
    for y in _line(numbers, count):
        n = max(0, round(y))
        out.append(f"{head}{n:0{width}d}" if parts[-1].group(2).startswith("0") else f"{head}{n}")  # type: ignore[union-attr]
    return out
