"""Text: joining, cutting, case, searching, replacing, TEXT/VALUE conversions."""

from __future__ import annotations

import re

from officegym.apps.sheets import budget
from officegym.apps.sheets.formats import format_value
from officegym.apps.sheets.functions import fn, values_of
from officegym.apps.sheets.runtime import Ctx, Rng, is_array
from officegym.apps.sheets.values import (
    VALUE,
    Raise,
    Value,
    XlError,
    as_bool,
    as_number,
    as_text,
    parse_number,
)


def _t(v: Value) -> str:
    return as_text(v)


def _count(v: Value, default: int = 1) -> int:
    n = int(as_number(v)) if v is not None else default
    if n < 0:
        raise Raise(VALUE)
    return n


@fn("CONCATENATE", 1, None)
def concatenate(*parts: Value) -> str:
    return budget.joined(_t(p) for p in parts)


def _texts(args: tuple[object, ...], skip_empty: bool) -> list[str]:
    out = []
    for a in args:
        for v in values_of(a) if isinstance(a, Rng) or is_array(a) else [a]:  # type: ignore[list-item]
            if isinstance(v, XlError):
                raise Raise(v)
            s = _t(v)  # type: ignore[arg-type]
            if s or not skip_empty:
                out.append(s)
    return out


@fn("CONCAT", 1, None, mode="raw")
def concat(ctx: Ctx, *args: object) -> str:
    return budget.joined(_texts(args, True))


@fn("TEXTJOIN", 3, None, mode="raw")
def textjoin(ctx: Ctx, sep: object, skip: object, *args: object) -> str:
    from officegym.apps.sheets.functions import scalar

    return budget.joined(_texts(args, as_bool(scalar(skip, ctx))), _t(scalar(sep, ctx)))


@fn("LEFT", 1, 2)
def left(s: Value, n: Value = None) -> str:
    return _t(s)[: _count(n)]


@fn("RIGHT", 1, 2)
def right(s: Value, n: Value = None) -> str:
    k = _count(n)
    return _t(s)[-k:] if k else ""


@fn("MID", 3)
def mid(s: Value, start: Value, n: Value) -> str:
    i = int(as_number(start))
    if i < 1:
        raise Raise(VALUE)
    return _t(s)[i - 1 : i - 1 + _count(n)]


@fn("LEN", 1)
def len_(s: Value) -> float:
    return float(len(_t(s)))


@fn("UPPER", 1)
def upper(s: Value) -> str:
    return _t(s).upper()


@fn("LOWER", 1)
def lower(s: Value) -> str:
    return _t(s).lower()


@fn("PROPER", 1)
def proper(s: Value) -> str:
    return re.sub(r"[A-Za-z]+", lambda m: m.group(0).capitalize(), _t(s))


@fn("TRIM", 1)
def trim(s: Value) -> str:
    return re.sub(" +", " ", _t(s)).strip(" ")


@fn("CLEAN", 1)
def clean(s: Value) -> str:
    return "".join(ch for ch in _t(s) if ord(ch) >= 32)


@fn("SUBSTITUTE", 3, 4)
def substitute(s: Value, old: Value, new: Value, nth: Value = None) -> str:
    text, a, b = _t(s), _t(old), _t(new)
    if not a:
        return text
    if nth is None:
        budget.text_size(len(text) + text.count(a) * (len(b) - len(a)))
        return text.replace(a, b)
    k = int(as_number(nth))
    if k < 1:
        raise Raise(VALUE)
    budget.text_size(len(text) + len(b) - len(a))
    pos = -1
    for _ in range(k):
        pos = text.find(a, pos + 1)
        if pos < 0:
            return text
    return text[:pos] + b + text[pos + len(a) :]


@fn("REPLACE", 4)
def replace(s: Value, start: Value, n: Value, new: Value) -> str:
    text, i, k = _t(s), int(as_number(start)), _count(n)
    if i < 1:
        raise Raise(VALUE)
    head, tail = text[: i - 1], text[i - 1 + k :]
    return budget.joined((head, _t(new), tail))


def _find(needle: str, hay: str, start: Value, fold: bool) -> float:
    i = int(as_number(start)) if start is not None else 1
    if i < 1 or i > len(hay) + 1:
        raise Raise(VALUE)
    if fold:
        pattern = needle
        if any(ch in pattern for ch in "*?~"):
            from officegym.apps.sheets.functions.criteria import wildcard_pattern

            rx = wildcard_pattern(pattern)
            m = rx.search(hay, i - 1) if rx else None
            if m is None:
                raise Raise(VALUE)
            return float(m.start() + 1)
        needle, hay = needle.lower(), hay.lower()
    pos = hay.find(needle, i - 1)
    if pos < 0:
        raise Raise(VALUE)
    return float(pos + 1)


@fn("FIND", 2, 3)
def find(needle: Value, hay: Value, start: Value = None) -> float:
    return _find(_t(needle), _t(hay), start, False)


@fn("SEARCH", 2, 3)
def search(needle: Value, hay: Value, start: Value = None) -> float:
    return _find(_t(needle), _t(hay), start, True)


@fn("EXACT", 2)
def exact(a: Value, b: Value) -> bool:
    return _t(a) == _t(b)


@fn("REPT", 2)
def rept(s: Value, n: Value) -> str:
    """`s` repeated `n` times; #VALUE! past 32,767 characters (Excel), checked first."""
    text, k = _t(s), _count(n)
    if text:
        budget.text_size(len(text) * k)
    return text * k


@fn("CHAR", 1)
def char(n: Value) -> str:
    k = int(as_number(n))
    if not 1 <= k <= 255:
        raise Raise(VALUE)
    return bytes([k]).decode("cp1252", errors="replace")


@fn("CODE", 1)
def code(s: Value) -> float:
    text = _t(s)
    if not text:
        raise Raise(VALUE)
    try:
        return float(text[0].encode("cp1252")[0])
    except UnicodeEncodeError:
        return 63.0


@fn("UNICHAR", 1)
def unichar(n: Value) -> str:
    return chr(int(as_number(n)))


@fn("UNICODE", 1)
def unicode_(s: Value) -> float:
    text = _t(s)
    if not text:
        raise Raise(VALUE)
    return float(ord(text[0]))


@fn("TEXT", 2)
def text(v: Value, fmt: Value) -> str:
    if isinstance(v, str):
        x = parse_number(v)
        if x is None:
            return v
        v = x
    return format_value(v, _t(fmt))


@fn("VALUE", 1)
def value(s: Value) -> float:
    if isinstance(s, str) and not s.strip():
        raise Raise(VALUE)
    return as_number(s)


@fn("NUMBERVALUE", 1, 3)
def numbervalue(s: Value, decimal: Value = ".", group: Value = ",") -> float:
    text = _t(s).replace(_t(group) or ",", "").replace(_t(decimal) or ".", ".")
    return as_number(text.replace(" ", "") or "0")


def _decimals(v: Value) -> int:
    """Decimals of FIXED and DOLLAR: at most 127, as in Excel (#VALUE! past it)."""
    d = int(as_number(v)) if v is not None else 2
    if d > 127:
        raise Raise(VALUE)
    return d


@fn("FIXED", 1, 3)
def fixed(x: Value, decimals: Value = 2.0, no_commas: Value = False) -> str:
    d = _decimals(decimals)
    fmt = ("0" if as_bool(no_commas or False) else "#,##0") + ("." + "0" * d if d > 0 else "")
    return format_value(as_number(x), fmt)


@fn("DOLLAR", 1, 2)
def dollar(x: Value, decimals: Value = 2.0) -> str:
    d = _decimals(decimals)
    n = as_number(x)
    body = format_value(abs(n), "#,##0" + ("." + "0" * d if d > 0 else ""))
    return f"(${body})" if n < 0 else f"${body}"


def _split_at(s: Value, delim: Value, nth: Value, after: bool) -> Value:
    """The text before (or after) the `nth` delimiter; #N/A when there are fewer."""
    parts = _t(s).split(_t(delim))
    k = int(as_number(nth)) if nth is not None else 1
    if len(parts) <= k:
        return XlError("#N/A")
    return _t(delim).join(parts[k:] if after else parts[:k])


@fn("TEXTBEFORE", 2, 3)
def textbefore(s: Value, delim: Value, nth: Value = 1.0) -> Value:
    return _split_at(s, delim, nth, after=False)


@fn("TEXTAFTER", 2, 3)
def textafter(s: Value, delim: Value, nth: Value = 1.0) -> Value:
    return _split_at(s, delim, nth, after=True)


@fn("HYPERLINK", 1, 2)
def hyperlink(url: Value, label: Value = None) -> Value:
    """HYPERLINK(url, [label]): the cell shows `label` (the URL when there is none)."""
    return url if label is None else label
