"""Google Sheets' text functions: REGEXMATCH, REGEXEXTRACT, REGEXREPLACE (RE2-style
patterns, `$1` groups in replacements), JOIN, ISEMAIL, ISURL, ENCODEURL, TO_TEXT.

Patterns run on the `regex` package under the recalculation's time budget: a pattern
that backtracks for ever blows the budget instead of holding the served world."""

from __future__ import annotations

import functools
import urllib.parse
from typing import Any

import regex

from officegym.apps.sheets import budget
from officegym.apps.sheets.functions import fn, scalar, values_of
from officegym.apps.sheets.runtime import Ctx, Rng
from officegym.apps.sheets.values import NA, REF, VALUE, Raise, Value, XlError, as_text

_GROUP = regex.compile(r"\$(\d+)|\$\{(\d+)\}")


@functools.lru_cache(maxsize=512)
def _compiled(pattern: str) -> regex.Pattern[str]:
    try:
        return regex.compile(pattern, regex.VERSION0)
    except (regex.error, OverflowError, ValueError):
        raise Raise(REF) from None  # Sheets: "... is not a valid regular expression"


def _text_arg(v: Value) -> str:
    """Sheets' regular-expression functions take text only: a number is #VALUE!."""
    if isinstance(v, str):
        return v
    if v is None:
        return ""
    raise Raise(VALUE)


def _run(call: Any, *args: Any) -> Any:
    """`call(*args)` with the time the recalculation has left; over it, the budget blows."""
    try:
        return call(*args, timeout=max(budget.seconds_left(), 0.01))
    except TimeoutError:
        raise budget.timeout() from None


@fn("REGEXMATCH", 2)
def regexmatch(text: Value, pattern: Value) -> bool:
    p = _compiled(_text_arg(pattern))
    return _run(p.search, _text_arg(text)) is not None


@fn("REGEXEXTRACT", 2)
def regexextract(text: Value, pattern: Value) -> Value | list[list[Value]]:
    """The first match; with capture groups, the groups (one per column)."""
    p = _compiled(_text_arg(pattern))
    found = _run(p.search, _text_arg(text))
    if found is None:
        raise Raise(NA)
    if p.groups == 0:
        return found.group(0)
    groups = [g if g is not None else "" for g in found.groups()]
    return groups[0] if len(groups) == 1 else [list(groups)]


@fn("REGEXREPLACE", 3)
def regexreplace(text: Value, pattern: Value, replacement: Value) -> str:
    """Every match replaced; `$1` (or `${1}`) in the replacement is the first group."""
    p = _compiled(_text_arg(pattern))
    new = _text_arg(replacement)

    def expand(m: regex.Match[str]) -> str:
        def group(g: regex.Match[str]) -> str:
            k = int(g.group(1) or g.group(2))
            if k > p.groups:
                raise Raise(REF)
            return m.group(k) or ""

        return _GROUP.sub(group, new)

    out = _run(p.sub, expand, _text_arg(text))
    budget.text_size(len(out))
    return out


@fn("JOIN", 2, None, mode="raw")
def join(ctx: Ctx, delimiter: object, *args: object) -> str:
    """The values (every cell of a range, blanks as empty text) joined by `delimiter`."""
    sep = scalar(delimiter, ctx)
    if isinstance(sep, XlError):
        raise Raise(sep)
    parts = []
    for a in args:
        for v in [x for row in a.matrix() for x in row] if isinstance(a, Rng) else values_of(a):
            if isinstance(v, XlError):
                raise Raise(v)
            parts.append(as_text(v))
    return budget.joined(parts, as_text(sep))


_EMAIL = regex.compile(
    r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"
)
_URL = regex.compile(
    r"((https?|ftp)://)?([A-Za-z0-9-]+\.)+[A-Za-z]{2,}(:\d+)?([/?#][^\s]*)?", regex.IGNORECASE
)


@fn("ISEMAIL", 1)
def isemail(v: Value) -> bool:
    return isinstance(v, str) and _EMAIL.fullmatch(v.strip()) is not None


@fn("ISURL", 1)
def isurl(v: Value) -> bool:
    return isinstance(v, str) and _URL.fullmatch(v.strip()) is not None


@fn("ENCODEURL", 1)
def encodeurl(v: Value) -> str:
    return urllib.parse.quote(as_text(v), safe="-_.~")


@fn("TO_TEXT", 1)
def to_text(v: Value) -> str:
    return as_text(v)
