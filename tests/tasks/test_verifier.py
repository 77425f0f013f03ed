"""The optional verifier model behind the reader: off by default; when configured, it is
asked only about statements the rules accept, can take a claim away but never grant one,
and its verdicts are cached on disk by input. The endpoint is a real HTTP server of the
test's own speaking the OpenAI chat API (no model is reachable)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from officegym.tasks import facts as F
from officegym.tasks.facts import judge_answer
from officegym.tasks.reader import RuleReader, active_reader
from officegym.tasks.statements import Says
from officegym.tasks.verifier import Verified
from tests.gym.openai_stub import Response, StubServer, as_json

SEEN: list[dict] = []
GOAL = "Cancel your stay at the loft. How much refund do you get?"


def _verdict(path: str, body: dict) -> Response:
    """YES unless the statement says 'cheque' (a word the rules know from this goal)."""
    SEEN.append({"path": path, **body})
    verdict = "NO" if "cheque" in body["messages"][-1]["content"] else "YES"
    return as_json(200, {"choices": [{"message": {"role": "assistant", "content": verdict}}]})


@pytest.fixture
def verifier(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[str]:
    server = StubServer(_verdict)
    monkeypatch.setenv("OFFICEGYM_VERIFIER_URL", server.base_url)
    monkeypatch.setenv("OFFICEGYM_VERIFIER_MODEL", "verifier-model")
    monkeypatch.setenv("OFFICEGYM_CACHE", str(tmp_path))
    SEEN.clear()
    yield server.base_url
    server.close()


def test_without_a_verifier_the_rule_reader_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OFFICEGYM_VERIFIER_URL", raising=False)
    assert isinstance(active_reader(), RuleReader)
    assert judge_answer(F.money(331), "The refund is $331.", goal=GOAL)[0]


def test_the_verifier_can_take_an_accepted_claim_away(verifier: str) -> None:
    assert isinstance(active_reader(), Verified)
    goal = GOAL + " Say if it comes as a cheque."
    assert judge_answer(F.money(331), "The refund is $331.", goal=goal) == (True, "states $331")
    ok, why = judge_answer(F.money(331), "The refund is $331 as a cheque.", goal=goal)
    assert not ok and why == "the verifier (verifier-model) does not agree"
    assert SEEN[0]["model"] == "verifier-model" and SEEN[0]["temperature"] == 0
    assert "$331" in SEEN[0]["messages"][-1]["content"]


def test_the_verifier_never_rescues_what_the_rules_refused(verifier: str) -> None:
    assert not judge_answer(F.money(331), "probably $331", goal=GOAL)[0]
    says = Says(amount=331, act="report")
    assert not says.judge("~The refund is $331.~", GOAL)[0]
    assert SEEN == []  # never asked


def test_verdicts_are_cached_by_statement(verifier: str, tmp_path: Path) -> None:
    says = Says(amount=331, act="report")
    for _ in range(3):
        assert says.judge("The refund is $331.", GOAL)[0]
        assert judge_answer(F.money(331), "$331", goal=GOAL)[0]
    assert len(SEEN) == 2  # one statement, one answer: asked once each
    assert len(list((tmp_path / "verifier").glob("*.json"))) == 2
