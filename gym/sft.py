"""Supervised fine-tuning data from trajectories: one chat conversation per episode.

`conversation(record)` turns a recorded episode (a `RecordEpisodes` line or a rollout
record, tools or browser mode) into ``{"messages", "tools"}`` in the OpenAI chat format of
`officegym.gym.chat`, the form `ChatAgent` talks in (and TRL's SFT trainer reads).

- An LLM agent's episode carries its own ``conversation``: it is written as the model
  produced it — the assistant's text, and parallel calls in one message.
- Other episodes (reference solutions, scripted agents) are rebuilt from their steps: the
  opening user message, then per step an assistant tool call and the tool message with
  what came back. Browser episodes call one tool, ``browser``, with the action string;
  their tool messages are the page text.
- The step that ends the episode (``submit``, ``send_msg_to_user``) closes the
  conversation without the env's answer, which holds the reward.
- Calls the env refused (an error came back, or the action could not be read) are
  dropped with their replies by default (``failed="drop"``): a policy should not learn
  them from an episode that passed anyway. ``failed="weight0"`` keeps them on assistant
  messages marked ``"weight": 0`` (OpenAI's fine-tuning format: not trained on);
  ``failed="keep"`` keeps them as they were.

``style="openai"`` writes tool-call arguments as JSON text (OpenAI's fine-tuning format);
``style="trl"`` as objects, the form Hugging Face chat templates (and so TRL's SFT trainer)
render with ``tojson``.

`tools="template"` lists every tool of the template's apps; ``"used"`` only those the
template's reference solution or the episode calls (and ``submit``), for a smaller
example. ``metadata=True`` adds a ``metadata`` key (task, seed, split, reward ...), which
OpenAI's format does not take.

`export_sft` filters records by reward (`min_reward`) and writes one JSON line per
conversation, in the records' episode order (``index`` when present), so the same
input gives the same bytes. `gold_records` plays reference solutions (tools or
browser mode) to make gold data.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from officegym.gym import chat
from officegym.gym.spaces import SUBMIT
from officegym.gym.tools_env import tool_specs
from officegym.gym.worker import RolloutSettings, plan_episodes, run_local
from officegym.tasks import load_templates

__all__ = ["Failed", "Style", "ToolSet", "conversation", "export_sft", "gold_records"]

Failed = Literal["drop", "weight0", "keep"]
ToolSet = Literal["template", "used"]
Style = Literal["openai", "trl"]


def conversation(
    record: Mapping[str, Any],
    *,
    failed: Failed = "drop",
    tools: ToolSet = "template",
    metadata: bool = False,
    style: Style = "openai",
) -> dict[str, Any]:
    """The episode of `record` as one chat conversation with its tools (and metadata)."""
    browser = "axtree" in record["observation"]
    if record.get("conversation") and not browser:
        messages = _faithful(record["conversation"], record["steps"], failed)
    else:
        messages = _rebuilt(record, browser, failed)
    out: dict[str, Any] = {"messages": messages, "tools": _tools(record, messages, browser, tools)}
    if style == "trl":
        out["messages"] = [_object_arguments(m) for m in messages]
    if metadata:
        out["metadata"] = _metadata(record, browser)
    return out


def _faithful(messages: Sequence[Mapping[str, Any]], steps: Sequence[Mapping], failed: Failed):
    """An LLM agent's own conversation. Its calls were stepped one by one, in order, and
    each answered by the next tool message, so calls, steps and tool messages pair by
    position (call ids need not be unique across replies)."""
    refused = iter([bool(s["observation"].get("error")) for s in steps])
    answers: list[bool] = []  # per call made so far and not yet answered: was it refused?
    out: list[dict[str, Any]] = []
    for m in messages:
        m = dict(m)
        if m.get("role") == "tool":
            bad = answers.pop(0) if answers else False
            if not (bad and failed == "drop"):
                out.append(m)
            continue
        calls = m.get("tool_calls") or []
        bad = [next(refused, False) for _ in calls]
        answers.extend(bad)
        if m.get("role") == "assistant" and any(bad):
            if failed == "weight0":
                m["weight"] = 0
            elif failed == "drop":
                m["tool_calls"] = [c for c, b in zip(calls, bad, strict=True) if not b]
                if not m["tool_calls"]:
                    del m["tool_calls"]
                    if not m.get("content"):
                        continue
        out.append(m)
    return out


def _rebuilt(record: Mapping[str, Any], browser: bool, failed: Failed) -> list[dict[str, Any]]:
    """The conversation an agent acting step by step would have had."""
    messages: list[dict[str, Any]] = [chat.opening_message(record["observation"], browser=browser)]
    for turn, step in enumerate(record["steps"], start=1):
        ident = chat.call_id(turn)
        call = _browser_call(step["action"]) if browser else _tool_call(step["action"])
        error = step["observation"].get("error")
        if error and not step["terminated"] and failed == "drop":
            continue
        if call is None:  # unreadable: the raw text, and the env's error as the reply
            said = {"role": "assistant", "content": _raw(step["action"])}
            messages += [_weighed(said, failed), {"role": "user", "content": f"Error: {error}"}]
            continue
        said = chat.assistant_call(ident, *call)
        messages.append(_weighed(said, failed) if error else said)
        if step["terminated"]:
            break
        text = chat.tool_result_text(step["observation"], browser=browser)
        messages.append(chat.tool_message(ident, text))
    return messages


def _object_arguments(message: dict[str, Any]) -> dict[str, Any]:
    """`message` with each call's arguments as an object (when they are a JSON object)."""
    if not message.get("tool_calls"):
        return message
    calls = []
    for call in message["tool_calls"]:
        try:
            value = json.loads(call["function"]["arguments"])
        except (ValueError, TypeError, RecursionError):
            value = None
        if isinstance(value, dict):
            call = {**call, "function": {**call["function"], "arguments": value}}
        calls.append(call)
    return {**message, "tool_calls": calls}


def _weighed(message: dict[str, Any], failed: Failed) -> dict[str, Any]:
    return {**message, "weight": 0} if failed == "weight0" else message


def _tool_call(action: Any) -> tuple[str, Any] | None:
    """(tool, arguments) of a tools-mode action, or None if it is not a call at all."""
    if isinstance(action, str):
        try:
            action = json.loads(action)
        except (ValueError, RecursionError):
            return None
    if not isinstance(action, Mapping) or not isinstance(action.get("tool"), str):
        return None
    arguments = action.get("arguments")
    return action["tool"], {} if arguments is None else arguments


def _browser_call(action: Any) -> tuple[str, Any] | None:
    return (chat.BROWSER_TOOL, {"action": action}) if isinstance(action, str) else None


def _raw(action: Any) -> str:
    return action if isinstance(action, str) else json.dumps(action, ensure_ascii=False)


def _tools(
    record: Mapping[str, Any], messages: Sequence[Mapping], browser: bool, which: ToolSet
) -> list[dict[str, Any]]:
    if browser:
        from officegym.gym.browser.actions import ACTION_HELP

        return chat.function_tools([chat.browser_tool_spec(ACTION_HELP)])
    template = load_templates()[record["task"]["id"]]
    specs = tool_specs(template.apps)
    if which == "used":
        from officegym.tasks import make_task

        task = record["task"]
        ref = make_task(task["id"], task["seed"], task.get("scenario", "default"),
                        task.get("world_seed", 0), task.get("difficulty"))  # fmt: skip
        names = {c.name for c in ref.solution} | {SUBMIT}
        names |= {c["function"]["name"] for m in messages for c in m.get("tool_calls") or ()}
        specs = [s for s in specs if s["name"] in names]
    return chat.function_tools(specs)


def _metadata(record: Mapping[str, Any], browser: bool) -> dict[str, Any]:
    task = record["task"]
    grade = record.get("grade") or {}
    return {
        "task": task["id"],
        "task_seed": task["seed"],
        "split": task.get("split"),
        "env_id": record.get("env_id"),
        "mode": "browser" if browser else "tools",
        "agent": record.get("agent"),
        "reward": float(record.get("reward") or 0.0),
        "passed": bool(grade.get("passed", record.get("passed", False))),
    }


def export_sft(
    records: Iterable[Mapping[str, Any]],
    out: str | Path,
    *,
    min_reward: float = 1.0,
    failed: Failed = "drop",
    tools: ToolSet = "template",
    metadata: bool = False,
    style: Style = "openai",
) -> int:
    """Write the conversations of the complete episodes with reward >= `min_reward` to
    `out` (JSONL, replaced), in episode order; returns how many were written."""
    kept = [r for r in records if _usable(r) and float(r.get("reward") or 0) >= min_reward]
    kept.sort(key=lambda r: (r.get("index", 0), r["task"]["id"], r["task"]["seed"]))
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for record in kept:
            chat_ = conversation(record, failed=failed, tools=tools, metadata=metadata, style=style)
            fh.write(json.dumps(chat_, ensure_ascii=False) + "\n")
    return len(kept)


def _usable(record: Mapping[str, Any]) -> bool:
    """A complete episode the policy itself ended: a failed model server's is no example."""
    return (
        bool(record.get("task"))
        and bool(record.get("complete", True))
        and bool(record.get("steps"))
        and record.get("ended") not in ("agent_failure", "env_fault")
        and not record.get("model_error")
    )


def gold_records(
    templates: Iterable[str], episodes: int, *, mode: str = "tools", split: str = "train",
    seed: int = 0,
) -> Iterator[dict[str, Any]]:  # fmt: skip
    """Reference-solution episodes (the browser ones in browser mode), recorded."""
    agent = "browser-oracle" if mode == "browser" else "oracle"
    plan = plan_episodes(episodes, templates=list(templates), seed=seed, split=split)
    return run_local(plan, RolloutSettings(agent, mode=mode, max_steps=80))
