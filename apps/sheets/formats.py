"""Number formats: how a value is shown (``#,##0.00``, ``0%``, ``$#,##0``,
``yyyy-mm-dd``), and how typed text becomes a value (``$1,200`` is 1200 shown as
currency, ``12%`` is 0.12, ``2026-03-01`` a date) — the way a spreadsheet reads what a
person types. TEXT() formats with the same code."""

from __future__ import annotations

import datetime as dt
import functools
import re
from decimal import ROUND_HALF_UP, Decimal

from officegym.apps.sheets.values import (
    ERRORS,
    Value,
    XlError,
    date_of,
    general,
    parse_number,
    serial_of,
)

__all__ = ["PRESETS", "format_value", "is_date_format", "typed_value"]

# The formats the toolbar offers, by name (any other format code is accepted too).
PRESETS: dict[str, str] = {
    "general": "General",
    "number": "#,##0.00",
    "integer": "#,##0",
    "currency": "$#,##0.00",
    "currency_rounded": "$#,##0",
    "percent": "0%",
    "percent_decimal": "0.00%",
    "date": "yyyy-mm-dd",
    "date_us": "mm/dd/yyyy",
    "month": "mmm yyyy",
    "text": "@",
}
_DATE_CODES = re.compile(r"(yyyy|yy|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|am/pm)", re.IGNORECASE)


def is_date_format(fmt: str | None) -> bool:
    if not fmt:
        return False
    bare = re.sub(r'"[^"]*"|\[[^\]]*\]|\\.', "", fmt).lower()
    return bool(re.search(r"[ymd]", bare)) and "#" not in bare and "0" not in bare.replace("00", "")


def _section(fmt: str, x: float) -> tuple[str, float]:
    parts = fmt.split(";")
    if len(parts) >= 2 and x < 0:
        return parts[1], -x
    if len(parts) >= 3 and x == 0:
        return parts[2], x
    return parts[0], x


_SCIENTIFIC = re.compile(r"([#0,]*)(?:\.([#0]*))?[eE]([+-])([#0]+)")


def _scientific(literal: str, found: re.Match[str], x: float) -> str:
    """A number in a scientific code (``0.00E+00``; ``##0.0E+0`` keeps the exponent a
    multiple of the integer digits, as engineering notation does)."""
    whole = max(1, sum(found.group(1).count(ch) for ch in "#0"))
    decimals = len(found.group(2) or "")
    d = Decimal(repr(abs(x)))
    exp = 0 if d == 0 else d.adjusted()
    exp = (exp // whole) * whole
    mant = d.scaleb(-exp).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    if mant >= Decimal(10) ** whole:
        exp += whole
        mant = d.scaleb(-exp).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    sign = "-" if exp < 0 else ("+" if found.group(3) == "+" else "")
    digits = max(1, found.group(4).count("0"))
    body = f"{mant:.{decimals}f}E{sign}{abs(exp):0{digits}d}"
    return ("-" if x < 0 else "") + literal.replace(found.group(0), body, 1).replace("\\", "")


def _number(fmt: str, x: float) -> str:
    """A number in a numeric format code: digits, grouping, decimals, %, literals."""
    section, x = _section(fmt, x)
    if "%" in section:
        x *= 100
    literal = re.sub(r'"([^"]*)"', r"\1", section)
    sci = _SCIENTIFIC.search(literal)
    if sci is not None:
        return _scientific(literal, sci, x)
    code = ""
    for found in re.finditer(r"[#0][#0,]*(\.[0#]*)?|\.[0#]+", literal):
        code = found.group(0)
        break
    if not code:
        return literal
    decimals = len(code.split(".", 1)[1]) if "." in code else 0
    width = code.split(".", 1)[0].replace(",", "").count("0")  # digits always shown
    rounded = Decimal(repr(abs(x))).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    body = f"{rounded:,.{decimals}f}" if "," in code else f"{rounded:.{decimals}f}"
    whole, dot, frac = body.partition(".")
    if len(whole.replace(",", "")) < width:
        whole = whole.zfill(width)
    elif whole == "0" and width == 0 and decimals:
        whole = ""
    body = whole + dot + frac
    if "." in code and "0" not in code.split(".", 1)[1]:
        body = body.rstrip("0").rstrip(".")
    sign = "-" if x < 0 and float(rounded) != 0 else ""
    return sign + literal.replace(code, body, 1).replace("\\", "")


def _date(fmt: str, serial: float) -> str:
    day = date_of(serial)
    secs = round((serial - int(serial)) * 86400)
    t = dt.datetime.combine(day, dt.time()) + dt.timedelta(seconds=secs)
    ampm = re.search(r"am/pm", fmt, re.IGNORECASE) is not None
    out, prev = [], ""
    for piece in _DATE_CODES.split(re.sub(r'"([^"]*)"', r"\1", fmt)):
        low = piece.lower()
        minute = low in ("mm", "m") and prev in ("h", "hh")
        out.append(_date_part(low, t, ampm, minute) if _DATE_CODES.fullmatch(piece) else piece)
        if _DATE_CODES.fullmatch(piece):
            prev = low
    return "".join(out)


def _date_part(code: str, t: dt.datetime, ampm: bool, minute: bool) -> str:
    hour = (t.hour % 12 or 12) if ampm else t.hour
    table = {
        "yyyy": f"{t.year:04d}",
        "yy": f"{t.year % 100:02d}",
        "mmmm": t.strftime("%B"),
        "mmm": t.strftime("%b"),
        "mm": f"{t.minute:02d}" if minute else f"{t.month:02d}",
        "m": str(t.minute) if minute else str(t.month),
        "dddd": t.strftime("%A"),
        "ddd": t.strftime("%a"),
        "dd": f"{t.day:02d}",
        "d": str(t.day),
        "hh": f"{hour:02d}",
        "h": str(hour),
        "ss": f"{t.second:02d}",
        "s": str(t.second),
        "am/pm": "AM" if t.hour < 12 else "PM",
    }
    return table[code]


def format_value(v: Value, fmt: str | None) -> str:
    """`v` as a cell shows it in format `fmt` (General when None)."""
    if v is None:
        return ""
    if isinstance(v, XlError):
        return v.code
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, str):
        return v
    if not fmt or fmt.lower() == "general" or fmt == "@":
        return general(v)
    return _formatted(v, fmt)


@functools.lru_cache(maxsize=8192, typed=True)
def _formatted(v: float, fmt: str) -> str:
    """A number in a format code (remembered: a grid page shows the same few hundred
    formatted values on every request)."""
    try:
        return _date(fmt, v) if is_date_format(fmt) else _number(fmt, v)
    except (ValueError, OverflowError, KeyError):
        return general(v)
    except Exception:
        return general(v)


_DATE_TYPED = (
    ("%Y-%m-%d", "yyyy-mm-dd"),
    ("%m/%d/%Y", "mm/dd/yyyy"),
    ("%b %d, %Y", "mmm d, yyyy"),
    ("%Y-%m-%d %H:%M", "yyyy-mm-dd hh:mm:ss"),  # a date-time, as Sheets shows it
    ("%Y-%m-%d %H:%M:%S", "yyyy-mm-dd hh:mm:ss"),
    ("%m/%d/%Y %H:%M", "mm/dd/yyyy hh:mm:ss"),
    ("%m/%d/%Y %H:%M:%S", "mm/dd/yyyy hh:mm:ss"),
)


def typed_value(text: str) -> tuple[Value, str | None]:
    """What typing `text` into a cell stores: the value and the format it implies
    (None: keep the cell's format). Formulas are handled elsewhere."""
    raw = text.strip()
    if raw == "":
        return None, None
    if raw.upper() in ("TRUE", "FALSE"):
        return raw.upper() == "TRUE", None
    if raw.upper() in ERRORS:
        return ERRORS[raw.upper()], None
    x = parse_number(raw)
    if x is not None:
        if raw.endswith("%"):
            return x, "0%" if x * 100 == int(x * 100) else "0.00%"
        decimals = "." + "0" * len(raw.split(".", 1)[1].rstrip("%").strip()) if "." in raw else ""
        if "$" in raw:
            return x, "$#,##0.00" if "." in raw else "$#,##0"
        return x, (f"#,##0{decimals}" if "," in raw else None)
    for pattern, fmt in _DATE_TYPED:
        try:
            return serial_of(dt.datetime.strptime(raw, pattern)), fmt
        except ValueError:
            continue
    return text, None
