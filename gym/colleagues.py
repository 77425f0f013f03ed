"""The simulated requester in the envs: which responder answers, and the LLM-driven one.

In an ask-the-requester episode (a task with a `Hidden` fact) the env makes a
`Colleague` (`officegym.tasks.responders`) at reset and lets it answer after every
step: in tools mode after each tool call, in browser mode after each request that
may write (the web server runs the hook, so a page loaded next already shows the
reply, for an external browser agent too). The replies are chat messages written by
the chat service as the requester, at the world's clock.

Who answers is the env kwarg ``responder=``: a `Responder` object, ``"keyword"`` (the
deterministic default, `KeywordResponder`) or ``"llm"`` (`LLMResponder`, configured by
``OFFICEGYM_RESPONDER_MODEL``, ``OFFICEGYM_RESPONDER_URL`` and
``OFFICEGYM_RESPONDER_API_KEY``). With no kwarg, the LLM responder is used when
``OFFICEGYM_RESPONDER_MODEL`` is set, else the keyword one. In MCP serve mode nothing is
simulated: the requester is a real person reading the chat.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Unpack

from officegym.tasks import Task
from officegym.tasks.responders import (
    Colleague,
    KeywordResponder,
    Line,
    Responder,
)
from officegym.world import World

if TYPE_CHECKING:
    from officegym.gym.llm import Connection

__all__ = ["LLMResponder", "answering_hook", "make_responder"]

ENV_MODEL, ENV_URL, ENV_KEY = (
    "OFFICEGYM_RESPONDER_MODEL",
    "OFFICEGYM_RESPONDER_URL",
    "OFFICEGYM_RESPONDER_API_KEY",
)
RULES = (
    "You are @{handle}, a colleague chatting at work. You asked @{persona} to do "
    "this: {goal}\n{brief}\nOnly you know this: {reply}\n"
    "Answer @{persona}'s last message in one or two short sentences, as a busy colleague "
    "would. Tell them the fact only if they ask about it; if they ask something else, say "
    "you don't know. Never do the task yourself and never ask them to do anything else."
)


class LLMResponder:
    """A requester played by a model on an OpenAI-compatible chat-completions server (the
    client of `officegym.gym.llm`). The conversation so far is the chat; the system
    message holds the goal, the hidden fact and the rules. If the server fails, the
    deterministic `KeywordResponder` answers instead, so an episode never stalls."""

    def __init__(
        self,
        model: str,
        *,
        temperature: float | None = 0.0,
        client: Any = None,
        **connection: Unpack[Connection],
    ) -> None:
        """`client` (an `openai.OpenAI`-like object), or else a client made from
        `connection` (30 seconds a request and 2 retries unless it says otherwise)."""
        from officegym.gym.llm import openai_client

        self.model, self.temperature = model, temperature
        self.client = (
            client if client is not None else openai_client(connection, timeout=30.0, max_retries=2)
        )
        self.fallback = KeywordResponder()
        self.failures = 0

    def messages(self, task: Task, history: Sequence[Line]) -> list[dict[str, str]]:
        """The chat-completions messages for the requester's next reply."""
        hidden = task.hidden
        assert hidden is not None
        system = RULES.format(
            handle=hidden.requester, persona=task.persona,
            goal=task.goal, brief=hidden.brief, reply=hidden.reply,
        )  # fmt: skip
        out = [{"role": "system", "content": system}]
        for line in history:
            role = "assistant" if line.author == hidden.requester else "user"
            out.append({"role": role, "content": line.text})
        return out

    def reply(self, task: Task, question: str, history: Sequence[Line]) -> str | None:
        if task.hidden is None:
            return None
        kwargs: dict[str, Any] = {"model": self.model, "messages": self.messages(task, history)}
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        try:
            response = self.client.chat.completions.create(**kwargs)
            text = response.choices[0].message.content
        except Exception as exc:  # a model outage must not end the episode
            from officegym.gym.llm import is_api_error

            if not is_api_error(exc):
                raise
            self.failures += 1
            return self.fallback.reply(task, question, history)
        return text.strip() if isinstance(text, str) and text.strip() else None


def make_responder(responder: Responder | str | None) -> Responder:
    """The responder an env was asked for (see the module docstring)."""
    if responder is None:
        return _from_env() if os.environ.get(ENV_MODEL) else KeywordResponder()
    if responder == "keyword":
        return KeywordResponder()
    if responder == "llm":
        if not os.environ.get(ENV_MODEL):
            raise ValueError(f"responder='llm' needs {ENV_MODEL} (and {ENV_URL}) set")
        return _from_env()
    if isinstance(responder, Responder):
        return responder
    raise ValueError(
        f"responder must be 'keyword', 'llm' or an object with a reply(task, question, "
        f"history) method, not {responder!r}"
    )


def _from_env() -> LLMResponder:
    return LLMResponder(
        os.environ[ENV_MODEL],
        base_url=os.environ.get(ENV_URL) or None,
        api_key=os.environ.get(ENV_KEY) or None,
    )


def answering_hook(world: World, colleague: Colleague | None) -> Callable[[], None] | None:
    """For browser mode: a function that lets `colleague` answer on a fresh session of
    `world` and commits (None when the task has no requester to simulate)."""
    if colleague is None:
        return None

    def hook() -> None:
        with world.session() as s:
            if colleague.answer(s):
                s.commit()

    return hook
