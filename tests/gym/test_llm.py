"""The OpenAI-compatible LLM agent, against a real local chat-completions server that
answers with reference tool calls (or misbehaves): episodes pass, or end cleanly, as
they would with a model."""

from __future__ import annotations

import pytest

from officegym.gym import OfficeEnv, run_episode
from officegym.gym.agents import make_agent
from officegym.gym.colleagues import LLMResponder
from officegym.gym.llm import NO_FUNCTION, ChatAgent
from officegym.tasks import make_task
from tests.gym.openai_stub import REFUSAL, ScriptedModel

CASES = [("slack.post-channel", 1), ("slack.pin-message", 2), ("crm.pipeline-amount", 0)]


def _agent(model: ScriptedModel, name: str, **kwargs: object) -> ChatAgent:
    options = {"timeout": 5.0, "max_retries": 2, **kwargs}
    agent = make_agent("openai", model=name, base_url=model.base_url, **options)
    assert isinstance(agent, ChatAgent)
    return agent


def _play(model: ScriptedModel, agent: ChatAgent, tid: str, seed: int):
    task = make_task(tid, seed)
    model.learn(task)
    env = OfficeEnv(task=tid)
    result = run_episode(env, agent, seed=0, options={"task_seed": seed})
    env.close()
    return task, result


@pytest.mark.parametrize(("tid", "seed"), CASES)
def test_reference_replies_pass_the_task(scripted_model: ScriptedModel, tid: str, seed: int):
    agent = _agent(scripted_model, "reference")
    task, result = _play(scripted_model, agent, tid, seed)
    assert (result.reward, result.passed) == (1.0, True)
    assert result.steps == len(task.solution) + 1 and agent.failure is None
    first = agent.messages[0]
    assert first["role"] == "user" and task.goal in first["content"]
    assert f"@{task.persona}" in first["content"]
    tool_msgs = [m for m in agent.messages if m["role"] == "tool"]
    assert len(tool_msgs) == len(task.solution)
    assert {t["function"]["name"] for t in agent.tools} >= {"submit", task.solution[0].name}


def test_malformed_calls_come_back_as_errors_and_the_episode_recovers(
    scripted_model: ScriptedModel,
) -> None:
    agent = _agent(scripted_model, "malformed")
    task, result = _play(scripted_model, agent, *CASES[0])
    assert (result.reward, result.passed) == (1.0, True)
    errors = [m["content"] for m in agent.messages if m["role"] == "tool"][:2]
    assert errors[0].startswith("Error:") and "JSON object" in errors[0]
    assert errors[1].startswith("Error:") and "unknown tool" in errors[1]
    assert result.steps == len(task.solution) + 3


def test_a_refusal_ends_the_episode_graded_as_done(scripted_model: ScriptedModel) -> None:
    agent = _agent(scripted_model, "refuse")
    _, result = _play(scripted_model, agent, *CASES[0])
    assert (result.reward, result.passed, result.steps) == (0.0, False, 1)
    assert agent.messages[-1] == {"role": "assistant", "content": REFUSAL}


def test_a_model_that_times_out_ends_the_episode_cleanly(scripted_model: ScriptedModel) -> None:
    before = len(scripted_model.requests)
    agent = _agent(scripted_model, "slow", timeout=0.3, max_retries=1)
    _, result = _play(scripted_model, agent, *CASES[0])
    assert (result.reward, result.passed, result.steps) == (0.0, False, 1)
    assert agent.failure is not None and "APITimeoutError" in agent.failure
    assert len(scripted_model.requests) - before == 2  # the call and its one retry


def test_server_errors_are_retried(scripted_model: ScriptedModel) -> None:
    before = len(scripted_model.requests)
    agent = _agent(scripted_model, "flaky")
    task, result = _play(scripted_model, agent, *CASES[1])
    assert (result.reward, result.passed) == (1.0, True) and agent.failure is None
    assert len(scripted_model.requests) - before == 2 * (len(task.solution) + 1)


def test_the_turn_limit_submits(scripted_model: ScriptedModel) -> None:
    agent = _agent(scripted_model, "reference", max_turns=1)
    task, result = _play(scripted_model, agent, *CASES[1])
    assert len(task.solution) > 1 and not result.passed
    assert result.steps == 2 and agent.failure is not None and "turn limit" in agent.failure


def test_a_subclass_changes_the_opening(scripted_model: ScriptedModel) -> None:
    class Briefed(ChatAgent):
        def opening(self, observation, info):  # type: ignore[no-untyped-def]
            return [{"role": "system", "content": "Be brief."}, *super().opening(observation, info)]

    agent = Briefed("reference", base_url=scripted_model.base_url, timeout=5.0)
    _, result = _play(scripted_model, agent, *CASES[0])
    assert result.passed and agent.messages[0]["content"] == "Be brief."
    assert scripted_model.requests[-1]["messages"][0] == {"role": "system", "content": "Be brief."}


def test_bad_agent_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="max_turns"):
        ChatAgent("m", base_url="http://127.0.0.1:9/v1", max_turns=0)
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("gpt")
    with pytest.raises(TypeError, match="base_ur"):
        ChatAgent("m", base_ur="http://127.0.0.1:9/v1")  # type: ignore[call-arg]


def test_the_agent_and_the_requester_connect_with_their_own_patience() -> None:
    """Both are told where the server is the same way (`Connection`); each has its own
    defaults for how long a request may take and how often it is retried."""
    url = "http://127.0.0.1:9/v1"
    agent = ChatAgent("m", base_url=url, timeout=5.0).client
    requester = LLMResponder("m", base_url=url, max_retries=0).client
    assert (str(agent.base_url), agent.timeout, agent.max_retries) == (f"{url}/", 5.0, 3)
    assert (str(requester.base_url), requester.timeout, requester.max_retries) == (
        f"{url}/",
        30.0,
        0,
    )


def test_a_reply_whose_calls_name_no_function_is_answered_and_asked_again(
    scripted_model: ScriptedModel,
) -> None:
    """A call with ``function: null`` does not end the episode silently with reward 0:
    the model is told nothing was done, asked again, and its next reply is stepped."""
    agent = _agent(scripted_model, "null-function")
    task, result = _play(scripted_model, agent, *CASES[0])
    assert (result.reward, result.passed, agent.failure) == (1.0, True, None)
    told = [m for m in agent.messages if m["role"] == "user"][1:]
    assert [m["content"] for m in told] == [NO_FUNCTION] and agent.turns == len(task.solution) + 2


@pytest.mark.parametrize("model", ["not-json", "no-choices"])
def test_a_reply_that_is_not_a_completion_is_a_recorded_model_failure(
    scripted_model: ScriptedModel, model: str
) -> None:
    agent = _agent(scripted_model, model)
    _, result = _play(scripted_model, agent, *CASES[0])
    assert result.steps == 1 and result.reward == 0.0
    assert agent.model_error is not None and agent.model_error.startswith("malformed model reply")
