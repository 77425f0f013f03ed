"""The optional LLM judge: off by default (the deterministic fallback grades), and when
configured it asks an OpenAI-compatible endpoint once per input and reuses the verdict.
The endpoint here is a small HTTP server of the test's own (no model is reachable)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from officegym.tasks.checks import Check, GradeContext, Predicate
from officegym.tasks.judge import Judged

SEEN: list[dict] = []


class Stub(BaseHTTPRequestHandler):
    """Answers chat completions: YES when the text mentions 'done', else NO."""

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        SEEN.append({"path": self.path, **body})
        verdict = "YES" if "done" in body["messages"][-1]["content"] else "NO"
        reply = {"choices": [{"message": {"role": "assistant", "content": verdict}}]}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Stub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    monkeypatch.setenv("OFFICEGYM_JUDGE_URL", url)
    monkeypatch.setenv("OFFICEGYM_JUDGE_MODEL", "judge-model")
    monkeypatch.setenv("OFFICEGYM_CACHE", str(tmp_path))
    SEEN.clear()
    yield url
    server.shutdown()


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
