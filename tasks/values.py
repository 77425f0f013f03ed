"""The one reader of values in agent-written text: numbers, money, dates and times.

Each reader takes the tokens of a text (`officegym.tasks.text.tokens`) and returns
every value of its kind the text states, in the forms people write them:
``52,000``, ``3.5``, ``318 000``, ``two``, ``forty-two``; ``$52K``, ``$1.2M``,
``326 grand``, ``fifty thousand``; ``2026-06-30``, ``6/30``, ``June 30th``,
``the 7th of May``, ``May 7 or 8`` (two dates); ``1:30 PM`` (``13:30``). Typed facts
(`officegym.tasks.facts`) and `Says` read through these, so a value is read the
same way in an answer, a chat message and a record field.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from collections.abc import Sequence

from officegym.tasks.lexicon import PERCENT_UNITS

__all__ = [
    "amounts_in",
    "counts_in",
    "date_word",
    "dates_in",
    "numbers_in",
    "percents_in",
    "times_in",
]

_GROUPED = re.compile(r"^\$?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_PLAIN = re.compile(r"^[1-9]\d{3,}$")
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")
_SCALES = {"k": 1_000, "thousand": 1_000, "grand": 1_000, "m": 1_000_000, "mm": 1_000_000}
_SCALES |= {"million": 1_000_000, "bn": 1_000_000_000, "billion": 1_000_000_000}
_WORDS = {
    w: i
    for i, w in enumerate(
        (
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
            "eighteen", "nineteen",
        )
    )
}  # fmt: skip
_TENS = {
    w: 10 * i
    for i, w in enumerate(
        ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"), 2
    )
}
_GROUP = re.compile(r"^\d{3}$")
_CURRENCY = frozenset(("dollars", "dollar", "usd", "bucks"))
_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_SLASHED = re.compile(r"^(\d{1,2})/(\d{1,2})(?:/(\d{4}))?$")
_CLOCK = re.compile(r"^\d{1,2}:\d{2}$")
_MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip
_MONTHS = {
    **{name: i for i, name in enumerate(_MONTH_NAMES, 1)},
    **{name[:3]: i for i, name in enumerate(_MONTH_NAMES, 1)},
    "sept": 9,
}
_ORDINALS = frozenset({"st", "nd", "rd", "th"})
_WEEKDAYS = frozenset(("monday", "tuesday", "wednesday", "thursday", "friday", "saturday"))
_WEEKDAYS |= {"sunday"} | {d[:3] for d in _WEEKDAYS} | {"sun"}


def numbers_in(words: Sequence[str]) -> list[tuple[float, int, int]]:
    """Every number the tokens state, as (value, first token, end token): digits as written
    (``52,000``, ``3.5``, ``318 000``) and words (``two``, ``twenty-one``, ``forty two``).
    Times of day (``13:30``) and dates are not numbers."""
    found, i = [], 0
    while i < len(words):
        read = _number_at(words, i)
        if read is None:
            i += 1
            continue
        value, end = read
        found.append((value, i, end))
        i = end
    return found


def _number_at(words: Sequence[str], i: int) -> tuple[float, int] | None:
    """The number starting at token `i` and the index after it, if one does."""
    w = words[i].lstrip("$")
    if _NUMBER.match(w) or _GROUPED.match(w):
        value, end = float(w.replace(",", "")), i + 1
        while value < 1000 and "." not in w and end < len(words) and _GROUP.match(words[end]):
            value, end = value * 1000 + int(words[end]), end + 1  # "318 000"
        return value, end
    if w in _WORDS:
        return float(_WORDS[w]), i + 1
    tens, _, unit = w.partition("-")
    if tens in _TENS and (not unit or unit in _WORDS):
        if not unit and i + 1 < len(words) and 0 < _WORDS.get(words[i + 1], 0) < 10:
            return float(_TENS[tens] + _WORDS[words[i + 1]]), i + 2  # "forty two"
        return float(_TENS[tens] + _WORDS.get(unit, 0)), i + 1
    return None


def _percent_at(words: Sequence[str], end: int) -> bool:
    """Whether the number ending before token `end` is marked as a percentage."""
    return end < len(words) and words[end] in PERCENT_UNITS


def counts_in(words: Sequence[str]) -> list[float]:
    """Every number the tokens state that is not marked as a percentage (``48%`` is a
    share, not a count)."""
    return [v for v, _, end in numbers_in(words) if not _percent_at(words, end)]


def percents_in(words: Sequence[str]) -> list[float]:
    """Every percentage the tokens state (``60%``, ``60 percent``); a text that marks none
    states its plain numbers as percentages (``60``)."""
    numbers = numbers_in(words)
    marked = [v for v, _, end in numbers if _percent_at(words, end)]
    return marked or [v for v, _, _ in numbers]


def amounts_in(words: Sequence[str]) -> set[int]:
    """Every amount of money the tokens state: ``$52,000``, ``52,000``, ``$52000``,
    ``$52k``, ``$1.2M``, ``326 grand``, ``fifty thousand``, ``318 000``, ``68 dollars``,
    ``USD 68``, and plain numbers of four or more digits that are not years (1900-2100)
    or zero-padded ids. Cents are dropped."""
    found: set[int] = set()
    for value, start, end in numbers_in(words):
        first = words[start]
        scale = _SCALES.get(words[end], 1) if end < len(words) else 1
        named = (end < len(words) and words[end] in _CURRENCY) or (
            start > 0 and words[start - 1] == "usd"
        )
        money_like = first.startswith("$") or "," in first or (end - start > 1 and first.isdigit())
        money_like = money_like or named
        plain = _PLAIN.match(first) is not None and not 1900 <= int(first) <= 2100
        if scale > 1 or money_like or plain:
            found.add(round(value * scale))
    return found


def times_in(words: Sequence[str]) -> set[str]:
    """Every time of day the tokens state, as 24-hour ``H:MM`` (tokens already read
    ``1:30 PM`` and ``10am`` that way)."""
    return {w for w in words if _CLOCK.match(w)}


def date_word(w: str) -> bool:
    """Whether the token `w` can be part of a written date: a day, a month, a year, an
    ordinal suffix, ``of``, a weekday, or a whole ``2026-06-30`` / ``6/30``."""
    if w in _MONTHS or w in _ORDINALS or w in _WEEKDAYS or w == "of":
        return True
    if w.isdigit():
        return 1 <= int(w) <= 31 or 1900 <= int(w) <= 2100
    return _numeric_date(w, 2000) is not None


def dates_in(words: Sequence[str], year: int) -> set[dt.date]:
    """Every calendar date the tokens state: ``2026-06-30``, ``6/30/2026``, ``6/30``,
    ``June 30``, ``Jun 30th, 2026``, ``30 June``; `year` where none is written."""
    found: set[dt.date] = set()
    for i, w in enumerate(words):
        parts = _numeric_date(w, year)
        if parts is None and w in _MONTHS:
            parts = _named_date(words, i, year)
            after = _day_at(words, i + 1)
            if parts is not None and after is not None:
                found |= _more_days(words, after[1], parts[1], parts[0])
        if parts is not None:
            with contextlib.suppress(ValueError):
                found.add(dt.date(*parts))
    return found


def _numeric_date(w: str, year: int) -> tuple[int, int, int] | None:
    iso = _ISO.match(w)
    if iso:
        return int(iso[1]), int(iso[2]), int(iso[3])
    slashed = _SLASHED.match(w)
    if slashed:
        return int(slashed[3] or year), int(slashed[1]), int(slashed[2])
    return None


def _more_days(words: Sequence[str], i: int, month: int, year: int) -> set[dt.date]:
    """Days named after a month and day by ``or``/``and``/``to``/``through`` (``May 7 or 8``,
    ``May 7 to 10``): each is another date of that month."""
    found: set[dt.date] = set()
    while i + 1 < len(words) and words[i] in ("or", "and", "to", "through", "until", "till"):
        day = _day_at(words, i + 1)
        if day is None or (
            day[1] < len(words) and (words[day[1]] == "of" or words[day[1]] in _MONTHS)
        ):
            break  # "June 30 or the 1st of July": that day belongs to another month
        with contextlib.suppress(ValueError):
            found.add(dt.date(year, month, day[0]))
        i = day[1]
    return found


def _named_date(words: Sequence[str], i: int, year: int) -> tuple[int, int, int] | None:
    """`words[i]` is a month name: the day after it (June 30) or before it (30 June)."""
    month = _MONTHS[words[i]]
    after = _day_at(words, i + 1)
    if after is not None:
        day, nxt = after
        written = words[nxt] if nxt < len(words) and re.match(r"^\d{4}$", words[nxt]) else None
        return int(written or year), month, day
    if i >= 1 and words[i - 1].isdigit() and 1 <= int(words[i - 1]) <= 31:
        return year, month, int(words[i - 1])
    if i >= 2 and words[i - 1] in _ORDINALS and words[i - 2].isdigit():
        return year, month, int(words[i - 2])
    if i >= 2 and words[i - 1] == "of":  # "7th of May", "7 of May"
        before = i - 2 - (words[i - 2] in _ORDINALS)
        if before >= 0 and words[before].isdigit() and 1 <= int(words[before]) <= 31:
            return year, month, int(words[before])
    return None


def _day_at(words: Sequence[str], j: int) -> tuple[int, int] | None:
    """(day, index after it) if `words[j]` is a day of the month (with an ordinal suffix)."""
    if j >= len(words) or not words[j].isdigit() or not 1 <= int(words[j]) <= 31:
        return None
    nxt = j + 1
    if nxt < len(words) and words[nxt] in _ORDINALS:
        nxt += 1
    return int(words[j]), nxt
