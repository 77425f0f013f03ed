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

import contextlib
import datetime as dt
import functools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "HEDGES",
    "NEGATIONS",
    "Says",
    "amounts_in",
    "dates_in",
    "day_forms",
    "mentions",
    "numbers_in",
    "rivals",
    "tokens",
    "with_plurals",
]

_TOKEN = re.compile(r"\$?\d+(?:[.,:/-]\d+)*|[@#]?\w+(?:[.-]\w+)*|\+")
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
# Words that hedge a number ("at least 2", "2 or 3", "about $300k"): refused where an answer
# must state one value (`Says.hedges`).
HEDGES = frozenset(
    (
        "or", "least", "most", "more", "less", "fewer", "maybe", "perhaps", "possibly",
        "probably", "likely", "either", "about", "approx",
        "approximately", "around", "roughly", "nearly", "almost", "over", "under", "minus",
        "plus", "+", "give", "take", "between", "ish", "not", "than", "estimate", "estimated",
        "guess",
    )
)  # fmt: skip
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
_ARTICLES = frozenset({"a", "an", "the"})
_VERSION = re.compile(r"^v\d+(?:\.\d+)+$")
_TIME = re.compile(r"^(?P<hour>\d{1,2})(?:(?P<sep>[:.])(?P<min>\d{2}))?$")
# Words that deny or undo what a message should affirm ("I will NOT take this").
NEGATIONS = (
    "not", "never", "no longer", "can't", "cannot", "can not", "won't", "don't", "doesn't",
    "didn't", "isn't", "wasn't", "couldn't", "wouldn't", "unable", "cancelled", "canceled",
)  # fmt: skip


def tokens(text: str) -> tuple[str, ...]:
    """The tokens of `text`: words, @handles, #channels, numbers as written, lower-cased,
    after Unicode normalisation (fullwidth digits, invisible characters). Articles are
    dropped, a ``v`` before a version number too, and times of day read as 24-hour
    ``H:MM`` (``1:30pm``, ``1.30 PM``, ``09:30`` and ``10am`` are ``13:30``, ``13:30``,
    ``9:30`` and ``10:00``)."""
    clean = "".join(
        c for c in unicodedata.normalize("NFKC", text) if unicodedata.category(c) != "Cf"
    )
    raw = [t.lower() for t in _TOKEN.findall(clean)]
    out: list[str] = []
    i = 0
    while i < len(raw):
        word, after = raw[i], raw[i + 1] if i + 1 < len(raw) else ""
        clock = _clock(word, after)
        if clock is not None:
            out.append(clock)
            i += 2 if after in ("am", "pm") else 1
            continue
        if word not in _ARTICLES:
            out.append(word[1:] if _VERSION.match(word) else word)
        i += 1
    return tuple(out)


def _clock(word: str, after: str) -> str | None:
    """`word` (with a following ``am``/``pm``) as a 24-hour time ``H:MM``, if it is one."""
    found = _TIME.match(word)
    meridiem = after if after in ("am", "pm") else ""
    if found is None or ((found["sep"] == "." or not found["min"]) and not meridiem):
        return None
    hour, minute = int(found["hour"]), int(found["min"] or 0)
    if meridiem:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if meridiem == "pm" else 0)
    return f"{hour}:{minute:02d}" if hour < 24 and minute < 60 else None


def _find(words: Sequence[str], phrase: Sequence[str]) -> bool:
    n = len(phrase)
    if n == 0:
        return False
    first = phrase[0]
    return any(
        words[i] == first and tuple(words[i : i + n]) == tuple(phrase)
        for i in range(len(words) - n + 1)
    )


@functools.lru_cache(maxsize=1 << 16)
def _phrase(phrase: str) -> tuple[str, ...]:
    """The tokens of a phrase a check looks for: the same few thousand phrases are looked
    for in every episode, so they are tokenized once."""
    return tokens(phrase)


def mentions(text: str, phrase: str) -> bool:
    """Whether `text` contains `phrase` as whole tokens, in order."""
    return _find(tokens(text), _phrase(phrase))


def numbers_in(words: Sequence[str]) -> list[tuple[float, int, int]]:
    """Every number the tokens state, as (value, first token, end token): digits as written
    (``52,000``, ``3.5``, ``318 000``) and words (``two``, ``twenty-one``, ``forty two``)."""
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


def amounts_in(words: Sequence[str]) -> set[int]:
    """Every amount of money the tokens state: ``$52,000``, ``52,000``, ``$52000``,
    ``$52k``, ``$1.2M``, ``326 grand``, ``fifty thousand``, ``318 000``, and plain numbers
    of four or more digits that are not years (1900-2100) or zero-padded ids. Cents are
    dropped."""
    found: set[int] = set()
    for value, start, end in numbers_in(words):
        first = words[start]
        scale = _SCALES.get(words[end], 1) if end < len(words) else 1
        money_like = first.startswith("$") or "," in first or (end - start > 1 and first.isdigit())
        plain = _PLAIN.match(first) is not None and not 1900 <= int(first) <= 2100
        if scale > 1 or money_like or plain:
            found.add(round(value * scale))
    return found


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
        if day is None:
            break
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


def rivals(options: Iterable[str], chosen: str) -> list[str]:
    """The options other than `chosen` (however it is written): the distractors a text
    must not name."""
    mine = tokens(chosen)
    return [o for o in options if tokens(o) != mine]


def day_forms(day: str) -> list[str]:
    """The ways a weekday is written: ``Tuesday``, ``Tuesdays``, ``Tue``."""
    return [day, day + "s", day[:3]]


def with_plurals(phrases: Iterable[str]) -> list[str]:
    """Each phrase and its plural (``usage dashboard`` -> ``usage dashboards``): the ways an
    agent may name a thing, or name a rival."""
    return [form for p in phrases for form in (p, p if p.endswith("s") else p + "s")]


def _without(text: str, phrases: Sequence[str]) -> str:
    for phrase in phrases:
        text = re.sub(re.escape(phrase), " ", text, flags=re.IGNORECASE)
    return text


@dataclass(frozen=True)
class Says:
    """What a text must state: one variant of each group in `all_of`, none of `none_of`,
    exactly the `amount` of money, the `date` and the `count` (when given) and no other,
    within `max_chars` (`amounts_besides` may appear too: the parts of a total); with
    `hedges=False`, no hedging word ("or", "at least", "about", "+", ...: `HEDGES`), for
    answers that must state one value; with `affirms`, no denial ("not", "can't",
    "cancelled", ...: `NEGATIONS`), for messages that must affirm what was done. `ignoring`
    phrases (a record's own name) are cut out before looking for what must not be said.
    With `exactly`, the text must read just that (case, spacing and punctuation aside)."""

    exactly: str | None = None
    all_of: Sequence[Sequence[str]] = ()
    none_of: Sequence[str] = ()
    amount: int | None = None
    amounts_besides: Sequence[int] = ()
    date: dt.date | None = None
    count: int | None = None
    hedges: bool = True
    affirms: bool = False
    ignoring: Sequence[str] = ()
    max_chars: int = 400

    def judge(self, text: str | None) -> tuple[bool, str]:
        """(whether `text` says it, a detail line naming the first thing wrong)."""
        if not text or not text.strip():
            return False, "nothing said"
        if len(text) > self.max_chars:
            return False, f"longer than {self.max_chars} characters"
        whole = tokens(text)
        if self.exactly is not None and whole != _phrase(self.exactly):
            return False, f"does not read {self.exactly!r}"
        for group in self.all_of:
            if not any(_find(whole, _phrase(v)) for v in group):
                return False, f"does not say {group[0]!r}"
        words = tokens(_without(text, self.ignoring)) if self.ignoring else whole
        present = set(words)
        for phrase in [*self.none_of, *(NEGATIONS if self.affirms else ())]:
            rival = _phrase(phrase)
            if rival and rival[0] in present and _find(words, rival):
                return False, f"also says {phrase!r}"
        if not self.hedges and (hedge := next((w for w in words if w in HEDGES), None)):
            return False, f"hedges ({hedge!r})"
        return self._values(words)

    def _values(self, words: tuple[str, ...]) -> tuple[bool, str]:
        """The amount, count and date checks (each only when asked for)."""
        if self.amount is not None:
            found = amounts_in(words) - set(self.amounts_besides)
            if found != {self.amount}:
                return False, f"states the amounts {sorted(found)}, want only {self.amount:,}"
        if self.count is not None:
            counts = {v for v, _, _ in numbers_in(words)}
            if counts != {self.count}:
                return False, f"states the numbers {sorted(counts)}, want only {self.count}"
        if self.date is not None and (days := dates_in(words, self.date.year)) != {self.date}:
            return False, f"states the dates {sorted(map(str, days))}, want only {self.date}"
        return True, "says what it should"
