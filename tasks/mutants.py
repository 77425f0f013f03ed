"""Near-miss mutants of a reference solution: what `officegym validate` requires to fail.

A mutant changes one argument of one state-changing call of the reference solution,
or its answer, the way an agent that almost did the task would:

- ``ref.neighbour``: an argument naming a row (`officegym.tools.Ref`: a channel, a
  person, a message, an account, a deal) names a neighbouring row of the same table;
- ``number.nearby``, ``date.nearby``: numbers, amounts and dates moved a little;
- ``choice.other``: another value of a fixed set (a stage, a priority); ``bool.flip``;
- ``list.add``, ``list.drop``: a member added to (a neighbour) or dropped from a list;
- ``text.drop-word``, ``text.add-words``: a text the goal quotes, to be stored word for
  word, with a word dropped or words added;
- ``text.drop-fact``: a message without one of the facts it carries (a number, a date,
  an amount, a time, an @handle, a #channel, a weekday);
- ``text.negate``, ``text.goal``: free text with a denial slipped in, or the goal's own
  instructions posted back instead;
- ``text.retracted``, ``text.hedged``: free text taken back (struck through ``~…~``,
  ``Draft:``, ``Reverted:``, ``Undone:``, ``To do:``, a trailing ``/s``) or qualified
  (``(unverified)``, ``I think``, a question);
- ``range.shrink``: a range a written formula reads (A1:B9) one row or column short at
  one of its four sides (the same range of every formula of the call: a filled column
  moves as one);
- ``answer.rival``, ``answer.negated``, ``answer.hedged``, ``answer.listed``,
  ``answer.question``, ``answer.padded``: another value of the answer's type, the right
  one denied, hedged (against a rival, or qualified: ``(unverified)``, ``probably``),
  listed among candidates, asked back, or padded with words where the goal asks for the
  value only; ``answer.retracted`` the right one taken back as above; ``answer.unit`` it
  written with a sign, a scale, another currency or cents it does not have (``-46``,
  ``11k``, ``$11`` for a count; ``€331``, ``331 yen``, ``$330.51`` for $331).

The forms are generic (`RETRACTIONS`, `QUALIFIED`): every template meets them without a
special case, and a template that declares its free text's wording equivalent to a
denial (``text.negate``) declares the other wording mutants with it.

Each must fail. A mutant that leaves the database as the reference does (inviting
someone already in the channel) is equivalent, not a survivor. A mutant a task
genuinely cannot tell apart (the wording of a chat message) is declared by the
template in `Spec.equivalent` with an `Equivalent` and its one-line reason, and
listed by validate; every other survivor fails validation.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args, get_origin

from sqlalchemy import Connection, select

from officegym.db import Base
from officegym.tasks.facts import Fact
from officegym.tasks.formula_ranges import range_mutants
from officegym.tasks.statements import Says, same_text
from officegym.tools import Ref, Tool, ToolCall, load_tools

__all__ = ["KINDS", "Equivalent", "Mutant", "mutants"]

KINDS = (
    "ref.neighbour", "number.nearby", "date.nearby", "choice.other", "bool.flip", "list.add",
    "list.drop", "text.drop-word", "text.add-words", "text.drop-fact", "text.negate",
    "text.goal", "text.retracted", "text.hedged", "answer.rival", "answer.negated",
    "answer.hedged", "answer.listed", "answer.question", "answer.padded", "answer.retracted",
    "answer.unit", "range.shrink",
)  # fmt: skip
# Ways of taking a statement back, and of qualifying it: `{}` is the statement.
RETRACTIONS = ("~{}~", "Draft: {}", "Reverted: {}", "Undone: {}", "To do: {}", "{} /s")
QUALIFIED = ("{} (unverified)", "I think {}", "{}?")
# Mutants that change only the wording of free text: a template that declares a denial
# of it equivalent (its wording is not judged) declares these with it.
_WORDING = frozenset(("text.negate", "text.retracted", "text.hedged"))
_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MAX_WORDS = 6  # text.drop-fact mutants per argument
_BARE = re.compile(r"\b(only|just the|just a|nothing else)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Mutant:
    """The reference solution with one change: `calls` and `answer` to replay. `kind` is
    the mutant's kind, or the generic policy (`officegym.tasks.policies`) that made it."""

    kind: str
    label: str
    calls: tuple[ToolCall, ...]
    answer: str | None
    tool: str | None = None
    arg: str | None = None
    word: str | None = None  # the word a drop mutant took out


@dataclass(frozen=True)
class Equivalent:
    """A kind of mutant this task cannot tell from its reference, and why (one line).
    `tool` and `arg` narrow it to one argument of one tool's calls, `words` a drop mutant
    to the words named (a date a message may leave out, not the amount it must carry)."""

    kind: str
    why: str
    tool: str | None = None
    arg: str | None = None
    words: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown mutant kind {self.kind!r}; one of {', '.join(KINDS)}")
        if not self.why.strip():
            raise ValueError("an equivalence needs its reason")

    def covers(self, m: Mutant) -> bool:
        same = m.kind == self.kind or (self.kind == "text.negate" and m.kind in _WORDING)
        return (
            same
            and self.tool in (None, m.tool)
            and (self.arg is None or self.arg == m.arg)
            and (not self.words or m.word in self.words)
        )


def mutants(task: Any, world: Connection) -> list[Mutant]:
    """Every near-miss mutant of `task`'s reference solution; `world` is a connection to
    the initial state (for the rows a reference may be swapped with)."""
    out: list[Mutant] = []
    registry = load_tools()
    qualify = _asserts_only(task)
    for i, call in enumerate(task.solution):
        tool = registry[call.name]
        if tool.kind != "write":
            continue
        for arg, value in sorted(call.arguments.items()):
            found = _argument_mutants(tool, arg, value, task.goal, world, task.persona)
            for kind, label, new in found:
                if kind == "text.hedged" and not qualify:
                    continue
                if new == value:
                    continue
                calls = list(task.solution)
                calls[i] = dataclasses.replace(call, arguments={**call.arguments, arg: new})
                where = f"call {i} {call.name}.{arg}: {label}"
                word = (
                    label.removeprefix("without ")[1:-1] if kind.startswith("text.drop") else None
                )
                out.append(Mutant(kind, where, tuple(calls), task.answer, call.name, arg, word))
    if task.expects is not None and task.answer is not None:
        out += [
            Mutant(kind, f"answer: {text!r}", tuple(task.solution), text)
            for kind, text in _answer_mutants(task.expects, task.answer, task.goal)
        ]
    return out


def _asserts_only(task: Any) -> bool:
    """Whether every message the task judges must assert (report, confirm, announce):
    qualifying a refusal, a request or an escalation ("I think I can't") leaves it one."""
    acts = set()
    for check in task.checks:
        for value in vars(check).values():
            group = value.values() if isinstance(value, Mapping) else (value,)
            acts |= {s.act for s in group if isinstance(s, Says)}
    return not acts & {"refuse", "request", "escalate", "commit"}


def _argument_mutants(
    tool: Tool, arg: str, value: Any, goal: str, world: Connection, me: str | None = None
) -> Iterator[tuple[str, str, Any]]:
    """(kind, label, new value) for one argument, by what it is (`me`: the persona's
    handle)."""
    ref = tool.ref(arg)
    if isinstance(value, list):
        yield from range_mutants(value)
        yield from _list_mutants(ref, value, world, me)
    elif ref is not None and not isinstance(value, bool):
        for rival in _neighbours(ref, value, world):
            yield "ref.neighbour", f"{value!r} -> {rival!r}", rival
    elif isinstance(value, bool):
        yield "bool.flip", f"{value} -> {not value}", not value
    elif isinstance(value, int | float):
        for new in _nearby_numbers(value):
            yield "number.nearby", f"{value} -> {new}", new
    elif isinstance(value, str) and (options := _choices(tool, arg)):
        for other in [o for o in options if o != value][:3]:
            yield "choice.other", f"{value!r} -> {other!r}", other
    elif isinstance(value, str) and _ISO_DAY.match(value):
        day = dt.date.fromisoformat(value)
        for delta in (1, -1):
            new = (day + dt.timedelta(days=delta)).isoformat()
            yield "date.nearby", f"{value} -> {new}", new
    elif isinstance(value, str):
        yield from _text_mutants(value, goal)


def _nearby_numbers(value: int | float) -> list[int | float]:
    if isinstance(value, float):
        return [round(value * 1.1, 6), round(value * 0.9, 6)]
    out = [value + 1, value - 1]
    if abs(value) >= 100:
        out += [round(value * 1.1), round(value * 0.9)]
    return out


def _choices(tool: Tool, arg: str) -> list[str]:
    """The members of a `Literal` argument (a stage, a priority), if it is one."""
    info = tool.args_model.model_fields.get(arg)
    if info is None:
        return []
    options: list[str] = []
    for part in (info.annotation, *get_args(info.annotation)):
        if get_origin(part) is Literal:
            options += [o for o in get_args(part) if isinstance(o, str)]
    return options


def _list_mutants(
    ref: Ref | None, value: list, world: Connection, me: str | None = None
) -> Iterator:
    """A member dropped; a neighbour added, never the persona itself: it is in every
    conversation and channel it writes to, so adding it changes nothing."""
    if len(value) >= 2:
        for i, member in enumerate(value[:3]):
            yield "list.drop", f"without {member!r}", value[:i] + value[i + 1 :]
    if ref is not None and value:
        for rival in _neighbours(ref, value[0], world):
            if rival not in value and rival != me:
                yield "list.add", f"plus {rival!r}", [*value, rival]
                break


def _text_mutants(text: str, goal: str) -> Iterator[tuple[str, str, str]]:
    """Free text: a value the goal quotes must be stored word for word (a word dropped or
    added kills it); other text (a message) must keep the facts it carries. Both must not
    be denied or replaced by the goal's own words."""
    if _quoted_in(text, goal):
        words = text.split()
        for i in sorted({0, len(words) // 2, len(words) - 1}) if len(words) > 1 else []:
            dropped = " ".join(words[:i] + words[i + 1 :])
            yield "text.drop-word", f"without {words[i]!r}", dropped
        yield "text.add-words", "with words added", f"{text} (see above)"
    else:
        for word in _fact_words(text)[:_MAX_WORDS]:
            dropped = re.sub(rf"(?<![\w@#$]){re.escape(word)}(?!\w)", "", text, count=1)
            yield "text.drop-fact", f"without {word!r}", re.sub(r"\s{2,}", " ", dropped).strip()
    yield "text.negate", "denied", _negated(text)
    for form in RETRACTIONS:
        yield "text.retracted", f"taken back ({form.format('…')})", form.format(text)
    for form in QUALIFIED:
        yield "text.hedged", f"qualified ({form.format('…')})", form.format(text)
    if len(text) >= 20 and goal:
        yield "text.goal", "the goal posted back", goal


_QUOTED = re.compile(r'"([^"]+)"|“([^”]+)”')
_DATE_NAMES = frozenset(
    (
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "january", "february", "march", "april", "may", "june", "july", "august",
        "september", "october", "november", "december",
    )
)  # fmt: skip


def _quoted_in(text: str, goal: str) -> bool:
    """Whether the goal quotes `text` (as the thing to store, word for word)."""
    quotes = [a or b for a, b in _QUOTED.findall(goal)]
    return any(same_text(q, text) for q in quotes)


def name_facts(name: str, why: str, tool: str) -> list[Equivalent]:
    """Dropping the fact-like words of a name a message only mentions ("2BR" of a listing
    title) declared equivalent for `tool`'s messages, with `why`; none when the name has
    no such word (a declaration without words would excuse every dropped fact)."""
    words = tuple(_fact_words(name))
    return [Equivalent("text.drop-fact", why, tool=tool, words=words)] if words else []


def _fact_words(text: str) -> list[str]:
    """The words of a message that carry facts: numbers, amounts, dates, times, @handles,
    #channels, weekday and month names (each once, in order)."""
    seen: list[str] = []
    for word in re.findall(r"[@#$]?\w[\w.,:/'-]*\w|[@#$]?\w", text):
        fact = any(c.isdigit() for c in word) or word[0] in "@#" or word.lower() in _DATE_NAMES
        if fact and word not in seen:
            seen.append(word)
    return seen


def _negated(text: str) -> str:
    for verb in (" is ", " are ", " was ", " has ", " will "):
        if verb in text:
            return text.replace(verb, f"{verb}not ", 1)
    return f"Not done: {text}"


def _answer_mutants(fact: Fact, answer: str, goal: str) -> list[tuple[str, str]]:
    rivals = [fact.say(r) for r in fact.rivals()[:3]]
    out = [("answer.rival", r) for r in rivals]
    out += [("answer.negated", f"It isn't {answer}."), ("answer.negated", f"{answer} is wrong.")]
    out += [("answer.negated", f"Not {answer}")]
    if rivals:
        out += [
            ("answer.hedged", f"either {answer} or {rivals[0]}"),
            ("answer.listed", ", ".join([rivals[0], answer, *rivals[1:2]])),
            ("answer.listed", f"{answer} or {rivals[0]}"),
        ]
    hedges = (*QUALIFIED[:2], "probably {}", "approx {}", "{} if I read it right")
    out += [("answer.hedged", form.format(answer)) for form in hedges]
    out += [("answer.retracted", form.format(answer)) for form in RETRACTIONS]
    out += [("answer.unit", text) for text in _unit_mutants(fact)]
    out.append(("answer.question", f"{answer}?"))
    if _BARE.search(goal):  # "Answer with just the number": nothing else may come with it
        out.append(("answer.padded", f"{answer}, according to the records I found"))
    return out


def _unit_mutants(fact: Fact) -> list[str]:
    """The right number with a sign, a scale, a currency or cents it does not have."""
    if fact.kind not in ("integer", "money", "percent") or len(fact.values) != 1:
        return []
    v = fact.values[0]
    if fact.kind == "integer":
        return [f"-{v}", f"{v}k", f"{v} thousand", f"${v}"]
    if fact.kind == "percent":
        return [f"-{v}%", f"${v}"]
    cents = f"${v - 1:,}.51" if v >= 1 else "$0.49"
    scaled = [f"${v:,}k"] if v else []  # $0k is still $0
    return [f"-${v:,}", f"€{v:,}", f"{v:,} yen", f"£{v:,}", cents, *scaled]


# ---------------------------------------------------------------- neighbouring rows


def _neighbours(ref: Ref, value: Any, world: Connection) -> list[Any]:
    """The same reference to the rows just before and after the one `value` names (as an
    id if it was an id, else by the same column)."""
    table = Base.metadata.tables[ref.table]
    row_id, column = _resolve(table, ref, value, world)
    if row_id is None:
        return []
    out = []
    for op, order in ((table.c.id < row_id, table.c.id.desc()), (table.c.id > row_id, table.c.id)):
        row = world.execute(select(table).where(op).order_by(order).limit(1)).first()
        if row is not None:
            new = row.id if column is None else row._mapping[column]
            out.append(f"#{new}" if isinstance(value, str) and value.startswith("#") else new)
    return out


def _resolve(table: Any, ref: Ref, value: Any, world: Connection) -> tuple[int | None, str | None]:
    """(row id, column it was named by; None for an id) of the row `value` names."""
    if isinstance(value, int):
        return value, None
    text = str(value).lstrip("#@")
    for column in ref.columns:
        found = world.execute(select(table.c.id).where(table.c[column] == text)).first()
        if found is not None:
            return found.id, column
    if text.isdigit():
        return int(text), None
    return None, None
