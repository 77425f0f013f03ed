"""What only the requester knows: the hidden fact of an ask-the-requester task.

The goal of such a task leaves one fact out ("ask me which nights"); the task
carries it here, never in the goal. A simulated colleague (`officegym.tasks.responders`)
answers the persona's question with it in chat, and the grader (`officegym.tasks.asked`)
requires that the question was asked and answered before the persona acted on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from officegym.tasks.facts import Fact

__all__ = ["Hidden"]


@dataclass(frozen=True)
class Hidden:
    """The fact the requester (`requester`, a handle; `requester_id` its person id) keeps.

    `topic` are the phrases a question must name to get the fact (read as whole tokens
    after normalisation, `officegym.tasks.text`); `reply` is the requester's answer, which
    states `fact` (the typed value the grader reads back from it); `brief` tells an
    LLM-driven requester the situation, in the second person."""

    requester: str
    requester_id: int
    topic: Sequence[str]
    reply: str
    fact: Fact
    brief: str = ""

    def __post_init__(self) -> None:
        if not self.topic:
            raise ValueError("a hidden fact needs the topic words a question must name")
        ok, detail = self.fact.judge(self.reply)
        if not ok:
            raise ValueError(
                f"the requester's reply {self.reply!r} does not state the fact: {detail}"
            )
