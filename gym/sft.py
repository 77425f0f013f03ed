"""Supervised fine-tuning data from trajectories: one chat conversation per episode.

`conversation(record)` turns a recorded episode (a `RecordEpisodes` line or a rollout
record, tools or browser mode) into ``{"messages", "tools", "metadata"}`` in the
OpenAI chat format of `officegym.gym.chat`, the form `ChatAgent` talks in: the opening
user message, then per step an assistant tool call and the tool message with what came
back. The step that ends the episode (``submit``, ``send_msg_to_user``) closes the
conversation without the env's answer, which holds the reward. Browser episodes call
one tool, ``browser``, with the action string; their tool messages are the page text.
An action the env could not read is kept as the assistant's text, its error as the
user's reply, so the data shows what happened.

`export_sft` filters records by reward (`min_reward`) and writes one JSON line per
conversation, in the records' episode order (``index`` when present), so the same
input gives the same bytes. `gold_records` plays reference solutions (tools or
browser mode) to make gold data.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from officegym.gym import chat
from officegym.gym.tools_env import tool_specs
from officegym.gym.worker import RolloutSettings, plan_episodes, run_local
from officegym.tasks import load_templates

__all__ = ["conversation", "export_sft", "gold_records"]


def conversation(record: Mapping[str, Any]) -> dict[str, Any]:
    """The episode of `record` as one chat conversation with its tools and metadata."""
    first = record["observation"]
    browser = "axtree" in first
    task = record["task"]
    messages: list[dict[str, Any]] = [chat.opening_message(first, browser=browser)]
    for turn, step in enumerate(record["steps"], start=1):
        ident = chat.call_id(turn)
        call = _browser_call(step["action"]) if browser else _tool_call(step["action"])
        if call is None:  # unreadable: the raw text, and the env's error as the reply
            messages.append({"role": "assistant", "content": _raw(step["action"])})
            messages.append({"role": "user", "content": f"Error: {step['observation']['error']}"})
            continue
        messages.append(chat.assistant_call(ident, *call))
        if step["terminated"]:
            break
        text = chat.tool_result_text(step["observation"], browser=browser)
        messages.append(chat.tool_message(ident, text))
    return {"messages": messages, "tools": _tools(task["id"], record, browser),
            "metadata": _metadata(record, browser)}  # fmt: skip


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


def _tools(task_id: str, record: Mapping[str, Any], browser: bool) -> list[dict[str, Any]]:
    if browser:
        from officegym.gym.browser.actions import ACTION_HELP

        return chat.function_tools([chat.browser_tool_spec(ACTION_HELP)])
    return chat.function_tools(tool_specs(load_templates()[task_id].apps))


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
    records: Iterable[Mapping[str, Any]], out: str | Path, *, min_reward: float = 1.0
) -> int:
    """Write the conversations of the complete episodes with reward >= `min_reward` to
    `out` (JSONL, replaced), in episode order; returns how many were written."""
    kept = [r for r in records if _usable(r) and float(r.get("reward") or 0) >= min_reward]
    kept.sort(key=lambda r: (r.get("index", 0), r["task"]["id"], r["task"]["seed"]))
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for record in kept:
            fh.write(json.dumps(conversation(record), ensure_ascii=False) + "\n")
    return len(kept)


def _usable(record: Mapping[str, Any]) -> bool:
    return (
        bool(record.get("task"))
        and bool(record.get("complete", True))
        and bool(record.get("steps"))
    )


def gold_records(
    templates: Iterable[str], episodes: int, *, mode: str = "tools", split: str = "train",
    seed: int = 0,
) -> Iterator[dict[str, Any]]:  # fmt: skip
    """Reference-solution episodes (the browser ones in browser mode), recorded."""
    agent = "browser-oracle" if mode == "browser" else "oracle"
    plan = plan_episodes(episodes, templates=list(templates), seed=seed, split=split)
    return run_local(plan, RolloutSettings(agent, mode=mode, max_steps=80))
