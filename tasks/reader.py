"""The one reader of what agents write: a claim counts only when all of it is understood.

Every typed answer (`officegym.tasks.facts.judge_answer`), reported fact and
confirmation (`officegym.tasks.statements.Says`) goes through `read_answer` or
`read_statement`, which ask the active `Reader`. The rule reader (`RuleReader`) fails
closed: it counts a statement only when it can classify every part of it —

- the value, in a form it parses completely: a number with its sign, unit, currency and
  scale (``-46`` is not 46; ``11k``, ``11 thousand`` and ``$11`` are not the count 11;
  ``€331``, ``331 yen`` and ``$330.51`` are not $331), a date, a time, a name;
- neutral words (`officegym.tasks.neutral`: greetings, framing, plain function words);
- the task's own words: the goal's, the names of the people and records involved, the
  words of the reference's own messages.

Anything else makes the claim not count: a qualifier or hedge ("(unverified)", "I
think", "probably", "approx"), a question, a condition, a negation or denial, Slack
strikethrough (``~…~``), a retraction prefix (``Draft:``, ``Reverted:``, ``Undone:``,
``To do:``), a trailing ``/s``, a symbol it does not read, a second candidate — and any
word it does not know. An optional verifier model (`officegym.tasks.verifier`) may
double-check what the rule reader accepts; it never rescues what it refused.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from officegym.tasks import lexicon as L
from officegym.tasks.facts import Fact, answer_problem, answer_tokens
from officegym.tasks.neutral import NEUTRAL
from officegym.tasks.text import normalize, phrase, sentences, tokens
from officegym.tasks.values import date_word, numbers_in, times_in

__all__ = [
    "Context",
    "Reader",
    "RuleReader",
    "Verdict",
    "active_reader",
    "markers",
    "read_answer",
    "read_statement",
    "retracted",
    "set_reader",
    "symbols",
    "unknown_words",
]


@dataclass(frozen=True)
class Verdict:
    """Whether a statement asserts what was asked, and the reason (the first thing wrong)."""

    ok: bool
    reason: str


@dataclass(frozen=True)
class Context:
    """What a statement is read against: the task's instructions (`goal`) and other text
    of the task whose words are its own (`words`: the reference's messages, the names of
    the records involved)."""

    goal: str = ""
    words: str = ""

    def known(self) -> frozenset[str]:
        return _known(self.goal, self.words)


class Reader(Protocol):
    """Reads an answer or a statement against a typed fact (or a set of them)."""

    def answer(self, fact: Fact, text: str, context: Context) -> Verdict: ...

    def statement(
        self, text: str, facts: Sequence[Fact], phrases: Iterable[str], context: Context
    ) -> Verdict: ...


# Words that never count as the task's own, even when the goal uses them (phrases of
# several words are found whole by the checks that name them).
_NEVER = frozenset(
    phrase(p)[0]
    for group in (
        L.NEGATIONS, L.RETRACTIONS, L.JOKES, L.DEFERRALS, L.QUALIFIERS,
        L.CONDITIONS,
    )
    for p in group
    if len(phrase(p)) == 1
)  # fmt: skip
# Hedges that are ordinary words away from a value ("took over", "$331 over budget").
_BOUNDS = frozenset(("over", "under", "more", "less", "fewer", "than", "about", "around"))
_BOUNDS |= frozenset(("plus", "minus", "give", "take", "range", "most", "least", "or"))
_SCALES = {"k": 1_000, "thousand": 1_000, "grand": 1_000, "m": 1_000_000, "mm": 1_000_000}
_SCALES |= {"million": 1_000_000, "bn": 1_000_000_000, "billion": 1_000_000_000}
_SCALE = frozenset(_SCALES)
_KIND_NAMES = {"integer": "a count", "percent": "a percentage"}
_CURRENCY = frozenset(("$", "dollars", "dollar", "usd", "bucks"))
_STRUCK = re.compile(r"~[^~\s](?:[^~]*[^~\s])?~")
_SARCASM = re.compile(r"(?:^|\s)/s\b", re.IGNORECASE)
_TAG = re.compile(r"^\s*[\[(]\s*([A-Za-z][A-Za-z -]{0,20}?)\s*[\])]", re.MULTILINE)
# A sign glued to the front of a word ("-eleven", "$eleven", "-USD 1,063").
_GLUED = re.compile(r"(?:^|[\s(:])([-\u2212$])([A-Za-z][\w-]*)")
# A label opening a line, a sentence or what follows another label ("Escalated: To do: ...",
# as a service writes a note the agent labelled).
_LABEL = re.compile(
    r"(?:^|(?<=[:.;!])\s)\s*[\[(]?\s*([A-Za-z][A-Za-z -]{0,20}?)\s*[\])]?\s*[:\-–—](?=\s)",
    re.MULTILINE,
)
# Characters a statement may hold besides letters, digits and spaces.
_PUNCT = frozenset(".,;:!'\"()-–—@#$%/&*_+=’‘“”…•") | frozenset("✅✔👍🎉🙂😊🙏")


@functools.lru_cache(maxsize=1024)
def _known(goal: str, words: str) -> frozenset[str]:
    """The task's own words; a failure word that reports the act the goal asks for
    ("cancelled" where it says "cancel") is one of them."""
    asked = tokens(goal)
    done = {w for w, verb in L.FAILURE_VERBS.items() if any(a.startswith(verb) for a in asked)}
    return (frozenset(asked + tokens(words)) - _NEVER - (L.HEDGES - _BOUNDS)) | done


@functools.lru_cache(maxsize=1 << 14)
def stem(word: str) -> str:
    """`word` without its inflection, so the task's "close" knows "closes", "closed" and
    "closing", "member" knows "members" and "cancel" knows "cancellation" (one suffix,
    then a final "e" and a doubled last letter)."""
    for suffix in ("ation", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            word = word[: -len(suffix)]
            break
    word = word.rstrip("e") or word
    return word[:-1] if len(word) > 3 and word[-1] == word[-2] else word


@functools.lru_cache(maxsize=1024)
def _stems(known: frozenset[str]) -> frozenset[str]:
    return frozenset(stem(w) for w in known)


def markers(text: str) -> str | None:
    """What in the raw text takes the claim back or makes it unreadable: strikethrough,
    sarcasm, a retraction label, a question mark, a symbol the reader does not read
    (None if nothing)."""
    return retracted(text) or symbols(text)


def retracted(text: str) -> str | None:
    """Strikethrough (``~…~``), a trailing ``/s`` or a retraction label (``Draft:``)."""
    clean = normalize(text)
    if _STRUCK.search(clean):
        return "struck through (~...~)"
    if _SARCASM.search(clean):
        return "not meant ('/s')"
    for label in _LABEL.findall(clean) + _TAG.findall(clean):
        if " ".join(tokens(label)) in L.RETRACTION_LABELS:
            return f"labelled {label.strip()!r}"
    return None


def symbols(text: str) -> str | None:
    """A question mark, a comparison or approximation sign, or any other symbol the reader
    does not read (``€``, ``<s>``)."""
    clean = normalize(text)
    for sign, word in _GLUED.findall(clean):
        if numbers_in([word.lower()]) or word.lower() in _CURRENCY or sign == "$":
            return f"a {'minus' if sign != '$' else 'dollar'} sign glued to {word!r}"
    odd = sorted({c for c in clean if not (c.isalnum() or c.isspace() or c in _PUNCT)})
    if "?" in odd:
        return "asks a question"
    if signs := [c for c in odd if c in L.SIGNS or c == "\u2212"]:
        return f"hedges ({signs[0]!r})"
    if odd:
        return f"holds symbols the reader does not read ({''.join(odd)!r})"
    return None


def unknown_words(words: Sequence[str], skip: set[int], known: frozenset[str]) -> list[str]:
    """The tokens (outside the indexes `skip`) that are neither neutral nor the task's
    (in any inflection of its words)."""
    stems = _stems(known | NEUTRAL)
    return [
        w
        for i, w in enumerate(words)
        if i not in skip and w not in NEUTRAL and w not in known and stem(w) not in stems
    ]


def value_spans(fact: Fact, words: Sequence[str]) -> tuple[set[int], str | None]:
    """(indexes of the tokens that state values of the fact's type, what is wrong with how
    a number is written for it: a sign, a scale, a currency or cents it does not take).
    A number written wrongly for the fact is left out of the indexes."""
    if fact.kind == "choice":
        return fact.value_tokens(tuple(words)), None
    if fact.kind == "time":
        return {i for i, w in enumerate(words) if times_in([w])}, None
    if fact.kind == "date":
        return {i for i, w in enumerate(words) if date_word(w)}, None
    spans: set[int] = set()
    problems: list[str] = []
    for value, start, end in numbers_in(words):
        found, wrong = _number(fact, words, value, start, end)
        if wrong:
            problems.append(wrong)
        else:
            spans |= found
    return spans, problems[0] if problems else None


def _number(
    fact: Fact, words: Sequence[str], value: float, start: int, end: int
) -> tuple[set[int], str | None]:
    """The tokens of the number at `words[start:end]` with its unit, or what is wrong."""
    after = words[end] if end < len(words) else ""
    before = words[start - 1] if start else ""
    if before == L.MINUS:
        return set(), "a minus sign on the value"
    span = set(range(start, end))
    money = words[start].startswith("$") or after in _CURRENCY or before == "usd"
    if fact.kind != "money":
        if money or after in _SCALE:
            return set(), f"a {'currency' if money else 'scale'} on {_KIND_NAMES[fact.kind]}"
        return span | ({end} if after in L.PERCENT_UNITS else set()), None
    scale = _SCALES.get(after, 1)
    if round(value * scale) != value * scale:
        return set(), "an amount with cents the value does not have"
    if scale > 1 or after in _CURRENCY:
        span.add(end)
        if end + 1 < len(words) and scale > 1 and words[end + 1] in _CURRENCY:
            span.add(end + 1)
    return span | ({start - 1} if before == "usd" else set()), None


class RuleReader:
    """The deterministic reader: fails closed on anything it cannot classify."""

    def answer(self, fact: Fact, text: str, context: Context) -> Verdict:
        if wrong := retracted(text):
            return Verdict(False, wrong)
        words = answer_tokens(fact, text)
        if wrong := answer_problem(fact, text, words) or symbols(text):
            return Verdict(False, wrong)
        spans, wrong = value_spans(fact, words)
        if wrong:
            return Verdict(False, f"writes the value with {wrong}")
        if extra := unknown_words(words, spans, context.known() | _fact_words(fact)):
            return _unclassified(extra)
        ok, detail = fact.verdict(fact.read_answer(words))
        return Verdict(ok, detail)

    def statement(
        self, text: str, facts: Sequence[Fact], phrases: Iterable[str], context: Context
    ) -> Verdict:
        said = [s for s in sentences(text) if " ".join(tokens(s)) not in L.COURTESY_SENTENCES]
        if wrong := markers("\n".join(said)):
            return Verdict(False, wrong)
        known = context.known() | (frozenset(w for p in phrases for w in phrase(p)) - _NEVER)
        known = known.union(*(_fact_words(f) for f in facts))
        for sentence in said:
            words = tokens(sentence)
            spans = set().union(*(value_spans(f, words)[0] for f in facts))
            if spans and (hedge := _hedge_before(words, spans)):
                return Verdict(False, f"hedges ({hedge!r})")
            if extra := unknown_words(words, spans, known):
                return _unclassified(extra)
        return Verdict(True, "every word understood")


def _hedge_before(words: Sequence[str], spans: set[int]) -> str | None:
    """A hedge just before a value ("over $300", "about 12") or "or so" just after one."""
    for i in spans:
        if i - 1 not in spans and i >= 1 and words[i - 1] in L.HEDGES:
            return words[i - 1]
        if i + 1 not in spans and tuple(words[i + 1 : i + 3]) == ("or", "so"):
            return "or so"
    return None


def _unclassified(extra: Sequence[str]) -> Verdict:
    return Verdict(False, f"says what the reader cannot classify ({' '.join(extra[:4])!r})")


def _fact_words(fact: Fact) -> frozenset[str]:
    """The words of a fact's options (the names of the people and records involved) and
    of the phrases it ignores (a record's own name)."""
    out = [w for o, forms in fact.options.items() for f in (o, *forms) for w in phrase(f)]
    return frozenset(out + [w for p in fact.ignoring for w in phrase(p)])


_ACTIVE: list[Reader] = []


def active_reader() -> Reader:
    """The reader in use: the rule reader, double-checked by the verifier model when one
    is configured (`officegym.tasks.verifier`), unless a test set another."""
    if _ACTIVE:
        return _ACTIVE[0]
    from officegym.tasks.verifier import verified

    return verified(RuleReader())


def set_reader(reader: Reader | None) -> None:
    """Use `reader` for every read from now on (None: back to the configured one)."""
    _ACTIVE[:] = [reader] if reader is not None else []


def read_answer(fact: Fact, text: str, context: Context) -> Verdict:
    """The active reader's verdict on an answer that must state `fact`."""
    return active_reader().answer(fact, text, context)


def read_statement(
    text: str, facts: Sequence[Fact], phrases: Iterable[str], context: Context
) -> Verdict:
    """The active reader's verdict on a message or field that must assert `facts` (and
    may use `phrases`, the words its check looks for)."""
    return active_reader().statement(text, facts, tuple(phrases), context)
