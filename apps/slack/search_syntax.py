"""Slack's search syntax, read into one typed query (no database: the service resolves the
names it holds).

A query is words, "quoted phrases" and modifiers, in any order:

- ``from:@handle`` / ``from:handle`` / ``from:<@U0000012>``: messages by that person;
- ``in:#channel`` / ``in:channel`` / ``in:<#C0000003|name>``: in that channel;
  ``in:@handle`` in your direct conversation with that person;
- ``before:YYYY-MM-DD`` (earlier days), ``after:YYYY-MM-DD`` (later days),
  ``on:YYYY-MM-DD`` (that day), ``during:YYYY-MM`` or ``during:YYYY`` (that month/year);
- ``has:link``, ``has:pin``, ``has:reaction``.

Words and phrases must all appear (any case); several ``from:`` (or ``in:``) values are
alternatives, as in Slack. Any other ``name:value`` text is searched as a word, and a
date Slack would not read is an `Invalid` error naming the modifier.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Literal, get_args

from officegym.errors import Invalid

__all__ = ["HAS", "SYNTAX_HELP", "SearchQuery", "parse"]

Has = Literal["link", "pin", "reaction"]
HAS: tuple[str, ...] = get_args(Has)
SYNTAX_HELP = (
    'Words must all appear; "quoted phrases" match exactly. Slack modifiers narrow it: '
    "from:@handle, in:#channel (in:@handle for a DM), before:/after:/on:YYYY-MM-DD, "
    "during:YYYY-MM, has:link, has:pin, has:reaction."
)
# A quoted phrase, or one run of non-space characters.
TOKEN_RE = re.compile(r'"([^"]*)"|(\S+)')
MODIFIER_RE = re.compile(r"^(from|in|before|after|on|during|has):(\S+)$", re.IGNORECASE)
DAY_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MONTH_RE = re.compile(r"^(\d{4})(?:-(\d{2}))?$")


@dataclass(frozen=True)
class SearchQuery:
    """A parsed query. Dates bound ``created_at`` as a half-open range [since, until)."""

    terms: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()
    channels: tuple[str, ...] = ()
    since: dt.datetime | None = None
    until: dt.datetime | None = None
    has: frozenset[str] = field(default_factory=frozenset)

    def is_empty(self) -> bool:
        """Whether the query asks for nothing at all (no words and no modifier)."""
        return not (self.terms or self.authors or self.channels or self.has) and (
            self.since is None and self.until is None
        )


def parse(query: str) -> SearchQuery:
    """Read `query`'s words, quoted phrases and modifiers (see the module docstring)."""
    terms: list[str] = []
    refs: dict[str, list[str]] = {"from": [], "in": []}
    ranges: list[tuple[dt.datetime | None, dt.datetime | None]] = []
    has: set[str] = set()
    for found in TOKEN_RE.finditer(query):
        phrase, word = found.groups()
        if phrase is not None:
            if phrase.strip():
                terms.append(" ".join(phrase.split()))
            continue
        modifier = MODIFIER_RE.match(word)
        if modifier is None or not _known(modifier.group(1).lower(), modifier.group(2)):
            terms.append(word)
            continue
        name, value = modifier.group(1).lower(), modifier.group(2)
        if name in refs:
            refs[name].append(_reference(value))
        elif name == "has":
            has.add(value.lower())
        else:
            ranges.append(_date_range(name, value))
    since = max((a for a, _ in ranges if a is not None), default=None)
    until = min((b for _, b in ranges if b is not None), default=None)
    return SearchQuery(
        tuple(terms), tuple(refs["from"]), tuple(refs["in"]), since, until, frozenset(has)
    )


def _known(name: str, value: str) -> bool:
    """Whether ``name:value`` is a modifier we apply (``has:`` only with a value we know)."""
    return name != "has" or value.lower() in HAS


def _reference(value: str) -> str:
    """A person or channel reference without Slack's markup: ``<@U1>`` -> ``@U1``,
    ``<#C1|general>`` -> ``C1`` (the id, not the label); plain text stays as written."""
    if not (value.startswith("<") and value.endswith(">")):
        return value
    target = value[1:-1].split("|", 1)[0]
    return target.removeprefix("#")


def _date_range(name: str, value: str) -> tuple[dt.datetime | None, dt.datetime | None]:
    """The [since, until) bounds of one date modifier."""
    if name == "during":
        return _period(value)
    day = _day(name, value)
    start = dt.datetime.combine(day, dt.time())
    next_day = start + dt.timedelta(days=1)
    if name == "before":
        return None, start
    if name == "after":
        return next_day, None
    return start, next_day


def _day(name: str, value: str) -> dt.date:
    if DAY_RE.match(value) and value[:4] != "9999":  # 9999-12-31 has no next day
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise Invalid(f"{name}:{value} is not a date; write {name}:YYYY-MM-DD, e.g. {name}:2026-03-09")


def _period(value: str) -> tuple[dt.datetime, dt.datetime]:
    """The bounds of ``during:YYYY-MM`` (a month) or ``during:YYYY`` (a year)."""
    found = MONTH_RE.match(value)
    month = int(found.group(2)) if found and found.group(2) else None
    if found is None or found.group(1) == "9999" or (month is not None and not 1 <= month <= 12):
        raise Invalid(f"during:{value} is not a month; write during:YYYY-MM, e.g. during:2026-03")
    year = int(found.group(1))
    if month is None:
        return dt.datetime(year, 1, 1), dt.datetime(year + 1, 1, 1)
    days = calendar.monthrange(year, month)[1]
    start = dt.datetime(year, month, 1)
    return start, start + dt.timedelta(days=days)
