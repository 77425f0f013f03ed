"""The simulated requester in tools mode: it answers in the chat between steps, through the
real chat service; the env's ``responder=`` picks who answers (a custom object, the
keyword default, or an LLM on an OpenAI-compatible server, here a real HTTP server on
127.0.0.1 that plays the requester)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from officegym.gym.colleagues import ENV_MODEL, ENV_URL, LLMResponder, make_responder
from officegym.gym.tools_env import OfficeEnv
from officegym.tasks import Task, make_task
from officegym.tasks.responders import KeywordResponder, Line
from tests.gym.openai_stub import Response, StubServer, as_json

TASK, SEED = "crm.ask-deal-amount", 3


class RequesterModel:
    """A chat-completions server that answers as the requester: the fact it was given in
    the system message (``status`` other than 200 makes it fail instead)."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.status = 200
        self.http = StubServer(self._respond)

    @property
    def base_url(self) -> str:
        return self.http.base_url

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        system = body["messages"][0]["content"]
        fact = system.split("Only you know this: ", 1)[1].splitlines()[0]
        message = {"role": "assistant", "content": f"Sure! {fact}"}
        return {"id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}  # fmt: skip

    def _respond(self, path: str, body: dict[str, Any]) -> Response:
        self.requests.append(body)
        ok = self.status == 200
        return as_json(self.status, self.answer(body) if ok else {"error": {"message": "down"}})


@pytest.fixture(scope="module")
def requester_model() -> Iterator[RequesterModel]:
    model = RequesterModel()
    yield model
    model.http.close()


def _play(env: OfficeEnv, task: Task, question: str) -> tuple[str, dict]:
    """Ask `question` in the DM, read the DM; (its JSON text, the grade of the reference's
    remaining calls)."""
    assert task.hidden is not None
    env.step({"tool": "slack_send_dm",
              "arguments": {"people": [task.hidden.requester], "text": question}})  # fmt: skip
    obs, *_ = env.step({"tool": "slack_read_dm", "arguments": {"people": [task.hidden.requester]}})
    for call in task.solution[2:]:
        env.step({"tool": call.name, "arguments": dict(call.arguments)})
    *_, info = env.step({"tool": "submit", "arguments": {}})
    return obs["result"], info["grade"]


@pytest.fixture
def asked() -> Iterator[tuple[OfficeEnv, Task]]:
    """A tools env reset on the ask template, with the keyword requester, and its task."""
    env = OfficeEnv(task=TASK)
    env.reset(options={"task_seed": SEED})
    assert env.task is not None and env.task.hidden is not None
    yield env, env.task
    env.close()


def test_the_requester_answers_between_steps_and_the_episode_passes(
    asked: tuple[OfficeEnv, Task],
) -> None:
    env, task = asked
    read, grade = _play(env, task, "What amount did the customer agree to?")
    assert task.hidden is not None and task.hidden.reply in read
    assert grade["passed"] and grade["reward"] == 1.0


def test_asking_off_topic_gets_no_fact_and_the_episode_fails(
    asked: tuple[OfficeEnv, Task],
) -> None:
    env, task = asked
    read, grade = _play(env, task, "Could you tell me where the printer is?")
    assert task.hidden is not None
    amount = task.hidden.fact.values[0]
    assert "not sure" in read and f"{amount:,}" not in read
    assert not grade["passed"]


class Stubborn:
    def reply(self, task: Task, question: str, history: Sequence[Line]) -> str | None:
        return "I'd rather not say."


def test_a_responder_given_to_the_env_answers() -> None:
    env = OfficeEnv(task=TASK, responder=Stubborn())
    env.reset(options={"task_seed": SEED})
    task = env.task
    assert task is not None
    read, grade = _play(env, task, "What amount did the customer agree to?")
    assert "rather not say" in read and not grade["passed"]
    env.close()


def test_make_responder_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_MODEL, raising=False)
    assert isinstance(make_responder(None), KeywordResponder)
    assert isinstance(make_responder("keyword"), KeywordResponder)
    stub = Stubborn()
    assert make_responder(stub) is stub
    with pytest.raises(ValueError, match=ENV_MODEL):
        make_responder("llm")
    with pytest.raises(ValueError, match="responder must be"):
        make_responder("oracle")
    with pytest.raises(ValueError, match="responder must be"):
        OfficeEnv(task=TASK, responder=42)  # type: ignore[arg-type]


def test_the_llm_responder_plays_the_requester_over_http(
    requester_model: RequesterModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_MODEL, "requester-1")
    monkeypatch.setenv(ENV_URL, requester_model.base_url)
    env = OfficeEnv(task=TASK)  # configured by the environment variables
    assert isinstance(env.responder, LLMResponder)
    env.reset(options={"task_seed": SEED})
    task = env.task
    assert task is not None and task.hidden is not None
    read, grade = _play(env, task, "What amount did the customer agree to?")
    assert f"Sure! {task.hidden.reply}" in read and grade["passed"]
    body = requester_model.requests[-1]
    assert body["model"] == "requester-1"
    assert task.goal in body["messages"][0]["content"]
    question = {"role": "user", "content": "What amount did the customer agree to?"}
    assert body["messages"][-1] == question
    env.close()


def test_the_llm_responder_falls_back_to_keywords_when_the_server_fails(
    requester_model: RequesterModel,
) -> None:
    task = make_task(TASK, SEED)
    assert task.hidden is not None
    responder = LLMResponder("requester-1", base_url=requester_model.base_url, max_retries=0)
    requester_model.status = 500
    try:
        said = responder.reply(task, "What amount was agreed?", [])
    finally:
        requester_model.status = 200
    assert said == task.hidden.reply and responder.failures == 1


def test_the_simulated_manager_decides_an_over_policy_booking_between_steps() -> None:
    task = make_task("cross.book-approved-stay", 0)
    env = OfficeEnv(task="cross.book-approved-stay")
    env.reset(options={"task_seed": 0})
    book = next(c for c in task.solution if c.name == "booking_book_stay")
    obs, *_ = env.step({"tool": book.name, "arguments": dict(book.arguments)})
    held = json.loads(obs["result"])["reservation"]
    assert held["status"] == "pending"  # held when booked, approved right after the step
    obs, *_ = env.step({"tool": "booking_get_trip", "arguments": {"code": held["code"]}})
    assert json.loads(obs["result"])["status"] == "confirmed"
    *_, info = env.step({"tool": "submit", "arguments": {}})
    assert info["grade"]["passed"]
    env.close()
