"""Reading an agent's action: any value in, a (tool, arguments) pair or a clear error out.

This is the one place that decides whether an action is well formed, so that
`OfficeEnv.step` never raises on what an agent sends: bad JSON, the wrong
shape, unknown tools, non-string answers and invalid Unicode all become an
`ActionError` whose message is shown to the agent. Argument values are checked
afterwards by the tool registry (types, ranges, missing and unknown arguments).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from typing import Any

from officegym.gym.spaces import ACTION_KEYS, SUBMIT

__all__ = ["MAX_ACTION_CHARS", "ActionError", "parse_action", "submitted_answer"]

MAX_ACTION_CHARS = 100_000
FORM = '{"tool": "<tool name>", "arguments": {...}}'


class ActionError(ValueError):
    """An action the environment cannot run; the message is meant for the agent."""


def parse_action(action: Any, tools: Collection[str]) -> tuple[str, dict[str, Any]]:
    """The tool name and arguments of `action` (JSON text or a mapping), or `ActionError`."""
    try:
        call = _as_mapping(action)
        extra = sorted(map(repr, set(call) - ACTION_KEYS))
        if extra:
            raise ActionError(f"unknown key(s) {', '.join(extra)}; an action is {FORM}")
        name = call.get("tool")
        if not isinstance(name, str):
            raise ActionError(f"'tool' must be a tool name string; an action is {FORM}")
        if name not in tools:
            raise ActionError(
                f"unknown tool {_clip(name)!r}; call one of the tools listed in info['tools'] "
                f"or {SUBMIT!r}"
            )
        arguments = call.get("arguments")
        if arguments is None:
            return name, {}
        if not isinstance(arguments, Mapping):
            raise ActionError(f"'arguments' must be a JSON object; an action is {FORM}")
        arguments = dict(arguments)
        _check_unicode(arguments)
        return name, arguments
    except ActionError:
        raise
    except Exception as exc:  # exotic objects (broken mappings, odd keys) are errors too
        raise ActionError(f"could not read the action ({type(exc).__name__})") from None


def submitted_answer(arguments: Mapping[str, Any]) -> str | None:
    """The optional answer of a `submit` call, or `ActionError` if it is malformed."""
    extra = sorted(map(repr, set(arguments) - {"answer"}))
    if extra:
        raise ActionError(f"submit: unknown argument(s) {', '.join(extra)}; it takes 'answer'")
    answer = arguments.get("answer")
    if answer is not None and not isinstance(answer, str):
        raise ActionError("submit: 'answer' must be a string")
    return answer


def _as_mapping(action: Any) -> Mapping[Any, Any]:
    """The action as a mapping: decode bytes, parse text (length-limited), check the type."""
    if isinstance(action, bytes | bytearray):
        try:
            action = bytes(action).decode("utf-8")
        except UnicodeDecodeError:
            raise ActionError("action bytes are not valid UTF-8") from None
    if isinstance(action, str):
        if len(action) > MAX_ACTION_CHARS:
            raise ActionError(
                f"action is {len(action)} characters long; the limit is {MAX_ACTION_CHARS}"
            )
        try:
            action = json.loads(action)
        except json.JSONDecodeError as exc:
            raise ActionError(
                f"action is not valid JSON ({exc.msg} at position {exc.pos})"
            ) from None
        except RecursionError:
            raise ActionError("action JSON is nested too deeply") from None
    if not isinstance(action, Mapping):
        raise ActionError(f"action must be a JSON object {FORM}, not {_kind(action)}")
    return action


def _check_unicode(arguments: dict[str, Any]) -> None:
    """Reject strings that cannot be stored as UTF-8 (lone surrogates from JSON escapes)."""
    try:
        json.dumps(arguments, ensure_ascii=False, default=str).encode("utf-8")
    except UnicodeEncodeError:
        raise ActionError("arguments contain invalid Unicode (a lone surrogate)") from None
    except TypeError:
        raise ActionError("argument names must be strings") from None
    except (ValueError, RecursionError):
        raise ActionError("arguments are not JSON values (circular or too deeply nested)") from None


def _kind(value: Any) -> str:
    """What a non-object action is, in JSON words, for the error message."""
    names = {list: "an array", str: "a string", int: "a number", float: "a number"}
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return names.get(type(value), type(value).__name__)


def _clip(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[:n] + "…"
