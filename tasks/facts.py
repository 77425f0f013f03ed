"""Typed facts: the values a task expects an agent to state, and the one way they are read.

A question task declares the type of its answer (`Spec.answer`): an integer, an
amount of money, a percentage, a date, a time of day, or one (or several) of a
known set of options — people, record names, stages, weekdays, versions. Chat
messages and record fields that must carry a fact declare it the same way
(`Says(facts=...)`). Reading is generic: every value of the fact's type that the
text states is read out (`officegym.tasks.values`; options by their written forms)
and must be exactly the expected value(s). So a second value of the same type, a
list of candidates, a range or "either 9 or 10" fails for every template without
the template saying so; every other option of a choice is a rival by construction.

Answers are judged more strictly than messages (`judge_answer`): no hedging word,
no negation ("It isn't 60", "$311,000 is wrong"), no question, and with `alone`
nothing but the value ("Answer with just the number").
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from officegym.tasks.lexicon import (
    HEDGES,
    MINUS,
    NEGATIONS,
    PERCENT_UNITS,
    REJECTIONS,
    ZERO_WORDS,
    hedge_in,
)
from officegym.tasks.text import phrase, sentences, tokens
from officegym.tasks.values import (
    amounts_in,
    counts_in,
    date_word,
    dates_in,
    numbers_in,
    percents_in,
    times_in,
)

__all__ = [
    "HEDGES",
    "Fact",
    "FactKind",
    "answer_problem",
    "answer_tokens",
    "choice",
    "date",
    "integer",
    "judge_answer",
    "money",
    "percent",
    "person",
    "time_of_day",
]

FactKind = Literal["integer", "money", "percent", "date", "time", "choice"]

_NUMERIC = frozenset(("integer", "money", "percent"))
_UNITS = frozenset(("$", "dollars", "dollar", "usd", "bucks", "k", "m", "mm"))
_UNITS |= frozenset(("thousand", "million", "billion", "bn", "grand")) | PERCENT_UNITS


@dataclass(frozen=True)
class Fact:
    """Values of one type that a text must state, exactly (no other value of that type).

    `values` are what must be stated (one, or several for a list); `options` (choices
    only) map each option to the ways it is written; `besides` are values of the type
    that may appear too (the parts of a total); `ignoring` phrases (a record's own name,
    which may hold digits) are cut out before reading; `alone` asks an answer for
    nothing but the value.
    """

    kind: FactKind
    values: tuple[Any, ...]
    options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    besides: tuple[Any, ...] = ()
    ignoring: tuple[str, ...] = ()
    alone: bool = False
    label: str = ""

    def read(self, text: str) -> set[Any]:
        """Every value of this fact's type that `text` states (minus `besides`)."""
        return self.read_words(tokens(self._cut(text))) - set(self.besides)

    def read_words(self, words: tuple[str, ...]) -> set[Any]:
        if self.kind == "integer":
            return {_as_number(v) for v in counts_in(words)}
        if self.kind == "percent":
            return {_as_number(v) for v in percents_in(words)}
        if self.kind == "money":
            return amounts_in(words)
        if self.kind == "date":
            return dates_in(words, self.values[0].year)
        if self.kind == "time":
            return times_in(words)
        return _options_named(words, _forms_index(tuple(self.options.items())))

    def read_answer(self, words: tuple[str, ...]) -> set[Any]:
        """What an answer's tokens state: as `read_words`, but an answer that marks no
        amount as money ("68", "68.00") states its plain numbers as amounts."""
        found = self.read_words(words)
        if self.kind == "money" and not found:
            found = {round(v) for v, _, _ in numbers_in(words)}
        return found - set(self.besides)

    def judge(self, text: str) -> tuple[bool, str]:
        """Whether `text` states exactly the expected value(s) of this type."""
        return self.verdict(self.read(text))

    def verdict(self, found: set[Any]) -> tuple[bool, str]:
        """Whether the values `found` in a text are exactly the expected value(s)."""
        want = set(self.values)
        if found == want:
            return True, f"states {self.describe()}"
        shown = ", ".join(sorted(map(str, found))) or "none"
        return False, f"states {shown}, want only {self.describe()}"

    def describe(self) -> str:
        return self.label or " and ".join(self.say(v) for v in self.values)

    def say(self, value: Any) -> str:
        """`value` written as a person would state it."""
        if self.kind == "money":
            return f"${value:,}"
        if self.kind == "percent":
            return f"{value}%"
        if self.kind == "date":
            return value.isoformat()
        return str(value)

    def text(self) -> str:
        """The reference answer: the value(s), as `say` writes them."""
        return ", ".join(self.say(v) for v in self.values)

    def rivals(self) -> list[Any]:
        """Wrong values of the same type: the other options, or neighbouring values."""
        if self.kind == "choice":
            return [o for o in self.options if o not in self.values]
        v = self.values[0]
        if self.kind == "date":
            return [v + dt.timedelta(days=d) for d in (1, -1, 7)]
        if self.kind == "time":
            hour, minute = map(int, v.split(":"))
            return [f"{(hour + 1) % 24}:{minute:02d}", f"{hour}:{(minute + 30) % 60:02d}"]
        step = 1000 if self.kind == "money" and v >= 10_000 else 1
        return [v + step, v - step if v >= step else v + 2 * step, v * 10 if v else 7]

    def _cut(self, text: str) -> str:
        for words in self.ignoring:
            text = _cut_phrase(text, words)
        return text

    def value_tokens(self, words: tuple[str, ...]) -> set[int]:
        """Indexes of the tokens that state values of this type (and their units)."""
        if self.kind in ("integer", "percent", "money"):
            spans = [range(s, e) for _, s, e in numbers_in(words)]
            units = {i for i, w in enumerate(words) if w in _UNITS}
            return {i for r in spans for i in r} | units
        if self.kind == "choice":
            return _option_spans(words, _forms_index(tuple(self.options.items())))
        if self.kind == "time":
            return {i for i, w in enumerate(words) if times_in([w])}
        return {i for i, w in enumerate(words) if date_word(w)}


def _as_number(v: float) -> int | float:
    return int(v) if v == int(v) else v


_GLUED_MINUS = re.compile(r"(^|\s)- (?=\$?\d)")


def _cut_phrase(text: str, wanted: str) -> str:
    """`text` with every occurrence of the phrase `wanted` (as tokens) blanked out."""
    words = list(tokens(text))
    target = phrase(wanted)
    n = len(target)
    if not n:
        return text
    out, i, cut = [], 0, False
    while i < len(words):
        if tuple(words[i : i + n]) == target:
            i, cut = i + n, True
            out.append(";")  # punctuation: no value is read across the cut
            continue
        out.append(words[i])
        i += 1
    if not cut:
        return text  # nothing cut: the text as written
    return _GLUED_MINUS.sub(r"\1-", " ".join(out))  # a minus stays glued to its number


@functools.lru_cache(maxsize=4096)
def _forms_index(
    options: tuple[tuple[str, tuple[str, ...]], ...],
) -> list[tuple[tuple[str, ...], frozenset[str]]]:
    """(form tokens, options it names), longest forms first: a form shared by several
    options (a first name) names all of them."""
    names: dict[tuple[str, ...], set[str]] = {}
    for option, forms in options:
        for form in (option, *forms):
            words = phrase(form)
            if words:
                names.setdefault(words, set()).add(option)
    return sorted(((k, frozenset(v)) for k, v in names.items()), key=lambda kv: -len(kv[0]))


def _matches(words: Sequence[str], index: list[tuple[tuple[str, ...], frozenset[str]]]):
    """(start, end, options) of every form found, longest first, spans not overlapping."""
    taken: set[int] = set()
    for form, named in index:
        n = len(form)
        for i in range(len(words) - n + 1):
            span = set(range(i, i + n))
            if tuple(words[i : i + n]) == form and not span & taken:
                taken |= span
                yield i, i + n, named


def _options_named(words: Sequence[str], index: list) -> set[str]:
    found: set[str] = set()
    for _, _, named in _matches(words, index):
        found |= named
    return found


def _option_spans(words: Sequence[str], index: list) -> set[int]:
    return {i for s, e, _ in _matches(words, index) for i in range(s, e)}


# ---------------------------------------------------------------- constructors


def integer(n: int, **kw: Any) -> Fact:
    """A count or other whole number (``12``, ``twelve``)."""
    return Fact("integer", (n,), **kw)


def money(amount: int, *, besides: Iterable[int] = (), **kw: Any) -> Fact:
    """An amount in dollars (``$52,000``, ``52K``, ``fifty-two thousand``). `besides` may
    be stated too (the parts of a total); one equal to `amount` (a total of one part) is
    dropped, or it would hide the amount itself."""
    return Fact("money", (amount,), besides=tuple(b for b in besides if b != amount), **kw)


def percent(p: int | float, **kw: Any) -> Fact:
    """A percentage (``60%``, ``60 percent``, ``60``)."""
    return Fact("percent", (p,), **kw)


def date(day: dt.date, **kw: Any) -> Fact:
    """A calendar date (``2026-06-30``, ``June 30``, ``the 30th of June``)."""
    return Fact("date", (day,), **kw)


def time_of_day(hhmm: str, **kw: Any) -> Fact:
    """A time of day, 24-hour ``H:MM`` (``13:30`` is also ``1:30 PM``)."""
    return Fact("time", (hhmm,), **kw)


def choice(
    values: str | Sequence[str],
    options: Iterable[str] | Mapping[str, Sequence[str]],
    **kw: Any,
) -> Fact:
    """One (or several) of a known set of options: stages, weekdays, versions, record
    names. `options` lists every option (or maps each to its other written forms); every
    option not expected is a rival."""
    forms = options if isinstance(options, Mapping) else {o: () for o in options}
    chosen = (values,) if isinstance(values, str) else tuple(values)
    missing = [v for v in chosen if v not in forms]
    if missing:
        raise ValueError(f"expected values {missing} are not among the options")
    return Fact("choice", chosen, options={k: tuple(v) for k, v in forms.items()}, **kw)


def person(chosen: Any | Sequence[Any], everyone: Iterable[Any], **kw: Any) -> Fact:
    """One (or several) people of the directory, named by full name, handle or @handle —
    or by a first or last name alone, which names everyone who has it (so "Sam" is two
    people when two Sams work here). `chosen` and `everyone` are person rows."""
    picked = chosen if isinstance(chosen, Sequence) else [chosen]
    forms = {p.name: _person_forms(p) for p in everyone}
    return choice([p.name for p in picked], forms, **kw)


def _person_forms(p: Any) -> tuple[str, ...]:
    parts = p.name.split()
    return (p.handle, f"@{p.handle}", *parts[:1], *parts[-1:])


# ---------------------------------------------------------------- answers


def judge_answer(
    fact: Fact, answer: str | None, *, max_chars: int = 300, goal: str = "", words: str = ""
) -> tuple[bool, str]:
    """Whether a final answer states exactly the fact, read by the one reader
    (`officegym.tasks.reader`), which fails closed: the value(s) and nothing of the same
    type besides, no hedge (a word, a phrase or a sign: "about", "up to", "~"), no denial
    ("It isn't 60", "Nope", "Anything but"), no minus sign, scale or currency the value
    does not take, no question, no word it cannot classify as neutral or as the task's own
    (`goal`, `words`), and only the value when `alone`. Zero may be said in words
    ("Nothing", "No refund"), and money as a plain number ("68", "68 dollars")."""
    from officegym.tasks.reader import Context, read_answer

    if not answer or not answer.strip():
        return False, "no answer"
    if len(answer) > max_chars:
        return False, f"longer than {max_chars} characters"
    verdict = read_answer(fact, answer, Context(goal, words))
    return verdict.ok, verdict.reason


def answer_problem(fact: Fact, answer: str, words: tuple[str, ...]) -> str | None:
    """What makes an answer (`words`, its tokens) no plain statement of the fact: a hedge,
    a denial, a question, or more than the value where `alone` asks for the value only."""
    if wrong := _hedged_or_denied(fact, words):
        return wrong
    if any(s.rstrip().endswith("?") for s in sentences(answer)):
        return "asks a question"
    if fact.alone:
        extra = [w for i, w in enumerate(words) if i not in fact.value_tokens(words)]
        if extra:
            return f"says more than the value ({' '.join(extra[:5])!r})"
    return None


def answer_tokens(fact: Fact, answer: str) -> tuple[str, ...]:
    """The answer's tokens, the subject's own name cut out and, for a number, each way of
    saying zero ("nothing", "no refund") written as the number 0."""
    words = tokens(fact._cut(answer))
    if fact.kind not in _NUMERIC:
        return words
    zero = "$0" if fact.kind == "money" else "0"
    for form in ZERO_WORDS:
        words = _replaced(words, phrase(form), zero)
    return words


def _replaced(words: tuple[str, ...], target: tuple[str, ...], by: str) -> tuple[str, ...]:
    out: list[str] = []
    i = 0
    while i < len(words):
        if target and tuple(words[i : i + len(target)]) == target:
            out.append(by)
            i += len(target)
        else:
            out.append(words[i])
            i += 1
    return tuple(out)


def _hedged_or_denied(fact: Fact, words: tuple[str, ...]) -> str | None:
    """What makes the answer a hedge or a denial (None if nothing does)."""
    if hedge := hedge_in(words):
        return f"hedges ({hedge!r})"
    if fact.kind in _NUMERIC and MINUS in words:
        return "denies (a minus sign on a count or an amount)"
    if denial := next((n for n in (*NEGATIONS, *REJECTIONS) if _has(words, n)), None):
        return f"denies ({denial!r})"
    return None


def _has(words: tuple[str, ...], wanted: str) -> bool:
    target = phrase(wanted)
    return any(tuple(words[i : i + len(target)]) == target for i in range(len(words)))
