"""What agent-written text says: the one judge of answers, chat posts, DMs and text fields.

A `Says` names what a text must state and what it must not, so that hedging and
gaming fail by construction:

- phrases (`all_of`, `none_of`), matched as whole tokens after normalisation
  (`officegym.tasks.text`: lookalike letters, invisible characters, fullwidth digits);
- typed facts (`facts`, and the shorthands `amount`, `count`, `date`): every value of
  the fact's type the text states is read out and must be exactly the expected one
  (`officegym.tasks.facts`), so listing candidates or spreading them over several
  messages names a rival;
- what the message does (`act`: announce, confirm, report, refuse, request, commit;
  `officegym.tasks.acts`): a question back, a promise for later or a denial is no
  confirmation, and a refusal must say it could not be done;
- that it is not the goal's own instructions posted back (checked when the grader
  passes the goal), unless it also carries a requested fact the goal does not hold;
- or, with `exactly`, that it reads just the quoted text (case, spacing, Unicode
  normal form and closing punctuation aside): extra or missing words fail.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from officegym.tasks import facts as F
from officegym.tasks.acts import Act, echoes, problem
from officegym.tasks.facts import Fact
from officegym.tasks.lexicon import HEDGES, NEGATIONS, hedge_in
from officegym.tasks.reader import Context, read_statement, retracted
from officegym.tasks.text import find, mentions, phrase, tokens
from officegym.tasks.values import amounts_in, dates_in, numbers_in

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
    "same_text",
    "tokens",
    "with_plurals",
]

# The acts that assert something the reader must understand whole.
_ASSERTING = frozenset(("announce", "confirm", "report"))
_EDGE_PUNCT = "\"'“”‘’`.!;:,«» "


def same_text(a: str | None, b: str | None) -> bool:
    """Whether two texts are the same text to a person: equal up to case, runs of
    whitespace, Unicode normal form (NFKC) and surrounding quotes or closing punctuation.
    Lookalike letters are not folded here: a stored value with a Cyrillic letter is
    another string (a search for the right one would not find it)."""
    return _verbatim(a or "") == _verbatim(b or "")


def _verbatim(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"\s+", " ", folded).strip(_EDGE_PUNCT)


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
    for p in phrases:
        text = re.sub(re.escape(p), " ", text, flags=re.IGNORECASE)
    return text


@dataclass(frozen=True)
class Says:
    """What a text must state: one variant of each group in `all_of`, none of `none_of`,
    exactly the value(s) of each fact in `facts` (`amount`, `count` and `date` are
    shorthands for a money, integer and date fact; `amounts_besides` may appear beside
    the amount: the parts of a total), within `max_chars`; with `hedges=False` no hedging
    word ("or", "at least", "about": `HEDGES`); with `act`, the message must do that
    (`officegym.tasks.acts`). `ignoring` phrases (a record's own name) are cut out
    before looking for what must not be said. With `exactly`, the text must read just
    that (`same_text`)."""

    exactly: str | None = None
    all_of: Sequence[Sequence[str]] = ()
    none_of: Sequence[str] = ()
    facts: Sequence[Fact] = ()
    amount: int | None = None
    amounts_besides: Sequence[int] = ()
    date: dt.date | None = None
    count: int | None = None
    hedges: bool = True
    act: Act | None = None
    ignoring: Sequence[str] = ()
    max_chars: int = 400
    _facts: tuple[Fact, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        typed = list(self.facts)
        cut = tuple(self.ignoring)
        if self.amount is not None:
            typed.append(F.money(self.amount, besides=self.amounts_besides, ignoring=cut))
        if self.count is not None:
            typed.append(F.integer(self.count, ignoring=cut))
        if self.date is not None:
            typed.append(F.date(self.date, ignoring=cut))
        object.__setattr__(self, "_facts", tuple(typed))

    @property
    def all_facts(self) -> tuple[Fact, ...]:
        """Every typed fact the text must state (declared and shorthand)."""
        return self._facts

    def judge(self, text: str | None, goal: str = "", own: str = "") -> tuple[bool, str]:
        """(whether `text` says it, a detail line naming the first thing wrong). `goal` is
        the task's instructions, which the text must not merely post back; `goal` and
        `own` (the task's own text) are the words the reader knows as the task's."""
        if not text or not text.strip():
            return False, "nothing said"
        if len(text) > self.max_chars:
            return False, f"longer than {self.max_chars} characters"
        if self.exactly is not None:
            ok = same_text(text, self.exactly)
            return ok, "reads as asked" if ok else f"does not read {self.exactly!r}"
        whole = tokens(text)
        for group in self.all_of:
            if not any(find(whole, phrase(v)) for v in group):
                return False, f"does not say {group[0]!r}"
        words = tokens(_without(text, self.ignoring)) if self.ignoring else whole
        present = set(words)
        for rival in self.none_of:
            target = phrase(rival)
            if target and target[0] in present and find(words, target):
                return False, f"also says {rival!r}"
        if not self.hedges and (hedge := hedge_in(words)):
            return False, f"hedges ({hedge!r})"
        for fact in self._facts:
            ok, detail = fact.judge(text)
            if not ok:
                return False, detail
        return self._does(text, goal, own)

    def _does(self, text: str, goal: str, own: str) -> tuple[bool, str]:
        """The act and echo checks, once the content is right; then, for a statement of
        facts or of work done, the reader's check that all of it is understood."""
        if wrong := retracted(text):  # struck through, "Draft:", "/s": no act at all
            return False, wrong
        if self.act is not None:
            wrong = problem(self.act, text, self._carries, goal)
            if wrong:
                return False, wrong
        if goal and echoes(text, goal) and not self._adds_to(goal):
            return False, "restates the goal's own instructions"
        if self.act in _ASSERTING or (self.act is None and self._facts):
            phrases = [p for group in self.all_of for p in group] + list(self.ignoring)
            verdict = read_statement(text, self._facts, phrases, Context(goal, own))
            if not verdict.ok:
                return False, verdict.reason
        return True, "says what it should"

    def _carries(self, words: tuple[str, ...]) -> bool:
        """Whether a sentence's tokens hold any of the content asked for."""
        if any(find(words, phrase(v)) for group in self.all_of for v in group):
            return True
        return any(f.read_words(words) & set(f.values) for f in self._facts)

    def _adds_to(self, goal: str) -> bool:
        """Whether a requested fact is one the goal does not state (so stating it is work)."""
        return any(not set(f.values) <= f.read(goal) for f in self._facts)
