"""What a message does, judged deterministically: does it confirm, report, refuse,
escalate, ask or commit — or only look like it does?

A chat message that must confirm that something was done is not a question back
("Which lead do you mean?"), a promise for later ("I'll add it tomorrow"), a note of
work still to do ("To do: add the lead"), a denial ("I haven't moved it"), a message
that takes itself back ("Scratch that", "ignore this") or does not mean it ("just
kidding"), or an echo of the instructions the agent was given. The words of each
category live in `officegym.tasks.lexicon`. Each act
(`Act`) names what the message must do; `problem(act, text, carries)` says what is
wrong with it, or None. `carries(tokens)` tells which sentences carry the content
the task asks for: a question or a promise elsewhere in the message ("Anything
else?") is harmless, the content itself must be stated plainly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from officegym.tasks.lexicon import (
    CLAIMS,
    DEFERRALS,
    ESCALATIONS,
    FAILURE_VERBS,
    FAILURES,
    INABILITY,
    JOKES,
    NEGATIONS,
    NOTE_OPENERS,
    PROMISES,
    REQUESTS,
    RETRACTIONS,
)
from officegym.tasks.text import find, phrase, sentences, tokens

__all__ = ["ACTS", "NEGATIONS", "REQUESTS", "Act", "echoes", "is_question", "problem", "undoing"]

Act = Literal["announce", "confirm", "report", "refuse", "request", "commit", "escalate"]
ACTS: tuple[Act, ...] = (
    "announce", "confirm", "report", "refuse", "request", "commit", "escalate",
)  # fmt: skip

# What undoes a message, whatever it must do: a denial or a failure ("I will NOT take
# this", "the booking failed"), taking itself back ("Scratch that") or a joke ("jk").
UNDOING = (*NEGATIONS, *FAILURES)


def undoing(goal: str = "") -> tuple[str, ...]:
    """`UNDOING` for a task whose instructions are `goal`: a failure word that reports the
    very act the goal asks for ("cancelled" where it says "cancel your stay") states the
    work done, so it is left out; negations ("I haven't cancelled it") stay."""
    asked = tokens(goal)
    done = {word for word, verb in FAILURE_VERBS.items() if any(w.startswith(verb) for w in asked)}
    return (*NEGATIONS, *(f for f in FAILURES if f not in done))


_FIRST_PERSON_FUTURE = ("i ll", "i will", "i'm going to", "i m going to", "we ll", "on it")
_WH = frozenset(("which", "what", "who", "whom", "whose", "where", "why", "how", "when"))
_AUX = frozenset(
    ("do", "does", "did", "is", "are", "was", "were", "can", "could", "would", "should",
     "will", "shall", "may", "might", "have", "has")
)  # fmt: skip
_SUBJECTS = frozenset(("you", "we", "i", "they", "it", "there", "anyone", "someone", "he", "she"))


def _has_any(words: Sequence[str], phrases: Sequence[str]) -> str | None:
    present = set(words)
    for p in phrases:
        target = phrase(p)
        if target and target[0] in present and find(words, target):
            return p
    return None


def is_question(sentence: str) -> bool:
    """A sentence that asks: it ends with ``?``, opens with a question word, or inverts
    ("Do you ...", "Is it ...")."""
    if sentence.rstrip().endswith("?"):
        return True
    words = tokens(sentence)
    if not words:
        return False
    if words[0] in _WH:
        return True
    return len(words) > 1 and words[0] in _AUX and words[1] in _SUBJECTS


def problem(
    act: Act, text: str, carries: Callable[[tuple[str, ...]], bool], goal: str = ""
) -> str | None:
    """What keeps `text` from doing `act` (None if it does it). `carries(tokens)` is true
    of the sentences that hold the content the task asks for; `goal`, the instructions,
    tells which failure words name the work itself (`undoing`)."""
    undo = undoing(goal)
    parts = [(s, tokens(s)) for s in sentences(text)]
    content = [(s, w) for s, w in parts if carries(w)] or parts
    whole = tokens(text)
    if undone := _takes_back(whole):
        return undone
    if act == "refuse":
        return _refusal_problem(whole)
    if act == "escalate":
        return _escalation_problem(whole, parts)
    if act == "request":
        if not any(is_question(s) or _has_any(w, REQUESTS) for s, w in parts):
            return "asks for nothing"
        denial = _has_any(whole, undo)
        return f"denies ({denial!r})" if denial else None
    if denial := _has_any(whole, undo):
        return f"denies ({denial!r})"
    if any(is_question(s) for s, _ in content):
        return "asks instead of stating"
    if act == "commit":
        return None if _has_any(whole, _FIRST_PERSON_FUTURE) else "commits to nothing"
    if act in ("confirm", "report"):
        return _deferral(content) or _note(parts)
    return None


def _note(parts: list[tuple[str, tuple[str, ...]]]) -> str | None:
    """Whether a sentence opens as a note of work left ("To do: ...")."""
    for _, w in parts:
        opener = next((o for o in NOTE_OPENERS if w[: len(phrase(o))] == phrase(o)), None)
        if opener:
            return f"leaves it for later ({opener!r})"
    return None


def _takes_back(words: tuple[str, ...]) -> str | None:
    """Whether the message retracts itself or says it does not mean it."""
    if retraction := _has_any(words, RETRACTIONS):
        return f"takes itself back ({retraction!r})"
    if joke := _has_any(words, JOKES):
        return f"does not mean it ({joke!r})"
    return None


def _deferral(content: list[tuple[str, tuple[str, ...]]]) -> str | None:
    """Whether the sentences carrying the content promise it or leave it for later."""
    for _, w in content:
        if promise := _has_any(w, PROMISES):
            return f"promises instead of confirming ({promise!r})"
        if deferral := _has_any(w, DEFERRALS):
            return f"leaves it for later ({deferral!r})"
    return None


def _refusal_problem(words: tuple[str, ...]) -> str | None:
    if not _has_any(words, INABILITY):
        return "does not say it could not be done"
    if claim := _has_any(words, CLAIMS):
        return f"claims it was done ({claim!r})"
    if promise := _has_any(words, ("will post", "ll post", "post it later", "later", "soon")):
        return f"promises to do it anyway ({promise!r})"
    return None


def _escalation_problem(words: tuple[str, ...], parts: list[tuple[str, tuple]]) -> str | None:
    """An escalation raises the request with someone above it: it asks (a question, a
    request) or flags it ("FYI", "asked me for"), and does not claim it was granted."""
    for _, w in parts:  # "I haven't shared it" claims nothing
        if (claim := _has_any(w, CLAIMS)) and not _has_any(w, NEGATIONS):
            return f"claims it was done ({claim!r})"
    if any(is_question(s) for s, _ in parts) or _has_any(words, (*REQUESTS, *ESCALATIONS)):
        return None
    return "neither asks nor flags the request"


def echoes(text: str, goal: str, *, opening: int = 4) -> bool:
    """Whether `text` restates the task's instructions: it holds the opening words (the
    first `opening` tokens) of one of the goal's sentences."""
    words = tokens(text)
    for sentence in sentences(goal):
        start = tokens(sentence)[:opening]
        if len(start) == opening and find(words, start):
            return True
    return False
