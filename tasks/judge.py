"""An optional LLM judge for rubric items no deterministic rule can decide.

Off by default: a `Judged` check then grades with its deterministic `fallback`, so
grades never depend on a model unless the user asks. Set ``OFFICEGYM_JUDGE_URL`` (an
OpenAI-compatible base URL such as ``http://127.0.0.1:8001/v1``) and
``OFFICEGYM_JUDGE_MODEL`` (a model other than the policy being trained; optional
``OFFICEGYM_JUDGE_KEY``) to turn it on. Verdicts are asked at temperature 0 and
cached on disk by their whole input (model, question, text), so the same episode gets
the same grade on every run.
"""

from __future__ import annotations

import hashlib
import json
import os
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from officegym.tasks.checks import Check, GradeContext

__all__ = ["JudgeSettings", "Judged", "ask", "judge_settings"]

SYSTEM = (
    "You grade the work of an office assistant. Read the question and the text, then answer "
    "with exactly one word: YES or NO."
)


@dataclass(frozen=True)
class JudgeSettings:
    url: str
    model: str
    key: str = ""
    cache: Path = Path.home() / ".cache" / "officegym" / "judge"


def judge_settings() -> JudgeSettings | None:
    """The judge the environment configures, or None (the default: no judge)."""
    url, model = os.environ.get("OFFICEGYM_JUDGE_URL"), os.environ.get("OFFICEGYM_JUDGE_MODEL")
    if not url or not model:
        return None
    root = os.environ.get("OFFICEGYM_CACHE", str(Path.home() / ".cache" / "officegym"))
    return JudgeSettings(url.rstrip("/"), model, os.environ.get("OFFICEGYM_JUDGE_KEY", ""),
                         Path(root) / "judge")  # fmt: skip


def ask(settings: JudgeSettings, question: str, text: str) -> bool:
    """The judge's verdict on `text` (cached by input): True for YES."""
    key = hashlib.sha256(json.dumps([settings.model, question, text]).encode()).hexdigest()
    file = settings.cache / f"{key}.json"
    if file.exists():
        return bool(json.loads(file.read_text())["yes"])
    body = {
        "model": settings.model,
        "temperature": 0,
        "max_tokens": 3,
        "messages": [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": f"Question: {question}\n\nText:\n{text}"},
        ],
    }
    headers = {"Content-Type": "application/json"}
    if settings.key:
        headers["Authorization"] = f"Bearer {settings.key}"
    request = urllib.request.Request(
        f"{settings.url}/chat/completions", json.dumps(body).encode(), headers, method="POST"
    )
    with urllib.request.urlopen(request, timeout=60) as reply:  # an error raises: no verdict
        content = json.load(reply)["choices"][0]["message"]["content"] or ""
    yes = content.strip().upper().startswith("YES")
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps({"yes": yes, "question": question, "text": text}))
    return yes


@dataclass(frozen=True, kw_only=True)
class Judged(Check):
    """A rubric item asked of the LLM judge when one is configured: `question` about the
    text `text_of` picks from the episode (the persona's new message, a field). Without a
    judge, or without text, the deterministic `fallback` check decides."""

    question: str
    text_of: Callable[[GradeContext], str | None]
    fallback: Check

    def evaluate(self, g: GradeContext) -> tuple[bool, str]:
        settings = judge_settings()
        text = self.text_of(g) if settings is not None else None
        if settings is None or not text:
            return self.fallback.evaluate(g)
        yes = ask(settings, self.question, text)
        return yes, f"judge ({settings.model}) says {'yes' if yes else 'no'}"
