"""The optional LLM judge: off by default (the deterministic fallback grades), and when
configured it asks an OpenAI-compatible endpoint once per input and reuses the verdict.
The endpoint here is a small HTTP server of the test's own (no model is reachable)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from officegym.tasks.checks import Check, GradeContext, Predicate
from officegym.tasks.judge import Judged
from tests.gym.openai_stub import Response, StubServer, as_json

SEEN: list[dict] = []


def _verdict(path: str, body: dict) -> Response:
    """Answers chat completions: YES when the text mentions 'done', else NO."""
    SEEN.append({"path": path, **body})
    verdict = "YES" if "done" in body["messages"][-1]["content"] else "NO"
    return as_json(200, {"choices": [{"message": {"role": "assistant", "content": verdict}}]})


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[str]:
    server = StubServer(_verdict)
    monkeypatch.setenv("OFFICEGYM_JUDGE_URL", server.base_url)
    monkeypatch.setenv("OFFICEGYM_JUDGE_MODEL", "judge-model")
    monkeypatch.setenv("OFFICEGYM_CACHE", str(tmp_path))
    SEEN.clear()
    yield server.base_url
    server.close()


def context(answer: str) -> GradeContext:
    return GradeContext(initial=None, final=None, changes=(), answer=answer)  # type: ignore[arg-type]


def judged(fallback_ok: bool) -> Check:
    fallback = Predicate(name="rule", fn=lambda g: (fallback_ok, "the rule decided"))
    return Judged(name="confirms", question="Does it confirm?", text_of=lambda g: g.answer,
                  fallback=fallback)  # fmt: skip


def test_without_a_judge_the_deterministic_rule_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OFFICEGYM_JUDGE_URL", raising=False)
    assert judged(True).evaluate(context("all done")) == (True, "the rule decided")
    assert judged(False).evaluate(context("all done")) == (False, "the rule decided")


def test_a_configured_judge_is_asked_once_per_input(endpoint: str) -> None:
    check = judged(False)
    assert check.evaluate(context("all done")) == (True, "judge (judge-model) says yes")
    assert check.evaluate(context("all done"))[0] is True  # from the cache
    assert check.evaluate(context("not yet"))[0] is False
    assert len(SEEN) == 2
    first = SEEN[0]
    assert first["path"] == "/v1/chat/completions" and first["model"] == "judge-model"
    assert first["temperature"] == 0 and "Does it confirm?" in first["messages"][-1]["content"]
