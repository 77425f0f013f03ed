"""A trajectory viewer: recorded episodes (``officegym run --record``, ``officegym
rollout``) as one self-contained HTML page, to see at a glance what an agent did and why
it earned its reward.

The page lists the episodes (template, seed, agent, reward, passed, steps, how it ended),
failures first, from any mix of record files, and for each one: the goal and persona,
what an LLM agent's model wrote, every step (the action, what came back or the error; a
browser step's URL and page text), the grade's checks with their details (got/want) and
the collateral damage the grader found in the final state. Everything is escaped;
long texts are clipped. `render_page(records)` returns the HTML; `officegym view` writes
it to a file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

__all__ = ["failure", "model_texts", "render_page", "write_page"]

CLIP = 2000  # characters of an observation shown per step


def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(Path(__file__).parent / "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["clip"] = _clip
    env.filters["action"] = _action_text
    env.globals.update(failure=failure, model_texts=model_texts)
    return env


def _clip(text: Any, n: int = CLIP) -> str:
    text = "" if text is None else str(text)
    return text if len(text) <= n else f"{text[:n]}… ({len(text) - n} more characters)"


def _action_text(action: Any) -> str:
    """An action as a person reads it: ``tool(arg=value, ...)`` for a tool call."""
    if isinstance(action, str):
        try:
            action = json.loads(action)
        except ValueError:
            return action
    if isinstance(action, Mapping) and isinstance(action.get("tool"), str):
        args = action.get("arguments") or {}
        if isinstance(args, Mapping):
            inner = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in args.items())
            return f"{action['tool']}({inner})"
    return json.dumps(action, ensure_ascii=False)


def render_page(records: Iterable[Mapping[str, Any]], *, title: str = "officegym run") -> str:
    """The HTML page of `records`: failed episodes first, then in episode order."""
    episodes = sorted(records, key=_order)
    summary = {
        "episodes": len(episodes),
        "mean": sum(float(r.get("reward") or 0) for r in episodes) / max(len(episodes), 1),
        "passed": sum(1 for r in episodes if (r.get("grade") or {}).get("passed")),
        "failed": sum(1 for r in episodes if failure(r)),
    }
    template = _environment().get_template("viewer.html")
    return template.render(title=title, episodes=episodes, summary=summary)


def failure(record: Mapping[str, Any]) -> str:
    """Why an episode failed other than by its policy's choices ("" if it did not): its
    agent's model failed, the env faulted, the agent gave up, or it was cut short."""
    ended = record.get("ended")
    if ended in ("agent_failure", "env_fault"):
        return f"{ended}: {record.get('cause') or record.get('model_error') or ''}".rstrip(": ")
    if record.get("model_error"):
        return f"agent_failure: {record['model_error']}"
    if record.get("failure"):
        return str(record["failure"])
    return "interrupted" if record.get("complete") is False or ended == "interrupted" else ""


def model_texts(record: Mapping[str, Any]) -> list[str]:
    """What an LLM agent's model wrote besides its tool calls, in order."""
    said = (m.get("content") for m in record.get("conversation") or () if isinstance(m, Mapping))
    return [str(text) for text in said if text and isinstance(text, str | list)]


def _order(record: Mapping[str, Any]) -> tuple[bool, int, str]:
    """Failures first, then by episode index and template (records of several files may
    lack either)."""
    index = record.get("index")
    task = record.get("task") or {}
    return (not failure(record), index if isinstance(index, int) else -1, str(task.get("id")))


def write_page(records: Iterable[Mapping[str, Any]], out: str | Path, *, title: str) -> Path:
    """Write the page of `records` to `out` and return its path."""
    path = Path(out)
    path.write_text(render_page(records, title=title), encoding="utf-8")
    return path
