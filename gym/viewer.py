"""A trajectory viewer: recorded episodes (``officegym run --record``, ``officegym
rollout``) as one self-contained HTML page, to see at a glance what an agent did and why
it earned its reward.

The page lists the episodes (template, seed, agent, reward, passed, steps, failure), and
for each one: the goal and persona, every step (the action, what came back or the error;
a browser step's URL and page text), the grade's checks with their details (got/want)
and the collateral damage the grader found in the final state. Everything is escaped;
long texts are clipped. `render_page(records)` returns the HTML; `officegym view` writes
it to a file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape

__all__ = ["render_page", "write_page"]

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
    """The HTML page of `records`, in episode order (``index`` when present)."""
    episodes = sorted(records, key=lambda r: (r.get("index", 0), (r.get("task") or {}).get("id")))
    summary = {
        "episodes": len(episodes),
        "mean": sum(float(r.get("reward") or 0) for r in episodes) / max(len(episodes), 1),
        "passed": sum(1 for r in episodes if (r.get("grade") or {}).get("passed")),
    }
    template = _environment().get_template("viewer.html")
    return template.render(title=title, episodes=episodes, summary=summary)


def write_page(records: Iterable[Mapping[str, Any]], out: str | Path, *, title: str) -> Path:
    """Write the page of `records` to `out` and return its path."""
    path = Path(out)
    path.write_text(render_page(records, title=title), encoding="utf-8")
    return path
