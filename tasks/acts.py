"""What a message does, judged deterministically: does it confirm, report, refuse, ask or
commit — or only look like it does?

A chat message that must confirm that something was done is not a question back
("Which lead do you mean?"), a promise for later ("I'll add it tomorrow"), a denial
("I haven't moved it") or an echo of the instructions the agent was given. Each act
(`Act`) names what the message must do; `problem(act, text, carries)` says what is
wrong with it, or None. `carries(tokens)` tells which sentences carry the content
the task asks for: a question or a promise elsewhere in the message ("Anything
else?") is harmless, the content itself must be stated plainly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from officegym.tasks.text import find, phrase, sentences, tokens

__all__ = ["ACTS", "NEGATIONS", "Act", "echoes", "is_question", "problem"]

Act = Literal["announce", "confirm", "report", "refuse", "request", "commit"]
ACTS: tuple[Act, ...] = ("announce", "confirm", "report", "refuse", "request", "commit")

# Words that deny or undo what a message should affirm ("I will NOT take this").
NEGATIONS = (
    "not", "never", "no longer", "can't", "cannot", "can not", "won't", "don't", "doesn't",
    "didn't", "isn't", "wasn't", "aren't", "weren't", "hasn't", "haven't", "hadn't",
    "couldn't", "wouldn't", "shouldn't", "unable", "cancelled", "canceled", "failed",
)  # fmt: skip
# Words that put what should be done in the future ("I'll do it later").
PROMISES = (
    "will", "ll", "going to", "gonna", "later", "soon", "shortly", "tomorrow", "asap",
    "next week", "plan to", "planning to", "about to", "intend to", "once i", "after i",
    "when i get", "tonight", "eventually",
)  # fmt: skip
# Ways of saying one could not do it (a refusal must say one of them).
INABILITY = (
    "can't", "cannot", "can not", "couldn't", "unable", "not able", "not a member",
    "no access", "don't have access", "do not have access", "doesn't show", "don't see",
    "isn't visible", "not visible", "not allowed", "no permission", "don't have permission",
    "forbidden", "won't let me", "not possible", "impossible",
)  # fmt: skip
# A refusal that claims it was done after all is no refusal.
DONE = ("posted", "shared", "done", "put it", "added it", "sent it", "went ahead")
# Ways of asking someone for something.
REQUESTS = (
    "could you", "can you", "would you", "will you", "please", "pls", "mind sharing",
    "send me", "share", "let me know", "do you have", "who is", "who knows", "who owns",
    "anyone", "is there",
)  # fmt: skip
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


def problem(act: Act, text: str, carries: Callable[[tuple[str, ...]], bool]) -> str | None:
    """What keeps `text` from doing `act` (None if it does it). `carries(tokens)` is true
    of the sentences that hold the content the task asks for."""
    parts = [(s, tokens(s)) for s in sentences(text)]
    content = [(s, w) for s, w in parts if carries(w)] or parts
    whole = tokens(text)
    if act == "refuse":
        return _refusal_problem(whole)
    if act == "request":
        if not any(is_question(s) or _has_any(w, REQUESTS) for s, w in parts):
            return "asks for nothing"
        denial = _has_any(whole, NEGATIONS)
        return f"denies ({denial!r})" if denial else None
    if denial := _has_any(whole, NEGATIONS):
        return f"denies ({denial!r})"
    if any(is_question(s) for s, _ in content):
        return "asks instead of stating"
    if act == "commit":
        return None if _has_any(whole, _FIRST_PERSON_FUTURE) else "commits to nothing"
    if act in ("confirm", "report"):
        promise = next((p for _, w in content if (p := _has_any(w, PROMISES))), None)
        if promise:
            return f"promises instead of confirming ({promise!r})"
    return None


def _refusal_problem(words: tuple[str, ...]) -> str | None:
    if not _has_any(words, INABILITY):
        return "does not say it could not be done"
    if claim := _has_any(words, DONE):
        return f"claims it was done ({claim!r})"
    if promise := _has_any(words, ("will post", "ll post", "post it later", "later", "soon")):
        return f"promises to do it anyway ({promise!r})"
    return None


def echoes(text: str, goal: str, *, opening: int = 4) -> bool:
    """Whether `text` restates the task's instructions: it holds the opening words (the
    first `opening` tokens) of one of the goal's sentences."""
    words = tokens(text)
    for sentence in sentences(goal):
        start = tokens(sentence)[:opening]
        if len(start) == opening and find(words, start):
            return True
    return False
