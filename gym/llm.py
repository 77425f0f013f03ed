"""An LLM agent for real rollouts: any OpenAI-compatible chat-completions server (vLLM,
SGLang, a hosted API) plays tools-mode episodes.

`ChatAgent` keeps the conversation in the form of `officegym.gym.chat`: the tools' JSON
schemas as function tools, the goal and persona as the first message, every tool
result back as a tool message, `submit` as a tool. Each model reply may hold several
tool calls; they are stepped one by one and the model is asked again when all are
answered. It ends the episode itself, by `submit`, when:

- the model answers in text with no tool call (the text is submitted as the answer:
  a refusal ends the episode, graded as what was done);
- it has asked the model `max_turns` times;
- the model cannot be reached after the client's retries, or answers an error
  (``failure`` says why, and ``model_error`` is set: the commands that play episodes
  stop with it and exit non-zero, since a dead model is not a policy that scored 0).

Transient HTTP errors (connection errors, timeouts, 408/409/429/5xx) are retried by the
`openai` client itself (`max_retries`, exponential backoff, ``Retry-After`` obeyed);
what is left after that ends the episode cleanly instead of raising, and so does a 200
that is not a chat completion (not JSON, no choices: `MalformedReply`), recorded as the
model server's failure. A malformed tool call (arguments that are not a JSON object, an
unknown tool) is passed to the env, whose error comes back to the model as the tool
message, as it would for any agent; a reply whose only tool calls name no function is
answered with a message saying so, and the model is asked again (a turn of its own).

Subclass it to change the conversation: `opening` (the first messages), `complete`
(one model call, e.g. another client or sampling settings) or `interpret` (a reply
to actions). The `openai` package is the ``agents`` extra
(``pip install officegym[agents]``); it is imported when an agent is made.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict, Unpack

import gymnasium

from officegym.gym import chat
from officegym.gym.spaces import SUBMIT

__all__ = [
    "ChatAgent",
    "Connection",
    "MalformedReply",
    "PlannedCall",
    "is_api_error",
    "openai_client",
]

NO_FUNCTION = (
    "Your last reply held tool calls with no function (no tool name), so nothing was done. "
    "Call a tool by its name with JSON arguments, or call submit to finish."
)


class MalformedReply(ValueError):
    """A 200 from the model's server that is not a chat completion with a message."""


class Connection(TypedDict, total=False):
    """Where an OpenAI-compatible chat-completions server is, and how patient to be with
    it: its base URL and API key (a local server needs none), the seconds one request
    may take and how many times a failed one is retried."""

    base_url: str | None
    api_key: str | None
    timeout: float
    max_retries: int


@dataclass(frozen=True)
class PlannedCall:
    """One tool call of a model reply, to step: its id, the tool and the arguments as sent."""

    ident: str
    name: str
    arguments: str


class ChatAgent:
    """Plays tools-mode episodes with an OpenAI-compatible chat-completions model."""

    def __init__(
        self,
        model: str,
        *,
        max_turns: int = 30,
        temperature: float | None = 0.0,
        seed: int | None = None,
        client: Any = None,
        **connection: Unpack[Connection],
    ) -> None:
        """`client` (an `openai.OpenAI`-like object), or else a client made from
        `connection` (60 seconds a request and 3 retries unless it says otherwise)."""
        if not isinstance(max_turns, int) or max_turns < 1:
            raise ValueError(f"max_turns must be a positive int, not {max_turns!r}")
        self.model, self.max_turns = model, max_turns
        self.temperature, self.seed = temperature, seed
        self.client = (
            client if client is not None else openai_client(connection, timeout=60.0, max_retries=3)
        )
        self.messages: list[dict[str, Any]] = []
        self.tools: list[dict[str, Any]] = []
        self.turns = 0
        self.failure: str | None = None
        self.model_error: str | None = None  # the model's server failed (not the policy)
        self._pending: deque[PlannedCall] = deque()
        self._awaiting: str | None = None
        self._nameless = 0  # tool calls of the last reply that named no function

    # ------------------------------------------------------------ the agent protocol

    def reset(self, env: gymnasium.Env, observation: Mapping[str, Any], info: dict) -> None:
        """Start a conversation for the episode that `observation` opens."""
        self.tools = chat.function_tools(info["tools"])
        self.messages = self.opening(observation, info)
        self.turns, self.failure, self.model_error = 0, None, None
        self._pending.clear()
        self._awaiting = None

    def act(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> Any:
        """The next action: the next call of the model's reply, asking the model when none
        is left."""
        if self._awaiting is not None:
            self.messages.append(
                chat.tool_message(self._awaiting, chat.tool_result_text(observation))
            )
            self._awaiting = None
        if not self._pending:
            ending = self._ask()
            if ending is not None:
                return ending
        call = self._pending.popleft()
        self._awaiting = call.ident
        return {"tool": call.name, "arguments": _arguments(call.arguments)}

    def _ask(self) -> dict[str, Any] | None:
        """Ask the model for its next calls; a submit action if the episode must end."""
        while self.turns < self.max_turns:
            self.turns += 1
            self._nameless = 0
            try:
                message, calls = self.interpret(self.complete())
            except json.JSONDecodeError as exc:  # the client's parse of a 200 body
                self.failure = self.model_error = f"malformed model reply: not JSON ({exc})"
                return _submit(None)
            except MalformedReply as exc:
                self.failure = self.model_error = f"malformed model reply: {exc}"
                return _submit(None)
            except Exception as exc:
                if not is_api_error(exc):
                    raise
                self.failure = self.model_error = f"model call failed: {type(exc).__name__}: {exc}"
                return _submit(None)
            self.messages.append(message)
            if calls:
                self._pending.extend(calls)
                return None
            if not self._nameless:
                return _submit(message.get("content") or None)
            self.messages.append({"role": "user", "content": NO_FUNCTION})
        self.failure = f"turn limit: the model was asked {self.max_turns} times"
        return _submit(None)

    # ------------------------------------------------------------ hooks for subclasses

    def opening(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> list[dict]:
        """The conversation's first messages (by default one: persona, goal, how to end)."""
        return [chat.opening_message(observation)]

    def complete(self) -> Any:
        """One chat-completions call with the conversation so far; returns the response."""
        kwargs: dict[str, Any] = {"model": self.model, "messages": self.messages}
        if self.tools:
            kwargs["tools"] = self.tools
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        if self.seed is not None:
            kwargs["seed"] = self.seed
        return self.client.chat.completions.create(**kwargs)

    def interpret(self, response: Any) -> tuple[dict[str, Any], list[PlannedCall]]:
        """The assistant message to keep and the tool calls to step, from a response
        (`MalformedReply` if it is not a completion with a message; calls naming no
        function are left out and counted, so the model is told)."""
        choices = getattr(response, "choices", None)
        message = getattr(choices[0], "message", None) if choices else None
        if message is None:
            raise MalformedReply(f"no choices with a message in {str(response)[:200]!r}")
        calls = []
        for i, c in enumerate(message.tool_calls or ()):
            function = getattr(c, "function", None)
            if function is None or not function.name:
                self._nameless += 1
                continue
            calls.append(PlannedCall(c.id or f"call_{self.turns}_{i}", function.name,
                                     function.arguments))  # fmt: skip
        kept: dict[str, Any] = {"role": "assistant", "content": message.content}
        if calls:
            kept["tool_calls"] = [
                {"id": c.ident, "type": "function",
                 "function": {"name": c.name, "arguments": c.arguments}}
                for c in calls
            ]  # fmt: skip
        return kept, calls


def _arguments(text: str) -> Any:
    """Arguments as sent: a JSON object becomes data; anything else is passed on as is, so
    the env answers with its error about it."""
    try:
        value = json.loads(text) if text else {}
    except (ValueError, TypeError, RecursionError):
        return text
    return value


def _submit(answer: str | None) -> dict[str, Any]:
    return {"tool": SUBMIT, "arguments": {} if answer is None else {"answer": answer}}


def is_api_error(exc: Exception) -> bool:
    """Whether `exc` is the model server's failure (an ``openai.APIError``), which an agent
    or a colleague answers by giving up the turn rather than crashing the episode."""
    import openai

    return isinstance(exc, openai.APIError)


def openai_client(connection: Connection, *, timeout: float, max_retries: int) -> Any:
    """An `openai.OpenAI` client (the ``agents`` extra) for `connection`, its timeout and
    retries defaulting to those given; a local server needs no real key."""
    unknown = connection.keys() - Connection.__optional_keys__
    if unknown:
        raise TypeError(f"unexpected keyword argument(s): {', '.join(sorted(unknown))}")
    try:
        import openai
    except ImportError:
        raise ImportError(
            "the LLM agent needs the openai package: pip install 'officegym[agents]'"
        ) from None
    import os

    key = connection.get("api_key") or os.environ.get("OPENAI_API_KEY") or "not-needed"
    return openai.OpenAI(
        base_url=connection.get("base_url"),
        api_key=key,
        timeout=connection.get("timeout", timeout),
        max_retries=connection.get("max_retries", max_retries),
    )
