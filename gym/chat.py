"""An episode as an OpenAI chat: the one place that turns tool specs, observations and
actions into chat-completions messages.

The LLM agent (`officegym.gym.llm`) talks to models in this form and `export-sft`
(`officegym.gym.sft`) writes recorded episodes in it, so a model fine-tuned on
exported data sees exactly what it will see when it acts:

- the tools as ``{"type": "function", "function": {name, description, parameters}}``
  (the registry's JSON schemas, ``submit`` last);
- the first message (role ``user``): who the agent acts as, the goal, and how to finish;
- each action as an assistant message with one ``tool_calls`` entry (arguments as JSON text);
- each observation as a ``tool`` message answering that call: the result's JSON text,
  or ``Error: ...``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from officegym.gym.spaces import SUBMIT

__all__ = [
    "BROWSER_TOOL",
    "assistant_call",
    "browser_tool_spec",
    "call_id",
    "function_tools",
    "opening_message",
    "tool_message",
    "tool_result_text",
]

BROWSER_TOOL = "browser"


def function_tools(specs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Tool specs (`info["tools"]`) as chat-completions function tools."""
    return [
        {
            "type": "function",
            "function": {
                "name": s["name"],
                "description": s.get("description", ""),
                "parameters": s.get("parameters", {"type": "object", "properties": {}}),
            },
        }
        for s in specs
    ]


def browser_tool_spec(action_help: str) -> dict[str, Any]:
    """The one tool of browser mode: an action string of the env's action language."""
    return {
        "name": BROWSER_TOOL,
        "description": "Do one or more browser actions (one per line) and see the page.\n\n"
        + action_help,
        "parameters": {
            "type": "object",
            "properties": {"action": {"type": "string", "description": "The action string."}},
            "required": ["action"],
            "additionalProperties": False,
        },
    }


def opening_message(observation: Mapping[str, Any], *, browser: bool = False) -> dict[str, str]:
    """The first message of an episode: the persona, the goal and how to end it."""
    if browser:
        how = (
            "Act in the browser with the `browser` tool; end with send_msg_to_user(...) "
            "(your answer, if the task asks a question, else a short confirmation).\n\n"
            f"The page now:\n{observation.get('axtree', '')}"
        )
    else:
        how = (
            f"Use the tools to do it. When you are done, call `{SUBMIT}`, with `answer` if "
            "the task asks a question."
        )
    text = f"You are {observation['persona']} at work.\n\nYour task: {observation['goal']}\n\n{how}"
    return {"role": "user", "content": text}


def tool_result_text(observation: Mapping[str, Any], *, browser: bool = False) -> str:
    """What a tool message says about an observation: the error, else the result."""
    if browser:
        page = f"URL: {observation.get('url', '')}\n{observation.get('axtree', '')}"
        error = observation.get("error", "")
        return f"Error: {error}\n\n{page}" if error else page
    if observation.get("error"):
        return f"Error: {observation['error']}"
    return str(observation.get("result", ""))


def call_id(turn: int) -> str:
    """The id of the tool call of step `turn` (1-based) in exported conversations."""
    return f"call_{turn}"


def assistant_call(ident: str, name: str, arguments: Any, content: str | None = None) -> dict:
    """An assistant message making one tool call (arguments given as data or JSON text)."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
    return {
        "role": "assistant",
        "content": content,
        "tool_calls": [
            {"id": ident, "type": "function", "function": {"name": name, "arguments": text}}
        ],
    }


def tool_message(ident: str, text: str) -> dict[str, str]:
    """The tool message answering call `ident`."""
    return {"role": "tool", "tool_call_id": ident, "content": text}
