"""An optional verifier model behind the reader: it double-checks what the rules accept.

Off by default. Set ``OFFICEGYM_VERIFIER_URL`` (an OpenAI-compatible base URL such as
``http://127.0.0.1:8001/v1``) and ``OFFICEGYM_VERIFIER_MODEL`` (optional
``OFFICEGYM_VERIFIER_KEY``) to turn it on: every statement the rule reader
(`officegym.tasks.reader.RuleReader`) accepts is then asked of the model, at
temperature 0, and counts only if the model agrees. A statement the rules refuse is
never asked: the verifier can take a claim away, never grant one. Verdicts are cached
on disk (under ``OFFICEGYM_CACHE``, default ``~/.cache/officegym``) by the whole
input — model, expected value, statement — so a grade is the same on every run.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from officegym.tasks.facts import Fact
from officegym.tasks.judge import JudgeSettings, ask
from officegym.tasks.reader import Context, Reader, Verdict

__all__ = ["Verified", "answer_question", "statement_question", "verified", "verifier_settings"]


def verifier_settings() -> JudgeSettings | None:
    """The verifier the environment configures, or None (the default: none)."""
    url = os.environ.get("OFFICEGYM_VERIFIER_URL")
    model = os.environ.get("OFFICEGYM_VERIFIER_MODEL")
    if not url or not model:
        return None
    root = Path(os.environ.get("OFFICEGYM_CACHE", str(Path.home() / ".cache" / "officegym")))
    key = os.environ.get("OFFICEGYM_VERIFIER_KEY", "")
    return JudgeSettings(url.rstrip("/"), model, key, root / "verifier")


def answer_question(fact: Fact) -> str:
    """What the verifier is asked of an answer that must state `fact`."""
    return (
        f"Does the text plainly assert that the answer is {fact.describe()} — exactly that "
        "value, with no hedge, condition, denial, retraction, joke, question or second "
        "candidate?"
    )


def statement_question(facts: Sequence[Fact]) -> str:
    """What the verifier is asked of a message that must report `facts` (or the work)."""
    what = " and ".join(f.describe() for f in facts) or "that the work was done"
    return (
        f"Does the message plainly report {what} as a settled fact, with no hedge, "
        "condition, denial, retraction, strikethrough, joke or question about it?"
    )


@dataclass(frozen=True)
class Verified:
    """`rules`, with each statement they accept double-checked by the model `settings`."""

    rules: Reader
    settings: JudgeSettings

    def answer(self, fact: Fact, text: str, context: Context) -> Verdict:
        verdict = self.rules.answer(fact, text, context)
        if not verdict.ok:
            return verdict
        return self._confirm(verdict, answer_question(fact), text)

    def statement(
        self, text: str, facts: Sequence[Fact], phrases: Iterable[str], context: Context
    ) -> Verdict:
        verdict = self.rules.statement(text, facts, phrases, context)
        if not verdict.ok:
            return verdict
        return self._confirm(verdict, statement_question(facts), text)

    def _confirm(self, verdict: Verdict, question: str, text: str) -> Verdict:
        if ask(self.settings, question, text):
            return verdict
        return Verdict(False, f"the verifier ({self.settings.model}) does not agree")


def verified(rules: Reader) -> Reader:
    """`rules` double-checked by the configured verifier, or `rules` alone (the default)."""
    settings = verifier_settings()
    return rules if settings is None else Verified(rules, settings)
