"""Cell values as the formula engine sees them, with Excel's coercion rules.

A value is a float, a str, a bool, None (a blank cell) or an `XlError` (``#DIV/0!``,
``#N/A`` ...). Errors are values: they flow through formulas until a function such as
IFERROR handles them. Inside functions, `Raise` carries an error out of nested code;
the function wrapper turns it back into a value.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "CIRC",
    "COMPARISONS",
    "DIV0",
    "ERRORS",
    "NA",
    "NAME",
    "NUM",
    "REF",
    "VALUE",
    "Raise",
    "Value",
    "XlError",
    "as_bool",
    "as_number",
    "as_text",
    "compare",
    "date_of",
    "is_number",
    "number_or_raise",
    "serial_of",
]


@dataclass(frozen=True, slots=True)
class XlError:
    """An error value as a cell shows it (``#DIV/0!``)."""

    code: str

    def __str__(self) -> str:
        return self.code


DIV0, NA, NAME, NUM = XlError("#DIV/0!"), XlError("#N/A"), XlError("#NAME?"), XlError("#NUM!")
REF, VALUE, NULL = XlError("#REF!"), XlError("#VALUE!"), XlError("#NULL!")
CIRC = REF  # Google Sheets shows a circular dependency as #REF! (with a note)
ERRORS = {e.code: e for e in (DIV0, NA, NAME, NUM, REF, VALUE, NULL)}
Value = float | str | bool | XlError | None


class Raise(Exception):
    """Carries an error value out of a function's nested code."""

    def __init__(self, error: XlError) -> None:
        super().__init__(error.code)
        self.error = error


_NUMBER_TEXT = re.compile(
    r"^\s*([-+]?)\s*\$?\s*([-+]?)(\d[\d,]*\.?\d*|\.\d+)([eE][-+]?\d+)?\s*(%?)\s*$"
)
_EPOCH = dt.date(1899, 12, 30)  # serial 0 in the 1900 date system (Excel, Sheets, LibreOffice)


def is_number(v: Any) -> bool:
    return isinstance(v, float | int) and not isinstance(v, bool)


def parse_number(text: str) -> float | None:
    """A number written as text: ``1,200``, ``$5``, ``12%``, ``-3.5e2``; else None."""
    m = _NUMBER_TEXT.match(text)
    if m is None:
        return None
    sign1, sign2, digits, exp, pct = m.groups()
    if "," in digits and not re.fullmatch(r"\d{1,3}(,\d{3})*(\.\d*)?", digits):
        return None
    x = float(digits.replace(",", "") + (exp or ""))
    if (sign1 == "-") != (sign2 == "-"):
        x = -x
    return x / 100 if pct else x


def serial_of(day: dt.date | dt.datetime) -> float:
    """The serial number of a date (days since 1899-12-30; times are fractions)."""
    if isinstance(day, dt.datetime):
        delta = day - dt.datetime(1899, 12, 30)
        return delta.days + delta.seconds / 86400
    return float((day - _EPOCH).days)


def date_of(serial: float) -> dt.date:
    """The date of a serial number; #NUM! outside 1900-01-01 .. 9999-12-31."""
    if not 0 <= serial < 2958466:
        raise Raise(NUM)
    return _EPOCH + dt.timedelta(days=int(serial))


def _date_text(text: str) -> float | None:
    try:
        return serial_of(dt.date.fromisoformat(text.strip()))
    except ValueError:
        return None


def as_number(v: Value) -> float:
    """Excel's number coercion (blank 0, TRUE 1, numeric text read); raises #VALUE!."""
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, float | int):
        return float(v)
    if v is None:
        return 0.0
    if isinstance(v, XlError):
        raise Raise(v)
    if v == "":
        raise Raise(VALUE)
    x = parse_number(v)
    if x is None:
        x = _date_text(v)
    if x is None:
        raise Raise(VALUE)
    return x


def number_or_raise(v: Value) -> float:
    """`as_number`, rejecting NaN and infinities as #NUM!."""
    x = as_number(v)
    if math.isnan(x) or math.isinf(x):
        raise Raise(NUM)
    return x


def as_text(v: Value) -> str:
    """Excel's text coercion: numbers in general format, TRUE/FALSE, blank ''."""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float | int):
        return general(float(v))
    if v is None:
        return ""
    if isinstance(v, XlError):
        raise Raise(v)
    return v


def general(x: float) -> str:
    """A number as the General format writes it (up to 15 significant digits)."""
    if x == 0:
        return "0"
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    text = f"{x:.15g}"
    if "e" in text:
        mant, exp = text.split("e")
        return f"{mant}E{int(exp):+03d}"
    return text


def as_bool(v: Value) -> bool:
    """Excel's logical coercion: numbers non-zero, TRUE/FALSE text; raises #VALUE!."""
    if isinstance(v, bool):
        return v
    if isinstance(v, float | int):
        return v != 0
    if v is None:
        return False
    if isinstance(v, XlError):
        raise Raise(v)
    upper = v.strip().upper()
    if upper in ("TRUE", "FALSE"):
        return upper == "TRUE"
    raise Raise(VALUE)


def _rank(v: Value) -> int:
    if isinstance(v, bool):
        return 2
    if isinstance(v, str):
        return 1
    return 0


def compare(a: Value, b: Value) -> int:
    """-1, 0 or 1 as Excel orders values: numbers < text < logicals; text ignores case;
    a blank compares as 0, '' or FALSE, whichever the other side is."""
    if a is None:
        a = "" if isinstance(b, str) else (False if isinstance(b, bool) else 0.0)
    if b is None:
        b = "" if isinstance(a, str) else (False if isinstance(a, bool) else 0.0)
    ra, rb = _rank(a), _rank(b)
    if ra != rb:
        return -1 if ra < rb else 1
    if isinstance(a, str) and isinstance(b, str):
        a, b = a.lower(), b.lower()
    elif ra == 0 and a != b and _near(a, b):  # type: ignore[arg-type]
        return 0
    return (a > b) - (a < b)  # type: ignore[operator]


def _near(a: float, b: float) -> bool:
    """Numbers equal to 15 significant digits compare equal, as in Sheets, Excel and
    LibreOffice (``=0.1+0.2=0.3`` is TRUE); the tolerance is LibreOffice's 2**-48."""
    if a == 0 or b == 0 or (a < 0) != (b < 0):
        return False
    return abs(a - b) <= max(abs(a), abs(b)) * 3.552713678800501e-15


# A comparison operator's test of `compare`'s -1/0/1, for formulas ("A1>=3") and criteria.
COMPARISONS: dict[str, Callable[[int], bool]] = {
    "=": lambda c: c == 0,
    "<>": lambda c: c != 0,
    "<": lambda c: c < 0,
    ">": lambda c: c > 0,
    "<=": lambda c: c <= 0,
    ">=": lambda c: c >= 0,
}
