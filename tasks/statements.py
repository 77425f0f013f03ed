"""What agent-written text says: the one matcher for answers, chat posts and DMs.

Text is compared as tokens — words, @handles, #channels, and numbers with their
separators (``$1,921,000``, ``2026-06-30``, ``10:30``) — so a value matches only
whole: "$1,921,000" does not say "$921,000", "Mar 20" does not say "Mar 2", and
"There are 2." says "2".

A `Says` names what a text must state and what it must not, so that hedging
fails: an answer or a message that lists every candidate names a distractor
(`none_of`), or states more than one amount of money or date where one is asked
for (`amount`, `date`: every amount and every date the text states is read out
and must be exactly the expected one).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Says", "amounts_in", "dates_in", "mentions", "rivals", "tokens"]

_TOKEN = re.compile(r"\$?\d+(?:[.,:/-]\d+)*|[@#]?\w+(?:[.-]\w+)*")
_GROUPED = re.compile(r"^\$?\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_DOLLARS = re.compile(r"^\$\d+(?:\.\d+)?$")
_PLAIN = re.compile(r"^[1-9]\d{3,}$")
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")
_SCALES = {"k": 1_000, "thousand": 1_000, "m": 1_000_000, "mm": 1_000_000, "million": 1_000_000}
_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_SLASHED = re.compile(r"^(\d{1,2})/(\d{1,2})(?:/(\d{4}))?$")
_MONTH_NAMES = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTHS = {
    **{name: i for i, name in enumerate(_MONTH_NAMES, 1)},
    **{name[:3]: i for i, name in enumerate(_MONTH_NAMES, 1)},
    "sept": 9,
}
_ORDINALS = frozenset({"st", "nd", "rd", "th"})


def tokens(text: str) -> tuple[str, ...]:
    """The lower-cased tokens of `text`: words, @handles, #channels, numbers as written."""
    return tuple(t.lower() for t in _TOKEN.findall(text))


def _find(words: Sequence[str], phrase: Sequence[str]) -> bool:
    n = len(phrase)
    if n == 0:
        return False
    first = phrase[0]
    return any(
        words[i] == first and tuple(words[i : i + n]) == tuple(phrase)
        for i in range(len(words) - n + 1)
    )


def mentions(text: str, phrase: str) -> bool:
    """Whether `text` contains `phrase` as whole tokens, in order."""
    return _find(tokens(text), tokens(phrase))


def amounts_in(words: Sequence[str]) -> set[int]:
    """Every amount of money the tokens state: ``$52,000``, ``52,000``, ``$52000``,
    ``$52k``, ``$1.2M``, and plain numbers of four or more digits that are not years
    (1900-2100) or zero-padded ids. Cents are dropped."""
    found: set[int] = set()
    for i, w in enumerate(words):
        scale = _SCALES.get(words[i + 1], 1) if i + 1 < len(words) else 1
        money_like = _GROUPED.match(w) or _DOLLARS.match(w)
        plain = _PLAIN.match(w) and not 1900 <= int(w) <= 2100
        scaled = scale > 1 and _NUMBER.match(w)
        if money_like or plain or scaled:
            found.add(round(float(w.lstrip("$").replace(",", "")) * scale))
    return found


def dates_in(words: Sequence[str], year: int) -> set[dt.date]:
    """Every calendar date the tokens state: ``2026-06-30``, ``6/30/2026``, ``6/30``,
    ``June 30``, ``Jun 30th, 2026``, ``30 June``; `year` where none is written."""
    found: set[dt.date] = set()
    for i, w in enumerate(words):
        parts = _numeric_date(w, year)
        if parts is None and w in _MONTHS:
            parts = _named_date(words, i, year)
        if parts is not None:
            try:
                found.add(dt.date(*parts))
            except ValueError:
                continue
    return found


def _numeric_date(w: str, year: int) -> tuple[int, int, int] | None:
    iso = _ISO.match(w)
    if iso:
        return int(iso[1]), int(iso[2]), int(iso[3])
    slashed = _SLASHED.match(w)
    if slashed:
        return int(slashed[3] or year), int(slashed[1]), int(slashed[2])
    return None


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
    return None


def _day_at(words: Sequence[str], j: int) -> tuple[int, int] | None:
    """(day, index after it) if `words[j]` is a day of the month (with an ordinal suffix)."""
    if j >= len(words) or not words[j].isdigit() or not 1 <= int(words[j]) <= 31:
        return None
    nxt = j + 1
    if nxt < len(words) and words[nxt] in _ORDINALS:
        nxt += 1
    return int(words[j]), nxt


def rivals(options: Iterable[str], chosen: str) -> list[str]:
    """The options other than `chosen`: the distractors a text must not name."""
    return [o for o in options if o != chosen]


def _without(text: str, phrases: Sequence[str]) -> str:
    for phrase in phrases:
        text = re.sub(re.escape(phrase), " ", text, flags=re.IGNORECASE)
    return text


@dataclass(frozen=True)
class Says:
    """What a text must state: one variant of each group in `all_of`, none of `none_of`,
    exactly the `amount` of money and the `date` (when given) and no other, within
    `max_chars`. `ignoring` phrases (a record's own name) are cut out before looking.
    With `exactly`, the text must read just that (case, spacing and punctuation aside)."""

    exactly: str | None = None
    all_of: Sequence[Sequence[str]] = ()
    none_of: Sequence[str] = ()
    amount: int | None = None
    date: dt.date | None = None
    ignoring: Sequence[str] = ()
    max_chars: int = 400

    def judge(self, text: str | None) -> tuple[bool, str]:
        """(whether `text` says it, a detail line naming the first thing wrong)."""
        if not text or not text.strip():
            return False, "nothing said"
        if len(text) > self.max_chars:
            return False, f"longer than {self.max_chars} characters"
        if self.exactly is not None and tokens(text) != tokens(self.exactly):
            return False, f"does not read {self.exactly!r}"
        words = tokens(_without(text, self.ignoring))
        for group in self.all_of:
            if not any(_find(words, tokens(v)) for v in group):
                return False, f"does not say {group[0]!r}"
        for phrase in self.none_of:
            if _find(words, tokens(phrase)):
                return False, f"also says {phrase!r}"
        if self.amount is not None and (found := amounts_in(words)) != {self.amount}:
            return False, f"states the amounts {sorted(found)}, want only {self.amount:,}"
        if self.date is not None and (days := dates_in(words, self.date.year)) != {self.date}:
            return False, f"states the dates {sorted(map(str, days))}, want only {self.date}"
        return True, "says what it should"
